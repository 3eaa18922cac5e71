// Digits as the people of the app's six languages type them, read as the wire's ASCII digits. Apart from
// typed-amount.ts: code and password fields need only this, not the locale-aware number parser.

/**
 * Digit zero of each numbering system read besides ASCII, by its CLDR name: Arabic-Indic, Extended Arabic-Indic
 * (Persian and Urdu keyboards), Devanagari, Thai and full-width (Chinese and Japanese input methods). Unicode encodes
 * every decimal digit system as one run of ten, zero first.
 */
const DIGIT_ZERO = { arab: 0x0660, arabext: 0x06f0, deva: 0x0966, thai: 0x0e50, fullwide: 0xff10 } as const;

/** A numbering system the app reads: ASCII (`latn`) or one of the five others. */
export type NumberingSystem = 'latn' | keyof typeof DIGIT_ZERO;

const SYSTEMS = Object.entries(DIGIT_ZERO) as [Exclude<NumberingSystem, 'latn'>, number][];

/** The numbering system `char` is a digit of, and its value 0–9; null for anything but a digit. */
export function digitOf(char: string): { system: NumberingSystem; value: number } | null {
  const code = char.codePointAt(0) ?? -1;
  if (code >= 0x30 && code <= 0x39) return { system: 'latn', value: code - 0x30 };
  for (const [system, zero] of SYSTEMS) {
    if (code >= zero && code <= zero + 9) return { system, value: code - zero };
  }
  return null;
}

/** Digit zero of `system`, as a character: what keeps typed text in its own script when a digit is added to it. */
export const zeroOf = (system: NumberingSystem): string =>
  system === 'latn' ? '0' : String.fromCodePoint(DIGIT_ZERO[system]);

/** `text` with every digit of the six systems written as an ASCII digit; other characters kept, one for one. */
export function asciiDigits(text: string): string {
  let out = '';
  for (const char of text) {
    const digit = digitOf(char);
    out += digit ? String(digit.value) : char;
  }
  return out;
}

/**
 * What a digits-only field (a code, a count of points, a payment password) keeps of what is typed or pasted: its
 * digits in ASCII, whatever script they were typed in, and nothing else (the spaces a pasted "123 456" has); at most
 * `max` of them.
 */
export function typedDigits(text: string, max = Infinity): string {
  return asciiDigits(text).replace(/\D/g, '').slice(0, max);
}
