// Where the customer's anti-phishing code stands in a station message: the first line of a security
// notice is `🛡 <label>: <code>`, the label in the notice's language; the rest of the text follows on
// the next line. The server writes the line (server/domain/security-notices.ts); the app finds it here
// and shows it apart (the message view), and a push notification leaves it out. A module of its own,
// with no schema: the message view imports it without the rest of the anti-phishing contract.
import { isolate, withoutIsolate } from './visible-text.ts';

/** Starts the line. Nothing else the server posts starts with it, and a code cannot contain it. */
export const ANTI_PHISHING_MARK = '\u{1F6E1}';
/** Between the label and the code (a code has no colon). */
const SEPARATOR = ': ';

/** The first line of a security notice for a customer with `code`, the code isolated (its own direction). */
export const antiPhishingLine = (label: string, code: string) =>
  `${ANTI_PHISHING_MARK} ${label}${SEPARATOR}${isolate(code)}`;

export interface AntiPhishingParts {
  /** "Anti-phishing code", in the notice's language. */
  label: string;
  /** The customer's code as it was when the notice was written (without the isolating marks around it). */
  code: string;
  /** The notice's own text, after the line. */
  rest: string;
}

/** The code line of a message's text and the rest, or null when the text starts without one. */
export function splitAntiPhishingLine(content: string): AntiPhishingParts | null {
  if (!content.startsWith(`${ANTI_PHISHING_MARK} `)) return null;
  const end = content.indexOf('\n');
  const line = content.slice(ANTI_PHISHING_MARK.length + 1, end < 0 ? content.length : end);
  const at = line.lastIndexOf(SEPARATOR);
  if (at <= 0) return null;
  return {
    label: line.slice(0, at),
    code: withoutIsolate(line.slice(at + SEPARATOR.length)),
    rest: end < 0 ? '' : content.slice(end + 1),
  };
}

/** The message's text without its code line (a push notification, a list's preview). */
export const withoutAntiPhishingLine = (content: string) => splitAntiPhishingLine(content)?.rest ?? content;
