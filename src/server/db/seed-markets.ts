// Market data on first start: the listed coins, their option products, the fiat rates and the
// contract pairs (the demo account's grant of USDT is domain/demo.ts's: a ledger entry like any other).
import type { Db } from './connection.ts';
import { coins, contractPairs, fiatRates, optionProducts } from './schema.ts';

/** Plausible starting prices (USDT) and annualised volatilities of the simulated feed. */
export const LISTED_COINS = [
  { code: 'BTC', name: 'Bitcoin', startPrice: '97250.00', volatility: '0.55', priceDecimals: 2 },
  { code: 'ETH', name: 'Ethereum', startPrice: '3420.00', volatility: '0.70', priceDecimals: 2 },
  { code: 'BNB', name: 'BNB', startPrice: '640.00', volatility: '0.60', priceDecimals: 2 },
  { code: 'SOL', name: 'Solana', startPrice: '235.00', volatility: '0.90', priceDecimals: 2 },
  { code: 'XRP', name: 'XRP', startPrice: '1.4200', volatility: '0.95', priceDecimals: 4 },
  { code: 'DOGE', name: 'Dogecoin', startPrice: '0.38500', volatility: '1.10', priceDecimals: 5 },
  { code: 'ADA', name: 'Cardano', startPrice: '0.98000', volatility: '0.95', priceDecimals: 4 },
  { code: 'TRX', name: 'TRON', startPrice: '0.21500', volatility: '0.65', priceDecimals: 5 },
  { code: 'LTC', name: 'Litecoin', startPrice: '102.50', volatility: '0.75', priceDecimals: 2 },
  { code: 'DOT', name: 'Polkadot', startPrice: '8.750', volatility: '0.90', priceDecimals: 3 },
];

/** Contract pairs against USDT: the step size of each coin's quantity (the tick size is its price decimals). */
export const QUANTITY_DECIMALS: Record<string, number> = {
  BTC: 5,
  ETH: 4,
  BNB: 3,
  SOL: 2,
  XRP: 1,
  DOGE: 0,
  ADA: 1,
  TRX: 0,
  LTC: 3,
  DOT: 2,
};
export const PAIR_DEFAULTS = { minNotional: '5', feeRate: '0.001', priceBand: '0.1' };

/** Expiry in minutes and the yield paid on a win. */
export const OPTION_TERMS = [
  { minutes: 1, yieldRate: '0.80' },
  { minutes: 3, yieldRate: '0.82' },
  { minutes: 5, yieldRate: '0.85' },
  { minutes: 15, yieldRate: '0.88' },
  { minutes: 30, yieldRate: '0.90' },
];

/** Units per 1 USDT; the operator keeps them current. */
export const FIAT_RATES = [
  { code: 'THB', symbol: '฿', rate: '33.80' },
  { code: 'USD', symbol: '$', rate: '1.00' },
  { code: 'CNY', symbol: '¥', rate: '7.24' },
  { code: 'JPY', symbol: '¥', rate: '154.50' },
  { code: 'INR', symbol: '₹', rate: '84.30' },
  { code: 'AED', symbol: 'AED', rate: '3.67' },
  { code: 'EUR', symbol: '€', rate: '0.95' },
];

export const DEMO_GRANT_USDT = '10000';

export async function seedMarkets(db: Db, now: Date): Promise<void> {
  await db
    .insert(coins)
    .values(LISTED_COINS.map((coin, sort) => ({ ...coin, sort })))
    .onConflictDoNothing();
  const existing = await db.select({ id: optionProducts.id }).from(optionProducts).limit(1);
  if (!existing.length) {
    await db
      .insert(optionProducts)
      .values(
        LISTED_COINS.flatMap((coin) =>
          OPTION_TERMS.map((term, sort) => ({ coin: coin.code, ...term, minAmount: '1', sort })),
        ),
      );
  }
  await db.insert(fiatRates).values(FIAT_RATES).onConflictDoNothing();
  // Matching starts from now: no order can rest on a tick recorded before its pair existed.
  await db
    .insert(contractPairs)
    .values(
      LISTED_COINS.map((coin) => ({
        coin: coin.code,
        priceDecimals: coin.priceDecimals,
        quantityDecimals: QUANTITY_DECIMALS[coin.code] ?? 4,
        ...PAIR_DEFAULTS,
        matchedThrough: now,
      })),
    )
    .onConflictDoNothing();
}
