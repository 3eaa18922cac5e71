// The index bench's exchanges, in a process of their own so their work is not counted as the
// index's: one stand-in per kind named (tests/server/exchange-standins.ts, each speaking that
// exchange's documented protocol), each trading every symbol subscribed to it `perSecond` times a
// second, within ±0.05 % of the coin's base price, timed by this machine's clock. Usage (forked with
// an IPC channel): index-exchanges.ts <kinds, comma-separated> <trades a second> [base prices as
// JSON, by coin code; 100 otherwise]. It answers `{ type: 'ready', stands }`; `{ type: 'count' }`
// answers the trades sent so far; `{ type: 'stop' }` ends it.
import Big from 'big.js';
import { startStandIn, type StandInKind } from '../server/exchange-standins.ts';

const kinds = process.argv[2]!.split(',') as StandInKind[];
const perSecond = Number(process.argv[3]);
const bases: Record<string, string> = JSON.parse(process.argv[4] ?? '{}');
const TICK_MS = 100;

const stands = await Promise.all(kinds.map((kind) => startStandIn(kind)));
/** BTCUSDT, BTC-USDT and BTC/USDT are all BTC. */
const coinOf = (symbol: string) => symbol.replace(/[-/]?USDT$/, '');
let sent = 0;
let owed = 0;

const timer = setInterval(() => {
  owed += (perSecond * TICK_MS) / 1000;
  const now = Math.floor(owed);
  owed -= now;
  for (let round = 0; round < now; round++)
    for (const stand of stands)
      for (const symbol of stand.subscribed()) {
        const base = new Big(bases[coinOf(symbol)] ?? '100');
        stand.trade(symbol, base.times(1 + (Math.random() - 0.5) / 1000).toFixed(8), { at: new Date() });
        sent++;
      }
}, TICK_MS);

process.send!({ type: 'ready', stands: stands.map(({ kind, endpoints }) => ({ kind, endpoints })) });
process.on('message', async (message: { type: 'count' | 'stop' }) => {
  if (message.type === 'count') process.send!({ type: 'count', sent });
  if (message.type === 'stop') {
    clearInterval(timer);
    await Promise.all(stands.map((stand) => stand.close()));
    process.disconnect();
  }
});
