// What the console's system page shows an admin without Prometheus: the feed per exchange and coin
// (as the feed's holder last wrote it in feed_exchanges and market_halts, and the latest recorded
// tick of each coin), the settlement lag, the outbox by channel, the latest books' check, the server
// processes alive and the house's exposure (the House page's own function). Read only, in the
// caller's read-only snapshot, so the figures agree with each other.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { isTrue, rowsOf, type Executor, type Tx } from '../db/connection.ts';
import type { ConsoleSystem } from '../../api-contract/console.ts';
import { houseCaps } from './house-limits.ts';
import { openExposure } from './house-result.ts';
import { latestReconciliation } from './reconciliation.ts';
import { serverProcesses } from './server-processes.ts';

/** The outbox's channels, listed even when nothing went through them. */
const CHANNELS = ['email', 'sms', 'push'];
const DAY_MS = 86_400_000;

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
const secondsSince = (value: Date | string | null | undefined, now: Date) =>
  value ? Math.max(0, Math.floor((now.getTime() - new Date(value).getTime()) / 1000)) : null;

export interface SystemContext {
  /** The market clock: option orders end on it. */
  now: Date;
  /** Real time: the outbox's times are on it. */
  realNow: Date;
  simulated: boolean;
  process: ConsoleSystem['this_process'];
  reconcileEveryMs: number;
}

export async function systemView(tx: Tx, context: SystemContext): Promise<ConsoleSystem> {
  // One after the other: a transaction is one connection.
  const feed = await feedView(tx, context.simulated);
  const settlement = await settlementLag(tx, context.now);
  const outbox = await outboxByChannel(tx, context.realNow);
  const reconciliation = await latestReconciliation(tx);
  const processes = await serverProcesses(tx);
  const caps = await houseCaps(tx);
  return {
    as_of: context.realNow.toISOString(),
    this_process: context.process,
    feed,
    settlement,
    outbox,
    reconciliation: reconciliation && {
      started_at: reconciliation.startedAt.toISOString(),
      finished_at: reconciliation.finishedAt.toISOString(),
      process: reconciliation.process,
      ok: reconciliation.ok,
      checked_balances: reconciliation.checkedBalances,
      mismatches: reconciliation.mismatches,
    },
    reconcile_every_seconds: Math.round(context.reconcileEveryMs / 1000),
    processes: processes.map((row) => ({
      id: row.id,
      host: row.host,
      pid: row.pid,
      version: row.version,
      build: row.build,
      started_at: row.startedAt.toISOString(),
      last_seen_at: row.lastSeenAt.toISOString(),
      stopped_at: iso(row.stoppedAt),
      alive: row.alive,
    })),
    exposure: await openExposure(tx, caps.exposure),
  };
}

/**
 * The exchanges (none under the simulator) and, per active coin, its halt, latest tick and each exchange's last trade.
 */
async function feedView(db: Executor, simulated: boolean): Promise<ConsoleSystem['feed']> {
  const exchanges = simulated
    ? []
    : rowsOf<{
        exchange: string;
        connected: boolean | string;
        last_trade_at: Date | string | null;
        reconnects: number | string;
        malformed_frames: number | string;
        coins: Record<string, string> | string | null;
        updated_at: Date | string;
      }>(
        await db.execute(sql`
          select exchange, connected, last_trade_at, reconnects, malformed_frames, coins, updated_at
          from feed_exchanges order by exchange`),
      );
  const coins = rowsOf<{
    code: string;
    since: Date | string | null;
    at: Date | string | null;
    price: string | null;
  }>(
    await db.execute(sql`
      select c.code, h.since, t.at, t.price::text as price
      from coins c
      left join market_halts h on h.coin = c.code
      left join lateral (select at, price from price_ticks where coin = c.code order by at desc limit 1) t on true
      where c.active
      order by c.sort, c.code`),
  );
  const tradesOf = exchanges.map((row) => ({
    exchange: row.exchange,
    coins: (typeof row.coins === 'string' ? JSON.parse(row.coins) : (row.coins ?? {})) as Record<string, unknown>,
  }));
  return {
    simulated,
    exchanges: exchanges.map((row) => ({
      exchange: row.exchange,
      connected: isTrue(row.connected),
      last_trade_at: iso(row.last_trade_at),
      reconnects: Number(row.reconnects),
      malformed_frames: Number(row.malformed_frames),
      updated_at: new Date(row.updated_at).toISOString(),
    })),
    coins: coins.map((row) => ({
      coin: row.code,
      halted_since: iso(row.since),
      last_tick_at: iso(row.at),
      last_price: row.price === null ? null : new Big(row.price).toFixed(),
      exchanges: Object.fromEntries(
        tradesOf.flatMap(({ exchange, coins: trades }) => {
          const at = trades[row.code];
          return typeof at === 'string' && !Number.isNaN(Date.parse(at))
            ? [[exchange, new Date(at).toISOString()]]
            : [];
        }),
      ),
    })),
  };
}

/** Option orders past their end and still holding (option_orders_due_idx), and how long the oldest has waited. */
async function settlementLag(db: Executor, now: Date): Promise<ConsoleSystem['settlement']> {
  const [row] = rowsOf<{ due: number | string; oldest: Date | string | null }>(
    await db.execute(sql`
      select count(*)::int as due, min(end_at) as oldest from option_orders
      where status = 'holding' and end_at <= ${now.toISOString()}::timestamptz`),
  );
  return {
    due: Number(row?.due ?? 0),
    oldest_due_at: iso(row?.oldest),
    oldest_age_seconds: secondsSince(row?.oldest, now),
  };
}

/**
 * Per channel: queued messages, messages failed in the last 24 h (their last try was due then: a failed
 * row keeps the time of its last try in next_attempt_at), and the oldest queued one.
 */
async function outboxByChannel(db: Executor, now: Date): Promise<ConsoleSystem['outbox']> {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const rows = rowsOf<{
    channel: string;
    queued: number | string;
    failed: number | string;
    oldest: Date | string | null;
  }>(
    await db.execute(sql`
      select channel, count(*) filter (where status = 'queued')::int as queued,
        count(*) filter (where status = 'failed')::int as failed,
        min(created_at) filter (where status = 'queued') as oldest
      from outbox
      where status = 'queued' or (status = 'failed' and next_attempt_at >= ${since}::timestamptz)
      group by channel`),
  );
  const byChannel = new Map(rows.map((row) => [row.channel, row]));
  return [...new Set([...CHANNELS, ...byChannel.keys()])].map((channel) => {
    const row = byChannel.get(channel);
    return {
      channel,
      queued: Number(row?.queued ?? 0),
      failed_24h: Number(row?.failed ?? 0),
      oldest_queued_at: iso(row?.oldest),
      oldest_queued_age_seconds: secondsSince(row?.oldest, now),
    };
  });
}
