// The market index as a price feed: each exchange's trade stream keeps that exchange's last trade
// (price, time, trade id) per coin, and once per second of the market clock every coin gets one
// tick priced by the index rule (index-rule.ts), carrying its constituents. A coin the rule halts
// gets no tick that second: nothing is recorded for it, so no order can be priced or filled from a
// price the market did not give. The exchanges and each coin's symbol on each are configuration, handed in.
import Big from 'big.js';
import type { Clock } from '../domain/clock.ts';
import { onTickSize, stepEverySecond, type PriceFeed, type StepLoop, type Tick } from './feed.ts';
import { INDEX_RULE, indexPrice, type Constituent, type IndexRule } from './index-rule.ts';
import type { Exchange, ExchangeTrade } from './exchanges/exchange.ts';
import { streamTrades, type ExchangeStream, type StreamOptions } from './exchanges/connection.ts';

export interface IndexedCoin {
  code: string;
  /** Its tick size is 10^-priceDecimals USDT: the median is recorded on it (onTickSize). */
  priceDecimals: number;
  /** The coin's symbol on each exchange (exchange name → symbol); an exchange left out does not list it. */
  symbols: Record<string, string>;
}

export interface IndexFeedOptions {
  exchanges: Exchange[];
  coins: IndexedCoin[];
  clock: Clock;
  log: (line: string) => void;
  /** Real milliseconds between steps (one per second of the market clock). */
  intervalMs?: number;
  rule?: IndexRule;
  stream?: Omit<StreamOptions, 'onTrade' | 'log' | 'now'>;
  /** Called each time the feed starts (this process took the feed over): the backfill of missed candles. */
  onStart?: () => void;
}

export interface IndexFeed extends PriceFeed {
  /** One step at `at`: the tick of every coin the rule prices (used by the timer and the tests). */
  step(at: Date): Tick[];
  /** Coins that got no price at the last step. */
  halted(): string[];
  readonly streams: readonly ExchangeStream[];
  /** What each exchange's stream has done since the feed last started, for the metrics (reads only). */
  exchangeStats(): ExchangeStats[];
}

export interface ExchangeStats {
  exchange: string;
  /** Subscribed and heard from since its last reconnect (false while the feed is not running here). */
  connected: boolean;
  /** Connections opened after the first one. */
  reconnects: number;
  /** Frames (or items of frames) dropped as malformed. */
  malformedFrames: number;
  /** Per coin: the stamp of the last trade it sent that the index holds. */
  coins: Record<string, Date>;
  /** The newest of those stamps; null before any trade. */
  lastTradeAt: Date | null;
}

export type IndexTick = Tick & { constituents: Constituent[] };

export function indexFeed({
  exchanges,
  coins,
  clock,
  log,
  intervalMs = 1000,
  rule = INDEX_RULE,
  stream = {},
  onStart,
}: IndexFeedOptions): IndexFeed {
  /** exchange → its symbol → coin code */
  const coinOf = new Map(
    exchanges.map((exchange) => [
      exchange.name,
      new Map(
        coins.flatMap((coin) => (coin.symbols[exchange.name] ? [[coin.symbols[exchange.name]!, coin.code]] : [])),
      ),
    ]),
  );
  /** coin → exchange → its last trade, and the time it is held at for ordering: its stamp, or our clock when it was
   * stamped ahead of it. */
  const last = new Map(coins.map((coin) => [coin.code, new Map<string, { quote: Constituent; heldAt: number }>()]));
  /** Each coin's traded quantity since the last step, in units of 10^-18 (exact for every quantity an exchange can
   * send: DECIMAL in exchange.ts). */
  const traded = new Map(coins.map((coin) => [coin.code, 0n]));
  let halted = new Set<string>();
  let streams: ExchangeStream[] = [];
  let lastAt = 0;
  let stepping: StepLoop | null = null;
  let stopped = true;

  function onTrade(exchange: string, trade: ExchangeTrade) {
    const code = coinOf.get(exchange)?.get(trade.symbol);
    if (!code) return;
    const known = last.get(code)!.get(exchange);
    // Held at our clock at most: a trade stamped ahead of it must not outrank the trades after it.
    if (!known || known.heldAt <= trade.at.getTime())
      last.get(code)!.set(exchange, {
        quote: { exchange, price: trade.price, at: trade.at, tradeId: trade.id },
        heldAt: Math.min(trade.at.getTime(), clock.now().getTime()),
      });
    traded.set(code, traded.get(code)! + attoUnits(trade.quantity));
  }

  function step(at: Date): IndexTick[] {
    const ticks: IndexTick[] = [];
    const nowHalted = new Set<string>();
    for (const coin of coins) {
      const quotes = [...last.get(coin.code)!.values()].map(({ quote }) => quote);
      const result = indexPrice(quotes, at, rule);
      if (result.halted) {
        nowHalted.add(coin.code);
        if (!halted.has(coin.code))
          log(
            `${coin.code} halted: ${result.used.length} usable price(s) of ${exchanges.length} exchanges (${result.dropped.map((d) => `${d.exchange} ${d.reason}`).join(', ') || 'none heard'})`,
          );
        continue;
      }
      if (halted.has(coin.code)) log(`${coin.code} resumed: ${result.used.map((c) => c.exchange).join(', ')}`);
      for (const outlier of result.dropped.filter((d) => d.reason === 'outlier'))
        log(`${coin.code}: ${outlier.exchange} ${outlier.price} left out, further than the band from the others`);
      ticks.push({
        coin: coin.code,
        at,
        price: onTickSize(new Big(result.price), coin.priceDecimals),
        volume: decimalOf(traded.get(coin.code)!),
        constituents: result.used,
      });
      traded.set(coin.code, 0n);
    }
    halted = nowHalted;
    lastAt = at.getTime();
    return ticks;
  }

  const feed: IndexFeed = {
    name: 'index',
    simulated: false,
    seeded: false,
    exchanges: exchanges.length,
    step,
    halted: () => [...halted],
    start(onTicks) {
      if (!stopped) return;
      stopped = false;
      streams = exchanges.map((exchange) => {
        const symbols = coins.flatMap((coin) => (coin.symbols[exchange.name] ? [coin.symbols[exchange.name]!] : []));
        // Trade stamps are held against the clock the index prices on (a test server's runs fast; its stand-ins stamp
        // on it).
        return streamTrades(exchange, symbols, { ...stream, now: () => clock.now().getTime(), onTrade, log });
      });
      onStart?.();
      stepping = stepEverySecond(
        clock,
        intervalMs,
        () => lastAt,
        (at) => onTicks(step(at), [...halted]),
      );
    },
    async stop() {
      stopped = true;
      await stepping?.stop();
      stepping = null;
      await Promise.all(streams.map((open) => open.close()));
      streams = [];
    },
    get streams() {
      return streams;
    },
    exchangeStats() {
      return exchanges.map((exchange) => {
        const open = streams.find((one) => one.exchange === exchange.name);
        const traded: Record<string, Date> = {};
        let lastTradeAt: Date | null = null;
        for (const [code, quotes] of last) {
          const at = quotes.get(exchange.name)?.quote.at;
          if (!at) continue;
          traded[code] = at;
          if (!lastTradeAt || at.getTime() > lastTradeAt.getTime()) lastTradeAt = at;
        }
        return {
          exchange: exchange.name,
          connected: open?.connected() ?? false,
          reconnects: Math.max(0, (open?.counts.connects ?? 0) - 1),
          malformedFrames: open?.counts.garbage ?? 0,
          coins: traded,
          lastTradeAt,
        };
      });
    },
  };
  return feed;
}

/** Decimal places the summed volume keeps: as many as a quantity may have. */
const VOLUME_SCALE = 18;

/** A canonical decimal quantity ("12.5") as a whole number of 10^-18 units; BigInt, so no float ever rounds it. */
function attoUnits(quantity: string): bigint {
  const [whole = '0', fraction = ''] = quantity.split('.');
  return BigInt(whole + fraction.padEnd(VOLUME_SCALE, '0'));
}

/** The decimal of a count of 10^-18 units, without trailing zeros. */
function decimalOf(units: bigint): string {
  const digits = units.toString().padStart(VOLUME_SCALE + 1, '0');
  const fraction = digits.slice(-VOLUME_SCALE).replace(/0+$/, '');
  return fraction ? `${digits.slice(0, -VOLUME_SCALE)}.${fraction}` : digits.slice(0, -VOLUME_SCALE);
}
