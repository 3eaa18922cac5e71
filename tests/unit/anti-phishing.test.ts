// The anti-phishing code in the app: the phone checks a phrase with the API contract's own rule before
// sending it, and finds the code line a security notice starts with (shown apart, left out of the
// list's preview); a text without the line, or one that only looks like it, is shown as it is.
import { describe, expect, it } from 'vitest';
import {
  ANTI_PHISHING_MARK,
  antiPhishingLine,
  splitAntiPhishingLine,
  withoutAntiPhishingLine,
} from '../../src/api-contract/anti-phishing-line.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { phraseProblem } from '../../src/features/anti-phishing/anti-phishing-store.ts';
import { previewOf } from '../../src/features/messages/messages-store.ts';

describe('the code line of a security notice', () => {
  const content = `${antiPhishingLine('Your anti-phishing code', 'Blue heron 42')}\nThe login password was changed.`;

  it('is split from the text: the label, the code, the rest', () => {
    // The code isolated (FSI … PDI): written right to left or not, it cannot turn the text around it.
    expect(content.startsWith(`${ANTI_PHISHING_MARK} Your anti-phishing code: \u2068Blue heron 42\u2069\n`)).toBe(true);
    expect(splitAntiPhishingLine(content)).toEqual({
      label: 'Your anti-phishing code',
      code: 'Blue heron 42',
      rest: 'The login password was changed.',
    });
    expect(withoutAntiPhishingLine(content)).toBe('The login password was changed.');
    expect(previewOf(content)).toBe('The login password was changed.');
  });

  it('is found only where it starts the text', () => {
    for (const plain of [
      'The login password was changed.',
      `Note: ${ANTI_PHISHING_MARK} Your anti-phishing code: x`,
      `${ANTI_PHISHING_MARK}no space: x`,
      `${ANTI_PHISHING_MARK} no separator`,
    ]) {
      expect(splitAntiPhishingLine(plain), plain).toBeNull();
      expect(withoutAntiPhishingLine(plain)).toBe(plain);
    }
  });
});

describe('a typed phrase', () => {
  it('passes the rule of any script, 4 to 20 characters as a reader counts them', () => {
    for (const phrase of ['Blue heron 42', ' ab  cd ', 'สวัสดี', 'नमस्ते दुनिया', 'صقر الصحراء', '카나리아'])
      expect(phraseProblem(phrase), phrase).toBeNull();
  });

  it('is refused with the API contract text before anything is sent', () => {
    expect(phraseProblem('')).toBe(texts.enterAntiPhishingCode.message);
    for (const phrase of ['abc', '<b>bold</b>', 'a-b-c-d', 'x'.repeat(21)])
      expect(phraseProblem(phrase), phrase).toBe(texts.antiPhishingCodeFormat.message);
  });

  it('refuses every invisible character, those Unicode counts as letters or marks too', () => {
    // U+3164 and U+FFA0 are Hangul fillers (letters), U+034F the combining grapheme joiner and U+FE0F a
    // variation selector (marks): all invisible, so a code could be blank to the eye.
    for (const hidden of ['\u3164', '\uFFA0', '\u034F', '\uFE0F', '\u200B', '\u202E', '\u115F', '\u{E0100}'])
      expect(phraseProblem(`Blue${hidden}heron`), hidden).toBe(texts.hiddenCharacters.message);
    expect(phraseProblem('line\nbreak')).toBe(texts.hiddenCharacters.message);
    // Only fillers: nothing to see, so no code was entered.
    expect(phraseProblem('\u3164\u3164\u3164\u3164')).toBe(texts.enterAntiPhishingCode.message);
    expect(phraseProblem('\uFFA0\u3164 \u3164\uFFA0')).toBe(texts.enterAntiPhishingCode.message);
  });

  it('is kept composed: é typed as e and an accent is the one character', () => {
    expect(phraseProblem('Cafe\u0301 noir')).toBeNull();
  });
});
