// An e-mail address as the account calls take it and the server keeps and looks it up: its shape (RFC 5321, RFC 6531)
// and its one canonical spelling (canonicalEmail). Apart from fields.ts so that the pages and calls that read no
// e-mail address (the first screens among them) do not load its reading of domains.
import * as v from 'valibot';
import { EMAIL_MAX_LENGTH, required } from './fields.ts';
import { texts } from './texts.ts';
import { holdsHiddenCharacter } from './hidden-characters.ts';
// Punycode (RFC 3492) by punycode.js, the implementation Node.js itself shipped, rather than a decoder of our own.
import { decode as punycodeDecode } from 'punycode/punycode.es6.js';

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

/**
 * A domain's label in letters: an ASCII form ('xn--' and Punycode, IDNA's A-label) as the letters it stands for, when
 * those are what a registry gives (not only ASCII, and as this mapping keeps them: composed, lower case); any other
 * label as it is, which the address's rule then judges.
 */
function unicodeLabel(label: string): string {
  // An A-label is letters, digits and hyphens; what it stands for holds a character beyond ASCII.
  if (!/^xn--[a-z0-9-]+$/.test(label)) return label;
  let letters: string;
  try {
    letters = punycodeDecode(label.slice(4));
  } catch {
    // No Punycode (a cut digit, a code point beyond Unicode's): the label as typed.
    return label;
  }
  if (!/[^ -~]/.test(letters)) return label;
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
