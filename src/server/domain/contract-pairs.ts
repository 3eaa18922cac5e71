// A contract pair's trading rules as an order reads them in its transaction: in the pre-trade checks' read
// (refusePreTrade's alsoRead), so that reading them costs the order no round trip of its own while its transaction
// holds the customer's row.
import { sql, type SQL } from 'drizzle-orm';

/** A pair's rules as an order uses them; decimals are counts, amounts decimal text (USDT), matchedThrough UTC. */
export interface PairRules {
  coin: string;
  price_decimals: number;
  quantity_decimals: number;
  /** The least an order may be worth at the price it is checked at (USDT, decimal text). */
  min_notional: string;
  /** The fee on a fill's value (a fraction, decimal text). */
  fee_rate: string;
  /** How far a price may stand from the latest recorded one (a fraction, decimal text). */
  price_band: string;
  /** The recorded time the pair's matching has reached; an order is eligible only for ticks after it. */
  matched_through: string;
}

/**
 * The rules of the pair of `coin` when the coin is listed and the pair open to orders, else null, as one JSON column
 * (a scalar subquery for a statement's select list). `lock`: the pair's row is held FOR SHARE to the transaction's end,
 * so a matching run (which holds it FOR UPDATE) waits for the order, and the order for a run under way.
 */
export function pairRulesColumn(coin: string, lock: boolean): SQL<unknown> {
  return sql`(select json_build_object('coin', p.coin, 'price_decimals', p.price_decimals,
      'quantity_decimals', p.quantity_decimals, 'min_notional', p.min_notional::text, 'fee_rate', p.fee_rate::text,
      'price_band', p.price_band::text, 'matched_through', p.matched_through)
    from contract_pairs p join coins c on c.code = p.coin
    where p.coin = ${coin} and p.active and c.active
    ${lock ? sql`for share of p` : sql``})`;
}

/** The column pairRulesColumn made, as read by either driver (JSON parsed or not); null when the pair is not open. */
export function pairRulesOf(value: unknown): PairRules | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as PairRules;
}
