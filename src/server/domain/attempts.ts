// Windowed counters: failed logins, wrong passwords, codes sent, and (on PostgreSQL) requests per
// minute. Kept in the database so that every server process enforces the same limits. A counter is
// named by what it counts (`login:12@203.0.113.5`); the row's key is a SHA-256 digest of that name,
// so an input of any length fits and no typed name or address is stored.
import { createHash } from 'node:crypto';
import { eq, getTableName, inArray, lt, sql, type Placeholder } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { preparedOnce } from '../db/prepared.ts';
import { attemptCounters, requestCounters } from '../db/schema.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { Period } from '../../api-contract/period-text.ts';
import { Refusal } from './refusal.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/** A table of windowed counters: attempt_counters or request_counters. */
export type CounterTable = typeof attemptCounters;

export interface Count {
  count: number;
  /** The window runs from here for the limit's windowMs; then counting starts again at 1. */
  windowStart: Date;
  /** When the latest attempt was counted. */
  lastAt: Date;
}

/** Five wrong passwords lock that password check for 15 minutes. */
export const PASSWORD_LIMIT: Limit = { max: 5, windowMs: 15 * 60_000 };
/** Ten codes a day to one phone or e-mail address. */
export const CODE_DAILY_LIMIT: Limit = { max: 10, windowMs: 24 * 60 * 60_000 };

export const counterKey = (name: string) => createHash('sha256').update(name).digest('hex');

/** `row` when its window is still live at `now` (it started less than the limit's windowMs before), else null. */
const liveWindow = (row: Count | undefined, limit: Limit, now: Date): Count | null =>
  row && now.getTime() - row.windowStart.getTime() < limit.windowMs ? row : null;

/** Whether a counter's live window (countOf's or heldCount's answer) holds the limit's max attempts or more. */
export const limitReached = (window: Count | null, limit: Limit): boolean => (window?.count ?? 0) >= limit.max;

/** When a live window (countOf's, heldCount's or count()'s answer) ends, so that counting starts again at 1. */
export const windowEnd = (window: Count, limit: Limit): Date => new Date(window.windowStart.getTime() + limit.windowMs);

/** An attempt not made because a limit holds it back until `until`. */
export class LockedOut {
  readonly until: Date;
  constructor(until: Date) {
    this.until = until;
  }
}

/** The lock a counter's live window puts on the next attempt: until the window ends when it holds the limit's max
 * attempts or more (limitReached); else null. */
export const lockOf = (window: Count | null, limit: Limit): LockedOut | null =>
  window && limitReached(window, limit) ? new LockedOut(windowEnd(window, limit)) : null;

/**
 * The refusal of an attempt a limit holds back until `until`: 'Too many attempts, please try again in {0}!', {0} the
 * time left from `now` as a Period (said in the reader's words, rounded up), so the customer knows when to come back
 * and never comes back too early.
 */
export const tooManyAttempts = (until: Date, now: Date): Refusal =>
  new Refusal(serverTexts.tooManyAttemptsWait.id, { 0: new Period(until.getTime() - now.getTime()) });

/** The counter's live window, or null when it has none (never counted, or the window has passed). */
export async function countOf(
  db: Executor,
  name: string,
  limit: Limit,
  now: Date,
  table: CounterTable = attemptCounters,
): Promise<Count | null> {
  const [row] = await db
    .select({ count: table.count, windowStart: table.windowStart, lastAt: table.lastAt })
    .from(table)
    .where(eq(table.key, counterKey(name)));
  return liveWindow(row, limit, now);
}

export async function isLimited(db: Executor, name: string, limit: Limit, now: Date): Promise<boolean> {
  return limitReached(await countOf(db, name, limit, now), limit);
}

/** What one count writes: the counter's key, the attempt's time (as a timestamp and as its ISO text), when a window
 * must have started to be still live, and when a new window's row may go. Values, or placeholders of a prepared
 * statement. */
type CountValues<P = never> = {
  key: string | P;
  now: Date | P;
  at: string | P;
  passedAt: string | P;
  expiresAt: Date | P;
};

/** Counts one attempt in one statement (safe from every process at once); a window that has passed starts again at 1:
 * the statement count() runs and countPrepared() prepares. */
function countStatement(db: Executor, table: CounterTable, v: CountValues<Placeholder>) {
  const passed = sql`${table.windowStart} <= ${v.passedAt}::timestamptz`;
  return db
    .insert(table)
    .values({ key: v.key, windowStart: v.now, count: 1, lastAt: v.now, expiresAt: v.expiresAt })
    .onConflictDoUpdate({
      target: table.key,
      set: {
        count: sql`case when ${passed} then 1 else ${table.count} + 1 end`,
        windowStart: sql`case when ${passed} then ${v.at}::timestamptz else ${table.windowStart} end`,
        lastAt: sql`${v.at}::timestamptz`,
        // Nothing reads a window after it ends, nor the latest attempt after a window from it would.
        expiresAt: sql`greatest(${table.expiresAt}, excluded.expires_at)`,
      },
    })
    .returning({ count: table.count, windowStart: table.windowStart, lastAt: table.lastAt });
}

function countValues(name: string, windowMs: number, now: Date): CountValues {
  return {
    key: counterKey(name),
    now,
    at: now.toISOString(),
    passedAt: new Date(now.getTime() - windowMs).toISOString(),
    expiresAt: new Date(now.getTime() + windowMs),
  };
}

/** Counts one attempt in one statement (safe from every process at once); a window that has passed starts again at 1.
 * */
export async function count(
  db: Executor,
  name: string,
  limit: Limit,
  now: Date,
  table: CounterTable = attemptCounters,
): Promise<Count> {
  const [row] = await countStatement(db, table, countValues(name, limit.windowMs, now));
  return row!;
}

/**
 * count() of one table and window outside transactions, as a statement prepared once (db/prepared.ts): for a count on
 * every call (the request limits). Built each time, a count cost about 275 µs of the server's CPU; prepared, about
 * 100 µs (measured against PostgreSQL on loopback).
 */
export async function countPrepared(
  db: Db,
  name: string,
  windowMs: number,
  now: Date,
  table: CounterTable,
): Promise<Count> {
  const statement = preparedOnce(db, `count ${getTableName(table)} ${windowMs}`, (statementName) =>
    countStatement(db, table, {
      key: sql.placeholder('key'),
      now: sql.placeholder('now'),
      at: sql.placeholder('at'),
      passedAt: sql.placeholder('passedAt'),
      expiresAt: sql.placeholder('expiresAt'),
    }).prepare(statementName),
  );
  const [row] = await statement.execute(countValues(name, windowMs, now));
  return row!;
}

/** What mergeCounts() answers for one counter: its total in the table and when its window started (ms since epoch). */
export interface MergedCount {
  name: string;
  count: number;
  windowStart: number;
}

/**
 * Adds `counts` (counter name → attempts counted elsewhere, e.g. in one process's memory) to request_counters in one
 * statement, with count()'s windows: a counter whose window has passed at `now` starts again at the number added.
 * Rows are written in key order, so two processes merging the same counters at once never wait on each other in a
 * cycle. Answers each counter's total and window, in no particular order.
 */
export async function mergeCounts(
  db: Db,
  counts: ReadonlyMap<string, number>,
  windowMs: number,
  now: Date,
): Promise<MergedCount[]> {
  if (!counts.size) return [];
  const names = new Map<string, string>();
  const rows = [...counts].map(([name, n]) => {
    const key = counterKey(name);
    names.set(key, name);
    return { key, n };
  });
  const table = requestCounters;
  const at = now.toISOString();
  const passed = sql`${table.windowStart} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    insert into ${table} (${sql.identifier(table.key.name)}, ${sql.identifier(table.windowStart.name)},
      ${sql.identifier(table.count.name)}, ${sql.identifier(table.lastAt.name)}, ${sql.identifier(table.expiresAt.name)})
    select t.key, ${at}::timestamptz, t.n, ${at}::timestamptz, ${new Date(now.getTime() + windowMs).toISOString()}::timestamptz
    from json_to_recordset(${JSON.stringify(rows)}::json) as t(key text, n int)
    order by t.key
    on conflict (${sql.identifier(table.key.name)}) do update set
      ${sql.identifier(table.count.name)} = case when ${passed} then excluded.count else ${table.count} + excluded.count end,
      ${sql.identifier(table.windowStart.name)} = case when ${passed} then excluded.window_start else ${table.windowStart} end,
      ${sql.identifier(table.lastAt.name)} = excluded.last_at,
      ${sql.identifier(table.expiresAt.name)} = greatest(${table.expiresAt}, excluded.expires_at)
    returning ${table.key} as key, ${table.count} as count,
      (extract(epoch from ${table.windowStart}) * 1000)::bigint::text as started_ms`);
  return rowsOf<{ key: string; count: number; started_ms: string }>(result).map((row) => ({
    name: names.get(row.key)!,
    count: Number(row.count),
    windowStart: Number(row.started_ms),
  }));
}

/** Counts one attempt; answers how many the window now holds. */
export async function countAttempt(db: Executor, name: string, limit: Limit, now: Date): Promise<number> {
  return (await count(db, name, limit, now)).count;
}

export async function clearAttempts(db: Executor, name: string): Promise<void> {
  await db.delete(attemptCounters).where(eq(attemptCounters.key, counterKey(name)));
}

/**
 * Holds the counter's row until the transaction `tx` ends, creating it at 0 if need be, and answers its live window
 * as countOf() would read it then (null when it has passed): attempts holding the same counter run one after another,
 * on every server process, and each reads the count the one before it left. One statement: an insert that, on a row
 * already there, updates it to what it was, which locks it and answers its latest committed version (PostgreSQL's
 * ON CONFLICT DO UPDATE reads the row it conflicts with as it is now, not as the statement's snapshot saw it).
 * Before, the row was made, locked and read in three statements, each a round trip with the lock held.
 */
export async function heldCount(tx: Executor, name: string, limit: Limit, now: Date): Promise<Count | null> {
  const [row] = await tx
    .insert(attemptCounters)
    .values({
      key: counterKey(name),
      windowStart: now,
      count: 0,
      lastAt: now,
      expiresAt: new Date(now.getTime() + limit.windowMs),
    })
    .onConflictDoUpdate({ target: attemptCounters.key, set: { lastAt: sql`${attemptCounters.lastAt}` } })
    .returning({
      count: attemptCounters.count,
      windowStart: attemptCounters.windowStart,
      lastAt: attemptCounters.lastAt,
    });
  return liveWindow(row, limit, now);
}

/** Deletes the counters of both tables that expired before `before`, at most `batch` rows per statement; answers how
 * many. */
export async function deleteExpiredCounters(db: Executor, before: Date, batch = 10_000): Promise<number> {
  let deleted = 0;
  for (const table of [attemptCounters, requestCounters]) {
    for (;;) {
      const expired = db.select({ key: table.key }).from(table).where(lt(table.expiresAt, before)).limit(batch);
      const rows = await db.delete(table).where(inArray(table.key, expired)).returning({ key: table.key });
      deleted += rows.length;
      if (rows.length < batch) break;
    }
  }
  return deleted;
}
