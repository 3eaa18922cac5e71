// The default feed: geometric Brownian motion, one tick per coin per second of the market clock.
// Its draws come from a cryptographic random source, so no recorded tick, seed or setting tells
// anyone the next price (an option's outcome must not be knowable before its price is recorded).
// Only when a seed is given (tests, benchmarks, a replay) is the path deterministic, and the feed
// then says so (`seeded`): the log and every screen that shows a price label it.
import { getRandomValues } from 'node:crypto';
import type { Clock } from '../domain/clock.ts';
import { onTickSize, stepEverySecond, type CoinSpec, type PriceFeed, type StepLoop, type Tick } from './feed.ts';

const SECONDS_PER_YEAR = 365 * 24 * 3600;

/** Uniform draws in [0, 1) from the operating system's cryptographic generator, fetched 4 KB at a time. */
function unpredictable(): () => number {
  const pool = new Uint32Array(1024);
  let used = pool.length;
  return () => {
    if (used === pool.length) {
      getRandomValues(pool);
      used = 0;
    }
    return pool[used++]! / 4294967296;
  };
}

/** mulberry32: a small, fast, seedable generator — for replays only: its 32-bit state is guessable. */
function replay(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SimulatorOptions {
  coins: CoinSpec[];
  /** Replays this seed (tests, benchmarks); null draws from a cryptographic random source. */
  seed: number | null;
  clock: Clock;
  /** Where each coin continues from (its last recorded price), else its start price. */
  lastPrices?: Map<string, string>;
  /** Real milliseconds between steps (1000; less when the clock runs faster in tests). */
  intervalMs?: number;
}

export interface SimulatedFeed extends PriceFeed {
  /** One step at `at`: the next tick of every coin (used by the timer, tests and benchmarks). */
  step(at: Date): Tick[];
}

export function simulatedFeed({ coins, seed, clock, lastPrices, intervalMs = 1000 }: SimulatorOptions): SimulatedFeed {
  const next = seed === null ? unpredictable() : replay(seed);
  const gaussian = () => {
    // Box-Muller: two uniforms to one standard normal draw.
    const u = Math.max(next(), Number.EPSILON);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  const prices = new Map(coins.map((coin) => [coin.code, Number(lastPrices?.get(coin.code) ?? coin.startPrice)]));
  let lastAt: Date | null = null;
  let stepping: StepLoop | null = null;

  const step = (at: Date): Tick[] => {
    const dt = lastAt ? Math.max(0.001, (at.getTime() - lastAt.getTime()) / 1000) : 1;
    lastAt = at;
    return coins.map((coin) => {
      const sigma = coin.volatility;
      const years = dt / SECONDS_PER_YEAR;
      const price =
        prices.get(coin.code)! * Math.exp(-0.5 * sigma * sigma * years + sigma * Math.sqrt(years) * gaussian());
      prices.set(coin.code, price);
      const volume = Math.exp(gaussian() * 0.8) * (100_000 / price) * Math.min(dt, 60);
      return {
        coin: coin.code,
        at,
        price: onTickSize(price, coin.priceDecimals),
        volume: volume.toFixed(6),
      };
    });
  };

  return {
    name: 'simulator',
    simulated: true,
    seeded: seed !== null,
    exchanges: 0,
    step,
    resume({ prices: recorded, after }) {
      for (const [code, price] of recorded) if (prices.has(code)) prices.set(code, Number(price));
      if (after && (!lastAt || after.getTime() > lastAt.getTime())) lastAt = after;
    },
    start(onTicks) {
      // One tick per whole second of the market clock.
      stepping = stepEverySecond(
        clock,
        intervalMs,
        () => lastAt?.getTime() ?? -Infinity,
        (at) => onTicks(step(at)),
      );
    },
    async stop() {
      await stepping?.stop();
      stepping = null;
    },
  };
}
