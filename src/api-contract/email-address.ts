// An e-mail address as the account calls take it and the server keeps and looks it up: its shape (RFC 5321, RFC 6531)
// and its one canonical spelling (canonicalEmail). Apart from fields.ts so that the pages and calls that read no
// e-mail address (the first screens among them) do not load its reading of domains.
import * as v from 'valibot';
import { EMAIL_MAX_LENGTH, required } from './fields.ts';
import { texts } from './texts.ts';
import { holdsHiddenCharacter } from './hidden-characters.ts';

/**
 * An e-mail address by the rules of RFC 5321 (a local part of at most 64 characters: words joined by single dots, no
 * dot at either end) and RFC 6531 (letters of any script). A word holds none of the specials RFC 5322 keeps out of an
 * unquoted local part — ( ) , : ; < > [ ] \ and the quote — since a mailer reads them as a comment, a list, a group or
 * a route and sends to another address ('someone(x)@example.com' goes to someone@example.com, 'x,someone@…' to
 * someone@…), so a code would prove a mailbox other than the one kept. Its domain is labels of letters, digits and
 * inner hyphens (at most 63 each, RFC 1035; letters of any script with their marks, IDNA) joined by single dots, ending
 * in a top-level domain of letters (or its ASCII form, xn--). Written as `canonicalEmail` gives it (no dot at the end).
 */
export const EMAIL = (() => {
  const word = '[^\\s@."(),:;<>\\[\\]\\\\]+';
  const label = '[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]{0,61}[\\p{L}\\p{M}\\p{N}])?';
  const top = '(?:\\p{L}[\\p{L}\\p{M}]{1,62}|xn--[a-z0-9-]{1,59})';
  return new RegExp(`^(?=[^@]{1,64}@)${word}(?:\\.${word})*@(?:${label}\\.)+${top}$`, 'iu');
})();

/** The at signs of Chinese and Japanese input (full-width, small), which compatibility composition makes '@'. */
const OTHER_AT_SIGNS = /[\uff20\ufe6b]/g;
/** The ideographic full stop (and its half-width form once composed), which IDNA reads as a domain's dot. */
const IDEOGRAPHIC_STOP = /\u3002/g;

const PUNYCODE_BASE = 36;
/**
 * The text a Punycode label's part after 'xn--' stands for (RFC 3492's decoding, its parameters for IDNA: base 36,
 * t_min 1, t_max 26, skew 38, damp 700, initial bias 72 and n 128), read from lower-case ASCII; null when it is no
 * Punycode (a character outside a-z 0-9 after the last hyphen, a cut digit, a code point beyond Unicode's).
 */
function punycodeDecoded(label: string): string | null {
  const delimiter = Math.max(label.lastIndexOf('-'), 0);
  const output = [...label.slice(0, delimiter)].map((char) => char.codePointAt(0)!);
  let [n, i, bias] = [128, 0, 72];
  for (let at = delimiter > 0 ? delimiter + 1 : 0; at < label.length;) {
    const start = i;
    for (let weight = 1, k = PUNYCODE_BASE; ; k += PUNYCODE_BASE) {
      const code = label.charCodeAt(at++);
      const digit = code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? code - 22 : PUNYCODE_BASE;
      if (digit >= PUNYCODE_BASE || at > label.length) return null;
      i += digit * weight;
      const threshold = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < threshold) break;
      weight *= PUNYCODE_BASE - threshold;
      if (i > 0x10ffff * (output.length + 1)) return null;
    }
    const length = output.length + 1;
    let delta = start === 0 ? Math.floor(i / 700) : Math.floor((i - start) / 2);
    delta += Math.floor(delta / length);
    let k = 0;
    for (; delta > 455; k += PUNYCODE_BASE) delta = Math.floor(delta / 35);
    bias = k + Math.floor((36 * delta) / (delta + 38));
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return null;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/**
 * A domain's label in letters: an ASCII form ('xn--' and Punycode, IDNA's A-label) as the letters it stands for, when
 * those are what a registry gives (not only ASCII, and as this mapping keeps them: composed, lower case); any other
 * label as it is, which the address's rule then judges.
 */
function unicodeLabel(label: string): string {
  // An A-label is letters, digits and hyphens; what it stands for holds a character beyond ASCII.
  if (!/^xn--[a-z0-9-]+$/.test(label)) return label;
  const letters = punycodeDecoded(label.slice(4));
  if (letters === null || !/[^ -~]/.test(letters)) return label;
  return letters === letters.normalize('NFKC').toLowerCase() ? letters : label;
}

/**
 * An e-mail address as it is kept and looked up: lower case, without the one dot a fully qualified domain may end with
 * ('a@example.com.' is 'a@example.com'), its local part composed (NFC, as RFC 6532 asks) and its domain as IDNA
 * (Unicode Technical Standard 46) maps one before looking it up: compatibility forms composed (NFKC: the full-width
 * letters, digits and dots of Chinese and Japanese input, the Thai SARA AM as NIKHAHIT and SARA AA), an ideographic
 * full stop read as a dot, and a label's ASCII form (Punycode: 'xn--bcher-kva') read as its letters ('bücher'). So
 * 'someone＠ｅｘａｍｐｌｅ．ｃｏｍ' is 'someone@example.com', 'a@xn--bcher-kva.de' is 'a@bücher.de', and one mailbox is
 * one account.
 */
export const canonicalEmail = (typed: string) => {
  const text = typed.replace(OTHER_AT_SIGNS, '@');
  const at = text.lastIndexOf('@') + 1;
  const domain = text.slice(at).normalize('NFKC').replace(IDEOGRAPHIC_STOP, '.').toLowerCase();
  const letters = domain.split('.').map(unicodeLabel).join('.');
  return `${text.slice(0, at).normalize('NFC')}${letters}`.toLowerCase().replace(/(@[^@]*[^.@])\.$/, '$1');
};
// Bounded before the pattern: a hostile address of kilobytes is refused at once (the server checks with abortEarly).
// An address may hold letters of any script (internationalized mail, RFC 6531), composed (NFC, as RFC 6532 asks), but
// no character nobody sees or that turns the text around (hidden-characters.ts): an address becomes a username and a
// nickname, and one with a zero-width space or a right-to-left override would pass for another customer's.
export const email = v.pipe(
  required(texts.enterEmail),
  v.maxLength(EMAIL_MAX_LENGTH, texts.emailFormat.id),
  v.check((typed) => !holdsHiddenCharacter(typed), texts.hiddenCharacters.id),
  v.transform(canonicalEmail),
  // Compatibility composition of the domain can lengthen it ('㍿' is four letters): bounded again as kept.
  v.maxLength(EMAIL_MAX_LENGTH, texts.emailFormat.id),
  v.regex(EMAIL, texts.emailFormat.id),
);
