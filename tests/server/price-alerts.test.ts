// Price alerts in one server process: the calls (validation in the customer's language, at most 50 waiting, the
// list's order, deleting only one's own) and the weighing job: above, below and a 24-hour move fire on the FIRST
// recorded tick that meets them and never on one recorded before the alert; each fires once however often and however
// many runs weigh it, with one station message (in every language) and one push per subscribed browser unless the
// customer turned price alerts off; a run that stopped goes on from the last tick it weighed. Last, the run time of
// one weighing over 10,000 waiting alerts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';
import {
  PRICE_ALERTS_MAX,
  addPriceAlert,
  deletePriceAlert,
  priceAlerts as listAlerts,
} from '../../src/api-contract/price-alerts.ts';
import { messages as listMessages } from '../../src/api-contract/messages.ts';
import { setNoticeSettings, subscribePush } from '../../src/api-contract/notifications.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { messages, outbox, priceAlertMarks, priceAlerts, priceTicks } from '../../src/server/db/schema.ts';
import { WEIGH_SLICE_TICKS, weighPriceAlerts } from '../../src/server/domain/price-alerts.ts';
import { thinPriceTicks } from '../../src/server/jobs/retention.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
// Every run weighs every waiting alert: each test starts with none.
afterEach(async () => {
  await h.database.db.delete(priceAlerts);
});

type Customer = Awaited<ReturnType<typeof customer>>;
const SECOND = 1000;
/** What a message fired by a tick of the simulated feed (the harness's, with no exchanges' prices) says first. */
const SIMULATED = 'Simulated prices, not a real market: ';
const HOUR = 3600 * SECOND;

/** Each test on days of its own, later than the last test's (ticks are recorded in time order per coin). */
let day = 0;
function freshDay(): number {
  day += 3;
  const base = new Date('2026-11-22T08:00:00Z').getTime() + day * 24 * HOUR;
  h.clock.set(new Date(base));
  return base;
}

const tick = (coin: string, atMs: number, price: string) =>
  h.market.record([{ coin, at: new Date(atMs), price, volume: '1' }]);

const add = (who: Customer, input: Record<string, string>, lang = 'en') =>
  h.call(addPriceAlert, { price: '', percent: '', ...input }, { token: who.token, lang });

const weigh = () => weighPriceAlerts(h.database.db, h.clock.now());

async function alertRow(id: number) {
  const [row] = await h.database.db.select().from(priceAlerts).where(eq(priceAlerts.id, id));
  return row!;
}

/** How far the alerts that follow a coin's mark were weighed (null: no mark yet). */
async function markOf(coin: string): Promise<Date | null> {
  const [row] = await h.database.db.select().from(priceAlertMarks).where(eq(priceAlertMarks.coin, coin));
  return row?.checkedThrough ?? null;
}

const messagesOf = (userId: number) =>
  h.database.db.select().from(messages).where(eq(messages.userId, userId)).orderBy(messages.id);
const pushesOf = (userId: number) =>
  h.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.userId, userId), eq(outbox.kind, 'price_alert')))
    .orderBy(outbox.id);

let browsers = 0;
async function subscribe(who: Customer, language: string) {
  browsers++;
  const res = await h.call(
    subscribePush,
    {
      endpoint: `https://push.example.com/alerts/${browsers}-${'x'.repeat(20)}`,
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'A'.repeat(22),
      language,
    },
    { token: who.token },
  );
  expect(res.ret).toBe(1);
}

describe('the calls', () => {
  it('refuses a wrong alert with a translated text, and an unknown coin', async () => {
    const who = await customer(h);
    const price = texts.enterAlertPrice.message;
    const percent = texts.enterAlertPercent.message;
    expect(await add(who, { code: 'BTC', kind: 'above' })).toEqual(refused(price));
    expect(await add(who, { code: 'BTC', kind: 'below', price: '0' })).toEqual(refused(price));
    expect(await add(who, { code: 'BTC', kind: 'below', price: '0.00000000' })).toEqual(refused(price));
    expect(await add(who, { code: 'BTC', kind: 'above', price: '-5' })).toEqual(refused(texts.priceFormat.message));
    expect(await add(who, { code: 'BTC', kind: 'move' })).toEqual(refused(percent));
    expect(await add(who, { code: 'BTC', kind: 'move', percent: '0.09' })).toEqual(refused(percent));
    expect(await add(who, { code: 'BTC', kind: 'move', percent: '0' })).toEqual(refused(percent));
    expect(await add(who, { code: 'BTC', kind: 'move', percent: '100.5' })).toEqual(refused(percent));
    expect(await add(who, { code: 'BTC', kind: 'move', percent: '5', price: '100' })).toEqual(
      refused(texts.alertOneTarget.message),
    );
    expect(await add(who, { code: 'BTC', kind: 'above', percent: '5', price: '100' })).toEqual(
      refused(texts.alertOneTarget.message),
    );
    expect(await add(who, { code: 'NOPE', kind: 'above', price: '1' })).toEqual(refused(texts.coinUnknown.message));
    // In the caller's language.
    const zh = await add(who, { code: 'BTC', kind: 'above' }, 'zh');
    expect(zh.ret).toBe(0);
    expect(zh.msg).not.toBe(price);
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    // Nothing was made.
    expect((await h.call(listAlerts, {}, { token: who.token })).data).toEqual({ lists: [], max: PRICE_ALERTS_MAX });

    const made = await add(who, { code: 'BTC', kind: 'move', percent: '0.1' });
    expect(made).toMatchObject({ ret: 1, data: { code: 'BTC', kind: 'move', percent: '0.1', price: null } });
    const above = await add(who, { code: 'ETH', kind: 'above', price: '3500.50' });
    expect(above).toMatchObject({ ret: 1, data: { kind: 'above', price: '3500.5', percent: null, fired_at: null } });
  });

  it('refuses an alert the last recorded price already meets, saying the price, in the caller’s language', async () => {
    const who = await customer(h);
    const base = freshDay();
    await tick('SOL', base - SECOND, '97055.35');
    expect(await add(who, { code: 'SOL', kind: 'below', price: '200000' })).toEqual(
      refused('SOL is already at or below 200,000: its last recorded price is 97,055.35. Choose a lower price!'),
    );
    // At the price is met too: an alert fires on a tick at or above (below) its price.
    expect(await add(who, { code: 'SOL', kind: 'above', price: '97055.35' })).toEqual(
      refused('SOL is already at or above 97,055.35: its last recorded price is 97,055.35. Choose a higher price!'),
    );
    const thai = await add(who, { code: 'SOL', kind: 'above', price: '90000' }, 'th');
    expect(thai).toEqual(refused(expect.stringContaining('ราคาที่บันทึกล่าสุดคือ 97,055.35')));
    expect((await h.call(listAlerts, {}, { token: who.token })).data.lists).toEqual([]);
    // A price still to be reached, and a move, are taken.
    expect((await add(who, { code: 'SOL', kind: 'above', price: '97055.36' })).ret).toBe(1);
    expect((await add(who, { code: 'SOL', kind: 'below', price: '97055.34' })).ret).toBe(1);
    expect((await add(who, { code: 'SOL', kind: 'move', percent: '5' })).ret).toBe(1);
  });

  it(`keeps at most ${PRICE_ALERTS_MAX} waiting, and says so`, async () => {
    freshDay();
    const who = await customer(h);
    // The text names the maximum itself (the app shows it without values).
    expect(texts.priceAlertsFull.message).toContain(String(PRICE_ALERTS_MAX));
    for (let i = 0; i < PRICE_ALERTS_MAX - 1; i++) {
      expect((await add(who, { code: 'BTC', kind: 'above', price: String(200_000 + i) })).ret).toBe(1);
    }
    // Two at once at 49: one is made, the other refused.
    const both = await Promise.all([
      add(who, { code: 'BTC', kind: 'above', price: '300000' }),
      add(who, { code: 'BTC', kind: 'above', price: '300001' }),
    ]);
    expect(both.map((answer) => answer.ret).sort()).toEqual([0, 1]);
    expect(both.find((answer) => answer.ret === 0)).toEqual(refused(texts.priceAlertsFull.message));
    expect(await add(who, { code: 'ETH', kind: 'move', percent: '3' })).toEqual(refused(texts.priceAlertsFull.message));
    expect((await h.call(listAlerts, {}, { token: who.token })).data.lists).toHaveLength(PRICE_ALERTS_MAX);
    // Another customer is not counted with them.
    expect((await add(await customer(h), { code: 'BTC', kind: 'below', price: '1' })).ret).toBe(1);

    // A fired alert no longer counts: the one at 200000 fires, one more can be made.
    const base = h.clock.now().getTime();
    await tick('BTC', base + SECOND, '200000.5');
    h.clock.advance(2 * SECOND);
    expect(await weigh()).toBe(1);
    expect((await add(who, { code: 'ETH', kind: 'move', percent: '3' })).ret).toBe(1);
    expect(await add(who, { code: 'ETH', kind: 'move', percent: '4' })).toEqual(refused(texts.priceAlertsFull.message));
  });

  it('lists the waiting alerts first, then the fired ones, each newest first', async () => {
    const who = await customer(h);
    const base = freshDay();
    const ids: number[] = [];
    for (const price of ['10', '20', '30', '40']) {
      h.clock.advance(SECOND);
      ids.push((await add(who, { code: 'SOL', kind: 'below', price })).data.id);
    }
    // 25 then 15 fire the alerts at 30 and 40, then the one at 20.
    await tick('SOL', base + 10 * SECOND, '25');
    h.clock.set(new Date(base + 11 * SECOND));
    await weigh();
    await tick('SOL', base + 12 * SECOND, '15');
    h.clock.set(new Date(base + 13 * SECOND));
    await weigh();
    const lists = (await h.call(listAlerts, {}, { token: who.token })).data.lists;
    // The one at 10 waits; then the last fired first (20, at +13 s), then 40 and 30 (fired together: newest first).
    expect(lists.map((alert) => [alert.id, alert.fired_price])).toEqual([
      [ids[0], null],
      [ids[1], '15'],
      [ids[3], '25'],
      [ids[2], '25'],
    ]);
  });

  it("deletes the caller's own alert only; another's is answered like an unknown one", async () => {
    freshDay();
    const owner = await customer(h);
    const other = await customer(h);
    const mine = (await add(owner, { code: 'BTC', kind: 'above', price: '1000000' })).data.id;
    const notFound = refused(texts.priceAlertNotFound.message);
    expect(await h.call(deletePriceAlert, { id: String(mine) }, { token: other.token })).toEqual(notFound);
    expect(await h.call(deletePriceAlert, { id: '999999999' }, { token: other.token })).toEqual(notFound);
    expect((await h.call(listAlerts, {}, { token: owner.token })).data.lists.map((alert) => alert.id)).toEqual([mine]);
    expect(await h.call(deletePriceAlert, { id: String(mine) }, { token: owner.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: null,
    });
    expect((await h.call(listAlerts, {}, { token: owner.token })).data.lists).toEqual([]);
    expect(await h.call(deletePriceAlert, { id: String(mine) }, { token: owner.token })).toEqual(notFound);
  });
});

describe('weighing the recorded ticks', () => {
  it('fires above and below on the first recorded tick that meets them, never on one before the alert', async () => {
    const who = await customer(h);
    const base = freshDay();
    // Ticks before the alerts meet both conditions: they do not count.
    await tick('BNB', base - 2 * SECOND, '700');
    await tick('BNB', base - SECOND, '500');
    await tick('BNB', base - SECOND / 2, '620'); // the last before them: neither is met yet
    const above = (await add(who, { code: 'BNB', kind: 'above', price: '650' })).data.id;
    const below = (await add(who, { code: 'BNB', kind: 'below', price: '600.5' })).data.id;
    h.clock.advance(500);
    expect(await weigh()).toBe(0);
    await tick('BNB', base + SECOND, '640');
    await tick('BNB', base + 2 * SECOND, '650'); // the first at or above 650
    await tick('BNB', base + 3 * SECOND, '660');
    await tick('BNB', base + 4 * SECOND, '600.5'); // the first at or below 600.5
    await tick('BNB', base + 5 * SECOND, '590');
    h.clock.set(new Date(base + 6 * SECOND));
    expect(await weigh()).toBe(2);
    expect(await alertRow(above)).toMatchObject({
      firedAt: new Date(base + 6 * SECOND),
      firedTickAt: new Date(base + 2 * SECOND),
      firedPrice: '650.000000000000',
      firedFromPrice: null,
    });
    expect(await alertRow(below)).toMatchObject({
      firedTickAt: new Date(base + 4 * SECOND),
      firedPrice: '600.500000000000',
    });
    const listed = (await h.call(listAlerts, {}, { token: who.token })).data.lists;
    expect(listed.find((alert) => alert.id === above)).toMatchObject({
      fired_price: '650',
      fired_tick_at: new Date(base + 2 * SECOND).toISOString(),
      fired_at: new Date(base + 6 * SECOND).toISOString(),
    });
  });

  it('fires a move against the last price recorded 24 hours before each tick, and not without one', async () => {
    const who = await customer(h);
    const base = freshDay();
    const day = 24 * HOUR;
    // 24 hours before: 100 until a new price of 50 recorded 2.5 s after the alert's start, a day earlier.
    await tick('LTC', base + SECOND - day - 5 * SECOND, '100');
    await tick('LTC', base + 2500 - day, '50');
    const move = (await add(who, { code: 'LTC', kind: 'move', percent: '5' })).data.id;
    // DOT has no tick a day old: a move cannot fire yet.
    await tick('DOT', base - HOUR, '8');
    const young = (await add(who, { code: 'DOT', kind: 'move', percent: '1' })).data.id;
    await tick('LTC', base + SECOND, '104'); // +4 % against 100
    await tick('LTC', base + 2 * SECOND, '97'); // -3 % against 100
    await tick('LTC', base + 3 * SECOND, '52.4'); // +4.8 % against 50 (-47.6 % against 100: the wrong reference)
    await tick('LTC', base + 4 * SECOND, '52.6'); // +5.2 % against 50: fires
    await tick('LTC', base + 5 * SECOND, '200');
    await tick('DOT', base + SECOND, '80'); // +900 % within the hour
    h.clock.set(new Date(base + 6 * SECOND));
    expect(await weigh()).toBe(1);
    expect(await alertRow(move)).toMatchObject({
      firedTickAt: new Date(base + 4 * SECOND),
      firedPrice: '52.600000000000',
      firedFromPrice: '50.000000000000',
    });
    // Weighed through DOT's latest tick on its own, it follows DOT's mark from now on.
    expect(await alertRow(young)).toMatchObject({ firedAt: null, checkedThrough: null });
    expect(await markOf('DOT')).toEqual(new Date(base + SECOND));
    const listed = (await h.call(listAlerts, {}, { token: who.token })).data.lists;
    expect(listed.find((alert) => alert.id === move)).toMatchObject({ fired_from_price: '50', fired_price: '52.6' });
    const [message] = await messagesOf(who.id);
    expect(message).toMatchObject({ title: 'Price alert: LTC' });
    expect(message!.content).toBe(
      `${SIMULATED}LTC moved +5.20 % in 24 hours: 52.6 USDT recorded at ${new Date(base + 4 * SECOND)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ')} UTC, against 50 USDT recorded 24 hours before. Your alert: a move of 5 %.`,
    );
  });

  it('measures a move only against a price recorded in the minute before the 24 hours, never an older one', async () => {
    const who = await customer(h);
    const base = freshDay();
    const day = 24 * HOUR;
    // BNB recorded 100 thirty hours ago, then nothing (halted, or the servers down) until 150 now: +50 %, but over 30
    // hours. Its message would say "against 100 USDT recorded 24 hours before": it was not.
    await tick('BNB', base - 30 * HOUR, '100');
    const move = (await add(who, { code: 'BNB', kind: 'move', percent: '10' })).data.id;
    await tick('BNB', base + SECOND, '150');
    h.clock.set(new Date(base + 2 * SECOND));
    expect(await weigh()).toBe(0);
    // The feed records again every second: a day on, each tick has the price of the second a day before it.
    await tick('BNB', base + day + 2 * SECOND, '120'); // -20 % against 150
    h.clock.set(new Date(base + day + 3 * SECOND));
    expect(await weigh()).toBe(1);
    expect(await alertRow(move)).toMatchObject({
      firedTickAt: new Date(base + day + 2 * SECOND),
      firedFromPrice: '150.000000000000',
    });
  });

  it('fires once: runs again and at once, one station message in every language and one push', async () => {
    const who = await customer(h);
    await subscribe(who, 'zh');
    await subscribe(who, 'en');
    const quiet = await customer(h);
    await subscribe(quiet, 'en');
    // The quiet customer turned price alerts off: no push, the station message still comes.
    expect((await h.call(setNoticeSettings, { off: 'price_alert' }, { token: quiet.token })).ret).toBe(1);
    const base = freshDay();
    const id = (await add(who, { code: 'XRP', kind: 'below', price: '1.4' })).data.id;
    const quietId = (await add(quiet, { code: 'XRP', kind: 'below', price: '1.4' })).data.id;
    await tick('XRP', base + SECOND, '1.3999');
    h.clock.set(new Date(base + 2 * SECOND));
    const runs = await Promise.all([weigh(), weigh(), weigh()]);
    expect(runs.reduce((sum, fired) => sum + fired, 0)).toBe(2);
    await tick('XRP', base + 3 * SECOND, '1.2');
    h.clock.set(new Date(base + 4 * SECOND));
    expect(await weigh()).toBe(0);
    expect(await alertRow(id)).toMatchObject({ firedTickAt: new Date(base + SECOND), firedPrice: '1.399900000000' });
    expect(await alertRow(quietId)).toMatchObject({ firedTickAt: new Date(base + SECOND) });

    const when = `${new Date(base + SECOND).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
    // The harness's feed is the simulated one: the message says so first.
    const english = `${SIMULATED}XRP fell to 1.3999 USDT, recorded at ${when}: at or below your alert price of 1.4 USDT.`;
    const said = await messagesOf(who.id);
    expect(said.map(({ title, content }) => ({ title, content }))).toEqual([
      { title: 'Price alert: XRP', content: english },
    ]);
    // Read in the app's language.
    for (const lang of ['en', 'zh', 'th', 'jp', 'ar', 'hi']) {
      const listed = await h.call(listMessages, {}, { token: who.token, lang });
      const [first] = listed.data.lists;
      expect(first!.id).toBe(said[0]!.id);
      if (lang === 'en') expect(first!.content).toBe(english);
      else {
        expect(first!.content).not.toBe(english);
        expect(first!.content).toContain('1.3999');
        expect(first!.content).toContain(when);
        expect(first!.title).toContain('XRP');
      }
    }
    // One push per browser, each in its language, opening the message.
    const pushes = await pushesOf(who.id);
    expect(pushes.map((row) => row.language).sort()).toEqual(['en', 'zh']);
    const english0 = pushes.find((row) => row.language === 'en')!;
    expect(english0.payload).toEqual({
      title: 'Price alert: XRP',
      body: english,
      url: `#${ROUTES.messages}?id=${said[0]!.id}`,
      tag: `price-alert:${id}`,
    });
    expect(pushes.find((row) => row.language === 'zh')!.subject).toMatch(/[\u4e00-\u9fff]/);
    // No second station_message push for the same thing.
    expect(
      await h.database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.userId, who.id), eq(outbox.kind, 'station_message'))),
    ).toEqual([]);
    // The quiet customer: the message, no push.
    expect(await messagesOf(quiet.id)).toHaveLength(1);
    expect(await pushesOf(quiet.id)).toEqual([]);
  });

  it('says so, first, when the recorded price that fired it is simulated; not when the market index recorded it', async () => {
    const who = await customer(h);
    await subscribe(who, 'en');
    const base = freshDay();
    await tick('LTC', base - SECOND, '100');
    const simulated = (await add(who, { code: 'LTC', kind: 'above', price: '101' })).data.id;
    const indexed = (await add(who, { code: 'LTC', kind: 'above', price: '103' })).data.id;
    await tick('LTC', base + SECOND, '102');
    const at = new Date(base + 2 * SECOND);
    const exchanges = ['binance', 'okx', 'kraken'].map((exchange) => ({ exchange, price: '104', at }));
    await h.market.record([{ coin: 'LTC', at, price: '104', volume: '1', constituents: exchanges }]);
    h.clock.set(new Date(base + 3 * SECOND));
    expect(await weigh()).toBe(2);
    const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
    const [first, second] = await messagesOf(who.id);
    expect(first!.content).toBe(
      `${SIMULATED}LTC reached 102 USDT, recorded at ${when(base + SECOND)}: at or above your alert price of 101 USDT.`,
    );
    expect(second!.content).toBe(
      `LTC reached 104 USDT, recorded at ${when(base + 2 * SECOND)}: at or above your alert price of 103 USDT.`,
    );
    // The push of each says the same (a notification may be cut: the simulated one says it first).
    const pushes = await pushesOf(who.id);
    expect(pushes.map((row) => row.body)).toEqual([first!.content, second!.content]);
    expect(pushes.map((row) => (row.payload as { tag: string }).tag)).toEqual([
      `price-alert:${simulated}`,
      `price-alert:${indexed}`,
    ]);
    // Read in another language, it is said in that language.
    const [zh] = (await h.call(listMessages, {}, { token: who.token, lang: 'zh' })).data.lists.filter(
      (message) => message.id === first!.id,
    );
    expect(zh!.content).toMatch(/^模拟价格/);
  });

  it('goes on after a stop from the last tick it weighed: nothing weighed twice or skipped', async () => {
    const who = await customer(h);
    const base = freshDay();
    const id = (await add(who, { code: 'ADA', kind: 'above', price: '2' })).data.id;
    for (let s = 1; s <= 3; s++) await tick('ADA', base + s * SECOND, '1.5');
    h.clock.set(new Date(base + 4 * SECOND));
    expect(await weigh()).toBe(0);
    expect(await alertRow(id)).toMatchObject({ firedAt: null, checkedThrough: null });
    expect(await markOf('ADA')).toEqual(new Date(base + 3 * SECOND));
    // The process stops (nothing of it is kept but the rows); ticks recorded meanwhile by another: 1,500 a second
    // apart, the condition first met at the 1,300th. Each run weighs a slice of WEIGH_SLICE_TICKS, the restarted one
    // goes on from the coin's mark and fires at that very tick.
    const backlog = Array.from({ length: 1500 }, (_, i) => ({
      coin: 'ADA',
      at: new Date(base + (4 + i) * SECOND),
      price: i + 1 >= 1300 ? '2.25' : '1.9',
    }));
    await h.database.db.insert(priceTicks).values(backlog);
    h.clock.set(new Date(base + 1600 * SECOND));
    const slices: (Date | null)[] = [];
    for (let run = 0; run < 10 && (await alertRow(id)).firedAt === null; run++) {
      await weigh();
      slices.push(await markOf('ADA'));
    }
    expect(await alertRow(id)).toMatchObject({
      firedTickAt: new Date(base + (4 + 1299) * SECOND),
      firedPrice: '2.250000000000',
    });
    // It took slices: the backlog is not weighed in one statement.
    expect(slices.length).toBe(Math.ceil(1300 / WEIGH_SLICE_TICKS));
    expect(slices[0]).toEqual(new Date(base + (3 + WEIGH_SLICE_TICKS) * SECOND));
    expect(await messagesOf(who.id)).toHaveLength(1);
  });

  it('the ticks an alert has yet to weigh outlive the thinning of ticks older than 48 hours', async () => {
    const who = await customer(h);
    const base = freshDay();
    await tick('DOT', base - SECOND, '9');
    const id = (await add(who, { code: 'DOT', kind: 'above', price: '10' })).data.id;
    await tick('DOT', base + SECOND, '9');
    h.clock.set(new Date(base + 2 * SECOND));
    expect(await weigh()).toBe(0);
    expect(await markOf('DOT')).toEqual(new Date(base + SECOND));
    // The weighing stops for two days (its job failing at every run while the feed goes on recording): a tick meets
    // the alert, and the hourly thinning of old ticks runs before the weighing is back.
    await tick('DOT', base + 3 * SECOND, '10.5');
    await tick('DOT', base + 49 * HOUR, '9.5');
    h.clock.set(new Date(base + 49 * HOUR + SECOND));
    // The contract matching is up to date: none of its ticks are kept for it.
    await matchAllPairs(h.database.db, h.clock.now());
    await thinPriceTicks(h.database.db, h.clock.now());
    expect(await weigh()).toBe(1);
    expect(await alertRow(id)).toMatchObject({
      firedTickAt: new Date(base + 3 * SECOND),
      firedPrice: '10.500000000000',
    });
  });

  it('a deleted alert never fires, a halted coin (no ticks recorded) fires nothing', async () => {
    const who = await customer(h);
    const base = freshDay();
    const gone = (await add(who, { code: 'TRX', kind: 'above', price: '0.1' })).data.id;
    const waits = (await add(who, { code: 'DOGE', kind: 'above', price: '0.1' })).data.id;
    expect((await h.call(deletePriceAlert, { id: String(gone) }, { token: who.token })).ret).toBe(1);
    await tick('TRX', base + SECOND, '0.3');
    h.clock.set(new Date(base + 2 * SECOND));
    expect(await weigh()).toBe(0);
    expect(await alertRow(waits)).toMatchObject({ firedAt: null, checkedThrough: new Date(base) });
    expect(await messagesOf(who.id)).toEqual([]);
  });
});

describe('run time', () => {
  const ALERTS = 10_000;
  const COINS = ['BTC', 'ETH', 'BNB', 'SOL', 'XRP', 'DOGE', 'ADA', 'TRX', 'LTC', 'DOT'];

  it(`weighs ${ALERTS} waiting alerts in one run`, async () => {
    const db = h.database.db;
    const owners: Customer[] = [];
    for (let i = 0; i < 4; i++) owners.push(await customer(h));
    const base = freshDay();
    // A day ago and the last minute: a tick a second per coin (the feed's pace), the move's references included.
    const ticks: { coin: string; at: Date; price: string }[] = [];
    for (const coin of COINS) {
      for (let s = 0; s < 120; s++)
        ticks.push({ coin, at: new Date(base - 24 * HOUR - 60 * SECOND + s * SECOND), price: '100' });
      for (let s = -60; s <= 0; s++) ticks.push({ coin, at: new Date(base + s * SECOND), price: '100' });
    }
    await db.insert(priceTicks).values(ticks);
    // None is met by the next ticks (100.5): the worst case, every alert is weighed and advanced.
    const rows = Array.from({ length: ALERTS }, (_, i) => {
      const kind = (['above', 'below', 'move'] as const)[i % 3];
      return {
        userId: owners[i % owners.length]!.id,
        coin: COINS[i % COINS.length]!,
        kind,
        price: kind === 'above' ? String(101 + (i % 50)) : kind === 'below' ? String(99 - (i % 50)) : null,
        percent: kind === 'move' ? String(1 + (i % 9)) : null,
        createdAt: new Date(base - 30 * SECOND),
        checkedThrough: new Date(base - 30 * SECOND),
      };
    });
    for (let i = 0; i < rows.length; i += 1000) await db.insert(priceAlerts).values(rows.slice(i, i + 1000));

    // New, each is weighed on its own over its 30 seconds of ticks, JOIN_BATCH per coin and run, until all follow
    // their coin's mark; then a run weighs the one new tick of each coin.
    h.clock.set(new Date(base + SECOND));
    let started = performance.now();
    let catchUpRuns = 0;
    for (; catchUpRuns < 10; catchUpRuns++) {
      expect(await weigh()).toBe(0);
      const [left] = rowsOf<{ joining: number }>(
        await db.execute(sql`select count(*)::int as joining from price_alerts where checked_through is not null`),
      );
      if (Number(left!.joining) === 0) break;
    }
    const first = performance.now() - started;
    await db.insert(priceTicks).values(COINS.map((coin) => ({ coin, at: new Date(base + SECOND), price: '100.5' })));
    h.clock.set(new Date(base + 2 * SECOND));
    started = performance.now();
    expect(await weigh()).toBe(0);
    const steady = performance.now() - started;
    // Every alert caught up and follows its coin's mark, which the steady run moved.
    const [counted] = rowsOf<{ following: number }>(
      await db.execute(sql`select count(*)::int as following from price_alerts where checked_through is null`),
    );
    expect(Number(counted!.following)).toBe(ALERTS);
    for (const coin of COINS) expect(await markOf(coin)).toEqual(new Date(base + SECOND));

    // A tick that meets a tenth of them (above 101..105 of BTC and DOGE…): they fire in the same run.
    await db.insert(priceTicks).values(COINS.map((coin) => ({ coin, at: new Date(base + 2 * SECOND), price: '103' })));
    h.clock.set(new Date(base + 3 * SECOND));
    started = performance.now();
    const fired = await weigh();
    const firing = performance.now() - started;
    // Above 101 to 103, and moves of 1 % to 3 % (against 100 a day before).
    const expected = rows.filter(
      (row) => (row.kind === 'above' && Number(row.price) <= 103) || (row.kind === 'move' && Number(row.percent) <= 3),
    ).length;
    expect(fired).toBe(expected);
    console.log(
      `price alerts, ${ALERTS} waiting on PostgreSQL: catching up (30 s of ticks each) ${first.toFixed(0)} ms in ${catchUpRuns + 1} runs, ` +
        `steady run (one new tick per coin) ${steady.toFixed(0)} ms, a run firing ${fired} ${firing.toFixed(0)} ms`,
    );
  }, 300_000);
});
