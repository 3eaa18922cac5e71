// Numbers people write in groups of digits, read as one value by the form and the server alike. Apart from fields.ts
// so the screens that never ask for one (the first screens) do not load the digit reader for it.
import * as v from 'valibot';
import { asciiDigits } from './typed-digits.ts';

/**
 * A number people write in groups (a bank account number, an identity document's number) as the wire keeps it: its
 * compatibility forms folded (Unicode NFKC: the full-width letters and digits of Chinese and Japanese input become
 * ASCII), the digits of the other systems the six languages type made ASCII (typed-digits.ts), and the `separators`
 * people group it by (a regular expression with the `g` flag) removed, so "1234 5678-90" and "๑๒๓๔๕๖๗๘๙๐" are one
 * number. Put after `required`, before the number's own pattern.
 */
export const groupedNumber = /*#__NO_SIDE_EFFECTS__*/ (separators: RegExp) =>
  v.transform((typed: string) => asciiDigits(typed.normalize('NFKC')).replace(separators, ''));
