// A customer's own limits hold across server processes: two real servers on one PostgreSQL database
// take option orders of one customer at the same time, and together they accept exactly as many as
// the stake limit and the most open options allow. PostgreSQL only (the server-pg project): the
// embedded database serves one process.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import type { ServerProcess } from './server-process.ts';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { createAccount } from '../../src/server/domain/accounts.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { USDT, post } from '../../src/server/domain/ledger.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { setProtection } from '../../src/api-contract/protection.ts';
import { texts } from '../../src/api-contract/texts.ts';

interface Answer {
  ret: number;
  msg: string;
  data: unknown;
}

/** The refusal when no fresh price is recorded (English, the tests' language): it takes nothing. */
const PRICE_NOT_AVAILABLE = texts.priceUnavailable.message;

describe('own limits across two server processes on one PostgreSQL', () => {
  let database: Database;
  let servers: ServerProcess[] = [];
  let productId = 0;
  let accounts = 0;
  let processes: ProcessesOnPostgres;

  beforeAll(async () => {
    processes = await processesOnPostgres(['first', 'second'], {
      TRUST_PROXY_HOPS: '0',
      // Hundreds of orders from one address and account in a second: the request limits are not what is tested, nor
      // how many calls a process takes at once (one customer's orders take turns on the customer's lock).
      RATE_LIMIT_ADDRESS: '100000',
      RATE_LIMIT_ACCOUNT: '100000',
      CALLS_AT_ONCE: '0',
    });
    ({ database, servers } = processes);
  }, 180_000);

  afterAll(() => processes?.stop());

  async function call(server: number, path: string, token: string, form?: Record<string, string>): Promise<Answer> {
    const response = await fetch(`${servers[server]!.base}/api${path}`, {
      method: form ? 'POST' : 'GET',
      headers: { lang: 'en', token, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return (await response.json()) as Answer;
  }

  /** A customer holding `usdt`, signed in. */
  async function holder(usdt: string) {
    const user = await createAccount(
      database.db,
      {
        channel: 'sms',
        address: `08777${String(++accounts).padStart(5, '0')}`,
        password: 'abc12345',
        paypass: '123456',
        currency: 'THB',
        invitedBy: null,
      },
      new Date(),
    );
    await database.db.transaction((tx) =>
      post(
        tx,
        { userId: user.id, asset: USDT, amount: usdt, kind: 'test_credit', reference: `grant:pg:${accounts}` },
        new Date(),
      ),
    );
    return { id: user.id, token: await createSession(database.db, user.id) };
  }

  const buy = (server: number, token: string, amount: string) =>
    call(server, placeOption.path, token, {
      code: 'BTC',
      direction: 'up',
      amount,
      product_id: String(productId),
    });

  /** Waits until both processes accept an option (each has a fresh price), with a customer of its own. */
  async function bothTaking() {
    const products = (await call(0, `${optionProducts.path}?code=BTC`, '')) as {
      data: { lists: { id: number; minutes: number }[] };
    };
    productId = products.data.lists.find((product) => product.minutes === 1)!.id;
    const probe = await holder('1000');
    const deadline = Date.now() + 60_000;
    for (const server of [0, 1]) {
      for (;;) {
        const answer = await buy(server, probe.token, '1');
        if (answer.ret === 1) break;
        expect(answer.msg, 'only a price not yet recorded may hold an order back').toBe(PRICE_NOT_AVAILABLE);
        if (Date.now() > deadline) throw new Error(`server ${server} accepts no option`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * The customer's orders, those voided for want of a start price apart: a void gives the stake back in full and
   * counts in no limit, so on a machine too busy to record the start tick in time a void lets one more order in.
   */
  const stakedBy = async (userId: number) =>
    rowsOf<{ orders: number; staked: string; voided: number }>(
      await database.db.execute(
        sql`select count(*) filter (where coalesce(outcome, '') <> 'void')::int as orders,
          coalesce(sum(amount) filter (where coalesce(outcome, '') <> 'void'), 0)::text as staked,
          count(*) filter (where outcome = 'void')::int as voided
          from option_orders where user_id = ${userId}`,
      ),
    )[0]!;

  /**
   * Checks that every refusal among `answers` is the limit's `limitText` or the price not being available: a machine
   * busy enough to hold the feed back 10 s leaves no fresh price, and that refusal takes nothing. Returns how many were
   * the latter: the limit refuses only once it is reached, so the rest were accepted up to the limit.
   */
  function refusedAs(answers: Answer[], limitText: string): number {
    const refusals = answers.filter((answer) => answer.ret !== 1);
    for (const answer of refusals) expect([limitText, PRICE_NOT_AVAILABLE]).toContain(answer.msg);
    return refusals.filter((answer) => answer.msg === PRICE_NOT_AVAILABLE).length;
  }

  it('200 orders sent to both processes at once never pass a stake limit', async () => {
    await bothTaking();
    const user = await holder('10000');
    expect(await call(0, setProtection.path, user.token, { setting: 'stake_day', value: '555' })).toMatchObject({
      ret: 1,
    });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => buy(n % 2, user.token, '10')));
    const { voided, orders, staked } = await stakedBy(user.id);
    const accepted = answers.filter((answer) => answer.ret === 1).length;
    const stale = refusedAs(answers, 'Your limit of 555 USDT staked in 24 hours leaves 5 USDT for now!');
    // Exactly 55 when none was voided; a void during the burst lets one more in, one after it does not.
    expect(accepted).toBeGreaterThanOrEqual(Math.min(55, 200 - stale));
    expect(accepted).toBeLessThanOrEqual(55 + voided);
    expect(orders).toBe(accepted - voided);
    expect(Number(staked)).toBeLessThanOrEqual(555);
    // Every order kept stakes its 10 USDT (compared as a number: with none kept, as when a machine too busy to record
    // a price in time refused all 200 as stale, the sum is the text '0'); with no void and no stale refusal that is the
    // limit's 55 of them.
    expect(Number(staked)).toBe(10 * orders);
    if (!voided && !stale) expect(staked).toBe('550.00000000');
  }, 120_000);

  it('200 orders sent to both processes at once never pass the most open options', async () => {
    await bothTaking();
    const user = await holder('10000');
    expect(await call(1, setProtection.path, user.token, { setting: 'max_open_options', value: '37' })).toMatchObject({
      ret: 1,
    });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => buy(n % 2, user.token, '2')));
    const { voided, orders } = await stakedBy(user.id);
    const accepted = answers.filter((answer) => answer.ret === 1).length;
    const stale = refusedAs(answers, 'You have reached your limit of 37 open options at once!');
    expect(accepted).toBeGreaterThanOrEqual(Math.min(37, 200 - stale));
    expect(accepted).toBeLessThanOrEqual(37 + voided);
    expect(orders).toBe(accepted - voided);
    expect(orders).toBeLessThanOrEqual(37);
  }, 120_000);
});
