// A price feed delivers ticks; the market records them (every tick used for settlement is
// stored) and fans them out. The simulator is the default; another feed plugs in here by name.
import Big from 'big.js';
import type { Clock } from '../domain/clock.ts';

export interface Tick {
  coin: string;
  at: Date;
  /** Decimal string, as recorded. */
  price: string;
  /** Traded volume in this step, in coin units. */
  volume: string;
  /** A market index's tick: the exchanges' prices it was made of (recorded with it). */
  constituents?: { exchange: string; price: string; at: Date; tradeId?: string }[];
}

export interface PriceFeed {
  readonly name: string;
  /** Prices that do not come from a real market: the UI labels them "simulated". */
  readonly simulated: boolean;
  /**
   * A simulator replaying a seed it was given: its prices are known in advance to whoever knows the
   * seed, so it is for tests and replays only, and the log and the UI say so.
   */
  readonly seeded: boolean;
  /** The public exchanges a market index reads (shown as "Index · 3 exchanges"); 0 for the simulator. */
  readonly exchanges: number;
  /**
   * Starts delivering each step's ticks to `onTicks`, with the coins it could not price this step
   * (halted: none for the simulator); a feed never calls it again before it resolved.
   */
  start(onTicks: (ticks: Tick[], halted?: readonly string[]) => Promise<void>): void;
  stop(): Promise<void>;
  /**
   * Before start(), when this process takes the feed over from another (one market across
   * processes): continue from these recorded prices and only after `after`, never re-using a
   * recorded second. A feed of a real exchange has no state to carry over and may leave it out.
   */
  resume?(from: { prices: Map<string, string>; after: Date | null }): void;
}

export interface CoinSpec {
  code: string;
  startPrice: string;
  /** Annualised volatility, e.g. 0.6. */
  volatility: number;
  /**
   * The decimals of the coin's price: its tick size is 10^-priceDecimals USDT, and each price is recorded as a multiple
   * of it (onTickSize).
   */
  priceDecimals: number;
}

/**
 * A price as an exchange publishes one: a decimal string that is a whole multiple of the pair's tick size,
 * 10^-`decimals` USDT (Binance's exchangeInfo PRICE_FILTER `tickSize`), written with exactly `decimals` decimals, and
 * never below one tick (an exchange's `minPrice`). So the tick recorded, the price an order fills or settles at, and
 * the price the app shows for the pair (at the pair's decimals) are the same number, digit for digit. Both feeds record
 * through it: the simulator's model price, and the index's median (the mean of two middle prices can fall half a tick
 * between two, and an exchange with a finer tick gives more digits).
 *
 * Rounded to the nearest tick, a tie half to even (IEEE 754's default rounding, the "banker's rounding" of money):
 * always rounding a tie up would lean the recorded prices upward, if by little; half to even leans neither way.
 * `price` is in USDT: the simulator's model price (a float: the model's state, kept unrounded so that rounding never
 * feeds back into its next step) or the index's decimal; the answer is the decimal that is recorded.
 */
export function onTickSize(price: number | Big, decimals: number): string {
  const tick = new Big(1).div(new Big(10).pow(decimals));
  const rounded = new Big(price).round(decimals, Big.roundHalfEven);
  return (rounded.lt(tick) ? tick : rounded).toFixed(decimals);
}

export interface StepLoop {
  /** Stops stepping and waits for the step under way. */
  stop(): Promise<void>;
}

/**
 * A feed's heartbeat: one step at each whole second of the market clock (`intervalMs` real
 * milliseconds being one market second), unless that second was stepped already (`lastStepped`).
 * The next wait starts once the step's ticks were handed on, so steps never overlap, and ends just
 * after the next whole second: a tick is computed at the time it is recorded for, never from trades
 * later than that, and no second is skipped by the steps' own time adding up.
 */
export function stepEverySecond(
  clock: Clock,
  intervalMs: number,
  lastStepped: () => number,
  step: (at: Date) => Promise<void>,
): StepLoop {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    if (stopped) return;
    const at = Math.floor(clock.now().getTime() / 1000) * 1000;
    running = at <= lastStepped() ? Promise.resolve() : step(new Date(at)).catch(() => undefined);
    void running.then(() => {
      if (stopped) return;
      const toNextSecond = 1000 - (clock.now().getTime() % 1000);
      timer = setTimeout(loop, Math.min(intervalMs, Math.ceil((toNextSecond * intervalMs) / 1000) + 1));
    });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
