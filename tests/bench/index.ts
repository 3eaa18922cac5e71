// The market index (PRICE_FEED=index), measured with exchange stand-ins in another process
// (index-exchanges.ts) speaking the exchanges' documented protocols on loopback:
// - its cost: 50 coins on 5 exchanges (BENCH_INDEX_TRADES trades a second per coin and exchange,
//   10 by default), everything from the socket frames to the ticks (parsing, repeats, the rule each
//   second), as CPU time of this process over wall time, beside plain WebSocket clients reading the
//   same frames (the floor any index in Node pays);
// - its lag: the default 3 exchanges and the listed coins, a server on the embedded database
//   recording each step and 1,000 price-stream clients (BENCH_INDEX_CLIENTS) in another process;
//   from each exchange message the index used to the step that used it (the rule steps once a
//   second), from the step to each client, and from the message to each client.
// The machine's calibration (tests/machine-calibration.ts) is printed beside, since both figures depend on the machine.
import { calibrationText } from '../machine-calibration.ts';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import WebSocket from 'ws';
import { migratedSnapshot, openDatabase } from '../../src/server/db/connection.ts';
import { seedMarkets, LISTED_COINS } from '../../src/server/db/seed-markets.ts';
import { systemClock } from '../../src/server/domain/clock.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { indexFeed, type IndexedCoin } from '../../src/server/market/index-feed.ts';
import type { Exchange, ExchangeEndpoints } from '../../src/server/market/exchanges/exchange.ts';
import { binance } from '../../src/server/market/exchanges/binance.ts';
import { okx } from '../../src/server/market/exchanges/okx.ts';
import { kraken } from '../../src/server/market/exchanges/kraken.ts';
import type { StandInKind } from '../server/exchange-standins.ts';
import { deliveryLags, forkTs, nextMessage, serve, spread, streamClients } from './stream.ts';

const TRADES_PER_SECOND = Number(process.env.BENCH_INDEX_TRADES ?? 10);
const CLIENTS = Number(process.env.BENCH_INDEX_CLIENTS ?? 1_000);
const COST_SECONDS = 20;
const LAG_SECONDS = 20;

const ADAPTERS: Record<StandInKind, (endpoints: ExchangeEndpoints) => Exchange> = { binance, okx, kraken };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stand-ins of these kinds in another process, trading; the index's exchanges reading them (a kind twice: a second
 * exchange of that protocol). */
async function exchangesAt(kinds: StandInKind[], bases: Record<string, string> = {}) {
  const child = forkTs('./index-exchanges.ts', [kinds.join(','), String(TRADES_PER_SECOND), JSON.stringify(bases)]);
  const { stands } = await nextMessage<{ stands: { kind: StandInKind; endpoints: ExchangeEndpoints }[] }>(
    child,
    'ready',
  );
  const exchanges = stands.map(({ kind, endpoints }, i) => {
    const exchange = ADAPTERS[kind](endpoints);
    const twin = stands.slice(0, i).filter((stand) => stand.kind === kind).length;
    return twin
      ? { ...exchange, name: `${exchange.name}${twin + 1}`, label: `${exchange.label} ${twin + 1}` }
      : exchange;
  });
  return {
    exchanges,
    async sent() {
      const answer = nextMessage<{ sent: number }>(child, 'count');
      child.send({ type: 'count' });
      return (await answer).sent;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

const indexed = (codes: readonly string[], exchanges: readonly Exchange[]): IndexedCoin[] =>
  codes.map((code) => ({
    code,
    priceDecimals: 2,
    symbols: Object.fromEntries(exchanges.map((exchange) => [exchange.name, exchange.symbolOf(code)])),
  }));

/** Waits until a step priced every coin (each exchange connected and trading). */
async function untilPriced(priced: () => boolean) {
  for (const started = Date.now(); !priced(); await sleep(100))
    if (Date.now() - started > 30_000) throw new Error('the index priced no full step within 30 s');
}

const calibration = () => `calibration, ${calibrationText()}`;

/** CPU time of this process over wall time, as a share of one core, while `during` runs. */
async function cpuShare(during: () => Promise<void>) {
  const [cpuBefore, wallBefore] = [process.cpuUsage(), performance.now()];
  await during();
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;
  return { share: ((cpu.user + cpu.system) / 1000 / wall) * 100, seconds: wall / 1000 };
}

/** With a file name, a CPU profile of `during` written there (open it in Chrome's DevTools, Performance). */
async function profiled(file: string | undefined, during: () => Promise<void>) {
  if (!file) return during();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  await during();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  console.log(`  CPU profile of the index's ${COST_SECONDS} s: ${file}`);
}

/** The floor under any index: plain WebSocket clients reading the same frames and doing nothing with them. */
async function socketsAlone(exchanges: readonly Exchange[], codes: readonly string[]) {
  let frames = 0;
  const sockets = exchanges.map((exchange) => {
    const symbols = codes.map((code) => exchange.symbolOf(code));
    const socket = new WebSocket(exchange.socketUrl(symbols));
    socket.on('open', () => exchange.subscriptions(symbols).forEach((frame) => socket.send(frame)));
    socket.on('message', (data) => void (frames += data.toString().length > 0 ? 1 : 0));
    return socket;
  });
  await sleep(3_000);
  const heardBefore = frames;
  const { share, seconds } = await cpuShare(() => sleep(COST_SECONDS * 500));
  for (const socket of sockets) socket.terminate();
  return { share, perSecond: (frames - heardBefore) / seconds };
}

/** 50 coins × 5 exchanges: the index's CPU time per second of wall time, beside the sockets' floor. */
async function indexCost() {
  const codes = Array.from({ length: 50 }, (_, i) => `C${String(i + 1).padStart(2, '0')}`);
  const market = await exchangesAt(['binance', 'okx', 'kraken', 'binance', 'okx']);
  let lastTicks = 0;
  let ticks = 0;
  const floor = await socketsAlone(market.exchanges, codes);
  const feed = indexFeed({
    exchanges: market.exchanges,
    coins: indexed(codes, market.exchanges),
    clock: systemClock,
    log: () => {},
  });
  feed.start(async (step) => {
    lastTicks = step.length;
    ticks += step.length;
  });
  try {
    await untilPriced(() => lastTicks === codes.length);
    const [sentBefore, ticksBefore] = [await market.sent(), ticks];
    const heardBefore = feed.streams.reduce((sum, stream) => sum + stream.counts.trades, 0);
    const { share, seconds } = await cpuShare(() =>
      profiled(process.env.BENCH_INDEX_PROFILE, () => sleep(COST_SECONDS * 1000)),
    );
    const heard = feed.streams.reduce((sum, stream) => sum + stream.counts.trades, 0) - heardBefore;
    const sent = (await market.sent()) - sentBefore;
    console.log(
      `\nMarket index cost: ${codes.length} coins × ${market.exchanges.length} exchanges (stand-ins in another process), ${COST_SECONDS} s (${calibration()})`,
    );
    console.log(
      `  ${(heard / seconds).toFixed(0)} trade messages a second read (${sent.toLocaleString('en')} sent, ${heard.toLocaleString('en')} taken), ${((ticks - ticksBefore) / seconds).toFixed(1)} ticks a second`,
    );
    console.log(
      `  CPU: ${share.toFixed(2)} % of one core: sockets, frames, repeats and the rule (recording the ticks is the market's, measured under "stream")`,
    );
    console.log(
      `  of which the sockets alone (plain WebSocket clients reading the same ${floor.perSecond.toFixed(0)} frames a second): ${floor.share.toFixed(2)} %`,
    );
  } finally {
    await feed.stop();
    await market.stop();
  }
}

/** The default three exchanges and the listed coins, a server recording each step, stream clients: the lags. */
async function indexLag() {
  const codes = LISTED_COINS.map((coin) => coin.code);
  const market = await exchangesAt(
    ['binance', 'okx', 'kraken'],
    Object.fromEntries(LISTED_COINS.map((coin) => [coin.code, coin.startPrice])),
  );
  const database = await openDatabase({ kind: 'memory', snapshot: await migratedSnapshot() });
  await seedMarkets(database.db, new Date());
  const feed = indexFeed({
    exchanges: market.exchanges,
    coins: indexed(codes, market.exchanges),
    clock: systemClock,
    log: () => {},
  });
  /** By step id (its second): when the rule priced it, and the times of the exchange messages it used. */
  const steps = new Map<number, { stepped: number; messages: number[] }>();
  let measuring = false;
  const measured = createMarket(
    database.db,
    {
      ...feed,
      start: (onTicks) =>
        feed.start(async (ticks, halted) => {
          if (ticks.length === codes.length && measuring)
            steps.set(ticks[0]!.at.getTime(), {
              stepped: Date.now(),
              messages: ticks.flatMap((tick) => tick.constituents!.map((c) => c.at.getTime())),
            });
          await onTicks(ticks, halted);
        }),
    },
    systemClock,
    (error) => console.error('recording failed', error),
  );
  measured.start();
  const { app, port } = await serve(database, measured);
  try {
    await untilPriced(() => measured.latestEvents().length === codes.length);
    const clients = await streamClients(port, CLIENTS);
    measuring = true;
    await sleep(LAG_SECONDS * 1000);
    measuring = false;
    const deliveries = await clients.deliveries();
    const toStep = [...steps.values()].flatMap(({ stepped, messages }) => messages.map((at) => stepped - at));
    const fromStep = deliveryLags(deliveries, (id) => (steps.has(id) ? [steps.get(id)!.stepped] : undefined));
    const fromMessage = deliveryLags(deliveries, (id) => steps.get(id)?.messages);
    console.log(
      `\nMarket index → stream: ${codes.length} coins on ${market.exchanges.length} exchanges (${TRADES_PER_SECOND} trades a second each), ${CLIENTS.toLocaleString('en')} stream clients (connected in ${(clients.connectedMs / 1000).toFixed(1)} s), ${steps.size} steps on the embedded database (${calibration()})`,
    );
    console.log(`  exchange message → index step (the rule steps once a second): ${spread(toStep)}`);
    console.log(
      `  index step → recorded → stream client: ${spread(fromStep.lags)} (${fromStep.lags.length.toLocaleString('en')} deliveries, ${fromStep.twice} twice, ${fromStep.outOfOrder} out of order)`,
    );
    console.log(`  exchange message → stream client: ${spread(fromMessage.lags)}`);
  } finally {
    await app.close();
    await measured.stop();
    await database.close();
    await market.stop();
  }
}

export async function indexBench() {
  await indexCost();
  await indexLag();
}
