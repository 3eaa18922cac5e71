// Read-only calls on a pool of their own (db/connection.ts Database.reads): with every connection of the main pool held
// (write transactions waiting on a busy process, say), a read-only call is still answered, through the read pool, while
// a write waits for the main pool until a connection is given back. PostgreSQL only (the server-pg project): the
// embedded database has one connection for both.
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { config } from '../../src/api-contract/content.ts';
import { login } from '../../src/api-contract/account.ts';
import { RET_OK } from '../../src/api-contract/envelope.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const poolOf = (db: unknown) => (db as { $client: pg.Pool }).$client;

it('answers a read-only call while every connection of the main pool is taken, and a write once one is back', async () => {
  const main = poolOf(h.database.db);
  const reads = poolOf(h.database.reads);
  expect(reads).not.toBe(main);
  const held: pg.PoolClient[] = [];
  while (held.length < main.options.max) held.push(await main.connect());
  expect(main.waitingCount).toBe(0);
  try {
    const answer = await h.call(config, { act: 'system' });
    expect(answer.ret).toBe(RET_OK);
    expect(reads.totalCount).toBeGreaterThan(0);

    // A write (a login attempt is counted in the database) queues for the main pool meanwhile.
    const write = h.call(login, { username: '0812345678', password: 'wrong-password-1' });
    await expect.poll(() => main.waitingCount).toBeGreaterThan(0);
    for (const client of held.splice(0)) client.release();
    expect((await write).ret).not.toBe(RET_OK);
  } finally {
    // Given back whatever happened, so the harness can close.
    for (const client of held) client.release();
  }
});
