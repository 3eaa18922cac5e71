// A transaction's BEGIN and COMMIT sent with the statements beside them (src/server/db/transaction-control.ts), on
// PostgreSQL: every statement still runs inside its transaction, and what it writes commits whole or not at all; a
// statement sent with the COMMIT is written with its transaction, never before, never with another. A keyed write's
// lock and answer go so (idempotency.test.ts replays those answers).
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openTestDatabase } from './harness.ts';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { idempotencyKeys } from '../../src/server/db/schema.ts';
import { atCommit } from '../../src/server/db/transaction-control.ts';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

let keys = 0;
/** A pending claim's key, made for one test. */
async function pendingKey(): Promise<string> {
  const key = `round-trips-${++keys}`;
  await database.db.insert(idempotencyKeys).values({ key, fingerprint: 'f', createdAt: new Date() });
  return key;
}
const answerOf = async (key: string) =>
  (await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0]?.response ?? null;
const store = (key: string, answer: string) =>
  `update idempotency_keys set response = to_jsonb('${answer}'::text) where key = '${key}'`;

it('is written by the commit, not before it, and read back as drizzle wrote it', async () => {
  const key = await pendingKey();
  const seenInside = await database.db.transaction(async (tx) => {
    expect(atCommit(tx, store(key, 'c2VhbGVk'))).toBe(true);
    // A second one waits for no commit of its own: the caller sends it as usual.
    expect(atCommit(tx, store(key, 'other'))).toBe(false);
    return rowsOf<{ response: unknown }>(
      await tx.execute(sql`select response from idempotency_keys where key = ${key}`),
    )[0]!.response;
  });
  expect(seenInside).toBeNull();
  expect(await answerOf(key)).toBe('c2VhbGVk');
});

it('fails the commit when it fails, and nothing of the transaction is written', async () => {
  const key = await pendingKey();
  const made = `round-trips-made-${keys}`;
  const transaction = database.db.transaction(async (tx) => {
    await tx.insert(idempotencyKeys).values({ key: made, fingerprint: 'f', createdAt: new Date() });
    // The claim's key is the table's primary key: a second row of it breaks the unique constraint.
    expect(atCommit(tx, `insert into idempotency_keys (key, fingerprint) values ('${key}', 'f')`)).toBe(true);
  });
  await expect(transaction).rejects.toThrow();
  expect(await answerOf(made)).toBeNull();
  expect(await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, made))).toEqual([]);
});

it('is dropped with a rolled-back transaction and never sent with a later one', async () => {
  const key = await pendingKey();
  await expect(
    database.db.transaction(async (tx) => {
      expect(atCommit(tx, store(key, 'bGF0ZXI='))).toBe(true);
      throw new Error('the handler failed');
    }),
  ).rejects.toThrow('the handler failed');
  // The pool hands back the connection released last: the next transactions run on it, and each commits alone.
  for (let i = 0; i < 12; i++) await database.db.transaction(async (tx) => void (await tx.execute(sql`select 1`)));
  expect(await answerOf(key)).toBeNull();
});

it('is not taken by a savepoint, which would keep it past its own rollback', async () => {
  const key = await pendingKey();
  await database.db.transaction(async (tx) => {
    await tx.transaction(async (savepoint) => {
      expect(atCommit(savepoint, store(key, 'c2F2ZXBvaW50'))).toBe(false);
    });
  });
  expect(await answerOf(key)).toBeNull();
});

it('runs a first statement without parameters inside its transaction, and answers with its rows', async () => {
  const key = `round-trips-first-${++keys}`;
  const insert = sql.raw(`insert into idempotency_keys (key, fingerprint) values ('${key}', 'f') returning key`);
  await expect(
    database.db.transaction(async (tx) => {
      expect(rowsOf<{ key: string }>(await tx.execute(insert))).toEqual([{ key }]);
      throw new Error('the handler failed');
    }),
  ).rejects.toThrow('the handler failed');
  expect(await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
  // The same, committed.
  await database.db.transaction(async (tx) => void (await tx.execute(insert)));
  expect(await answerOf(key)).toBeNull();
  expect(await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(1);
});

it('runs a first statement with parameters inside its transaction', async () => {
  const key = `round-trips-parameters-${++keys}`;
  await expect(
    database.db.transaction(async (tx) => {
      await tx.insert(idempotencyKeys).values({ key, fingerprint: 'f', createdAt: new Date() });
      throw new Error('the handler failed');
    }),
  ).rejects.toThrow('the handler failed');
  expect(await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
});

/** Twelve transactions in a row (the pool hands back the connection released last), every other one failing after
 * its first statement, a write without parameters: returns how many of their rows were committed. */
async function everyOtherCommitted(label: string): Promise<number> {
  const made = Array.from({ length: 12 }, (_, n) => `round-trips-${label}-${keys}-${n}`);
  for (const [n, key] of made.entries())
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql.raw(`insert into idempotency_keys (key, fingerprint) values ('${key}', 'f')`));
        if (n % 2) throw new Error('the handler failed');
      })
      .catch((error: Error) => expect(error.message).toBe('the handler failed'));
  const rows = await database.db.select().from(idempotencyKeys);
  return rows.filter((row) => made.includes(row.key)).length;
}

it('rolls back whole when a first statement sent with the BEGIN fails, and the connection serves on', async () => {
  const key = await pendingKey();
  await expect(
    database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`insert into idempotency_keys (key, fingerprint) values ('${key}', 'f')`));
    }),
  ).rejects.toThrow();
  expect(await everyOtherCommitted('after-failure')).toBe(6);
});

it('ends a transaction that sent nothing, and the next ones begin afresh', async () => {
  ++keys;
  await database.db.transaction(async () => undefined);
  await expect(
    database.db.transaction(async () => {
      throw new Error('nothing sent');
    }),
  ).rejects.toThrow('nothing sent');
  expect(await everyOtherCommitted('after-nothing')).toBe(6);
});

it('sends a waiting BEGIN before a query asked with a callback', async () => {
  const key = `round-trips-callback-${++keys}`;
  await expect(
    database.db.transaction(async (tx) => {
      // The driver's own form, as a library beside drizzle would use it on the transaction's connection.
      const client = (tx as unknown as { session: { client: pg.PoolClient } }).session.client;
      await new Promise<void>((resolve, reject) =>
        client.query(`insert into idempotency_keys (key, fingerprint) values ('${key}', 'f')`, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      throw new Error('the handler failed');
    }),
  ).rejects.toThrow('the handler failed');
  expect(await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
});

/** The transaction's own connection (drizzle's session client) and a count of its round trips: the ReadyForQuery
 * messages PostgreSQL answers, one an exchange. */
function roundTripsOf(tx: unknown) {
  const client = (tx as { session: { client: pg.PoolClient } }).session.client;
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  let count = 0;
  const counted = () => void (count += 1);
  connection.on('readyForQuery', counted);
  return {
    client,
    /** Stops counting; the count. */
    stop() {
      connection.removeListener('readyForQuery', counted);
      return count;
    },
  };
}

it('sends a first statement with parameters in the BEGIN’s exchange, and answers with its rows as drizzle reads them', async () => {
  const key = `round-trips-one-exchange-${++keys}`;
  const createdAt = new Date('2026-12-04T11:00:00.000Z');
  let exchanges = 0;
  const read = await database.db.transaction(async (tx) => {
    const counting = roundTripsOf(tx);
    const [made] = await tx.insert(idempotencyKeys).values({ key, fingerprint: 'f', createdAt }).returning();
    exchanges = counting.stop();
    return made;
  });
  // The BEGIN and the insert in one round trip (two before); the COMMIT is the transaction's second.
  expect(exchanges).toBe(1);
  expect(read).toMatchObject({ key, fingerprint: 'f', createdAt, response: null });
  expect(await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(1);
});

it('rolls back whole when a first statement with parameters fails, and the connection serves on', async () => {
  const key = await pendingKey();
  await expect(
    database.db.transaction(async (tx) => {
      // The claim's key is the table's primary key: a second row of it breaks the unique constraint.
      await tx.insert(idempotencyKeys).values({ key, fingerprint: 'again', createdAt: new Date() });
    }),
  ).rejects.toThrow();
  expect((await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0]).toMatchObject({
    fingerprint: 'f',
  });
  expect(await everyOtherCommitted('after-parameters-failed')).toBe(6);
});

it('parses a named statement again after its first parse failed in the BEGIN’s exchange', async () => {
  const table = `later_${keys++}`;
  const first = () =>
    database.db.transaction(async (tx) =>
      rowsOf<{ id: number }>(await tx.execute(sql`select id from ${sql.identifier(table)} where id = ${1}`)),
    );
  // The table is not there yet: the statement's parse fails, after the BEGIN's succeeded in the same exchange.
  await expect(first()).rejects.toMatchObject({ cause: { code: '42P01' } }); // undefined_table
  await database.db.execute(sql.raw(`create table ${table} (id integer primary key); insert into ${table} values (1)`));
  // The same text on the same connection (the pool hands back the one released last) is parsed and named again.
  expect(await first()).toEqual([{ id: 1 }]);
  expect(await first()).toEqual([{ id: 1 }]);
});
