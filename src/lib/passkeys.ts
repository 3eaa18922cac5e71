// Whether this page can use passkeys: browsers give WebAuthn only to secure pages (https, or
// localhost). A check small enough for the login page's first load; the rest comes on a tap.

export const passkeysSupported = () =>
  typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
