// A text's values that are decimals (big.js: an amount's limit in USDT, a count of points), written for its reader
// where the text is shown: the server's translator and the app's writtenAmounts apply one rule.
import Big from 'big.js';

/**
 * `values` with each big.js value replaced by `write(decimal)` (its plain decimal string, no exponent); the same object
 * when none is a decimal. Other values are kept as they are.
 */
export function withDecimalsWritten(
  values: Record<string, unknown>,
  write: (decimal: string) => string,
): Record<string, unknown> {
  if (!Object.values(values).some((value) => value instanceof Big)) return values;
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value instanceof Big ? write(value.toFixed()) : value]),
  );
}
