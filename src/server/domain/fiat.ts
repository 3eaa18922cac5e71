// Fiat currencies against USDT: the rate a user's local currency is shown and paid in.
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { fiatRates } from '../db/schema.ts';
import type { FiatRate } from '../../api-contract/markets.ts';

/** The rate of one fiat currency (units per 1 USDT) with its symbol, or null if we do not offer it. */
export async function fiatRateOf(db: Executor, code: string): Promise<FiatRate | null> {
  const [row] = await db.select().from(fiatRates).where(eq(fiatRates.code, code));
  return row ? { code: row.code, symbol: row.symbol, rate: row.rate } : null;
}
