// Live K-lines: a streamed tick moves the last candle, or opens the next one. One rule for every
// chart (buckets start at multiples of the period since the epoch, as the server's do).
import Big from 'big.js';
import type { Candle, Period, TickEvent } from '../api-contract/markets.ts';

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

// The chart's time frames: the server keeps candles of 1 m, 5 m, 15 m, 1 h and 1 d; 4 h candles are
// made here from the hour's.
export const FRAMES = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Frame = (typeof FRAMES)[number];
export const FRAME_SECONDS: Record<Frame, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '4h': 14_400,
  '1d': 86_400,
};

/** The server's period a frame is loaded from, and how many of its candles make one of the frame's. */
export const frameSource = (frame: Frame): { period: Period; per: number } =>
  frame === '4h' ? { period: '1h', per: 4 } : { period: frame, per: 1 };

/** Candles merged into buckets of `seconds` (starting at multiples of it since the epoch, as the server's). */
export function aggregateCandles(candles: readonly Candle[], seconds: number): Candle[] {
  const merged: Candle[] = [];
  for (const candle of candles) {
    const time = candle.time - (candle.time % seconds);
    const last = merged.at(-1);
    if (last?.time !== time) {
      merged.push({ ...candle, time });
      continue;
    }
    if (new Big(candle.high).gt(last.high)) last.high = candle.high;
    if (new Big(candle.low).lt(last.low)) last.low = candle.low;
    last.close = candle.close;
    last.volume = new Big(last.volume).plus(candle.volume).toString();
  }
  return merged;
}
