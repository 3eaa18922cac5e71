// A text's values that are decimals (big.js: an amount's limit in USDT, a count of points), written for its reader
// where the text is shown: the server's translator and the app's writtenAmounts apply one rule.
import Big from 'big.js';

/**
 * A text's `values` with each one `write` changes replaced by what it gives, in one pass; the same object when it
 * changes none (a value it keeps is returned as it is). The server's translator writes decimals, periods and texts that
 * are values with it.
 */
export function writtenValues(
  values: Record<string, unknown>,
  write: (value: unknown) => unknown,
): Record<string, unknown> {
  let written: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(values)) {
    const said = write(value);
    if (said !== value) (written ??= { ...values })[key] = said;
  }
  return written ?? values;
}

/**
 * `values` with each big.js value replaced by `write(decimal)` (its plain decimal string, no exponent); the same object
 * when none is a decimal. Other values are kept as they are.
 */
export const withDecimalsWritten = (values: Record<string, unknown>, write: (decimal: string) => string) =>
  writtenValues(values, (value) => (value instanceof Big ? write(value.toFixed()) : value));
