// Live K-lines: a streamed tick moves the last candle, or opens the next one. One rule for every
// chart (buckets start at multiples of the period since the epoch, as the server's do).
import Big from 'big.js';
import type { Candle, TickEvent } from '../contract/markets.ts';

/** Enough to scroll back a while; older candles drop off. */
export const MAX_LIVE_CANDLES = 500;

/** The candles after one tick (a new array when anything changed; the same one otherwise). */
export function applyTick(candles: readonly Candle[], tick: TickEvent, periodSeconds = 60): readonly Candle[] {
  const last = candles.at(-1);
  const seconds = Math.floor(Date.parse(tick.at) / 1000);
  if (!last || Number.isNaN(seconds)) return candles;
  const bucket = seconds - (seconds % periodSeconds);
  if (bucket < last.time) return candles;
  const price = tick.price;
  if (bucket === last.time) {
    const high = new Big(price).gt(last.high) ? price : last.high;
    const low = new Big(price).lt(last.low) ? price : last.low;
    return [...candles.slice(0, -1), { ...last, high, low, close: price }];
  }
  return [...candles, { time: bucket, open: price, high: price, low: price, close: price, volume: '0' }].slice(
    -MAX_LIVE_CANDLES,
  );
}
