// No holes in the charts: every minute of the last 24 h that candles_1m lacks — a first start, a
// restart, a disconnect, a halt, a backfill cut short — is filled from the exchanges' REST 1-minute
// candles, each price the median of the exchanges that answered (on the coin's tick) and the volume their sum. The
// minutes to fill are read from the table itself (each minute of the window without a candle), never
// from the latest one recorded: live ticks writing the current minute cannot hide a hole, and what a
// stopped pass left undone is found again by the next one. The feed's holder runs a pass as it starts
// and then every market minute (keepCandlesWhole). A minute recorded live is never overwritten,
// except one the live feed saw only part of (completeMinute).
// Each exchange is asked one request at a time, paced to its documented limits (candlesPacing); its
// documented "too many requests" answer is waited out and the request asked again. An exchange that
// is down or answers garbage is logged and left out of that pass.
// Kraken keeps only its latest 720 minutes: the older half of a first start's 24 h comes from Binance
// and OKX alone (the median of two is their mean).
import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { setTimeout as delay } from 'node:timers/promises';
import { rowsOf, type Executor } from '../db/connection.ts';
import { candles as candleTable } from '../db/schema.ts';
import type { Clock } from '../domain/clock.ts';
import { CandlesRateLimited, type Exchange, type ExchangeCandle } from './exchanges/exchange.ts';
import { onTickSize } from './feed.ts';
import type { IndexedCoin } from './index-feed.ts';
import { median } from './index-rule.ts';

/** The window kept whole: a first start loads this much history, a longer gap is filled this far back at most. */
export const BACKFILL_MAX_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** Requests leave at 90 % of an exchange's documented rate at most: the exchange counts arrivals, and the way there
 * (a busy process, the network) can bunch them. */
const PACING_SHARE = 0.9;
/** How far one request's arrival may move against the next one's: an exchange allowing one request a second sees
 * two spaced 1.1 s apart arrive 0.9 s apart when the first is held 0.2 s on the way. The spacing leaves this room
 * in every window of the exchange. */
const ARRIVAL_JITTER_MS = 300;
/** A request refused for coming too often is asked again this many times before the exchange sits the pass out. */
const RATE_LIMIT_RETRIES = 5;
/** The longest refusal waited out within a pass (Binance's shortest ban is 2 minutes); a longer one is waited out by
 * later passes. */
const LONGEST_WAIT_MS = 120_000;
/** A minute every exchange answered for without a candle (nothing traded) is asked for this many passes, then left
 * alone. */
const ASKS_PER_MINUTE = 3;
/** A minute is settled this long after it ends: its last live tick is recorded, the exchanges' candle of it is final.
 * */
const SETTLE_MS = 2_000;
/** The same trouble is logged once in this long (real time): an exchange down for an hour is not 60 lines. */
const REPEAT_LOG_MS = 10 * 60_000;

export interface BackfillOptions {
  /** Minutes before the one `now` is in are filled (that one is still being recorded live). */
  now: Date;
  log: (line: string) => void;
  /** GETs a URL's JSON (tests may count or slow it); the default is fetch with a 10 s timeout. */
  getJson?: (url: string, signal?: AbortSignal) => Promise<unknown>;
  /** The minute this start's live recording began in: once over, completed from the exchanges (its first seconds were
   * not seen live). */
  liveSince?: Date;
  /** Per coin and minute, the passes that found no candle for it anywhere (kept between passes). */
  asked?: Map<string, number>;
  /** Aborts the pass: requests and waits end at once, nothing more is written. */
  signal?: AbortSignal;
}

/** Whether the live feed saw a recorded minute's first second and its last. */
interface Seen {
  sawStart: boolean;
  sawEnd: boolean;
}

export const getJsonByFetch = async (url: string, signal?: AbortSignal) => {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  // Binance: 429, and 418 once the address is banned, each with Retry-After in seconds; OKX: 429 (code 50011).
  if (response.status === 429 || response.status === 418) {
    await response.body?.cancel();
    const seconds = Number(response.headers.get('retry-after'));
    throw new CandlesRateLimited(`HTTP ${response.status}`, seconds > 0 ? seconds * 1000 : null);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  return response.json() as Promise<unknown>;
};

const minuteOf = (ms: number) => Math.floor(ms / MINUTE_MS) * MINUTE_MS;
const askedKey = (coin: string, minute: number) => `${coin} ${minute}`;
/** A PostgreSQL array literal of texts (the way every query here passes a list). */
const textArray = (values: readonly string[]) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/**
 * One pass: fills every coin's minutes of the 24 h before the minute of `now` that have no candle,
 * and completes the partly seen ones. Returns the minutes written.
 */
export async function backfillCandles(
  db: Executor,
  exchanges: readonly Exchange[],
  coins: readonly IndexedCoin[],
  { now, log, getJson = getJsonByFetch, liveSince, asked = new Map(), signal }: BackfillOptions,
): Promise<number> {
  const until = minuteOf(now.getTime());
  const from = until - BACKFILL_MAX_MS;
  for (const key of asked.keys()) if (Number(key.slice(key.indexOf(' ') + 1)) < from) asked.delete(key);
  const holes = await missingMinutes(db, coins, from, until);
  const partial = await partlySeenMinutes(db, coins, holes, from, until, liveSince);
  /** exchange label → trouble → coins, logged once the pass is done. */
  const failures = new Map<string, Map<string, string[]>>();
  let written = 0;
  for (const coin of coins) {
    const coinHoles = holes.get(coin.code) ?? [];
    const coinPartial = partial.get(coin.code) ?? new Map<number, Seen>();
    const wanted = [...coinHoles, ...coinPartial.keys()]
      .filter((minute) => (asked.get(askedKey(coin.code, minute)) ?? 0) < ASKS_PER_MINUTE)
      .sort((a, b) => a - b);
    if (!wanted.length || signal?.aborted) continue;
    const listed = exchanges.filter((exchange) => coin.symbols[exchange.name]);
    const answers = await Promise.allSettled(
      listed.map((exchange) => candlesOf(exchange, coin.symbols[exchange.name]!, wanted, until, getJson, signal)),
    );
    if (signal?.aborted) break;
    const byMinute = new Map<number, ExchangeCandle[]>();
    answers.forEach((answer, i) => {
      if (answer.status === 'rejected') {
        const trouble = failures.get(listed[i]!.label) ?? new Map<string, string[]>();
        failures.set(listed[i]!.label, trouble);
        const why = (answer.reason as Error).message;
        trouble.set(why, [...(trouble.get(why) ?? []), coin.code]);
        return;
      }
      for (const [minute, candle] of answer.value) {
        const list = byMinute.get(minute) ?? [];
        byMinute.set(minute, list);
        list.push(candle);
      }
    });
    // Nothing anywhere, and every exchange answered: nothing traded that minute, as far as they know.
    const everyoneAnswered = answers.every((answer) => answer.status === 'fulfilled');
    for (const minute of wanted) {
      const key = askedKey(coin.code, minute);
      if (!byMinute.has(minute)) {
        if (everyoneAnswered) asked.set(key, (asked.get(key) ?? 0) + 1);
      } else if (coinPartial.has(minute)) asked.set(key, ASKS_PER_MINUTE); // completed once is enough
    }
    const rows = coinHoles.flatMap((minute) => {
      const list = byMinute.get(minute);
      return list ? [{ coin: coin.code, minute: new Date(minute), ...wholeMinute(list, coin.priceDecimals) }] : [];
    });
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await db
        .insert(candleTable)
        .values(rows.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ minute: candleTable.minute });
      written += inserted.length;
    }
    for (const minute of wanted) {
      const seen = coinPartial.get(minute);
      const list = byMinute.get(minute);
      if (seen && list)
        written += await completeMinute(db, coin.code, minute, wholeMinute(list, coin.priceDecimals), seen);
    }
  }
  for (const [label, trouble] of failures)
    for (const [why, codes] of trouble)
      log(`${label}: no candles for ${codes.join(', ')} (${why}); filled from the other exchanges`);
  return written;
}

/**
 * The minute's candle from the exchanges' candles of it: each price the median on the coin's tick (`decimals`, as the
 * live ticks are recorded: onTickSize), the volume the sum.
 */
function wholeMinute(list: ExchangeCandle[], decimals: number) {
  const price = (field: 'open' | 'high' | 'low' | 'close') =>
    onTickSize(median(list.map((candle) => candle[field])), decimals);
  return {
    open: price('open'),
    high: price('high'),
    low: price('low'),
    close: price('close'),
    volume: list.reduce((sum, c) => sum.plus(c.volume), new Big(0)).toFixed(),
  };
}

/** Per coin, the minutes of [from, until) that have no candle, oldest first. */
async function missingMinutes(
  db: Executor,
  coins: readonly IndexedCoin[],
  from: number,
  until: number,
): Promise<Map<string, number[]>> {
  const result = await db.execute(sql`
    select listed.code as coin, (extract(epoch from m.minute) * 1000)::bigint as minute
    from unnest(${textArray(coins.map((coin) => coin.code))}::text[]) as listed(code)
    cross join generate_series(${new Date(from).toISOString()}::timestamptz, ${new Date(until - MINUTE_MS).toISOString()}::timestamptz, interval '1 minute') as m(minute)
    where not exists (select 1 from candles_1m c where c.coin = listed.code and c.minute = m.minute)
    order by 1, 2`);
  const holes = new Map<string, number[]>();
  for (const row of rowsOf<{ coin: string; minute: string | number | bigint }>(result)) {
    const list = holes.get(row.coin) ?? [];
    holes.set(row.coin, list);
    list.push(Number(row.minute));
  }
  return holes;
}

/**
 * Per coin, the recorded minutes the live feed saw only part of, among those where a part can be
 * missing: the minute this start began recording in and the one before (a quick restart), and the
 * minutes either side of a hole (where a run stopped, and where the next began).
 */
async function partlySeenMinutes(
  db: Executor,
  coins: readonly IndexedCoin[],
  holes: Map<string, number[]>,
  from: number,
  until: number,
  liveSince: Date | undefined,
): Promise<Map<string, Map<number, Seen>>> {
  const candidates: { coin: string; minute: number }[] = [];
  for (const coin of coins) {
    const missing = new Set(holes.get(coin.code) ?? []);
    const around = new Set<number>();
    if (liveSince) [liveSince.getTime() - MINUTE_MS, liveSince.getTime()].forEach((minute) => around.add(minute));
    for (const minute of missing) [minute - MINUTE_MS, minute + MINUTE_MS].forEach((next) => around.add(next));
    for (const minute of around)
      if (minute >= from && minute < until && !missing.has(minute)) candidates.push({ coin: coin.code, minute });
  }
  const partial = new Map<string, Map<number, Seen>>();
  if (!candidates.length) return partial;
  const result = await db.execute(sql`
    select asked.coin, (extract(epoch from asked.minute) * 1000)::bigint as minute,
      (extract(epoch from min(t.at)) * 1000)::bigint as first, (extract(epoch from max(t.at)) * 1000)::bigint as last, count(*)::int as seconds
    from unnest(${textArray(candidates.map((c) => c.coin))}::text[], ${textArray(candidates.map((c) => new Date(c.minute).toISOString()))}::timestamptz[]) as asked(coin, minute)
    join price_ticks t on t.coin = asked.coin and t.at >= asked.minute and t.at < asked.minute + interval '1 minute'
    group by asked.coin, asked.minute`);
  // A minute without ticks was not recorded live (an earlier backfill wrote it): nothing to complete.
  for (const row of rowsOf<{
    coin: string;
    minute: string | number;
    first: string | number;
    last: string | number;
    seconds: number;
  }>(result)) {
    const minute = Number(row.minute);
    const seen = { sawStart: Number(row.first) === minute, sawEnd: Number(row.last) === minute + MINUTE_MS - 1000 };
    if (seen.sawStart && seen.sawEnd && Number(row.seconds) >= 60) continue;
    const coinPartial = partial.get(row.coin) ?? new Map<number, Seen>();
    partial.set(row.coin, coinPartial.set(minute, seen));
  }
  return partial;
}

/**
 * A minute the live feed saw only part of (it started or stopped inside it, or halted a while),
 * completed from the exchanges' candle of the whole minute: the live open stays if the feed saw
 * the minute's first second, else the exchanges' open is the minute's; the same for the close and
 * its last second; high and low reach as far as either; the volume is the larger (the exchanges
 * counted the whole minute, the feed only the seconds it saw: adding them would count those twice).
 */
async function completeMinute(
  db: Executor,
  coin: string,
  minute: number,
  whole: ReturnType<typeof wholeMinute>,
  seen: Seen,
): Promise<number> {
  const updated = await db
    .update(candleTable)
    .set({
      ...(seen.sawStart ? {} : { open: whole.open }),
      ...(seen.sawEnd ? {} : { close: whole.close }),
      high: sql`greatest(${candleTable.high}, ${whole.high}::numeric)`,
      low: sql`least(${candleTable.low}, ${whole.low}::numeric)`,
      volume: sql`greatest(${candleTable.volume}, ${whole.volume}::numeric)`,
    })
    .where(and(eq(candleTable.coin, coin), eq(candleTable.minute, new Date(minute))))
    .returning({ minute: candleTable.minute });
  return updated.length;
}

/**
 * One exchange's candles of the wanted minutes (ascending, all before `until`), page by page from the
 * first wanted minute no page has answered yet.
 */
async function candlesOf(
  exchange: Exchange,
  symbol: string,
  wanted: readonly number[],
  until: number,
  getJson: (url: string, signal?: AbortSignal) => Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<Map<number, ExchangeCandle>> {
  const found = new Map<number, ExchangeCandle>();
  let next = 0;
  while (next < wanted.length) {
    const from = wanted[next]!;
    const limit = Math.min(exchange.candlesPerRequest, (until - from) / MINUTE_MS);
    const page = await askPaced(exchange, exchange.candlesUrl(symbol, new Date(from), limit), getJson, signal);
    let answered = from + limit * MINUTE_MS;
    for (const candle of page) {
      const minute = candle.minute.getTime();
      // An answer running past the page (Kraken's runs to its latest candle) has answered those minutes too.
      answered = Math.max(answered, Math.min(until, minute + MINUTE_MS));
      if (minute >= from && minute < until) found.set(minute, candle);
    }
    while (next < wanted.length && wanted[next]! < answered) next++;
  }
  return found;
}

/** When each exchange may be asked next: one request after another, spaced to its documented rate. */
const nextRequestAt = new WeakMap<Exchange, number>();
/** When the answers to each exchange's latest requests came (as many as its rate window holds, oldest first). */
const answeredAt = new WeakMap<Exchange, number[]>();

/** The time between two requests to the exchange: Kraken's one a second becomes one each 1.3 s, OKX's 20 in 2 s one
 * each 115 ms, Binance's 3,000 a minute one each 22 ms. */
export function requestSpacing(exchange: Pick<Exchange, 'candlesPacing'>): number {
  const { requests, perMs } = exchange.candlesPacing;
  return Math.max(perMs / (requests * PACING_SHARE), (perMs + ARRIVAL_JITTER_MS) / requests);
}

/**
 * The earliest a request may leave so that the exchange, counting arrivals, never sees more than its window allows.
 * A request arrives no later than its answer came back, and the next one no earlier than it leaves: so the request
 * a window's worth after another leaves a whole window after that one's answer. Spacing by send times alone is not
 * enough on a busy machine: a request held on its way for longer than the spacing arrives just before the next one
 * leaves, and the exchange refuses that one.
 */
function windowOpensAt(exchange: Exchange): number {
  const answers = answeredAt.get(exchange) ?? [];
  const { requests, perMs } = exchange.candlesPacing;
  return answers.length < requests ? 0 : answers[answers.length - requests]! + perMs;
}

/** Waits for the exchange's next turn and takes it. */
async function takeTurn(exchange: Exchange, signal: AbortSignal | undefined) {
  const wait = Math.max(nextRequestAt.get(exchange) ?? 0, windowOpensAt(exchange)) - performance.now();
  if (wait > 0) await delay(wait, undefined, { signal });
  signal?.throwIfAborted();
  // Spaced from when this request really leaves: a timer that fired late (a busy process) must not bring the next one
  // closer than the exchange's rate allows. (The exchange's requests go one after another: inLane.)
  nextRequestAt.set(exchange, performance.now() + requestSpacing(exchange));
}

/** The answer (or the failure) of the exchange's latest request came now. */
function answered(exchange: Exchange) {
  const answers = answeredAt.get(exchange) ?? [];
  answers.push(performance.now());
  answers.splice(0, answers.length - exchange.candlesPacing.requests);
  answeredAt.set(exchange, answers);
}

/** No request to the exchange for `ms` (it said to slow down). */
function holdOff(exchange: Exchange, ms: number) {
  nextRequestAt.set(exchange, Math.max(nextRequestAt.get(exchange) ?? 0, performance.now() + ms));
}

/**
 * One candles request in the exchange's turn. Refused for coming too often, it waits as long as the
 * exchange said (else one of its rate windows, doubling each time) and asks again: the exchange is
 * not dropped for it, unless it keeps refusing or bans the address for longer than a pass should wait.
 */
async function askPaced(
  exchange: Exchange,
  url: string,
  getJson: (url: string, signal?: AbortSignal) => Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<ExchangeCandle[]> {
  for (let refusals = 0; ; refusals++) {
    try {
      return await inLane(exchange, async () => {
        await takeTurn(exchange, signal);
        try {
          const body = await getJson(url, signal).finally(() => answered(exchange));
          return exchange.parseCandles(body);
        } catch (error) {
          // Held off before the lane is free: no request waiting behind this one goes before the wait is over.
          if (error instanceof CandlesRateLimited)
            holdOff(exchange, error.retryAfterMs ?? exchange.candlesPacing.perMs * 2 ** refusals);
          throw error;
        }
      });
    } catch (error) {
      if (!(error instanceof CandlesRateLimited) || signal?.aborted) throw error;
      const waitMs = error.retryAfterMs ?? exchange.candlesPacing.perMs * 2 ** refusals;
      if (refusals >= RATE_LIMIT_RETRIES || waitMs > LONGEST_WAIT_MS)
        throw new Error(`rate limited: ${error.message}; asking again in ${Math.ceil(waitMs / 1000)} s`, {
          cause: error,
        });
    }
  }
}

/** Each exchange's requests, one after another: the next starts once the last was answered. */
const lanes = new WeakMap<Exchange, Promise<unknown>>();

function inLane<T>(exchange: Exchange, work: () => Promise<T>): Promise<T> {
  const turn = (lanes.get(exchange) ?? Promise.resolve()).then(work);
  lanes.set(
    exchange,
    turn.catch(() => undefined),
  );
  return turn;
}

export interface CandleKeeper {
  /** Ends the passes: the one under way stops its requests and waits, and writes nothing more. */
  stop(): Promise<void>;
}

export interface KeeperOptions {
  clock: Clock;
  log: (line: string) => void;
  /** Real milliseconds between passes: a market minute. */
  everyMs: number;
  getJson?: BackfillOptions['getJson'];
}

/**
 * The feed holder's passes over the window: one as the feed starts, then one every market minute,
 * so a minute missed later (a halt, the exchanges' streams down while their REST answers) is
 * filled too, and the minute this start began in is completed once it is over.
 */
export function keepCandlesWhole(
  db: Executor,
  exchanges: readonly Exchange[],
  coins: readonly IndexedCoin[],
  { clock, log, everyMs, getJson }: KeeperOptions,
): CandleKeeper {
  const stopping = new AbortController();
  const liveSince = new Date(minuteOf(clock.now().getTime()));
  const asked = new Map<string, number>();
  const logged = new Map<string, number>();
  const logOnce = (line: string) => {
    const at = performance.now();
    if (at - (logged.get(line) ?? -Infinity) < REPEAT_LOG_MS) return;
    // Lines carry an exchange's own error text: those past their quiet time go, so the map cannot grow with them.
    for (const [seen, when] of logged) if (at - when >= REPEAT_LOG_MS) logged.delete(seen);
    logged.set(line, at);
    log(line);
  };
  const running = (async () => {
    for (let pass = 0; !stopping.signal.aborted; pass++) {
      try {
        const now = new Date(clock.now().getTime() - SETTLE_MS);
        const minutes = await backfillCandles(db, exchanges, coins, {
          now,
          log: logOnce,
          getJson,
          liveSince,
          asked,
          signal: stopping.signal,
        });
        if (!stopping.signal.aborted && (minutes || pass === 0))
          log(`Index: ${minutes} missing minutes of candles filled from the exchanges.`);
      } catch (error) {
        if (!stopping.signal.aborted) logOnce(`Index: candles not filled (${(error as Error).message}).`);
      }
      await delay(everyMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
