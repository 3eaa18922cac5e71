// The coins the markets list: a coin an operator has not listed (or has delisted) has no price,
// no chart and no orders, whichever call names it.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { coins } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';

/** Refuses a coin that is not listed and active: nobody may read its prices or trade it. */
export async function refuseUnlistedCoin(db: Executor, code: string): Promise<void> {
  const [coin] = await db
    .select({ code: coins.code })
    .from(coins)
    .where(and(eq(coins.code, code), eq(coins.active, true)));
  if (!coin) throw new Refusal(texts.coinUnknown.id);
}
