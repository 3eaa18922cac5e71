// The market index's exchanges as every process can see them: the process holding the feed reads
// its streams' figures from memory and writes them to the feed_exchanges table every few seconds;
// a process that does not hold it (another worker, or the one the feed moved away from) reads that
// table. A row not renewed for a while means its writer stopped: that exchange counts as
// disconnected. Under the simulator there are no exchanges and nothing is written.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { feedExchanges } from '../db/schema.ts';
import type { Clock } from '../domain/clock.ts';
import type { PriceFeed } from '../market/feed.ts';
import type { ExchangeStats, IndexFeed } from '../market/index-feed.ts';
import { stepDuration, type Readings } from './metrics.ts';

/** Real milliseconds between the holder's writes. */
export const FEED_EXCHANGES_EVERY_MS = 2_000;
/** A row older than this (real time) was left by a process that no longer writes it. */
const STALE_MS = 15_000;

export type ExchangeReading = Readings['exchanges'][number];

const isIndexFeed = (feed: PriceFeed): feed is IndexFeed => 'exchangeStats' in feed;

/**
 * Keeps the feed_exchanges table written while this process runs the index feed, and tells the
 * exchanges' state (from memory here when it runs the feed, else from the table). Null under the
 * simulator.
 */
export function keepFeedExchanges(
  db: Db,
  feed: PriceFeed,
  clock: Clock,
  { everyMs = FEED_EXCHANGES_EVERY_MS, log = () => {} }: { everyMs?: number; log?: (error: unknown) => void } = {},
) {
  if (!isIndexFeed(feed) || !feed.exchanges) return null;
  const runsHere = () => feed.streams.length > 0;
  let writing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (!runsHere()) return;
    writing = writing.then(() => writeExchanges(db, feed.exchangeStats(), new Date())).catch(log);
  }, everyMs);
  timer.unref();
  return {
    async states(): Promise<ExchangeReading[]> {
      const now = clock.now().getTime();
      if (runsHere()) return feed.exchangeStats().map((stats) => reading(stats, now));
      const realNow = Date.now();
      const rows = await db.select().from(feedExchanges);
      return rows.map((row) => ({
        exchange: row.exchange,
        connected: row.connected && realNow - row.updatedAt.getTime() <= STALE_MS,
        lastTradeAgeSeconds: row.lastTradeAt ? Math.max(0, (now - row.lastTradeAt.getTime()) / 1000) : null,
        reconnects: row.reconnects,
        malformedFrames: row.malformedFrames,
      }));
    },
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}

const reading = (stats: ExchangeStats, now: number): ExchangeReading => ({
  exchange: stats.exchange,
  connected: stats.connected,
  lastTradeAgeSeconds: stats.lastTradeAt ? Math.max(0, (now - stats.lastTradeAt.getTime()) / 1000) : null,
  reconnects: stats.reconnects,
  malformedFrames: stats.malformedFrames,
});

/** One upsert of every exchange's row. */
async function writeExchanges(db: Db, stats: ExchangeStats[], now: Date) {
  if (!stats.length) return;
  await db
    .insert(feedExchanges)
    .values(
      stats.map((one) => ({
        exchange: one.exchange,
        connected: one.connected,
        lastTradeAt: one.lastTradeAt,
        reconnects: one.reconnects,
        malformedFrames: one.malformedFrames,
        coins: Object.fromEntries(Object.entries(one.coins).map(([coin, at]) => [coin, at.toISOString()])),
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: feedExchanges.exchange,
      set: {
        connected: sql`excluded.connected`,
        lastTradeAt: sql`excluded.last_trade_at`,
        reconnects: sql`excluded.reconnects`,
        malformedFrames: sql`excluded.malformed_frames`,
        coins: sql`excluded.coins`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** Times each step's recording (its ticks and halts) in the step histogram; the feed itself is left as it is. */
export function timeSteps(feed: PriceFeed) {
  const start = feed.start.bind(feed);
  feed.start = (onTicks) =>
    start((ticks, halted) => {
      const end = stepDuration.startTimer();
      return onTicks(ticks, halted).finally(() => end());
    });
}
