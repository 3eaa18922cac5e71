// A lease row in `leases`: the way exactly one server process does a piece of work (the price feed)
// while several run on one database. The holder renews it every second or so; when it stops renewing
// (dead, hung, cut off) the row expires after the TTL and the next process that asks takes it.
// Time is the database's own clock (clock_timestamp()), never a process's: processes may disagree,
// and the test servers' accelerated market clock must not shorten the TTL.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/connection.ts';

export interface Lease {
  readonly name: string;
  /** Who this process is, in the row: host, pid and a random part (pids repeat across machines). */
  readonly holder: string;
  /** Takes the lease when it is free or expired, renews it when this process holds it; true if held now. */
  acquire(): Promise<boolean>;
  /**
   * Inside the transaction that does the leased work: renews the lease only if this process still
   * holds it unexpired, and keeps the row locked until that transaction ends, so no one can take
   * it over meanwhile. False: the lease was lost — roll the work back.
   */
  confirm(tx: Executor): Promise<boolean>;
  /** Milliseconds (database clock) until the current holder's lease runs out; null when no one holds it. */
  expiresIn(): Promise<number | null>;
  /** Gives the lease up at once (a clean stop), so another process takes over without waiting. */
  release(): Promise<void>;
}

export const LEASE_TTL_MS = 3_000;
export const LEASE_RENEW_MS = 1_000;

export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function lease(db: Executor, name: string, options: { holder?: string; ttlMs?: number } = {}): Lease {
  const holder = options.holder ?? newHolderId();
  const ttl = `${options.ttlMs ?? LEASE_TTL_MS} milliseconds`;
  return {
    name,
    holder,
    async acquire() {
      const result = await db.execute(sql`
        insert into leases (name, holder, expires_at) values (${name}, ${holder}, clock_timestamp() + ${ttl}::interval)
        on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where leases.holder = excluded.holder or leases.expires_at < clock_timestamp()
        returning holder`);
      return rowsOf(result).length === 1;
    },
    async confirm(tx) {
      const result = await tx.execute(sql`
        update leases set expires_at = clock_timestamp() + ${ttl}::interval
        where name = ${name} and holder = ${holder} and expires_at > clock_timestamp()
        returning holder`);
      return rowsOf(result).length === 1;
    },
    async expiresIn() {
      const [row] = rowsOf<{ left: string | number }>(
        await db.execute(
          sql`select extract(epoch from expires_at - clock_timestamp()) * 1000 as "left" from leases where name = ${name}`,
        ),
      );
      return row ? Number(row.left) : null;
    },
    async release() {
      await db.execute(sql`delete from leases where name = ${name} and holder = ${holder}`);
    },
  };
}
