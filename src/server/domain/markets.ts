// The coins the markets list: a coin an operator has not listed (or has delisted) has no price,
// no chart and no orders, whichever call names it.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { coins } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';

/** The codes of the coins listed and active: one read of the coins table. */
export async function listedCoinCodes(db: Executor): Promise<ReadonlySet<string>> {
  const rows = await db.select({ code: coins.code }).from(coins).where(eq(coins.active, true));
  return new Set(rows.map((row) => row.code));
}

/** Where a process keeps listedCoinCodes between changes to coins (its cached answers, key ''). */
export interface ListedCoinsKept {
  read(key: string, load: () => Promise<ReadonlySet<string>>): Promise<ReadonlySet<string>>;
}

/**
 * Refuses a coin that is not listed and active: nobody may read its prices or trade it. With `kept`, read from the
 * process's memory (listedCoinCodes, dropped by any change to coins), else the coin's row in `db` (a transaction's own
 * view).
 */
export async function refuseUnlistedCoin(db: Executor, code: string, kept?: ListedCoinsKept): Promise<void> {
  if (kept) {
    if (!(await kept.read('', () => listedCoinCodes(db))).has(code)) throw new Refusal(texts.coinUnknown.id);
    return;
  }
  const [coin] = await db
    .select({ code: coins.code })
    .from(coins)
    .where(and(eq(coins.code, code), eq(coins.active, true)));
  if (!coin) throw new Refusal(texts.coinUnknown.id);
}
