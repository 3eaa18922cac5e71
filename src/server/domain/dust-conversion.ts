// Converting small balances ("dust") to USDT: what a 100 % sell leaves below the pair's quantity step, or a holding
// worth less than the pair's minimum order, can never be sold by an order and would stay in the account for good (and
// end with it when it closes, closure-balances.ts). The conversion reuses the market order's mechanism whole: each
// such balance becomes a market sell of exactly its available amount, marked dust_conversion, frozen at once and
// filled by fillPendingMarketOrders (contracts.ts) at the first tick of its coin recorded after the request was
// accepted — never at a price recorded before — or void, its amount returned, when none comes in time.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor, type Tx } from '../db/connection.ts';
import { contractOrders } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { dustOf, QUOTE_ASSET } from '../../api-contract/contracts.ts';
import { Refusal } from './refusal.ts';
import { MAX_QUOTE_AGE_MS } from './prices.ts';
import { bucketMovePostings, postMany } from './ledger.ts';
import { refusePreTrade } from './pre-trade-checks.ts';
import { DUST_ENTRY, contractReference } from './contract-entries.ts';
import type { ContractOrderRow } from './contracts.ts';

/** One small balance found by smallBalancesOf: the coin, its available amount and its pair's sell fee rate. */
export interface SmallBalance {
  coin: string;
  /** The available amount (decimal string, as stored). */
  available: string;
  /** The pair's fee rate (decimal string; 0.001 = 0.1 %). */
  fee_rate: string;
}

/**
 * User `userId`'s coin balances of the real account that an order could be placed for at `now`, in coin order, their
 * balance rows locked (for update) in `db`, a transaction, when `lock` (a read-only call reads them unlocked): every
 * available amount above zero of a coin of an active pair (coin listed, not halted, a tick recorded within
 * MAX_QUOTE_AGE_MS), with `dust`, whether it is dust at its latest recorded price (dustOf: the pair's sell rule
 * refuses every sell of it). USDT is never one, and the frozen bucket is never read. A coin with no such pair or no
 * fresh price is not one: whether an order could sell it cannot be told.
 */
export async function pricedBalancesOf(
  db: Executor,
  userId: number,
  now: Date,
  lock: boolean,
): Promise<(SmallBalance & { dust: boolean })[]> {
  const rows = rowsOf<{
    coin: string;
    available: string;
    price_decimals: number | string;
    quantity_decimals: number | string;
    min_notional: string;
    fee_rate: string;
    price_band: string;
    price: string | null;
    at: Date | string | null;
  }>(
    await db.execute(sql`
      select b.asset as coin, b.available::text as available, p.price_decimals, p.quantity_decimals,
        p.min_notional::text as min_notional, p.fee_rate::text as fee_rate, p.price_band::text as price_band,
        t.price::text as price, t.at
      from balances b
      join contract_pairs p on p.coin = b.asset and p.active
      join coins c on c.code = p.coin and c.active
      left join lateral (select price, at from price_ticks where coin = p.coin order by at desc limit 1) t on true
      where b.user_id = ${userId} and b.asset <> ${QUOTE_ASSET} and b.available > 0
        and not exists (select 1 from market_halts h where h.coin = p.coin)
      order by b.asset
      ${lock ? sql`for update of b` : sql``}`),
  );
  return rows.flatMap((row) => {
    if (row.price === null || row.at === null) return [];
    if (now.getTime() - new Date(row.at).getTime() > MAX_QUOTE_AGE_MS) return [];
    const pair = {
      price_decimals: Number(row.price_decimals),
      quantity_decimals: Number(row.quantity_decimals),
      min_notional: row.min_notional,
      price_band: row.price_band,
    };
    const dust = dustOf(row.available, pair, new Big(row.price).toFixed());
    return [{ coin: row.coin, available: row.available, fee_rate: row.fee_rate, dust }];
  });
}

/**
 * User `userId`'s small balances of the real account at `now`: the coins pricedBalancesOf finds (locked when `lock`)
 * whose available amount is dust. The conversion converts exactly these; a closure ends those of them below the
 * coin's withdrawal minimum.
 */
export async function smallBalancesOf(db: Executor, userId: number, now: Date, lock = true): Promise<SmallBalance[]> {
  return (await pricedBalancesOf(db, userId, now, lock))
    .filter((row) => row.dust)
    .map(({ coin, available, fee_rate }) => ({ coin, available, fee_rate }));
}

/**
 * Converts user `userId`'s small balances of the real account in `tx`, accepted at `now`: every coin smallBalancesOf
 * finds (dust of an active pair at its latest recorded price) gets one market sell order of that whole available
 * amount (8 decimals), status 'filling', eligible for ticks after `now`, the amount frozen with a dust_hold entry. The
 * frozen bucket is never read, so an amount held by an open order or a withdrawal stays where it is; USDT is never
 * converted. The balance rows are locked first, so the amounts converted are those the orders hold. Answers the orders
 * in coin order. Refused (Refusal, nothing written) for a frozen account or a time-out (as every order), with
 * noSmallBalances when no coin qualifies, and with smallBalancesChanged when the coins that qualify, or their amounts,
 * are not exactly `confirmed` (coin → the amount the customer was shown: a price or a balance moved since).
 */
export async function convertSmallBalances(
  tx: Tx,
  userId: number,
  confirmed: ReadonlyMap<string, string>,
  now: Date,
): Promise<ContractOrderRow[]> {
  await refusePreTrade(tx, userId, now);
  const dust = await smallBalancesOf(tx, userId, now);
  if (!dust.length) throw new Refusal(texts.noSmallBalances.id);
  // Only what the customer was shown and confirmed: the same coins, each with the same amount.
  const same =
    dust.length === confirmed.size &&
    dust.every((row) => confirmed.has(row.coin) && new Big(confirmed.get(row.coin)!).eq(row.available));
  if (!same) throw new Refusal(texts.smallBalancesChanged.id);

  const orders = await tx
    .insert(contractOrders)
    .values(
      dust.map((row) => {
        const amount = new Big(row.available).toFixed(8);
        return {
          userId,
          coin: row.coin,
          side: 'sell',
          type: 'market',
          status: 'filling',
          price: null,
          quantity: amount,
          totalAsked: null,
          feeRate: row.fee_rate,
          frozenAsset: row.coin,
          frozen: amount,
          eligibleAfter: now,
          createdAt: now,
          practice: false,
          dustConversion: true,
        };
      }),
    )
    .returning();
  orders.sort((a, b) => a.coin.localeCompare(b.coin));
  await postMany(
    tx,
    orders.flatMap((order) =>
      bucketMovePostings({
        userId,
        asset: order.coin,
        amount: order.frozen,
        from: 'available',
        kind: DUST_ENTRY.freeze,
        reference: contractReference(order.id),
      }),
    ),
    now,
  );
  return orders;
}
