// The characters nobody sees, or that change the direction of what follows, alone: what every typed value is checked
// against. Apart from visible-text.ts (the rule for names, with its emoji and joiner exceptions) so that a field
// needing only this check, such as an e-mail address on the first screens, does not load that rule.

/**
 * The class's inside for a regular expression with flag `u`: Unicode's default-ignorable code points, controls, format
 * characters (bidi controls among them), lone surrogates, line and paragraph separators, and the braille blank.
 */
export const HIDDEN_CLASS = '\\p{Default_Ignorable_Code_Point}\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}\\u2800';

/** One such character. */
export const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'u');

/** True when `text` holds one such character anywhere (no exception: an e-mail address has no emoji sequence). */
export const holdsHiddenCharacter = (text: string) => HIDDEN.test(text);
