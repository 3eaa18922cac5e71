// The index rule (README.md beside this file), in one place: each second, per coin, the price
// is the median of the exchanges' last trade prices that are fresh (at most `freshMs` from the
// second, either side), after dropping any price further than a band from the median of all fresh
// prices. Fewer than two prices left halt the coin: no
// price is better than a price one exchange alone could set. Decimal arithmetic throughout. The feed records the
// median on the coin's tick (index-feed.ts, onTickSize in feed.ts).
import Big from 'big.js';
import { INDEX_RULE as MARKET_INDEX_RULE } from '../../api-contract/markets.ts';

/** One exchange's last trade price of a coin, as that exchange timed it. */
export interface Constituent {
  exchange: string;
  price: string;
  /** The exchange's own time of the trade. */
  at: Date;
  /** The exchange's id of the trade, as its public trade history shows it. */
  tradeId: string;
}

export interface IndexRule {
  /** A price older than this (exchange time against the index second) is stale; one stamped further ahead is from a
   * wrong clock. */
  freshMs: number;
  /** A price further than this fraction from the median of all fresh prices is dropped (0.02 = 2 %). */
  band: string;
  /** Fewer prices than this after dropping: the coin is halted. */
  minConstituents: number;
}

export const INDEX_RULE: IndexRule = MARKET_INDEX_RULE;

export type Dropped = Constituent & { reason: 'stale' | 'ahead' | 'outlier' };

export type IndexPrice =
  | { halted: false; price: string; used: Constituent[]; dropped: Dropped[] }
  | { halted: true; used: Constituent[]; dropped: Dropped[] };

/** The median of decimal strings (the mean of the middle two for an even count). */
export function median(prices: readonly string[]): Big {
  if (!prices.length) throw new Error('median of nothing');
  const sorted = prices.map((price) => new Big(price)).sort((a, b) => a.cmp(b));
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : sorted[middle - 1]!.plus(sorted[middle]!).div(2);
}

/**
 * The index of one coin at `now` from each exchange's last price. A price stamped a little ahead
 * (an exchange clock ahead of ours) counts as fresh, but not one further ahead than the freshness
 * window: otherwise a wrong stamp would keep a price fresh, and the coin priced, long after every
 * exchange went quiet. One that is not a positive decimal never reaches here (the adapters drop it).
 */
export function indexPrice(quotes: readonly Constituent[], now: Date, rule: IndexRule = INDEX_RULE): IndexPrice {
  const dropped: Dropped[] = [];
  const fresh: Constituent[] = [];
  for (const quote of quotes) {
    const age = now.getTime() - quote.at.getTime();
    if (age > rule.freshMs) dropped.push({ ...quote, reason: 'stale' });
    else if (-age > rule.freshMs) dropped.push({ ...quote, reason: 'ahead' });
    else fresh.push(quote);
  }
  const used: Constituent[] = [];
  if (fresh.length) {
    const centre = median(fresh.map((quote) => quote.price));
    const limit = centre.times(rule.band);
    for (const quote of fresh) {
      if (new Big(quote.price).minus(centre).abs().gt(limit)) dropped.push({ ...quote, reason: 'outlier' });
      else used.push(quote);
    }
  }
  used.sort((a, b) => a.exchange.localeCompare(b.exchange));
  if (used.length < rule.minConstituents) return { halted: true, used, dropped };
  return { halted: false, price: median(used.map((quote) => quote.price)).toFixed(), used, dropped };
}
