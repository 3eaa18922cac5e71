// How the app shows a mobile number or an e-mail it must not show whole: on the payment password reset (where the code
// goes) and on the referral list (an invited friend's contact, masked by the server before it leaves). Usernames are
// masked by maskUsername (activities.ts), the one rule of the win notice and the referral list.

/**
 * Hides the middle of a phone number or the local part of an e-mail: "0812345678" → "081****678",
 * "+66812345678" → "+66****678", "holder@mail.com" → "h***@mail.com"; six characters or fewer keep only their first
 * two.
 */
export function maskContact(address: string): string {
  const at = address.indexOf('@');
  if (at > 0) return `${address.slice(0, 1)}***${address.slice(at)}`;
  if (address.length <= 6) return `${address.slice(0, 2)}****`;
  return `${address.slice(0, 3)}****${address.slice(-3)}`;
}
