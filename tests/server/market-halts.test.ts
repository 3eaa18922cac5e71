// Halted means halted: while the market index has halted a coin, new option and contract orders
// are refused with the translated message and move nothing, in every process; an option accepted
// just before a halt that gets no tick in the 10 s after never opens and is refunded in full, once,
// and says so; an option whose end time falls in a halt (no price recorded in the 10 s before it)
// is refunded in full, exactly once, and says so; one with a recent enough end price settles from it
// even if the feed stops after.
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, moneyState } from './helpers.ts';
import { balances, coinList, coinRate } from '../../src/api-contract/markets.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import { subscribePush } from '../../src/api-contract/notifications.ts';
import { outbox } from '../../src/server/db/schema.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { createMarket } from '../../src/server/market/market.ts';
import { simulatedFeed } from '../../src/server/market/simulator.ts';
import { lease } from '../../src/server/market/lease.ts';
import { MAX_QUOTE_AGE_MS } from '../../src/server/domain/options.ts';
import { rowsOf } from '../../src/server/db/connection.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const second = () => new Date(Math.floor(h.clock.now().getTime() / 1000) * 1000);
/** One step of the feed at the current second: these coins priced, those halted. */
const step = (prices: Record<string, string>, halted: string[] = []) =>
  h.market.record(
    Object.entries(prices).map(([coin, price]) => ({ coin, at: second(), price, volume: '1' })),
    halted,
  );

async function productId(code: string, minutes = 1): Promise<string> {
  const found = (await h.call(optionProducts, { code })).data.lists.find((p) => p.minutes === minutes);
  return String(found!.id);
}
const usdt = async (token: string) =>
  (await h.call(balances, {}, { token })).data.lists.find((b) => b.asset === 'USDT')?.available;
const settle = () => settleAllDue(h.database.db, h.clock.now());
/** The opening job a running server runs after each recorded step: accepted options get their start tick (or go void).
 * */
const open = () => openAllPending(h.database.db, h.clock.now());
const statusOf = async (token: string, id: number) => (await h.call(optionOrder, { id: String(id) }, { token })).data;
const payoutsOf = async (id: number) =>
  rowsOf<{ amount: string }>(
    await h.database.db.execute(
      sql`select amount::text from ledger_entries where kind = 'option_payout' and reference = ${`option:${id}`}`,
    ),
  ).map((row) => row.amount);

/** A browser the customer subscribed to notifications (push.example.com is a known push service in the harness). */
async function subscribeBrowser(token: string) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  const res = await h.call(
    subscribePush,
    {
      endpoint: `https://push.example.com/push/${randomBytes(8).toString('hex')}`,
      p256dh: keys.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
      language: 'en',
    },
    { token },
  );
  expect(res.ret).toBe(1);
}
/** The notifications queued for a customer's browsers: what the notification says. */
const noticesOf = (userId: number) =>
  h.database.db
    .select({ kind: outbox.kind, subject: outbox.subject, body: outbox.body })
    .from(outbox)
    .where(and(eq(outbox.userId, userId), eq(outbox.channel, 'push')))
    .orderBy(asc(outbox.id));

describe('while a coin is halted', () => {
  it('refuses option and contract orders on it with the message, moves nothing, and serves the other coins', async () => {
    const user = await customer(h, '100');
    await step({ BTC: '97000', ETH: '3400' });
    h.clock.advance(1000);
    await step({ ETH: '3401' }, ['BTC']);
    expect([...h.market.halted()]).toEqual(['BTC']);
    // The screens are told: the coin list and the coin's quote say it is halted.
    const listed = (await h.call(coinList, {})).data.lists;
    expect(listed.find((coin) => coin.code === 'BTC')).toMatchObject({ halted: true, price: '97000.00' });
    expect(listed.find((coin) => coin.code === 'ETH')).toMatchObject({ halted: false });
    expect((await h.call(coinRate, { code: 'BTC' })).data).toMatchObject({ halted: true });
    const before = await moneyState(h, user.id);

    const option = await h.call(
      placeOption,
      { code: 'BTC', direction: 'up', amount: '10', product_id: await productId('BTC') },
      { token: user.token },
    );
    expect(option).toEqual({
      ret: 0,
      msg: 'Prices for BTC are paused while the market data is unavailable. Please try again later!',
      data: null,
    });
    const thai = await h.call(
      placeOption,
      { code: 'BTC', direction: 'up', amount: '10', product_id: await productId('BTC') },
      { token: user.token, lang: 'th' },
    );
    expect(thai.msg).toBe('ราคาของ BTC หยุดชั่วคราวขณะที่ข้อมูลตลาดไม่พร้อมใช้งาน กรุณาลองใหม่ภายหลัง');
    const contract = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'market', quantity: '0.0001', total: '' },
      { token: user.token },
    );
    expect(contract).toEqual({
      ret: 0,
      msg: 'Prices for BTC are paused while the market data is unavailable. Please try again later!',
      data: null,
    });
    expect(await moneyState(h, user.id)).toEqual(before);

    const eth = await h.call(
      placeOption,
      { code: 'ETH', direction: 'up', amount: '10', product_id: await productId('ETH') },
      { token: user.token },
    );
    expect(eth.ret).toBe(1);

    // Resumed: orders on BTC are taken again.
    h.clock.advance(1000);
    await step({ BTC: '97010', ETH: '3402' });
    expect([...h.market.halted()]).toEqual([]);
    expect(
      (
        await h.call(
          placeOption,
          { code: 'BTC', direction: 'up', amount: '10', product_id: await productId('BTC') },
          { token: user.token },
        )
      ).ret,
    ).toBe(1);
  });

  it('is known to a process that does not run the feed, through the database', async () => {
    // Another process holds the feed: this one follows what is recorded.
    await lease(h.database.db, 'halts-feed', { holder: 'leader', ttlMs: 60_000 }).acquire();
    const follower = createMarket(
      h.database.db,
      simulatedFeed({ coins: [], seed: 1, clock: h.clock }),
      h.clock,
      () => {},
      {
        lease: lease(h.database.db, 'halts-feed', { holder: 'follower' }),
        followIntervalMs: 20,
        leaseRenewMs: 50,
      },
    );
    follower.start();
    try {
      h.clock.advance(1000);
      await step({ ETH: '3400' }, ['BTC', 'SOL']);
      await expect.poll(() => [...follower.halted()].sort()).toEqual(['BTC', 'SOL']);
      h.clock.advance(1000);
      await step({ BTC: '97000', ETH: '3400', SOL: '230' });
      await expect.poll(() => follower.halted().size).toBe(0);
      expect(follower.leads()).toBe(false);
    } finally {
      await follower.stop();
    }
  });

  it('clears halts a crashed run left behind at its first step', async () => {
    await h.database.db.execute(
      sql`insert into market_halts (coin, since) values ('DOGE', now()) on conflict do nothing`,
    );
    const fresh = createMarket(h.database.db, simulatedFeed({ coins: [], seed: 1, clock: h.clock }), h.clock);
    h.clock.advance(1000);
    await fresh.record([{ coin: 'DOGE', at: second(), price: '0.385', volume: '1' }]);
    expect(rowsOf(await h.database.db.execute(sql`select coin from market_halts`))).toEqual([]);
  });
});

describe('an option accepted just before a halt', () => {
  it('with no tick in the 10 s after it was accepted, never opens: void, refunded in full exactly once, and says it did not open', async () => {
    const user = await customer(h, '100');
    await subscribeBrowser(user.token);
    await step({ TRX: '0.21500' });
    const acceptedAt = second().getTime();
    const order = await h.call(
      placeOption,
      { code: 'TRX', direction: 'up', amount: '10', product_id: await productId('TRX') },
      { token: user.token },
    );
    expect(order.data).toMatchObject({ status: 'opening', start_price: null });
    expect(await usdt(user.token)).toBe('90.00000000');

    // The next step halts TRX: no tick of it comes; the others go on.
    h.clock.set(new Date(acceptedAt + 1000));
    await step({ ETH: '3400' }, ['TRX']);
    await open();
    expect(await statusOf(user.token, order.data.id)).toMatchObject({ status: 'opening', start_price: null });
    h.clock.set(new Date(acceptedAt + MAX_QUOTE_AGE_MS));
    await step({ ETH: '3401' }, ['TRX']);
    await open();
    expect(await statusOf(user.token, order.data.id)).toMatchObject({ status: 'opening' }); // a tick could still come

    h.clock.set(new Date(acceptedAt + MAX_QUOTE_AGE_MS + 1000));
    await step({ ETH: '3402' }, ['TRX']);
    await open();
    await open();
    await settle();
    expect(await payoutsOf(order.data.id)).toEqual(['10.00000000']);
    expect(await statusOf(user.token, order.data.id)).toMatchObject({
      status: 'settled',
      outcome: 'void',
      start_price: null,
      start_price_at: null,
      end_at: null,
      end_price: null,
      payout: '10.00000000',
      profit: '0.00000000',
      settled_at: new Date(acceptedAt + MAX_QUOTE_AGE_MS + 1000).toISOString(),
    });
    expect(await usdt(user.token)).toBe('100.00000000');
    expect(await noticesOf(user.id)).toEqual([
      {
        kind: 'option_settled',
        subject: 'TRX option settled',
        body: 'No price was recorded after your order: it did not open and your 10 USDT are refunded',
      },
    ]);

    // The halt ends: the first tick after it opens nothing and pays nothing more.
    h.clock.set(new Date(acceptedAt + 20_000));
    await step({ TRX: '0.21600' });
    expect(await open()).toBe(0);
    expect(await statusOf(user.token, order.data.id)).toMatchObject({
      status: 'settled',
      outcome: 'void',
      start_price: null,
    });
    expect(await payoutsOf(order.data.id)).toEqual(['10.00000000']);
    expect(await noticesOf(user.id)).toHaveLength(1);
    await expectLedgerBalanced(h);
  });
});

describe('an option whose end time falls in a halt', () => {
  it('is refunded in full, exactly once, and says no price was recorded at its end', async () => {
    const user = await customer(h, '100');
    await subscribeBrowser(user.token);
    await step({ XRP: '1.41' });
    const order = await h.call(
      placeOption,
      { code: 'XRP', direction: 'up', amount: '10', product_id: await productId('XRP') },
      { token: user.token },
    );
    expect(order.ret).toBe(1);
    expect(await usdt(user.token)).toBe('90.00000000');
    h.clock.advance(1000);
    await step({ XRP: '1.42' });
    await open();
    const start = second().getTime();
    expect(await statusOf(user.token, order.data.id)).toMatchObject({
      status: 'holding',
      start_price: '1.42',
      end_at: new Date(start + 60_000).toISOString(),
    });
    // The market data goes away 10 s into the minute and comes back a minute after the end.
    h.clock.set(new Date(start + 10_000));
    await step({ XRP: '1.43' });
    h.clock.set(new Date(start + 11_000));
    await step({}, ['XRP']);
    h.clock.set(new Date(start + 60_000 + MAX_QUOTE_AGE_MS - 1000));
    await settle();
    expect((await statusOf(user.token, order.data.id)).status).toBe('holding'); // could still get its end price
    h.clock.set(new Date(start + 120_000));
    await step({ XRP: '1.99' });
    await settle();
    await settle();
    expect(await payoutsOf(order.data.id)).toEqual(['10.00000000']);
    const settled = await h.call(optionOrder, { id: String(order.data.id) }, { token: user.token });
    expect(settled.data).toMatchObject({
      status: 'settled',
      outcome: 'void',
      start_price: '1.42',
      end_price: null,
      end_price_at: null,
      payout: '10.00000000',
      profit: '0.00000000',
    });
    expect(await usdt(user.token)).toBe('100.00000000');
    expect(await noticesOf(user.id)).toEqual([
      {
        kind: 'option_settled',
        subject: 'XRP option settled',
        body: 'No price was recorded at expiry: your 10 USDT are refunded',
      },
    ]);
    await expectLedgerBalanced(h);
  });

  it('settles from a price recorded within 10 s before the end even when no tick follows', async () => {
    const user = await customer(h, '100');
    await step({ ADA: '0.9700' });
    const order = await h.call(
      placeOption,
      { code: 'ADA', direction: 'down', amount: '10', product_id: await productId('ADA') },
      { token: user.token },
    );
    h.clock.advance(1000);
    await step({ ADA: '0.9800' });
    await open();
    const start = second().getTime();
    expect(await statusOf(user.token, order.data.id)).toMatchObject({
      status: 'holding',
      start_price: '0.98',
      start_price_at: new Date(start).toISOString(),
    });
    h.clock.set(new Date(start + 55_000));
    await step({ ADA: '0.9700' });
    // Then nothing at all: once the freshness window has passed, the end price cannot change.
    h.clock.set(new Date(start + 60_000 + MAX_QUOTE_AGE_MS));
    await settle();
    const settled = await h.call(optionOrder, { id: String(order.data.id) }, { token: user.token });
    expect(settled.data).toMatchObject({
      outcome: 'win',
      end_price: '0.97',
      end_price_at: new Date(start + 55_000).toISOString(),
    });
  });
});

describe('what each price was made of', () => {
  const at = (offsetMs: number) => new Date(second().getTime() - offsetMs);
  /** One index step at the current second: the coin's price with three exchanges' prices behind it. */
  const indexStep = (coin: string, prices: [string, string, string], price = prices[1]) =>
    h.market.record([
      {
        coin,
        at: second(),
        price,
        volume: '1',
        constituents: [
          { exchange: 'binance', price: prices[0], at: at(300) },
          { exchange: 'okx', price: prices[1], at: at(800) },
          { exchange: 'kraken', price: prices[2], at: at(1500) },
        ],
      },
    ]);
  const constituentsOf = (prices: [string, string, string], when: Date) => [
    { exchange: 'binance', price: prices[0], at: new Date(when.getTime() - 300).toISOString() },
    { exchange: 'okx', price: prices[1], at: new Date(when.getTime() - 800).toISOString() },
    { exchange: 'kraken', price: prices[2], at: new Date(when.getTime() - 1500).toISOString() },
  ];

  it('an option keeps the constituents of its start and end prices, after the ticks are gone too', async () => {
    const user = await customer(h, '100');
    h.clock.advance(1000);
    await indexStep('LTC', ['84.00', '84.05', '84.09']);
    const order = await h.call(
      placeOption,
      { code: 'LTC', direction: 'up', amount: '10', product_id: await productId('LTC') },
      { token: user.token },
    );
    expect(order.data).toMatchObject({
      status: 'opening',
      start_price: null,
      start_constituents: null,
      end_constituents: null,
    });
    h.clock.advance(1000);
    const startAt = second();
    await indexStep('LTC', ['84.10', '84.12', '84.20']);
    await open();
    expect(await statusOf(user.token, order.data.id)).toMatchObject({
      start_price: '84.12',
      start_price_at: startAt.toISOString(),
      start_constituents: constituentsOf(['84.10', '84.12', '84.20'], startAt),
      end_constituents: null,
    });
    h.clock.set(new Date(startAt.getTime() + 60_000));
    const endAt = second();
    await indexStep('LTC', ['84.30', '84.31', '84.33']);
    await settle();
    await h.database.db.execute(sql`delete from price_ticks where coin = 'LTC'`);
    const settled = (await h.call(optionOrder, { id: String(order.data.id) }, { token: user.token })).data;
    expect(settled).toMatchObject({
      outcome: 'win',
      end_price: '84.31',
      end_price_at: endAt.toISOString(),
      end_constituents: constituentsOf(['84.30', '84.31', '84.33'], endAt),
    });
    expect(settled.start_constituents).toEqual(constituentsOf(['84.10', '84.12', '84.20'], startAt));
  });

  it('a contract order keeps the constituents of the tick it filled at, a market order at its next tick or a limit by the matching', async () => {
    const user = await customer(h, '1000');
    h.clock.advance(1000);
    await indexStep('BNB', ['640.0', '640.1', '640.3']);
    const market = await h.call(
      placeContract,
      { code: 'BNB', side: 'buy', type: 'market', quantity: '0.1', total: '' },
      { token: user.token },
    );
    expect(market.data).toMatchObject({ status: 'filling', tick_price: null, tick_constituents: null });
    const limit = await h.call(
      placeContract,
      { code: 'BNB', side: 'buy', type: 'limit', price: '639', quantity: '0.1', total: '' },
      { token: user.token },
    );
    expect(limit.data).toMatchObject({ status: 'open', tick_constituents: null });
    h.clock.advance(1000);
    const filledAt = second();
    await indexStep('BNB', ['640.1', '640.2', '640.4']);
    await matchAllPairs(h.database.db, h.clock.now());
    h.clock.advance(1000);
    const crossedAt = second();
    await indexStep('BNB', ['638.8', '638.9', '639.5']);
    await matchAllPairs(h.database.db, h.clock.now());
    const history = (await h.call(contractOrders, { status: 'history', code: 'BNB' }, { token: user.token })).data
      .lists;
    expect(history.find((order) => order.id === market.data.id)).toMatchObject({
      status: 'filled',
      unit_price: '640.2',
      tick_price: '640.2',
      tick_at: filledAt.toISOString(),
      tick_constituents: constituentsOf(['640.1', '640.2', '640.4'], filledAt),
    });
    expect(history.find((order) => order.id === limit.data.id)).toMatchObject({
      status: 'filled',
      unit_price: '639',
      tick_price: '638.9',
      tick_constituents: constituentsOf(['638.8', '638.9', '639.5'], crossedAt),
    });
  });
});
