// Records in the order they happened, across processes: a server process takes an option order whose stake is there
// only because a revoke in another process commits first (the revoke holds the balance until the order is seen
// waiting for it). The statement, read from a second server process, lists the revoke before the stake and no
// running balance below zero. PostgreSQL only (the server-pg project): the embedded database serves one process.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { createAccount } from '../../src/server/domain/accounts.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { USDT, freeze, post } from '../../src/server/domain/ledger.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { statement, type Statement } from '../../src/api-contract/statements.ts';

interface Answer<T = unknown> {
  ret: number;
  msg: string;
  data: T;
}

const STAKE = '15.59';

describe('commit order across server processes on one PostgreSQL', () => {
  let processes: ProcessesOnPostgres;

  beforeAll(async () => {
    processes = await processesOnPostgres(['first', 'second'], { TRUST_PROXY_HOPS: '0', CALLS_AT_ONCE: '0' });
  }, 180_000);
  afterAll(() => processes?.stop());

  async function call<T>(server: number, path: string, token: string, form?: Record<string, string>) {
    const response = await fetch(`${processes.servers[server]!.base}/api${path}`, {
      method: form ? 'POST' : 'GET',
      headers: { lang: 'en', token, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return (await response.json()) as Answer<T>;
  }

  /** Transactions of the test database waiting for a lock right now. */
  async function waitingForLocks(): Promise<number> {
    const [row] = rowsOf<{ waiting: number }>(
      await processes.database.db.execute(
        sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    return Number(row?.waiting ?? 0);
  }

  it('lists a revoke before the order it paid for, though the order is stamped before the revoke’s return', async () => {
    const { db } = processes.database;
    const now = new Date();
    const user = await createAccount(
      db,
      {
        channel: 'sms',
        address: '0877700001',
        password: 'abc12345',
        paypass: '123456',
        currency: 'THB',
        invitedBy: null,
      },
      now,
    );
    const token = await createSession(db, user.id);
    const products = await call<{ lists: { id: number; minutes: number }[] }>(
      0,
      `${optionProducts.path}?code=BTC`,
      token,
    );
    const productId = String(products.data.lists.find((product) => product.minutes === 1)!.id);
    const buy = () =>
      call(0, placeOption.path, token, { code: 'BTC', direction: 'up', amount: STAKE, product_id: productId });

    // A probe customer's order shows the first process has a price to take orders at.
    const probe = await createAccount(
      db,
      {
        channel: 'sms',
        address: '0877700002',
        password: 'abc12345',
        paypass: '123456',
        currency: 'THB',
        invitedBy: null,
      },
      now,
    );
    await db.transaction((tx) =>
      post(
        tx,
        { userId: probe.id, asset: USDT, amount: '10', kind: 'test_credit', reference: `grant:${probe.id}` },
        now,
      ),
    );
    const probeToken = await createSession(db, probe.id);
    await vi.waitFor(
      async () =>
        expect(
          await call(0, placeOption.path, probeToken, {
            code: 'BTC',
            direction: 'up',
            amount: '1',
            product_id: productId,
          }),
        ).toMatchObject({ ret: 1 }),
      { timeout: 60_000, interval: 200 },
    );

    // STAKE held by an open contract order: nothing available to buy with until it is revoked.
    await db.transaction(async (tx) => {
      await post(
        tx,
        { userId: user.id, asset: USDT, amount: STAKE, kind: 'test_credit', reference: `grant:${user.id}` },
        now,
      );
      await freeze(tx, user.id, USDT, STAKE, 'contract_freeze', `contract:${user.id}`, now);
    });
    expect(await buy()).toMatchObject({ ret: 0 });

    // The revoke, in this process, holds the balance; the order, in the first server process, waits for it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const cancel = { userId: user.id, asset: USDT, kind: 'contract_cancel' as const, reference: `contract:${user.id}` };
    const revoke = db.transaction(async (tx) => {
      await post(tx, { ...cancel, amount: `-${STAKE}`, bucket: 'frozen' }, new Date());
      holding();
      await released;
      await post(tx, { ...cancel, amount: STAKE }, new Date());
    });
    await held;
    const order = buy();
    await vi.waitFor(async () => expect(await waitingForLocks()).toBeGreaterThanOrEqual(1), { timeout: 30_000 });
    release();
    await revoke;
    expect(await order).toMatchObject({ ret: 1 });

    // Read from the second process: yesterday to tomorrow (UTC), so a midnight during the test changes nothing.
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const query = new URLSearchParams({ asset: USDT, from: day(-1), to: day(1), tz: 'UTC' });
    const answer = await call<Statement>(1, `${statement.path}?${query}`, token);
    expect(answer.ret).toBe(1);
    expect(answer.data.entries.map((entry) => [entry.kind, entry.balance])).toEqual([
      ['test_credit', '15.59000000'],
      ['contract_freeze', '0.00000000'],
      ['contract_cancel', '15.59000000'],
      ['option_stake', '0.00000000'],
    ]);
    expect(answer.data.entries.every((entry) => new Big(entry.balance).gte(0))).toBe(true);
    expect(answer.data).toMatchObject({ opening: '0.00000000', closing: '0.00000000', next: null });
  }, 180_000);
});
