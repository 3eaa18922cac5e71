// Conditional contract orders across server processes: two real servers on one PostgreSQL database run the matcher on
// the same waiting orders; both are killed with SIGKILL (no handler runs) after a recorded tick released a stop-market
// order and an OCO pair's stop-loss but before the tick that fills them, and started again. Each released order fills
// exactly once, at the first tick after its trigger tick; the take-profit leg is cancelled in the stop-loss's fill
// transaction; every reserve is accounted for and the ledger reconciles. The test records the ticks of the coin itself
// (the feed steps once an hour), so the gap between trigger and fill is the test's to hold open.
// PostgreSQL only (the server-pg project): the embedded database serves one process.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { createAccount } from '../../src/server/domain/accounts.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { ledgerMismatches, post } from '../../src/server/domain/ledger.ts';
import { attachTakeProfitStopLoss, placeContract } from '../../src/api-contract/contracts.ts';

let processes: ProcessesOnPostgres;
let database: Database;
const query = async <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(statement));

beforeAll(async () => {
  processes = await processesOnPostgres(['first', 'second'], { FEED_INTERVAL_MS: '3600000' });
  database = processes.database;
  // The feed's first step is recorded: from here on, the only new BTC ticks are the test's.
  await waitFor(
    async () => (await query(sql`select 1 from price_ticks where coin = 'BTC' limit 1`)).length > 0,
    'ticks',
  );
}, 240_000);
afterAll(() => processes?.stop());

async function waitFor(done: () => Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const record = (at: Date, price: string) =>
  database.db.execute(
    sql`insert into price_ticks (coin, at, price) values ('BTC', ${at.toISOString()}::timestamptz, ${price})`,
  );

async function call(base: string, path: string, token: string, fields: Record<string, string>) {
  const response = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { lang: 'en', token, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return (await response.json()) as { ret: number; msg: string; data: { id: number; lists?: { id: number }[] } };
}

const statuses = (ids: number[]) =>
  query<{ id: number; status: string; filled_at: Date | null; cancelled_at: Date | null; tick_price: string | null }>(
    sql`select id, status, filled_at, cancelled_at, tick_price::text as tick_price from contract_orders
      where id in (${sql.join(
        ids.map((id) => sql`${id}::int`),
        sql`, `,
      )}) order by id`,
  );

it('a SIGKILL between trigger and fill: after a restart each released order fills once', async () => {
  const user = await createAccount(
    database.db,
    {
      channel: 'sms',
      address: '0877700002',
      password: 'abc12345',
      paypass: '123456',
      currency: 'THB',
      invitedBy: null,
    },
    new Date(),
  );
  const token = await createSession(database.db, user.id);
  await database.db.transaction((tx) =>
    post(tx, { userId: user.id, asset: 'BTC', amount: '1', kind: 'test_credit', reference: 'grant:pg-1' }, new Date()),
  );
  // A call is refused on a price older than 10 s (the quote's age limit): on a busy machine the calls can take longer
  // than that between them, so each is preceded by a fresh tick at the same price.
  await record(new Date(), '50000.00');
  const [first, second] = processes.servers;
  const stop = await call(first!.base, placeContract.path, token, {
    code: 'BTC',
    side: 'sell',
    type: 'stop_market',
    trigger_price: '45000.00',
    quantity: '0.1',
  });
  expect([stop.ret, stop.msg]).toEqual([1, expect.any(String)]);
  await record(new Date(), '50000.00');
  const legs = await call(second!.base, attachTakeProfitStopLoss.path, token, {
    code: 'BTC',
    quantity: '0.1',
    take_profit: '55000.00',
    stop_loss: '45000.00',
  });
  expect([legs.ret, legs.msg]).toEqual([1, expect.any(String)]);
  const [stopLoss, takeProfit] = legs.data.lists!.map((leg) => leg.id);
  const ids = [stop.data.id, stopLoss!, takeProfit!];

  // The releasing tick; the next one waits until both processes are dead.
  const triggerAt = new Date();
  await record(triggerAt, '44000.00');
  await waitFor(
    async () => (await statuses([stop.data.id, stopLoss!])).every((order) => order.status === 'filling'),
    'the release',
  );
  await Promise.all(processes.servers.map((server) => server.kill()));
  expect((await statuses(ids)).map((order) => order.status)).toEqual(['filling', 'filling', 'waiting']);

  await record(new Date(triggerAt.getTime() + 1), '43000.00');
  await Promise.all(['first-again', 'second-again'].map((name) => processes.start(name)));
  await waitFor(
    async () => (await statuses(ids)).every((order) => order.status === 'filled' || order.status === 'cancelled'),
    'the fills',
  );

  const [stopRow, stopLossRow, takeProfitRow] = await statuses(ids);
  expect([stopRow!.status, stopRow!.tick_price]).toEqual(['filled', '43000.000000000000']);
  expect([stopLossRow!.status, stopLossRow!.tick_price]).toEqual(['filled', '43000.000000000000']);
  expect(takeProfitRow!.status).toBe('cancelled');
  // Cancelled in the stop-loss's fill transaction: at the same instant.
  expect(new Date(takeProfitRow!.cancelled_at!).getTime()).toBe(new Date(stopLossRow!.filled_at!).getTime());

  // One fill each: the reserve out of frozen, 0.1 × 43000 less the 4.3 fee in.
  const trades = await query<{ reference: string; asset: string; bucket: string; amount: string }>(sql`
    select reference, asset, bucket, amount::text as amount from ledger_entries
    where user_id = ${user.id} and kind = 'contract_trade' order by reference, asset, bucket`);
  expect(trades).toEqual(
    [stop.data.id, stopLoss!].sort().flatMap((id) => [
      { reference: `contract:${id}`, asset: 'BTC', bucket: 'frozen', amount: '-0.10000000' },
      { reference: `contract:${id}`, asset: 'USDT', bucket: 'available', amount: '4295.70000000' },
    ]),
  );
  const held = await query<{ asset: string; available: string; frozen: string }>(sql`
    select asset, available::text as available, frozen::text as frozen from balances where user_id = ${user.id} order by asset`);
  expect(held).toEqual([
    { asset: 'BTC', available: '0.80000000', frozen: '0.00000000' },
    { asset: 'USDT', available: '8591.40000000', frozen: '0.00000000' },
  ]);
  expect(await ledgerMismatches(database.db)).toEqual([]);
}, 240_000);
