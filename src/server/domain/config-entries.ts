// Config entries: the operator's settings, one value per group (`act`) and key. The app reads a
// group through /config (configEntriesOf); a rule reads its own key (configValue).
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { configEntries } from '../db/schema.ts';

/** System config: the entries of one group (system, share or about), in no particular order. */
export async function configEntriesOf(db: Executor, act: string) {
  return db.select().from(configEntries).where(eq(configEntries.act, act));
}

/** One setting's value, or undefined when it was never set. */
export async function configValue(db: Executor, act: string, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ value: configEntries.value })
    .from(configEntries)
    .where(and(eq(configEntries.act, act), eq(configEntries.key, key)));
  return row?.value;
}

/** Sets one setting, replacing what was there. */
export async function setConfigEntry(db: Executor, act: string, key: string, value: string): Promise<void> {
  await db
    .insert(configEntries)
    .values({ act, key, value })
    .onConflictDoUpdate({ target: [configEntries.act, configEntries.key], set: { value } });
}

/** Facts about the database itself; never served (/config reads only the system, share and about groups). */
const DATABASE_ACT = 'database';
const PRODUCTION_SINCE_KEY = 'production_since';

/** A production server runs on this database: the first time is kept, and no command takes it back. */
export async function recordProduction(db: Executor, now: Date): Promise<void> {
  await db
    .insert(configEntries)
    .values({ act: DATABASE_ACT, key: PRODUCTION_SINCE_KEY, value: now.toISOString() })
    .onConflictDoNothing();
}

/**
 * Every process on one database must hold the same two-factor key (its secrets are sealed with it):
 * the first process to start records a check value of its key (an HMAC, not the key), and a process
 * whose key gives another value refuses to start, rather than turning down every customer's codes.
 */
export async function claimKeyCheck(db: Executor, key: string, check: string): Promise<void> {
  await db.insert(configEntries).values({ act: DATABASE_ACT, key, value: check }).onConflictDoNothing();
  const recorded = await configValue(db, DATABASE_ACT, key);
  if (recorded !== check)
    throw new Error(
      `${key}: this process's key is not the one this database's other processes use (set the same TWO_FACTOR_KEY on every server, or restore the key file).`,
    );
}

/** When a production server first ran on this database (ISO time), or undefined when none ever did. */
export const productionSince = (db: Executor) => configValue(db, DATABASE_ACT, PRODUCTION_SINCE_KEY);
