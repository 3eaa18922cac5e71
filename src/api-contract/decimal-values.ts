// A text's values that are decimals (big.js: an amount's limit in USDT, a count of points), written for its reader
// where the text is shown: the server's translator and the app's writtenAmounts apply one rule.
import Big from 'big.js';

/**
 * A text's `values` with each one `write` changes replaced by what it gives, in one pass; the same object when it
 * changes none (a value it keeps is returned as it is). `write` is given each value and its placeholder's name. The
 * server's translator writes decimals, periods and texts that are values with it.
 */
export function writtenValues(
  values: Record<string, unknown>,
  write: (value: unknown, name: string) => unknown,
): Record<string, unknown> {
  let written: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(values)) {
    const said = write(value, key);
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

/** The fewest and most decimals a money amount is shown with: cents at least, the ledger's 8 places at most. */
export const MONEY_DECIMALS = { least: 2, most: 8 } as const;

/** Digits after the point that carry a value (a decimal string): '10.50000000' → 1, '97250' → 0. */
export function significantDecimals(value: string): number {
  const number = new Big(value);
  // big.js keeps the digits in `c` and the exponent in `e`; trailing zeros are dropped.
  return Math.max(0, number.c.length - number.e - 1);
}

/**
 * The number of decimals every amount of one asset in one list (or one record: amount, fee, total) is shown with: as
 * many as the most exact of them needs, MONEY_DECIMALS.least to .most, so none is cut and all line up: '100', '99.5'
 * and '0.995' USDT read 100.000, 99.500 and 0.995. The app and the console apply it alike.
 */
export function sharedMoneyDecimals(amounts: Iterable<string>): number {
  let most: number = MONEY_DECIMALS.least;
  for (const amount of amounts) most = Math.max(most, significantDecimals(amount));
  return Math.min(MONEY_DECIMALS.most, most);
}

/**
 * The decimals a balance of `asset` (`amount`, a decimal string) is shown with, the same on every page that shows one
 * (home, total assets, recharge, withdrawal, the order forms, Mine's practice strip): `cents` assets (USDT and what is
 * counted 1:1 in USDT: the earn balances) to the cent, 2; any other asset (a coin) as exact as it is, 2 to 8
 * (sharedMoneyDecimals). Never so few that a nonzero balance reads 0: 0.004 USDT takes 3 decimals, 0.00000001 takes 8.
 * Shown rounded down (a balance never reads more than is there).
 */
export function balanceDecimals(amount: string, asset: string, cents: readonly string[]): number {
  if (!cents.includes(asset)) return sharedMoneyDecimals([amount]);
  const magnitude = new Big(amount).abs();
  let decimals: number = MONEY_DECIMALS.least;
  while (decimals < MONEY_DECIMALS.most && magnitude.gt(0) && magnitude.round(decimals, Big.roundDown).eq(0))
    decimals += 1;
  return decimals;
}
