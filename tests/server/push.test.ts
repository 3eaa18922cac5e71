// Web Push, server side: a customer's events reach the browsers that customer subscribed,
// encrypted for each (RFC 8291) and signed with the server's VAPID key (RFC 8292), in the browser's
// language, unless that kind is turned off. A local push-service stand-in receives the requests and
// the test decrypts them as the browser would.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { noticeTexts } from '../../src/api-contract/notifications.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, refused } from './helpers.ts';
import { changePassword } from '../../src/api-contract/account.ts';
import { approvedRecharge, opsOk } from './funds-helpers.ts';
import {
  decryptPush,
  startPushStandIn,
  verifiedVapid,
  type BrowserSubscription,
  type PushStandIn,
} from './push-standin.ts';
import {
  noticeSettings,
  pushKey,
  setNoticeSettings,
  subscribePush,
  unsubscribePush,
} from '../../src/api-contract/notifications.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import { outbox, pushSubscriptions, serverKeys } from '../../src/server/db/schema.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';
import { pushTransport } from '../../src/server/delivery/push.ts';
import { deliverDue } from '../../src/server/jobs/delivery.ts';
import { postMessage } from '../../src/server/domain/messages.ts';
import { utcMinute } from '../../src/server/domain/security-notices.ts';
import { translator } from '../../src/server/i18n.ts';
import type { Outcome, Transport } from '../../src/server/delivery/transport.ts';
import {
  DEFAULT_PUSH_SERVICE_HOSTS,
  PUSH_SUBSCRIPTIONS_MAX,
  knownPushService,
  subscribe,
} from '../../src/server/domain/push-subscriptions.ts';
import { loadConfig } from '../../src/server/config.ts';

const SUBJECT = 'mailto:operators@coinvest.example';

let h: Harness;
let service: PushStandIn;
let transport: Transport;
let publicKey: string;
beforeAll(async () => {
  service = await startPushStandIn();
  // The stand-in's own port, and port 9 (discard, nothing listening) for a push service that cannot be reached.
  const { host } = new URL(service.origin);
  h = await startHarness({ pushServiceHosts: [host, '127.0.0.1:9'] });
  transport = pushTransport(h.database.db, { subject: SUBJECT, agent: service.agent });
  const key = await h.call(pushKey, {}, { token: (await customer(h)).token });
  expect(key.ret).toBe(1);
  publicKey = key.data.public_key;
});
afterAll(async () => {
  await service.close();
  await h.close();
});

type Customer = Awaited<ReturnType<typeof customer>>;

/** Subscribes `browser` (a new one by default) for `user`, in `language`. */
async function subscribed(
  user: Customer,
  language = 'en',
  browser = service.newSubscription(),
): Promise<BrowserSubscription> {
  const res = await h.call(
    subscribePush,
    { endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth, language },
    { token: user.token },
  );
  expect(res).toEqual({ ret: 1, msg: 'Success', data: null });
  return browser;
}

/** What the delivery job does with each queued push row: hands it to the transport (and records the outcome). */
async function deliverQueued(): Promise<{ row: typeof outbox.$inferSelect; outcome: Outcome }[]> {
  const db = h.database.db;
  const rows = await db
    .select()
    .from(outbox)
    .where(and(eq(outbox.channel, 'push'), eq(outbox.status, 'queued')))
    .orderBy(outbox.id);
  const results = [];
  for (const row of rows) {
    const outcome = await transport.send(row);
    await db
      .update(outbox)
      .set({
        status: outcome.sent || !outcome.retry ? (outcome.sent ? 'sent' : 'failed') : 'queued',
        attempts: row.attempts + 1,
      })
      .where(eq(outbox.id, row.id));
    results.push({ row, outcome });
  }
  return results;
}

/** The notifications the stand-in received for one browser since `from`, decrypted. */
function notificationsFor(browser: BrowserSubscription, from = 0) {
  const path = new URL(browser.endpoint).pathname;
  return service.received
    .slice(from)
    .filter((request) => request.path === path)
    .map(
      (request) =>
        JSON.parse(decryptPush(request.body, browser)) as { title: string; body: string; url: string; tag: string },
    );
}

/** A 1-minute option that opens at `startPrice` (the first tick after it was accepted) and settles at `endPrice`. */
/**
 * An option of 10 USDT placed, opened and settled a minute later at the given prices. Its ticks are the market
 * index's (three exchanges' prices) unless `simulated`, when they come from the simulated feed.
 */
async function settledOption(
  user: Customer,
  coin: string,
  direction: 'up' | 'down',
  startPrice: string,
  endPrice: string,
  { simulated = false } = {},
) {
  const tick = (at: number, price: string) => {
    const constituents = ['binance', 'okx', 'kraken'].map((exchange) => ({ exchange, price, at: new Date(at) }));
    return h.market.record([{ coin, at: new Date(at), price, volume: '1', ...(simulated ? {} : { constituents }) }]);
  };
  const accepted = h.clock.now().getTime();
  await tick(accepted, startPrice);
  const product = (await h.call(optionProducts, { code: coin })).data.lists.find((p) => p.minutes === 1)!;
  const order = await h.call(
    placeOption,
    { code: coin, direction, amount: '10', product_id: String(product.id) },
    { token: user.token },
  );
  expect(order.ret).toBe(1);
  const start = accepted + 1000;
  h.clock.set(new Date(start));
  await tick(start, startPrice);
  expect(await openAllPending(h.database.db, h.clock.now())).toBeGreaterThanOrEqual(1);
  h.clock.advance(60_000);
  await tick(start + 60_000, endPrice);
  expect(await settleAllDue(h.database.db, h.clock.now())).toBeGreaterThanOrEqual(1);
  return order.data;
}

describe('the VAPID key', () => {
  it('is made once and kept in the database: the key call answers the kept public key', async () => {
    const [row] = await h.database.db.select().from(serverKeys).where(eq(serverKeys.name, 'vapid'));
    expect(JSON.parse(row!.value)).toMatchObject({ publicKey });
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await h.call(pushKey, {}, { token: (await customer(h)).token })).data.public_key).toBe(publicKey);
  });
});

describe('from an event to the browser', () => {
  it('a settled option arrives at the push service encrypted for the browser, signed with the kept key, with the result and the order page', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    const from = service.received.length;
    const order = await settledOption(user, 'BTC', 'up', '100000', '100500');

    const delivered = await deliverQueued();
    expect(delivered.map(({ outcome }) => outcome)).toEqual([{ sent: true }]);
    const [request] = service.received.slice(from);
    expect(request!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400' });
    const claims = verifiedVapid(request!.headers.authorization, publicKey);
    expect(claims).toMatchObject({ aud: service.origin, sub: SUBJECT });
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    expect(claims.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(notificationsFor(browser, from)).toEqual([
      {
        title: 'BTC option settled',
        body: 'You won: +8 USDT',
        url: `#/pages/Option/orderRecord/orderRecord?id=${order.id}`,
        tag: `option:${order.id}`,
      },
    ]);
  });

  it('an option settled at simulated prices says so first, in the browser’s language', async () => {
    const user = await customer(h, '100');
    const [english, thai] = [await subscribed(user), await subscribed(user, 'th')];
    const from = service.received.length;
    await settledOption(user, 'BTC', 'up', '100000', '100500', { simulated: true });
    await deliverQueued();
    expect(notificationsFor(english, from).map(({ body }) => body)).toEqual([
      'Simulated prices, not a real market: You won: +8 USDT',
    ]);
    const th = translator('th');
    expect(notificationsFor(thai, from).map(({ body }) => body)).toEqual([
      th(serverTexts.simulatedPricesFirst, { 0: th(noticeTexts.optionWon, { 0: '8' }) }),
    ]);
  });

  it('the delivery job hands push rows to the push transport and marks them sent', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    const from = service.received.length;
    await settledOption(user, 'BTC', 'down', '100000', '100000');
    const fallback = { send: () => Promise.reject(new Error('a push row went to the fallback transport')) };
    expect(await deliverDue(h.database.db, { transports: { push: transport }, fallback })).toBe(1);
    expect(notificationsFor(browser, from)).toEqual([
      expect.objectContaining({ title: 'BTC option settled', body: 'A tie: your 10 USDT are back' }),
    ]);
    const rows = await h.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'push'), eq(outbox.userId, user.id)));
    expect(rows.map(({ status, kind, language }) => ({ status, kind, language }))).toEqual([
      { status: 'sent', kind: 'option_settled', language: 'en' },
    ]);
  });

  it('is written in the language the browser subscribed with', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user, 'zh');
    const from = service.received.length;
    await settledOption(user, 'ETH', 'up', '3000', '2900');
    await deliverQueued();
    expect(notificationsFor(browser, from)).toEqual([
      expect.objectContaining({ title: 'ETH 期权已结算', body: '亏损：-10 USDT' }),
    ]);
  });

  it('says a security notice in each browser’s language, whatever the language of the request that caused it', async () => {
    const user = await customer(h, '100');
    const [english, thai] = [await subscribed(user), await subscribed(user, 'th')];
    const from = service.received.length;
    // Asked from an English screen.
    const changed = await h.call(
      changePassword,
      { oldpass: PASSWORD, password: 'xyz98765', repassword: 'xyz98765' },
      { token: user.token, lang: 'en' },
    );
    expect(changed.ret).toBe(1);
    await deliverQueued();
    const th = translator('th');
    expect(notificationsFor(english, from).map(({ title }) => title)).toEqual(['Login password changed']);
    const said = th(serverTexts.passwordChanged, { 0: utcMinute(h.clock.now()) });
    const [thaiPush] = notificationsFor(thai, from);
    expect(thaiPush!.title).toBe(th(serverTexts.passwordChangedTitle));
    expect(said.startsWith(thaiPush!.body.replace(/…$/, ''))).toBe(true);
    expect(thaiPush!.body.length).toBeGreaterThan(20);
  });

  /** A market buy of 0.001 BTC placed after a recorded price, accepted (it fills at the next tick). */
  async function marketBuy(token: string) {
    await h.tick();
    const fill = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'market', quantity: '0.001' },
      { token },
    );
    expect(fill.ret).toBe(1);
    return fill;
  }

  it('a contract fill at a tick of the market index says nothing of simulated prices', async () => {
    const user = await customer(h, '1000');
    const phone = await subscribed(user);
    const from = service.received.length;
    const fill = await marketBuy(user.token);
    // The first tick after the order is the index's, made of three exchanges' prices.
    const at = new Date(h.clock.now().getTime() + 1000);
    const exchanges = ['binance', 'okx', 'kraken'].map((exchange) => ({ exchange, price: '97000', at }));
    await h.market.record([{ coin: 'BTC', at, price: '97000', volume: '1', constituents: exchanges }]);
    h.clock.set(new Date(at.getTime() + 1000));
    await matchAllPairs(h.database.db, h.clock.now());
    await deliverQueued();
    expect(notificationsFor(phone, from)).toEqual([
      {
        title: 'Contract order filled',
        body: 'Bought 0.001 BTC at 97000 USDT',
        url: '#/pages/contracts/orderList?code=BTC',
        tag: `contract:${fill.data.id}`,
      },
    ]);
  });

  it('reaches every browser of the customer, and a contract fill, a recharge and a station message each arrive with their page', async () => {
    const user = await customer(h, '1000');
    const [phone, laptop] = [await subscribed(user), await subscribed(user, 'jp')];
    const from = service.received.length;
    const fill = await marketBuy(user.token);
    // It fills at the feed's next step.
    h.clock.advance(1000);
    await h.tick();
    const filledAt = new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000).toISOString();
    await matchAllPairs(h.database.db, h.clock.now());
    const recharge = await approvedRecharge(h, user.token, '50');
    const message = await postMessage(
      h.database.db,
      { to: user.id, title: 'Maintenance tonight', content: 'Trading pauses at 02:00 for ten minutes.' },
      h.clock.now(),
    );
    await deliverQueued();

    const filled = (
      await h.call(contractOrders, { status: 'history', code: 'BTC' }, { token: user.token })
    ).data.lists.find((order) => order.id === fill.data.id);
    expect(filled).toMatchObject({ status: 'filled', tick_at: filledAt });
    const price = filled!.unit_price!;
    expect(notificationsFor(phone, from)).toEqual([
      {
        title: 'Contract order filled',
        // The harness records the simulated feed's ticks: the fill says its price was simulated, first.
        body: `Simulated prices, not a real market: Bought 0.001 BTC at ${price} USDT`,
        url: '#/pages/contracts/orderList?code=BTC',
        tag: `contract:${fill.data.id}`,
      },
      {
        title: 'Recharge credited',
        body: '50 USDT were added to your balance',
        url: `#/pages/Recharge/orderDetails?id=${recharge.id}`,
        tag: `recharge:${recharge.id}`,
      },
      {
        title: 'Maintenance tonight',
        body: 'Trading pauses at 02:00 for ten minutes.',
        url: `#/pages/index/msgList?id=${message.id}`,
        tag: `message:${message.id}`,
      },
    ]);
    expect(notificationsFor(laptop, from).map(({ title }) => title)).toEqual([
      '契約注文が約定しました',
      'チャージが入金されました',
      'Maintenance tonight',
    ]);
  });

  it('a rejected recharge says why', async () => {
    const user = await customer(h);
    const browser = await subscribed(user);
    const from = service.received.length;
    const order = await h.call(
      (await import('../../src/api-contract/funds.ts')).submitRecharge,
      { kind: 'crypto', channel_id: '1', amount: '20', hash: 'a'.repeat(64) },
      { token: user.token },
    );
    await opsOk(h, 'recharge', 'reject', String(order.data.id), 'The transfer never arrived');
    await deliverQueued();
    expect(notificationsFor(browser, from)).toEqual([
      expect.objectContaining({ title: 'Recharge rejected', body: '20 USDT · Reason: The transfer never arrived' }),
    ]);
  });
});

describe('what the push service answers', () => {
  it('410 Gone removes the subscription and is not tried again; nothing is queued for it afterwards', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    await settledOption(user, 'SOL', 'up', '150', '151');
    service.answer(410);
    try {
      const [delivered] = await deliverQueued();
      expect(delivered!.outcome).toMatchObject({ sent: false, retry: false });
    } finally {
      service.answer(201);
    }
    expect(
      await h.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, browser.endpoint)),
    ).toEqual([]);
    await settledOption(user, 'SOL', 'up', '151', '152');
    expect(await deliverQueued()).toEqual([]);
  });

  it('404 removes it too; 500 and 429 are tried again later and keep the subscription', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    await settledOption(user, 'XRP', 'down', '2', '1.5');
    for (const status of [500, 429]) {
      service.answer(status);
      const [delivered] = await deliverQueued();
      expect(delivered!.outcome).toMatchObject({
        sent: false,
        retry: true,
        error: expect.stringContaining(String(status)),
      });
    }
    service.answer(201);
    const from = service.received.length;
    expect((await deliverQueued()).map(({ outcome }) => outcome)).toEqual([{ sent: true }]);
    expect(notificationsFor(browser, from)).toHaveLength(1);

    await settledOption(user, 'XRP', 'down', '2', '1.5');
    service.answer(404);
    try {
      expect((await deliverQueued()).map(({ outcome }) => outcome.sent || outcome.retry)).toEqual([false]);
    } finally {
      service.answer(201);
    }
    expect(
      await h.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, browser.endpoint)),
    ).toEqual([]);
  });

  it('a push service that drops the connection mid-answer: the try ends, is tried again, and arrives', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    await settledOption(user, 'ADA', 'up', '0.5', '0.6');
    service.answer(503);
    service.breakMidAnswer(true);
    try {
      // Before, the send never ended: the delivery job's run waited for it for ever, and no message of any customer
      // (codes included) left this process again.
      const [delivered] = await deliverQueued();
      expect(delivered!.outcome).toMatchObject({ sent: false, retry: true });
    } finally {
      service.breakMidAnswer(false);
      service.answer(201);
    }
    const from = service.received.length;
    expect((await deliverQueued()).map(({ outcome }) => outcome)).toEqual([{ sent: true }]);
    expect(notificationsFor(browser, from).map(({ title }) => title)).toEqual(['ADA option settled']);
  }, 20_000);

  it('a message the push service accepted (201) before dropping the connection is not sent a second time', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    await settledOption(user, 'ADA', 'up', '0.5', '0.6');
    const from = service.received.length;
    service.breakMidAnswer(true);
    try {
      expect((await deliverQueued()).map(({ outcome }) => outcome)).toEqual([{ sent: true }]);
    } finally {
      service.breakMidAnswer(false);
    }
    // Nothing left to send: the browser got the notice once.
    expect(await deliverQueued()).toEqual([]);
    expect(notificationsFor(browser, from).map(({ title }) => title)).toEqual(['ADA option settled']);
  }, 20_000);

  it('a push service that cannot be reached is tried again', async () => {
    const user = await customer(h, '100');
    const gone = { ...service.newSubscription(), endpoint: 'https://127.0.0.1:9/push/nobody' };
    await h.call(
      subscribePush,
      { endpoint: gone.endpoint, p256dh: gone.p256dh, auth: gone.auth, language: 'en' },
      { token: user.token },
    );
    await settledOption(user, 'DOGE', 'up', '0.2', '0.3');
    const [delivered] = await deliverQueued();
    expect(delivered!.outcome).toMatchObject({ sent: false, retry: true });
    await h.database.db.delete(outbox).where(eq(outbox.target, delivered!.row.target));
  });
});

describe('the customer decides, and only for themselves', () => {
  it('a kind turned off queues nothing of that kind; the other kinds still arrive', async () => {
    const user = await customer(h, '100');
    const browser = await subscribed(user);
    expect(await h.call(noticeSettings, {}, { token: user.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: { off: [] },
    });
    expect(
      await h.call(setNoticeSettings, { off: 'option_settled,station_message' }, { token: user.token }),
    ).toMatchObject({
      ret: 1,
      data: { off: ['option_settled', 'station_message'] },
    });
    const from = service.received.length;
    await settledOption(user, 'BTC', 'down', '100000', '99000');
    await postMessage(h.database.db, { to: user.id, title: 'Hello', content: 'A message' }, h.clock.now());
    await approvedRecharge(h, user.token, '10');
    await deliverQueued();
    expect(notificationsFor(browser, from).map(({ title }) => title)).toEqual(['Recharge credited']);

    expect(await h.call(setNoticeSettings, { off: '' }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { off: [] },
    });
    await settledOption(user, 'BTC', 'down', '100000', '99000');
    await deliverQueued();
    expect(notificationsFor(browser, from).map(({ title }) => title)).toEqual([
      'Recharge credited',
      'BTC option settled',
    ]);
  });

  it("another customer's events never reach a browser, and their settings and unsubscribe touch only their own", async () => {
    const [customer1, customer2] = [await customer(h, '100'), await customer(h, '100')];
    const customer1Phone = await subscribed(customer1);
    const customer2Phone = await subscribed(customer2);
    const from = service.received.length;
    expect(
      await h.call(unsubscribePush, { endpoint: customer1Phone.endpoint }, { token: customer2.token }),
    ).toMatchObject({
      ret: 1,
    });
    await h.call(setNoticeSettings, { off: 'option_settled' }, { token: customer2.token });
    await settledOption(customer1, 'ETH', 'up', '3000', '3100');
    await deliverQueued();
    expect(notificationsFor(customer1Phone, from).map(({ title }) => title)).toEqual(['ETH option settled']);
    expect(notificationsFor(customer2Phone, from)).toEqual([]);
    expect(await h.call(noticeSettings, {}, { token: customer1.token })).toMatchObject({ data: { off: [] } });
  });

  it('a browser customer2 signs in on after customer1: what was queued for customer1 is not sent to it', async () => {
    const [customer1, customer2] = [await customer(h, '100'), await customer(h, '100')];
    const shared = await subscribed(customer1);
    await settledOption(customer1, 'SOL', 'down', '150', '140');
    // Customer2 signs in on the same browser and turns notifications on: the subscription is theirs now.
    await subscribed(customer2, 'en', shared);
    const from = service.received.length;
    expect((await deliverQueued()).map(({ outcome }) => outcome)).toEqual([
      { sent: false, retry: false, error: expect.any(String) },
    ]);
    expect(notificationsFor(shared, from)).toEqual([]);
  });

  it(`keeps the ${PUSH_SUBSCRIPTIONS_MAX} browsers subscribed last: an event queues no more pushes than that`, async () => {
    const user = await customer(h);
    const first = await subscribed(user);
    const others = [];
    for (let i = 0; i < 3 * PUSH_SUBSCRIPTIONS_MAX; i++) others.push(await subscribed(user));
    // The first browser subscribes again (Settings opened on it): it is one of the last now.
    await subscribed(user, 'en', first);
    const from = service.received.length;
    await postMessage(h.database.db, { to: user.id, title: 'Hello', content: 'A message' }, h.clock.now());
    const delivered = await deliverQueued();
    expect(delivered.filter(({ row }) => row.userId === user.id)).toHaveLength(PUSH_SUBSCRIPTIONS_MAX);
    expect(notificationsFor(first, from)).toHaveLength(1);
    expect(notificationsFor(others.at(-1)!, from)).toHaveLength(1);
    expect(notificationsFor(others[0]!, from)).toEqual([]);
    expect(
      await h.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)),
    ).toHaveLength(PUSH_SUBSCRIPTIONS_MAX);
  });

  it('keeps a long device name to whole characters: an emoji at the cut is left out, never half of it', async () => {
    const user = await customer(h);
    const endpoint = `${service.origin}/push/long-name-${user.id}`;
    const keys = {
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    };
    await subscribe(h.database.db, user.id, {
      endpoint,
      ...keys,
      language: 'en',
      device: `${'a'.repeat(199)}😀 phone`,
    });
    const [row] = await h.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
    expect(row?.device).toBe('a'.repeat(199));
  });

  it('asks for a login, and takes only an https push service address and well-formed keys', async () => {
    const browser = service.newSubscription();
    const form = { endpoint: browser.endpoint, p256dh: browser.p256dh, auth: browser.auth, language: 'en' };
    expect((await h.call(subscribePush, form)).ret).toBe(-1);
    expect((await h.call(noticeSettings)).ret).toBe(-1);
    const user = await customer(h);
    for (const bad of [
      { endpoint: 'http://127.0.0.1/push/1' },
      { endpoint: 'file:///etc/passwd' },
      { p256dh: 'abc' },
      { auth: '' },
      { language: 'xx' },
    ]) {
      expect(await h.call(subscribePush, { ...form, ...bad }, { token: user.token })).toEqual(
        refused('The request is not valid!'),
      );
    }
    expect(await h.call(setNoticeSettings, { off: 'option_settled,everything' }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
  });

  it('takes only the push services of PUSH_SERVICE_HOSTS: the server posts to no address a customer names', async () => {
    const browser = service.newSubscription();
    const user = await customer(h);
    const form = { p256dh: browser.p256dh, auth: browser.auth, language: 'en' };
    const unknown = refused(serverTexts.pushServiceUnknown.message);
    for (const endpoint of [
      'https://10.0.0.5/admin',
      'https://169.254.169.254/latest/meta-data',
      'https://fcm.googleapis.com.evil.example/x',
      'https://push.apple.com/x',
      // A known push service's host at a port other than https's own: no browser's subscription, maybe an internal one.
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com:22/fcm/send/abc',
      'https://web.push.apple.com:0/QG9',
      // Credentials in the address: none of a push service's.
      'https://user:secret@fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1:9999/push/elsewhere',
    ]) {
      expect(await h.call(subscribePush, { ...form, endpoint }, { token: user.token })).toEqual(unknown);
    }
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:443/fcm/send/def',
      'https://web.push.apple.com/QG9',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
    ]) {
      expect(await h.call(subscribePush, { ...form, endpoint }, { token: user.token })).toMatchObject({ ret: 1 });
    }
    expect(knownPushService('https://db.internal/x', DEFAULT_PUSH_SERVICE_HOSTS)).toBe(false);
    // An entry naming a port takes that port alone; ":443" is https's own.
    expect(knownPushService('https://push.example.org:8443/x', ['push.example.org:8443'])).toBe(true);
    expect(knownPushService('https://push.example.org/x', ['push.example.org:8443'])).toBe(false);
    expect(knownPushService('https://push.example.org/x', ['push.example.org:443'])).toBe(true);
    expect(knownPushService('https://a.push.example.net:8443/x', ['*.push.example.net:8443'])).toBe(true);
    expect(loadConfig({ PUSH_SERVICE_HOSTS: 'push.example.org, *.push.example.net' }).pushServiceHosts).toEqual([
      'push.example.org',
      '*.push.example.net',
    ]);
    expect(loadConfig({}).pushServiceHosts).toEqual(DEFAULT_PUSH_SERVICE_HOSTS);
  });
});
