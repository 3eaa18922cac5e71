// The books' check (domain/reconciliation.ts): a ledger moved only by the server's own rules adds up;
// a balance, a reserve or an option's payout changed behind the server's back is named in the run's
// row, written once to the audit log and shown on the console's system page — and never corrected.
// On PostgreSQL, two server processes running the job at once make one run per interval.
import { hostname } from 'node:os';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { consoleSystem } from '../../src/api-contract/console.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { reconcileIfDue, reconcileNow } from '../../src/server/domain/reconciliation.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import {
  forgetOldProcesses,
  recordAlive,
  recordStopped,
  serverProcesses,
} from '../../src/server/domain/server-processes.ts';
import { systemView } from '../../src/server/domain/system-view.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { addTronWallet, opsOk, withdrawn } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import type { ServerProcess } from './server-process.ts';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorToken(h, 'root', 'admin');
});
afterAll(() => h.close());

const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await h.database.db.execute(query));
/** The job's run: due at once (an interval of 1 ms). */
const jobRun = async () => {
  const run = await reconcileIfDue(h.database.db, 1);
  expect(run).not.toBeNull();
  return run!;
};
const mismatchAudits = () =>
  rows<{ operator: string; address: string; target: string; before: unknown; after: unknown }>(
    sql`select operator, address, target, before, after from audit_log where action = 'reconciliation.mismatch' order by id`,
  );
const usdt = async (userId: number) =>
  (
    await rows<{ available: string; frozen: string }>(
      sql`select available::text, frozen::text from balances where user_id = ${userId} and asset = 'USDT'`,
    )
  )[0]!;

/** One recorded tick of `coin` at the harness clock's time. */
const tick = (coin: string, price: string) => h.market.record([{ coin, at: h.clock.now(), price, volume: '1' }]);

/**
 * A customer whose money went through every rule that moves it: a won and a lost option (settled), a
 * withdrawal waiting for review and a resting contract limit order (both frozen).
 */
async function busyCustomer() {
  const user = await customer(h, '1000');
  const wallet = await addTronWallet(h, user.token);
  const withdrawal = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '100' });
  const productId = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!.id;
  await tick('BTC', '100000');
  const placed = await Promise.all(
    (['up', 'down'] as const).map((direction) =>
      h.call(
        placeOption,
        { code: 'BTC', direction, amount: '10', product_id: String(productId) },
        { token: user.token },
      ),
    ),
  );
  expect(placed.map((answer) => answer.ret)).toEqual([1, 1]);
  h.clock.advance(1000);
  await tick('BTC', '100000');
  await openAllPending(h.database.db, h.clock.now());
  h.clock.advance(60_000);
  await tick('BTC', '100500');
  expect(await settleAllDue(h.database.db, h.clock.now())).toBe(2);
  const [won, lost] = placed.map((answer) => answer.data.id);
  const limit = await h.call(
    placeContract,
    { code: 'BTC', side: 'buy', type: 'limit', price: '95000', quantity: '0.001' },
    { token: user.token },
  );
  expect(limit, JSON.stringify(limit)).toMatchObject({ ret: 1, data: { status: 'open' } });
  return { ...user, withdrawal, won: won!, lost: lost!, contract: limit.data.id };
}

describe('a ledger moved by the rules', () => {
  it('reconciles: every balance, reserve and payout agrees', async () => {
    await busyCustomer();
    const run = await reconcileNow(h.database.db);
    expect(run).toMatchObject({ ok: true, mismatches: [], audited: 0 });
    expect(run.checkedBalances).toBeGreaterThan(0);
    const [row] = await rows<{ ok: boolean; mismatches: unknown; checked_balances: number }>(
      sql`select ok, mismatches, checked_balances from reconciliation_runs where id = ${run.id}`,
    );
    expect(row).toMatchObject({ ok: true, mismatches: [], checked_balances: run.checkedBalances });
    expect(await mismatchAudits()).toEqual([]);
  });

  it('a lost option has no payout entry, and needs none', async () => {
    const user = await busyCustomer();
    const entries = await rows<{ reference: string; amount: string }>(
      sql`select reference, amount::text from ledger_entries where kind = 'option_payout' and user_id = ${user.id}`,
    );
    expect(entries).toEqual([{ reference: `option:${user.won}`, amount: '18.00000000' }]);
    expect((await reconcileNow(h.database.db)).ok).toBe(true);
  });
});

describe('books changed behind the server’s back', () => {
  it('names a corrupted balance in the run, audits it once, shows it to the admin, and never corrects it', async () => {
    const user = await busyCustomer();
    const before = await usdt(user.id);
    await h.database.db.execute(
      sql`update balances set available = available + 5 where user_id = ${user.id} and asset = 'USDT'`,
    );
    const corrupted = await usdt(user.id);

    const run = await jobRun();
    const named = {
      kind: 'available',
      target: `balance:${user.id}:USDT`,
      user_id: user.id,
      asset: 'USDT',
      expected: before.available,
      found: corrupted.available,
    };
    expect(run).toMatchObject({ ok: false, mismatches: [named], audited: 1 });
    const [row] = await rows<{ ok: boolean; mismatches: unknown; process: string }>(
      sql`select ok, mismatches, process from reconciliation_runs order by id desc limit 1`,
    );
    expect(row).toMatchObject({ ok: false, mismatches: [named] });
    expect(row!.process).toMatch(/^.+:\d+$/);
    expect(await mismatchAudits()).toEqual([
      {
        operator: 'system',
        address: 'local',
        target: `balance:${user.id}:USDT`,
        before: { check: 'available', user_id: user.id, asset: 'USDT', amount: before.available },
        after: { check: 'available', user_id: user.id, asset: 'USDT', amount: corrupted.available },
      },
    ]);

    const page = await h.call(consoleSystem, {}, { token: admin });
    expect(page.ret).toBe(1);
    expect(page.data.reconciliation).toMatchObject({ ok: false, mismatches: [named] });

    // Reported, not repaired; and a mismatch the previous run already named is not audited again.
    expect(await usdt(user.id)).toEqual(corrupted);
    expect(await jobRun()).toMatchObject({ ok: false, mismatches: [named], audited: 0 });
    expect(await mismatchAudits()).toHaveLength(1);
    expect(await usdt(user.id)).toEqual(corrupted);

    // The operator command runs it now and prints the same.
    const printed = await opsOk(h, 'reconcile');
    expect(printed).toMatch(/1 mismatch \(0 new, written to the audit log\)/);
    expect(printed).toContain(`balance:${user.id}:USDT`);

    // Put right by hand, the next run is clean again.
    await h.database.db.execute(
      sql`update balances set available = ${before.available}::numeric where user_id = ${user.id} and asset = 'USDT'`,
    );
    expect(await jobRun()).toMatchObject({ ok: true, mismatches: [] });
    expect((await h.call(consoleSystem, {}, { token: admin })).data.reconciliation).toMatchObject({ ok: true });
  });

  it('finds frozen amounts that no longer match the reserves of open orders and withdrawals', async () => {
    const user = await busyCustomer();
    const { frozen } = await usdt(user.id);
    // The contract order now says it reserves 1 USDT less than the ledger froze for it.
    await h.database.db.execute(sql`update contract_orders set frozen = frozen - 1 where id = ${user.contract}`);
    const run = await jobRun();
    const reserves = (Number(frozen) - 1).toFixed(8);
    expect(run.mismatches).toEqual([
      {
        kind: 'reserve',
        target: `balance:${user.id}:USDT`,
        user_id: user.id,
        asset: 'USDT',
        expected: reserves,
        found: frozen,
      },
    ]);
    expect(run.audited).toBe(1);
    await h.database.db.execute(sql`update contract_orders set frozen = frozen + 1 where id = ${user.contract}`);

    // A withdrawal marked paid without its ledger entries: the frozen amount has no reserve left behind it.
    await h.database.db.execute(sql`update withdraw_orders set status = 'success' where id = ${user.withdrawal.id}`);
    const paid = await jobRun();
    expect(paid.mismatches).toEqual([
      expect.objectContaining({ kind: 'reserve', target: `balance:${user.id}:USDT`, found: frozen }),
    ]);
    await h.database.db.execute(sql`update withdraw_orders set status = 'review' where id = ${user.withdrawal.id}`);
    expect((await jobRun()).ok).toBe(true);
  });

  it('finds a settled option without its payout entry', async () => {
    const user = await busyCustomer();
    // The won order's payout entry goes, and the balance with it: balances and ledger still agree.
    await h.database.db.execute(sql`
      with gone as (delete from ledger_entries where kind = 'option_payout' and reference = ${`option:${user.won}`}
        returning user_id, asset, amount)
      update balances b set available = b.available - gone.amount from gone where b.user_id = gone.user_id and b.asset = gone.asset`);
    const run = await jobRun();
    expect(run.mismatches).toEqual([
      {
        kind: 'option_payout',
        target: `option:${user.won}`,
        user_id: user.id,
        asset: 'USDT',
        expected: '18.00000000',
        found: 'none',
      },
    ]);
    // A loss claiming a payout the ledger never paid is one too.
    await h.database.db.execute(sql`update option_orders set payout = 1 where id = ${user.lost}`);
    expect((await jobRun()).mismatches).toContainEqual(
      expect.objectContaining({ kind: 'option_payout', target: `option:${user.lost}`, expected: '1.00000000' }),
    );
  });

  it("finds the house's running exposure of a side apart from its open options", async () => {
    const user = await customer(h, '100');
    const productId = (await h.call(optionProducts, { code: 'ETH' })).data.lists.find((p) => p.minutes === 1)!.id;
    await tick('ETH', '3000');
    const placed = await h.call(
      placeOption,
      { code: 'ETH', direction: 'up', amount: '10', product_id: String(productId) },
      { token: user.token },
    );
    expect(placed.ret, placed.msg).toBe(1);
    const exposures = async () => (await jobRun()).mismatches.filter((mismatch) => mismatch.kind === 'exposure');
    expect(await exposures()).toEqual([]);
    // A write that skipped the triggers (a data-only restore, a replica role) leaves the row apart from the orders.
    const side = sql`coin = 'ETH' and direction = 'up'`;
    await h.database.db.execute(sql`update house_exposure set open_payout = open_payout + 5 where ${side}`);
    const [kept] = rowsOf<{ open_payout: string }>(
      await h.database.db.execute(sql`select open_payout::text as open_payout from house_exposure where ${side}`),
    );
    expect(await exposures()).toEqual([
      {
        kind: 'exposure',
        target: 'exposure:ETH:up',
        user_id: 0,
        asset: 'USDT',
        expected: new Big(kept!.open_payout).minus(5).toFixed(8),
        found: new Big(kept!.open_payout).toFixed(8),
      },
    ]);
    await h.database.db.execute(sql`update house_exposure set open_payout = open_payout - 5 where ${side}`);
    expect(await exposures()).toEqual([]);
  });

  it('is the admin’s page: a reviewer and a content operator get the role refusal', async () => {
    for (const [name, role] of [
      ['checker', 'reviewer'],
      ['writer', 'content'],
    ] as const) {
      const token = await operatorToken(h, name, role);
      expect(await h.call(consoleSystem, {}, { token })).toEqual({
        ret: 0,
        msg: 'Your role does not allow this!',
        data: null,
      });
    }
  });
});

describe('the system page’s other figures', () => {
  it('shows the feed per exchange and coin, the settlement lag, the outbox by channel and the processes', async () => {
    const db = h.database.db;
    const now = new Date();
    const secondsAgo = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    // What the index feed's holder writes (another process): two exchanges, one of them down, and a halted coin.
    await db.execute(sql`
      insert into feed_exchanges (exchange, connected, last_trade_at, reconnects, malformed_frames, coins, updated_at)
      values ('binance', true, ${secondsAgo(1)}::timestamptz, 0, 0, ${JSON.stringify({ BTC: secondsAgo(1), ETH: secondsAgo(2) })}::jsonb, now()),
        ('okx', false, ${secondsAgo(90)}::timestamptz, 3, 2, ${JSON.stringify({ BTC: secondsAgo(90) })}::jsonb, now())`);
    await db.execute(sql`insert into market_halts (coin, since) values ('ETH', ${secondsAgo(30)}::timestamptz)`);
    // One option past its end, not settled (the harness runs no job); messages waiting and failed.
    const user = await customer(h, '50');
    const productId = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!.id;
    await tick('BTC', '100000');
    const placed = await h.call(
      placeOption,
      { code: 'BTC', direction: 'up', amount: '10', product_id: String(productId) },
      { token: user.token },
    );
    h.clock.advance(1000);
    await tick('BTC', '100000');
    await openAllPending(db, h.clock.now());
    h.clock.advance(75_000);
    await tick('BTC', '100100');
    for (const status of ['queued', 'queued', 'failed', 'sent'])
      await db.execute(sql`
        insert into outbox (channel, target, kind, language, body, status, next_attempt_at, created_at)
        values ('email', 'a@example.com', 'code', 'en', 'x', ${status}, ${secondsAgo(40)}::timestamptz, ${secondsAgo(40)}::timestamptz)`);
    await recordAlive(db, { version: '1.0.1', build: 'b1', startedAt: now }, 'elsewhere:42');

    const view = await db.transaction((tx) =>
      systemView(tx, {
        now: h.clock.now(),
        realNow: new Date(),
        simulated: false,
        process: { id: 'here:1', version: '1.0.1', build: 'b1' },
        reconcileEveryMs: 300_000,
      }),
    );
    expect(view.feed.exchanges).toEqual([
      expect.objectContaining({ exchange: 'binance', connected: true, reconnects: 0, malformed_frames: 0 }),
      expect.objectContaining({ exchange: 'okx', connected: false, reconnects: 3, malformed_frames: 2 }),
    ]);
    const coin = (code: string) => view.feed.coins.find((row) => row.coin === code)!;
    expect(coin('BTC')).toMatchObject({
      halted_since: null,
      last_price: '100100',
      exchanges: { binance: secondsAgo(1), okx: secondsAgo(90) },
    });
    expect(coin('ETH')).toMatchObject({ halted_since: secondsAgo(30), exchanges: { binance: secondsAgo(2) } });
    expect(view.settlement).toEqual({
      due: 1,
      oldest_due_at: expect.any(String),
      oldest_age_seconds: expect.any(Number),
    });
    expect(view.settlement.oldest_age_seconds).toBeGreaterThanOrEqual(14);
    expect(placed.ret).toBe(1);
    expect(view.outbox.find((row) => row.channel === 'email')).toMatchObject({ queued: 2, failed_24h: 1 });
    expect(view.outbox.find((row) => row.channel === 'email')!.oldest_queued_age_seconds).toBeGreaterThanOrEqual(40);
    expect(view.outbox.map((row) => row.channel)).toEqual(['email', 'sms', 'push']);
    expect(view.processes).toContainEqual(
      expect.objectContaining({ id: 'elsewhere:42', host: 'elsewhere', pid: 42, build: 'b1', alive: true }),
    );
    // A process gone for a day is forgotten; one that stopped cleanly shows stopped at once.
    await recordAlive(db, { version: '1.0.0', build: 'b0', startedAt: now }, 'gone:7');
    await db.execute(sql`update server_processes set last_seen_at = now() - interval '25 hours' where id = 'gone:7'`);
    await recordStopped(db, 'elsewhere:42');
    expect(await forgetOldProcesses(db)).toBe(1);
    expect((await serverProcesses(db)).filter((row) => ['gone:7', 'elsewhere:42'].includes(row.id))).toEqual([
      expect.objectContaining({ id: 'elsewhere:42', alive: false, stoppedAt: expect.any(Date) }),
    ]);
    // Under the simulator the page says so instead of listing exchanges.
    const simulated = await h.call(consoleSystem, {}, { token: admin });
    expect(simulated.data.feed).toMatchObject({ simulated: true, exchanges: [] });
  });
});

describe('two server processes on one PostgreSQL', () => {
  let database: Database;
  let servers: ServerProcess[] = [];
  const EVERY_SECONDS = 2;
  const runsOf = async () =>
    rowsOf<{ started: number; finished: number; process: string; ok: boolean }>(
      await database.db.execute(sql`
        select extract(epoch from started_at) * 1000 as started, extract(epoch from finished_at) * 1000 as finished,
          process, ok
        from reconciliation_runs order by started_at`),
    ).map((run) => ({ ...run, started: Number(run.started), finished: Number(run.finished) }));

  let processes: ProcessesOnPostgres;

  beforeAll(async () => {
    processes = await processesOnPostgres(['first', 'second'], {
      SEED_DEMO: 'true',
      RECONCILE_EVERY_SECONDS: String(EVERY_SECONDS),
      METRICS_TOKEN: 'metrics-secret',
    });
    ({ database, servers } = processes);
  }, 180_000);

  afterAll(() => processes?.stop());

  it('run the job at the same moment: one run per interval, never two at once', async () => {
    const deadline = Date.now() + 60_000;
    while ((await runsOf()).length < 5 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const runs = await runsOf();
    expect(runs.length).toBeGreaterThanOrEqual(5);
    expect(runs.every((run) => run.ok)).toBe(true);
    for (let i = 1; i < runs.length; i++) {
      // The next run starts an interval after the previous one started, and after it finished.
      expect(runs[i]!.started - runs[i - 1]!.started).toBeGreaterThanOrEqual(EVERY_SECONDS * 1000);
      expect(runs[i]!.started).toBeGreaterThanOrEqual(runs[i - 1]!.finished);
    }
    // Both processes are alive in server_processes, each with its version and build.
    const processes = rowsOf<{ id: string; version: string; build: string; stopped_at: unknown }>(
      await database.db.execute(sql`select id, version, build, stopped_at from server_processes order by id`),
    );
    expect(processes).toHaveLength(2);
    expect(processes.map((row) => row.id).sort()).toEqual(
      servers.map((server) => `${hostname()}:${server.child.pid}`).sort(),
    );
    expect(
      processes.every((row) => row.version === '1.0.1' && row.build === 'development' && row.stopped_at === null),
    ).toBe(true);
  });

  it('a process stopped cleanly says so in its row at once', async () => {
    await servers[1]!.stop();
    const [row] = rowsOf<{ stopped: boolean }>(
      await database.db.execute(
        sql`select stopped_at is not null as stopped from server_processes where id = ${`${hostname()}:${servers[1]!.child.pid}`}`,
      ),
    );
    expect(row).toEqual({ stopped: true });
  });

  it('a corrupted balance: the metrics say the books do not add up', async () => {
    await database.db.execute(
      sql`update balances set available = available + 1 where (user_id, asset) in (select user_id, asset from balances limit 1)`,
    );
    const deadline = Date.now() + 30_000;
    while ((await runsOf()).at(-1)?.ok !== false && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await runsOf()).at(-1)?.ok).toBe(false);
    const scraped = await fetch(`${servers[0]!.base}/metrics`, { headers: { authorization: 'Bearer metrics-secret' } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^coinvest_reconciliation_ok 0$/m);
  });
});
