// What the "Read price" control says of a coin's price, decided apart from its words: a price is read as live only
// while the price stream is live; offline it is the last one known, as of when it was stored; a coin the market index
// has halted shows its last recorded price.
import type { CoinQuote } from '../api-contract/markets.ts';
import type { StreamStatus } from './prices.ts';

/**
 * How a price is to be read out. `live`: the stream is live and the coin trades; `paused`: the market index has
 * halted the coin (its price is the last recorded one); `offline`: the device is offline, the price is as of `since`
 * (ISO, when the answer on screen was stored, else when the price was recorded); `stale`: online but the stream is not
 * live (connecting, reconnecting, asleep), so the price may be behind; `none`: no price for the coin yet.
 */
export type PriceReading =
  | { kind: 'none' }
  | { kind: 'live' | 'paused' | 'stale'; quote: Readonly<CoinQuote> }
  | { kind: 'offline'; quote: Readonly<CoinQuote>; since: string };

/** What the device knows when asked: online or not, when the cached coin list on screen was stored, the stream. */
export interface PriceConditions {
  online: boolean;
  /** When the coin list on screen was stored, if it came from the cache while offline (ISO); else null. */
  cachedSince: string | null;
  stream: StreamStatus;
}

/** The reading of `quote` under `conditions` (rules above): offline first, then a halt, then the stream's state. */
export function priceReading(quote: Readonly<CoinQuote> | undefined, conditions: PriceConditions): PriceReading {
  if (!quote) return { kind: 'none' };
  if (!conditions.online || conditions.cachedSince)
    return { kind: 'offline', quote, since: conditions.cachedSince ?? quote.at };
  if (quote.halted) return { kind: 'paused', quote };
  if (conditions.stream !== 'live') return { kind: 'stale', quote };
  return { kind: 'live', quote };
}
