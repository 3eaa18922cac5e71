// The anti-phishing code in the app: the phone checks a phrase with the contract's own rule before
// sending it, and finds the code line a security notice starts with (shown apart, left out of the
// list's preview); a text without the line, or one that only looks like it, is shown as it is.
import { describe, expect, it } from 'vitest';
import {
  ANTI_PHISHING_MARK,
  antiPhishingLine,
  splitAntiPhishingLine,
  withoutAntiPhishingLine,
} from '../../src/contract/anti-phishing-line.ts';
import { texts } from '../../src/contract/texts.ts';
import { phraseProblem } from '../../src/features/anti-phishing/anti-phishing-store.ts';
import { previewOf } from '../../src/features/messages/messages-store.ts';

describe('the code line of a security notice', () => {
  const content = `${antiPhishingLine('Your anti-phishing code', 'Blue heron 42')}\nThe login password was changed.`;

  it('is split from the text: the label, the code, the rest', () => {
    expect(content.startsWith(`${ANTI_PHISHING_MARK} Your anti-phishing code: Blue heron 42\n`)).toBe(true);
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

  it('is refused with the contract text before anything is sent', () => {
    expect(phraseProblem('')).toBe(texts.enterAntiPhishingCode.message);
    for (const phrase of ['abc', '<b>bold</b>', 'a-b-c-d', 'x'.repeat(21), 'ab\u200Bcd', 'line\nbreak'])
      expect(phraseProblem(phrase), phrase).toBe(texts.antiPhishingCodeFormat.message);
  });
});
