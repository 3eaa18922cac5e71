// Price alerts fire exactly once across server processes: two real servers on one PostgreSQL database weigh the same
// waiting alerts against the ticks the feed's holder records; then processes are killed with SIGKILL (no handler
// runs) while alerts wait and fire, and started again. Every alert fires once, at the first recorded tick after it
// was made that meets it (worked out here from the recorded ticks, independently of the server's statement), with
// one station message and one push row; no alert that waits has a tick meeting it among those it was weighed
// against. And two processes taking adds of one customer at once never let more than the most wait.
// PostgreSQL only (the server-pg project): the embedded database serves one process.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesOnPostgres, type ProcessesOnPostgres } from './pg-processes.ts';
import type { ServerProcess } from './server-process.ts';
import { rowsOf, type Database } from '../../src/server/db/connection.ts';
import { createAccount } from '../../src/server/domain/accounts.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { PRICE_ALERTS_MAX, addPriceAlert } from '../../src/api-contract/price-alerts.ts';
import { texts } from '../../src/api-contract/texts.ts';

const USERS = 40;
const DAY_MS = 24 * 3600_000;
const MINUTE_MS = 60_000;

interface Alert {
  id: number;
  user_id: number;
  coin: string;
  kind: 'above' | 'below' | 'move';
  price: string | null;
  percent: string | null;
  created_at: string;
  checked_through: string;
  fired_tick_at: string | null;
  fired_price: string | null;
  fired_from_price: string | null;
}

interface Tick {
  at: number;
  price: Big;
}

describe('price alerts by two server processes on one PostgreSQL', () => {
  let database: Database;
  let servers: (ServerProcess | null)[] = [];
  let processes: ProcessesOnPostgres;

  const query = async <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(statement));
  const start = (name: string) => processes.start(name);

  beforeAll(async () => {
    processes = await processesOnPostgres(['first', 'second'], {
      // Four steps a second: alerts meet their ticks sooner.
      FEED_INTERVAL_MS: '250',
      RATE_LIMIT_ADDRESS: '100000',
      RATE_LIMIT_ACCOUNT: '100000',
    });
    ({ database, servers } = processes);
    // Customers, each with one browser subscribed (a push service nobody answers: the rows are what is counted).
    await database.db.execute(sql`
      insert into users (username, password_hash, invite_code)
      select 'alerts_' || n, 'x', 'PA' || n from generate_series(1, ${USERS}) n`);
    await database.db.execute(sql`
      insert into push_subscriptions (user_id, endpoint, p256dh, auth, language)
      select u.id, 'https://127.0.0.1:9/alerts/' || u.id, 'B' || repeat('A', 86), repeat('A', 22),
        case when u.id % 2 = 0 then 'zh' else 'en' end
      from users u where u.username like 'alerts\\_%'`);
    // A price for every coin, then a day back a tick of each every second at half of it, from a minute before to half
    // an hour after: every move while the test runs has its reference (one recorded in the minute before 24 hours).
    await waitFor(async () => (await query(sql`select distinct coin from price_ticks`)).length >= 10, 'ticks');
    await database.db.execute(sql`
      insert into price_ticks (coin, at, price)
      select l.coin, now() - interval '24 hours' + s * interval '1 second', l.half
      from (select distinct on (coin) coin, round(price / 2, 8) as half from price_ticks order by coin, at desc) l
      cross join generate_series(-60, 1800) s`);
  }, 240_000);

  // Every process started here, the killed and the started again too.
  afterAll(() => processes?.stop());

  async function waitFor(done: () => Promise<boolean>, what: string, ms = 90_000) {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * A wave of alerts made now, six per customer on a coin of theirs: three met by the very next tick (above half the
   * price, below twice it, a move of 1 % against the half price a day before) and three near the price that may or may
   * not be met while the test runs. Answers the ids of both.
   */
  async function wave(): Promise<{ sure: number[]; near: number[] }> {
    const sure = await made(sql`('above', 0.5, null), ('below', 2, null), ('move', null, 1)`);
    const near = await made(sql`('above', 1.0003, null), ('below', 0.9997, null), ('move', null, 99.95)`);
    return { sure, near };
  }

  /** One alert of each target for every customer, on the customer's coin, its price a factor of the latest. */
  async function made(targets: ReturnType<typeof sql>): Promise<number[]> {
    return (
      await query<{ id: number }>(sql`
        with latest as (
          select distinct on (coin) coin, price from price_ticks order by coin, at desc
        ),
        customers as (
          select u.id, c.coin from (
            select id, row_number() over (order by id) as n from users where username like 'alerts\_%'
          ) u
          join (select coin, row_number() over (order by coin) - 1 as n from latest) c on c.n = u.n % 10
        )
        insert into price_alerts (user_id, coin, kind, price, percent, created_at, checked_through)
        select c.id, c.coin, k.kind,
          case when k.kind = 'move' then null else round(l.price * k.factor, 8) end,
          k.percent, now(), now()
        from customers c
        join latest l on l.coin = c.coin
        cross join (values ${targets}) as k(kind, factor, percent)
        returning id`)
    ).map((row) => Number(row.id));
  }

  const alertsOf = (ids: number[]) =>
    query<Alert>(sql`
      select a.id, a.user_id, a.coin, a.kind, a.price::text, a.percent::text,
        to_json(a.created_at) #>> '{}' as created_at,
        -- Weighed through: its own mark while it catches up, then its coin's.
        to_json(coalesce(a.checked_through, m.checked_through)) #>> '{}' as checked_through,
        to_json(a.fired_tick_at) #>> '{}' as fired_tick_at, a.fired_price::text, a.fired_from_price::text
      from price_alerts a left join price_alert_marks m on m.coin = a.coin
      where a.id = any(${`{${ids.join(',')}}`}::int[]) order by a.id`);

  /** The first recorded tick after the alert was made that meets it, worked out from the ticks themselves. */
  function firstMeeting(alert: Alert, ticks: Tick[]): { tick: Tick; from: Big | null } | null {
    const created = Date.parse(alert.created_at);
    for (const tick of ticks) {
      if (tick.at <= created) continue;
      if (alert.kind === 'above' && tick.price.gte(alert.price!)) return { tick, from: null };
      if (alert.kind === 'below' && tick.price.lte(alert.price!)) return { tick, from: null };
      if (alert.kind === 'move') {
        const before = ticks.findLast((old) => old.at <= tick.at - DAY_MS && old.at > tick.at - DAY_MS - MINUTE_MS);
        if (before && tick.price.minus(before.price).abs().times(100).gte(before.price.times(alert.percent!)))
          return { tick, from: before.price };
      }
    }
    return null;
  }

  /**
   * Every alert of `ids` is right: a fired one fired at its first meeting tick, with one station message and one push
   * row per customer and alert; a waiting one has no meeting tick among those it was weighed against.
   */
  async function expectEachFiredOnce(ids: number[]) {
    const alerts = await alertsOf(ids);
    const rows = await query<{ coin: string; at: string; price: string }>(
      sql`select coin, to_json(at) #>> '{}' as at, price::text from price_ticks order by coin, at`,
    );
    const ticks = new Map<string, Tick[]>();
    for (const row of rows) {
      const list = ticks.get(row.coin) ?? [];
      list.push({ at: Date.parse(row.at), price: new Big(row.price) });
      ticks.set(row.coin, list);
    }
    const wrong: unknown[] = [];
    for (const alert of alerts) {
      const met = firstMeeting(alert, ticks.get(alert.coin) ?? []);
      if (alert.fired_tick_at !== null) {
        const fired = {
          at: Date.parse(alert.fired_tick_at),
          price: new Big(alert.fired_price!).toFixed(),
          from: alert.fired_from_price === null ? null : new Big(alert.fired_from_price).toFixed(),
        };
        const expected = met && { at: met.tick.at, price: met.tick.price.toFixed(), from: met.from?.toFixed() ?? null };
        if (JSON.stringify(fired) !== JSON.stringify(expected)) wrong.push({ alert, fired, expected });
      } else if (met && met.tick.at <= Date.parse(alert.checked_through)) {
        wrong.push({ alert, missed: met.tick.at });
      }
    }
    expect(wrong).toEqual([]);
    const firedHere = alerts.filter((alert) => alert.fired_tick_at !== null).length;
    console.log(`${alerts.length} alerts checked: ${firedHere} fired, ${alerts.length - firedHere} waiting`);
    // Per customer: one message and one push row (one browser each) for each alert fired, no more. Read in one
    // statement, so in one snapshot: the processes go on firing while the test reads, and an alert, its message and
    // its push are written in one transaction.
    const [counted] = await query<{ fired: Counts; said: Counts; pushed: Counts }>(sql`
      with fired as (
        select user_id, count(*)::int as n from price_alerts where fired_tick_at is not null group by user_id
      ), said as (
        select user_id, count(*)::int as n from messages where title like 'Price alert: %' group by user_id
      ), pushed as (
        select user_id, count(*)::int as n from outbox where kind = 'price_alert' group by user_id
      )
      select (select coalesce(json_object_agg(user_id, n), '{}') from fired) as fired,
        (select coalesce(json_object_agg(user_id, n), '{}') from said) as said,
        (select coalesce(json_object_agg(user_id, n), '{}') from pushed) as pushed`);
    expect(counted!.said).toEqual(counted!.fired);
    expect(counted!.pushed).toEqual(counted!.fired);
  }

  /** Per customer (their id), how many. */
  type Counts = Record<string, number>;

  /**
   * Waits until every alert of `ids` fired or was weighed through the latest tick recorded when asked; answers that
   * tick's time (ISO 8601, UTC).
   */
  async function settled(ids: number[], sure: number[]): Promise<string> {
    const [{ latest }] = await query<{ latest: string }>(
      sql`select to_json(max(at)) #>> '{}' as latest from price_ticks`,
    );
    await waitFor(async () => {
      const [{ open }] = await query<{ open: number }>(sql`
        select count(*)::int as open from price_alerts a left join price_alert_marks m on m.coin = a.coin
        where a.id = any(${`{${ids.join(',')}}`}::int[])
          and (a.id = any(${`{${sure.join(',')}}`}::int[]) and a.fired_at is null
            or a.fired_at is null and coalesce(a.checked_through, m.checked_through) < ${latest}::timestamptz)`);
      return Number(open) === 0;
    }, 'the alerts to be weighed');
    return latest;
  }

  it('two processes weighing the same alerts: each fires exactly once', async () => {
    const { sure, near } = await wave();
    expect(sure).toHaveLength(USERS * 3);
    expect(near).toHaveLength(USERS * 3);
    const ids = [...sure, ...near];
    await settled(ids, sure);
    await expectEachFiredOnce(ids);
  }, 180_000);

  it('processes killed with SIGKILL and started again: no alert fired twice or lost', async () => {
    const ids: number[] = [];
    const sure: number[] = [];
    const more = async () => {
      const made = await wave();
      sure.push(...made.sure);
      ids.push(...made.sure, ...made.near);
    };
    await more();
    // The first dies while it weighs (or between two runs); the second goes on alone.
    await servers[0]!.kill();
    servers[0] = null;
    await more();
    // The second dies too: no process at all, alerts are made meanwhile and no tick is recorded.
    await servers[1]!.kill();
    servers[1] = null;
    await more();
    servers = await Promise.all(['first-again', 'second-again'].map(start));
    await more();
    const latest = await settled(ids, sure);
    await expectEachFiredOnce(ids);
    // The near alerts that still wait were weighed up to the latest tick. One made after that tick (while no process
    // ran, none recorded a tick after it) follows its coin's mark at once, so the point it reads as weighed through
    // may be before its creation: it still counts only ticks after its creation (expectEachFiredOnce).
    const waiting = (await alertsOf(ids)).filter((alert) => alert.fired_tick_at === null);
    expect(waiting.length).toBeGreaterThan(0);
    for (const alert of waiting) expect(Date.parse(alert.checked_through)).toBeGreaterThanOrEqual(Date.parse(latest));
  }, 300_000);

  it(`two processes taking one customer's adds at once never let more than ${PRICE_ALERTS_MAX} wait`, async () => {
    const user = await createAccount(
      database.db,
      {
        channel: 'sms',
        address: '0877700001',
        password: 'abc12345',
        paypass: '123456',
        currency: 'THB',
        invitedBy: null,
      },
      new Date(),
    );
    const token = await createSession(database.db, user.id);
    const add = async (server: number, price: number) => {
      const response = await fetch(`${servers[server]!.base}/api${addPriceAlert.path}`, {
        method: 'POST',
        headers: { lang: 'en', token, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ code: 'BTC', kind: 'above', price: String(price), percent: '' }).toString(),
      });
      return (await response.json()) as { ret: number; msg: string };
    };
    for (let i = 0; i < PRICE_ALERTS_MAX - 5; i++) expect((await add(i % 2, 10_000_000 + i)).ret).toBe(1);
    // Twenty at once, half to each process: five are made.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2, 20_000_000 + i)));
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(5);
    for (const answer of answers.filter((one) => one.ret !== 1)) expect(answer.msg).toBe(texts.priceAlertsFull.message);
    const [{ waiting }] = await query<{ waiting: number }>(
      sql`select count(*)::int as waiting from price_alerts where user_id = ${user.id} and fired_at is null`,
    );
    expect(Number(waiting)).toBe(PRICE_ALERTS_MAX);
  }, 120_000);
});
