// Our addition: the anti-phishing code, as the largest exchanges have it. The customer chooses a short
// phrase; every e-mail we send them and every security notice in the app carries it in a fixed place
// (server/delivery/code-message.ts, server/domain/security-notices.ts), so a message without it is not
// ours. Setting, changing and removing it take the second factor when two-factor is on. Only its owner
// reads it (never kept offline: a shared device's cache does not hold it); the server logs it nowhere.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { otp } from './fields.ts';
import { texts } from './texts.ts';
import { shape } from './answers.ts';
import { maxCharacters, visibleName } from './visible-text.ts';
import { unitsFor } from './constants.ts';

export const ANTI_PHISHING_MIN_LENGTH = 4;
export const ANTI_PHISHING_MAX_LENGTH = 20;
/**
 * Words of letters (any script, with their combining marks: Thai, Devanagari) and digits, one space
 * between words. No markup, punctuation, line break or invisible character: the code is shown as
 * typed in mails and notices, and must read the same everywhere. Unicode counts a few invisible
 * characters as letters or marks (the Hangul fillers U+3164 and U+FFA0, the combining grapheme joiner
 * U+034F, the variation selectors): each character must also not be default-ignorable, but for ZWJ or
 * ZWNJ right after a Devanagari virama (a half form).
 */
export const ANTI_PHISHING_CODE = (() => {
  const seen = '(?!\\p{Default_Ignorable_Code_Point})';
  const word = `${seen}[\\p{L}\\p{Nd}](?:${seen}[\\p{L}\\p{M}\\p{Nd}]|(?<=\\u094D)[\\u200C\\u200D])*`;
  return new RegExp(`^${word}(?: ${word})*$`, 'u');
})();

const format = texts.antiPhishingCodeFormat.id;

/**
 * The phrase as typed, as visible text (visible-text.ts): composed (NFC), its runs of spaces (an
 * ideographic space too) one space, trimmed; one that shows nothing is missing, an invisible or
 * direction-changing character is refused with its own text. Then 4 to 20 characters as a reader
 * counts them (a Thai letter with its vowel mark is one).
 */
export const antiPhishingCode = v.pipe(
  v.string(texts.enterAntiPhishingCode.id),
  // A hostile value of kilobytes is refused before the pattern looks at it.
  v.maxLength(unitsFor(ANTI_PHISHING_MAX_LENGTH), format),
  visibleName(texts.enterAntiPhishingCode),
  v.regex(ANTI_PHISHING_CODE, format),
  v.minGraphemes(ANTI_PHISHING_MIN_LENGTH, format),
  maxCharacters(ANTI_PHISHING_MAX_LENGTH, format),
);

export const AntiPhishing = shape({
  /** The caller's own code, in full (only its owner is answered), or null when none is set. */
  phrase: v.nullable(v.pipe(v.string(), v.regex(ANTI_PHISHING_CODE), v.examples(['Blue heron 42']))),
});
export type AntiPhishing = v.InferOutput<typeof AntiPhishing>;

/** The caller's code. Never kept by the service worker (the default `never`). */
export const antiPhishingStatus = get('/users/anti-phishing', NoInput, returns(AntiPhishing));
/** Sets it, or changes it; `otp` when two-factor is on. */
export const setAntiPhishing = post(
  '/users/anti-phishing',
  v.object({ phrase: antiPhishingCode, otp }),
  returns(AntiPhishing),
);
/** Removes it; `otp` when two-factor is on. */
export const removeAntiPhishing = post('/users/anti-phishing/remove', v.object({ otp }), returns(AntiPhishing));
