// What the Devices page and the new sign-in message say about a session: the device read from its
// user agent ('Chrome, Android') and the address it came from, partly hidden. Pure functions; the
// full address is kept on the server and never sent anywhere.

/** Only the first characters of a User-Agent are kept: enough to read, bounded against hostile headers. */
export const USER_AGENT_MAX_LENGTH = 400;

export type Browser = 'Edge' | 'Samsung Internet' | 'Opera' | 'Firefox' | 'Chrome' | 'Safari' | 'WebView';
export type System = 'Android' | 'iOS' | 'Windows' | 'macOS' | 'ChromeOS' | 'Linux';

export interface Device {
  browser: Browser | null;
  system: System | null;
}

/**
 * Browser and system of a User-Agent. Most browsers claim to be others too ('Chrome … Safari',
 * 'Edg/… Chrome/…'), so the more specific marks are tried first.
 */
export function readUserAgent(userAgent: string): Device {
  const ua = userAgent.slice(0, USER_AGENT_MAX_LENGTH);
  return { browser: browserOf(ua), system: systemOf(ua) };
}

function browserOf(ua: string): Browser | null {
  if (/\bEdg(?:e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/\bSamsungBrowser\//.test(ua)) return 'Samsung Internet';
  if (/\b(?:OPR|OPT|Opera)\//.test(ua)) return 'Opera';
  if (/\b(?:Firefox|FxiOS)\//.test(ua)) return 'Firefox';
  // An app's embedded browser: Android marks it '; wv)', iOS leaves out Safari's own mark.
  if (/; wv\)/.test(ua)) return 'WebView';
  if (/\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\//.test(ua)) return 'Chrome';
  if (/\bVersion\/[\d.]+.*\bSafari\//.test(ua)) return 'Safari';
  if (/\b(?:iPhone|iPad|iPod)\b/.test(ua) && /\bAppleWebKit\//.test(ua)) return 'WebView';
  return null;
}

function systemOf(ua: string): System | null {
  if (/\b(?:iPhone|iPad|iPod)\b/.test(ua)) return 'iOS';
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b|\bX11\b/.test(ua)) return 'Linux';
  return null;
}

/** 'Chrome, Android'; only the part recognised when one is not; '' when neither is. */
export const deviceLabel = ({ browser, system }: Device) => [browser, system].filter(Boolean).join(', ');

/** 'Chrome, Android' of a User-Agent: what tells one device of an account from another. */
export const deviceOf = (userAgent: string) => deviceLabel(readUserAgent(userAgent));

/**
 * An address as the customer is shown it: IPv4 without its last number ('203.0.113.•••'), IPv6 with
 * its first three groups only ('2001:db8:85a3:…'); an IPv4 address written as IPv6 ('::ffff:…') is
 * shown as IPv4. Anything else is not shown.
 */
export function maskAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.•••`;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 3).join(':')}:…` : '';
}

/** The eight groups of an IPv6 address (zeros of '::' filled in, leading zeros dropped), or null. */
function ipv6Groups(ip: string): string[] | null {
  const address = ip.replace(/%.*$/, ''); // a zone ('fe80::1%eth0') says nothing about the network
  if (!/^[0-9a-f:]+$/i.test(address) || address.split('::').length > 2) return null;
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const known = [...part(head), ...(tail === undefined ? [] : part(tail))];
  if (known.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  const missing = 8 - known.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = tail === undefined ? known : [...part(head), ...Array<string>(missing).fill('0'), ...part(tail)];
  return groups.map((group) => group.replace(/^0+(?=.)/, '').toLowerCase());
}
