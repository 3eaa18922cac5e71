// Short-term options through the calls a customer makes: buying moves the stake
// through the ledger, the order opens at the first tick recorded after it was accepted (never at one
// already recorded) or is refunded when none comes within 10 s, it settles from the last recorded
// price at or before its end time, and every refusal answers the spec's text and moves nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, expectLedgerBalanced, moneyState, refused, statementsSent } from './helpers.ts';
import { balances } from '../../src/api-contract/markets.ts';
import {
  optionOrder,
  optionOrders,
  optionProducts,
  optionTotals,
  placeOption,
  type OptionProduct,
} from '../../src/api-contract/options.ts';
import { ledgerEntries, optionProducts as productRows } from '../../src/server/db/schema.ts';
import { openAllPending, settleAllDue, settlementWhenDue } from '../../src/server/jobs/settlement.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const iso = (ms: number) => new Date(ms).toISOString();

/** One recorded tick of one coin at an exact time, as the feed would record it. */
const tickAt = (coin: string, atMs: number, price: string) =>
  h.market.record([{ coin, at: new Date(atMs), price, volume: '1' }]);

async function product(code: string, minutes: number): Promise<OptionProduct> {
  const found = (await h.call(optionProducts, { code })).data.lists.find((p) => p.minutes === minutes);
  if (!found) throw new Error(`no ${minutes}-minute product for ${code}`);
  return found;
}

async function usdtOf(token: string) {
  const res = await h.call(balances, {}, { token });
  expect(res.ret).toBe(1);
  return res.data.lists.find((b) => b.asset === 'USDT')?.available ?? null;
}

const settle = () => settleAllDue(h.database.db, h.clock.now());
/** The opening job a running server runs after each recorded step: accepted orders get their start tick (or go void).
 * */
const open = () => openAllPending(h.database.db, h.clock.now());
const orderOf = async (token: string, id: number) => (await h.call(optionOrder, { id: String(id) }, { token })).data;

describe('the end price is the last recorded tick at or before the end time', () => {
  it('waits for a tick at or after the end, then takes the one exactly at the end (not the one before or after)', async () => {
    const user = await customer(h, '100');
    const accepted = h.clock.now().getTime();
    await tickAt('BTC', accepted, '100000');
    const { id: productId } = await product('BTC', 1);
    const up = await h.call(
      placeOption,
      { code: 'BTC', direction: 'up', amount: '10', product_id: String(productId) },
      { token: user.token },
    );
    // Fields of the order that are the server's to set are ignored when sent.
    const down = await h.call(
      placeOption,
      {
        code: 'BTC',
        direction: 'down',
        amount: '20',
        product_id: String(productId),
        start_price: '1',
        outcome: 'win',
        end_at: iso(accepted),
      },
      { token: user.token },
    );
    // Accepted, the stake debited, waiting for its start tick: the one recorded at this moment is not it.
    expect(up).toMatchObject({
      ret: 1,
      msg: 'Success',
      data: {
        code: 'BTC',
        direction: 'up',
        amount: '10.00000000',
        minutes: 1,
        yield_rate: '0.8',
        start_price: null,
        start_price_at: null,
        start_constituents: null,
        start_at: iso(accepted),
        end_at: null,
        status: 'opening',
        end_price: null,
        end_price_at: null,
        outcome: null,
        payout: null,
        profit: null,
        settled_at: null,
        remaining_seconds: 60,
        simulated: true,
        seeded: true,
      },
    });
    expect(down.data).toMatchObject({
      direction: 'down',
      amount: '20.00000000',
      start_price: null,
      end_at: null,
      status: 'opening',
    });
    expect(await usdtOf(user.token)).toBe('70.00000000');
    expect(await open()).toBe(0);
    expect(await orderOf(user.token, up.data.id)).toMatchObject({ status: 'opening', start_price: null, end_at: null });

    // The first tick recorded after acceptance is the start price; the end time counts from it.
    const start = accepted + 1000;
    h.clock.set(new Date(start));
    await tickAt('BTC', start, '100100');
    expect(await open()).toBe(2);
    const end = start + 60_000;
    expect(await orderOf(user.token, up.data.id)).toMatchObject({
      status: 'holding',
      start_price: '100100',
      start_price_at: iso(start),
      start_at: iso(accepted),
      end_at: iso(end),
      remaining_seconds: 60,
    });
    expect(await orderOf(user.token, down.data.id)).toMatchObject({
      status: 'holding',
      start_price: '100100',
      start_price_at: iso(start),
      end_at: iso(end),
    });
    expect(await open()).toBe(0);
    expect(await usdtOf(user.token)).toBe('70.00000000');

    // Only a tick before the end exists: the end price could still change, so nothing settles.
    await tickAt('BTC', end - 1000, '99000');
    h.clock.set(new Date(end + 5000));
    expect(await settle()).toBe(0);
    expect((await h.call(optionOrder, { id: String(up.data.id) }, { token: user.token })).data).toMatchObject({
      status: 'holding',
      remaining_seconds: 0,
      end_price: null,
    });

    await tickAt('BTC', end, '100500');
    await tickAt('BTC', end + 1000, '98000');
    expect(await settle()).toBe(2);
    expect(await settle()).toBe(0);

    const settledUp = await h.call(optionOrder, { id: String(up.data.id) }, { token: user.token });
    expect(settledUp).toMatchObject({
      ret: 1,
      data: {
        status: 'settled',
        end_price: '100500',
        end_price_at: iso(end),
        outcome: 'win',
        payout: '18.00000000',
        profit: '8.00000000',
        settled_at: iso(end + 5000),
        remaining_seconds: 0,
      },
    });
    const settledDown = await h.call(optionOrder, { id: String(down.data.id) }, { token: user.token });
    expect(settledDown.data).toMatchObject({
      status: 'settled',
      end_price: '100500',
      end_price_at: iso(end),
      outcome: 'loss',
      payout: '0.00000000',
      profit: '-20.00000000',
    });
    expect(await usdtOf(user.token)).toBe('88.00000000');
    await expectLedgerBalanced(h);
  });

  it('without a tick exactly at the end, takes the latest one before it', async () => {
    const user = await customer(h, '100');
    const accepted = h.clock.now().getTime();
    await tickAt('ETH', accepted - 3000, '3400.5');
    const { id: productId } = await product('ETH', 1);
    const order = await h.call(
      placeOption,
      { code: 'ETH', direction: 'up', amount: '10', product_id: String(productId) },
      { token: user.token },
    );
    expect(order.data).toMatchObject({
      status: 'opening',
      start_price: null,
      start_price_at: null,
      start_at: iso(accepted),
    });
    const start = accepted + 2000;
    h.clock.set(new Date(start));
    await tickAt('ETH', start, '3400.75');
    await open();
    expect(await orderOf(user.token, order.data.id)).toMatchObject({
      status: 'holding',
      start_price: '3400.75',
      start_price_at: iso(start),
      start_at: iso(accepted),
    });
    const end = start + 60_000;

    await tickAt('ETH', end - 5000, '3500');
    await tickAt('ETH', end - 2000, '3300.25');
    await tickAt('ETH', end + 3000, '3600');
    h.clock.set(new Date(end + 4000));
    expect(await settle()).toBe(1);
    const settled = await h.call(optionOrder, { id: String(order.data.id) }, { token: user.token });
    expect(settled.data).toMatchObject({
      end_price: '3300.25',
      end_price_at: iso(end - 2000),
      outcome: 'loss',
      payout: '0.00000000',
      profit: '-10.00000000',
    });
    expect(await usdtOf(user.token)).toBe('90.00000000');
  });

  it('pays a win with 8 decimals and a tie with the stake back, each entry in the ledger once', async () => {
    const user = await customer(h, '50');
    const accepted = h.clock.now().getTime();
    await tickAt('SOL', accepted, '235.09');
    await tickAt('XRP', accepted, '1.4100');
    const win = await h.call(
      placeOption,
      { code: 'SOL', direction: 'up', amount: '12.34567891', product_id: String((await product('SOL', 5)).id) },
      { token: user.token },
    );
    const tie = await h.call(
      placeOption,
      { code: 'XRP', direction: 'down', amount: '5', product_id: String((await product('XRP', 1)).id) },
      { token: user.token },
    );
    expect(win.data).toMatchObject({
      amount: '12.34567891',
      minutes: 5,
      yield_rate: '0.85',
      remaining_seconds: 300,
      status: 'opening',
    });
    expect(await usdtOf(user.token)).toBe('32.65432109');
    const start = accepted + 1000;
    h.clock.set(new Date(start));
    await tickAt('SOL', start, '235.10');
    await tickAt('XRP', start, '1.4200');
    await open();
    expect(await orderOf(user.token, win.data.id)).toMatchObject({
      status: 'holding',
      start_price: '235.1',
      end_at: iso(start + 300_000),
      remaining_seconds: 300,
    });
    expect(await orderOf(user.token, tie.data.id)).toMatchObject({
      status: 'holding',
      start_price: '1.42',
      end_at: iso(start + 60_000),
    });

    await tickAt('XRP', start + 60_000, '1.42');
    await tickAt('SOL', start + 300_000, '235.11');
    h.clock.set(new Date(start + 301_000));
    expect(await settle()).toBe(2);

    expect((await h.call(optionOrder, { id: String(win.data.id) }, { token: user.token })).data).toMatchObject({
      outcome: 'win',
      payout: '22.83950598',
      profit: '10.49382707',
    });
    expect((await h.call(optionOrder, { id: String(tie.data.id) }, { token: user.token })).data).toMatchObject({
      end_price: '1.42',
      outcome: 'tie',
      payout: '5.00000000',
      profit: '0.00000000',
    });
    // 50 − 12.34567891 − 5 + 22.83950598 + 5
    expect(await usdtOf(user.token)).toBe('60.49382707');
    const entries = await h.database.db
      .select({ kind: ledgerEntries.kind, amount: ledgerEntries.amount, reference: ledgerEntries.reference })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id))
      .orderBy(asc(ledgerEntries.id));
    expect(entries).toEqual([
      { kind: 'test_credit', amount: '50.00000000', reference: expect.any(String) },
      { kind: 'option_stake', amount: '-12.34567891', reference: `option:${win.data.id}` },
      { kind: 'option_stake', amount: '-5.00000000', reference: `option:${tie.data.id}` },
      { kind: 'option_payout', amount: '5.00000000', reference: `option:${tie.data.id}` },
      { kind: 'option_payout', amount: '22.83950598', reference: `option:${win.data.id}` },
    ]);
    await expectLedgerBalanced(h);
  });
});

describe('buying refusals answer the spec text and move nothing', () => {
  it('refuses below the minimum, above the balance, unknown products and bad fields', async () => {
    const user = await customer(h, '100');
    await tickAt('BTC', h.clock.now().getTime(), '97000');
    const btc = String((await product('BTC', 1)).id);
    const eth = String((await product('ETH', 1)).id);
    const order = { code: 'BTC', direction: 'up', amount: '10', product_id: btc };
    const before = await moneyState(h, user.id);
    expect(before.orders).toEqual([]);

    const cases: [Record<string, string>, string][] = [
      [{ ...order, amount: '0.99' }, 'The minimum purchase amount is: 1 USDT!'],
      [{ ...order, amount: '0.99999999' }, 'The minimum purchase amount is: 1 USDT!'],
      [{ ...order, amount: '0' }, 'The minimum purchase amount is: 1 USDT!'],
      [{ ...order, amount: '100.00000001' }, 'Insufficient balance!'],
      [{ ...order, amount: '50000' }, 'Insufficient balance!'],
      [{ ...order, amount: '1000000' }, 'The maximum purchase amount is: 50,000 USDT!'],
      [{ ...order, product_id: '999999' }, 'This product is not available!'],
      [{ ...order, product_id: eth }, 'This product is not available!'],
      [{ ...order, code: 'ZZZ' }, 'This coin is not listed!'],
      [{ ...order, code: 'btc' }, 'This coin is not listed!'],
      [{ ...order, code: '' }, 'Please choose a coin!'],
      [{ ...order, direction: 'sideways' }, 'Please choose Buy up or Buy short!'],
      [{ ...order, direction: '' }, 'Please choose Buy up or Buy short!'],
      [{ code: 'BTC', amount: '10', product_id: btc }, 'Please choose Buy up or Buy short!'],
      [{ ...order, product_id: '' }, 'Please choose an expiry time!'],
      [{ ...order, product_id: 'one' }, 'Please choose an expiry time!'],
      [{ ...order, amount: '' }, 'Please enter the amount!'],
      [{ code: 'BTC', direction: 'up', product_id: btc }, 'Please enter the amount!'],
      [{ ...order, amount: 'ten' }, 'Please enter a valid amount!'],
      [{ ...order, amount: '-10' }, 'Please enter a valid amount!'],
      [{ ...order, amount: '1e3' }, 'Please enter a valid amount!'],
      [{ ...order, amount: '010' }, 'Please enter a valid amount!'],
      [{ ...order, amount: '10.123456789' }, 'Please enter a valid amount!'],
      [{ ...order, amount: '1,000' }, 'Please enter a valid amount!'],
    ];
    for (const [input, msg] of cases) {
      expect({ input, answer: await h.call(placeOption, input, { token: user.token }) }).toEqual({
        input,
        answer: refused(msg),
      });
    }
    // A JSON body's number for the amount is there, only not as the API reads amounts (decimal text, never a float).
    for (const [amount, msg] of [
      [100, 'Please enter a valid amount!'],
      [[], 'Please enter a valid amount!'],
      [null, 'Please enter the amount!'],
    ] as const) {
      const response = await h.app.inject({
        method: 'POST',
        url: `/api${placeOption.path}`,
        headers: { lang: 'en', token: user.token, 'content-type': 'application/json' },
        payload: JSON.stringify({ ...order, amount }),
      });
      expect({ amount, answer: response.json() as unknown }).toEqual({ amount, answer: refused(msg) });
    }
    expect(await moneyState(h, user.id)).toEqual(before);

    // The whole balance is a valid stake: the refusals above were about the amounts, not the form.
    expect((await h.call(placeOption, { ...order, amount: '100' }, { token: user.token })).ret).toBe(1);
    expect(await usdtOf(user.token)).toBe('0.00000000');
    expect(await h.call(placeOption, { ...order, amount: '1' }, { token: user.token })).toEqual(
      refused('Insufficient balance!'),
    );
    await expectLedgerBalanced(h);
  });

  it('refuses a customer who never had a balance without creating one', async () => {
    const user = await customer(h);
    await tickAt('BTC', h.clock.now().getTime(), '97000');
    const answer = await h.call(
      placeOption,
      { code: 'BTC', direction: 'down', amount: '1', product_id: String((await product('BTC', 1)).id) },
      { token: user.token },
    );
    expect(answer).toEqual(refused('Insufficient balance!'));
    expect(await moneyState(h, user.id)).toEqual({ balances: [], entries: [], orders: [] });
    expect((await h.call(balances, {}, { token: user.token })).data).toEqual({ lists: [], page: 1, total: 0 });
  });

  it('refuses a product the operator switched off', async () => {
    const user = await customer(h, '100');
    await tickAt('DOT', h.clock.now().getTime(), '8.75');
    const thirty = await product('DOT', 30);
    await h.database.db.update(productRows).set({ active: false }).where(eq(productRows.id, thirty.id));
    const before = await moneyState(h, user.id);
    expect(
      await h.call(
        placeOption,
        { code: 'DOT', direction: 'up', amount: '5', product_id: String(thirty.id) },
        { token: user.token },
      ),
    ).toEqual(refused('This product is not available!'));
    expect(await moneyState(h, user.id)).toEqual(before);
    expect((await h.call(optionProducts, { code: 'DOT' })).data.lists.map((p) => p.minutes)).toEqual([1, 3, 5, 15]);
  });

  it('refuses while the price is stale (no tick for 10 s) and accepts again once a tick arrives', async () => {
    const user = await customer(h, '100');
    const order = { code: 'ADA', direction: 'up', amount: '10', product_id: String((await product('ADA', 3)).id) };
    expect(await h.call(placeOption, order, { token: user.token })).toEqual(
      refused('The price is not available right now, please try again later!'),
    );
    await tickAt('ADA', h.clock.now().getTime(), '0.98');
    h.clock.advance(20_000);
    const before = await moneyState(h, user.id);
    expect(await h.call(placeOption, order, { token: user.token })).toEqual(
      refused('The price is not available right now, please try again later!'),
    );
    expect(await moneyState(h, user.id)).toEqual(before);

    h.clock.advance(1000);
    await h.tick();
    const placed = await h.call(placeOption, order, { token: user.token });
    expect(placed).toMatchObject({
      ret: 1,
      data: { status: 'opening', start_at: h.clock.now().toISOString(), start_price: null, start_price_at: null },
    });
    expect(await usdtOf(user.token)).toBe('90.00000000');
    // It opens at the feed's next step, not at the one that made the price fresh again.
    h.clock.advance(1000);
    await h.tick();
    await open();
    const startAt = Math.floor(h.clock.now().getTime() / 1000) * 1000;
    expect(startAt).toBeGreaterThan(Date.parse(placed.data.start_at));
    expect(await orderOf(user.token, placed.data.id)).toMatchObject({
      status: 'holding',
      start_price_at: iso(startAt),
      end_at: iso(startAt + 3 * 60_000),
    });
  });

  it('a buy sent twice with one Idempotency-Key debits the stake once', async () => {
    const user = await customer(h, '100');
    await tickAt('TRX', h.clock.now().getTime(), '0.215');
    const order = { code: 'TRX', direction: 'up', amount: '7.5', product_id: String((await product('TRX', 1)).id) };
    const first = await h.call(placeOption, order, { token: user.token, idempotencyKey: 'buy-once' });
    const again = await h.call(placeOption, order, { token: user.token, idempotencyKey: 'buy-once' });
    expect(first.ret).toBe(1);
    expect(again).toEqual(first);
    expect((await moneyState(h, user.id)).orders).toHaveLength(1);
    expect(await usdtOf(user.token)).toBe('92.50000000');
  });

  it('a keyed buy sends its statements within a bound: what is kept in memory is not read again', async () => {
    const user = await customer(h, '100');
    await tickAt('TRX', h.clock.now().getTime(), '0.215');
    const order = { code: 'TRX', direction: 'down', amount: '5', product_id: String((await product('TRX', 1)).id) };
    // The first buy reads what the process then keeps (listing, products, caps); a second one reads none of it.
    expect((await h.call(placeOption, order, { token: user.token, idempotencyKey: 'count-1' })).ret).toBe(1);
    // The fewest of three buys: what is kept is trusted only while the change notices' connection answers its
    // heartbeat (db/changes.ts) and for a TTL after it was read, so on a machine busy with other test files one buy
    // may find a kept answer expired or its channel unvouched and read it again. A statement added to the path is in
    // every buy.
    const sent: number[] = [];
    for (const key of ['count-2', 'count-3', 'count-4']) {
      const before = await statementsSent();
      expect((await h.call(placeOption, order, { token: user.token, idempotencyKey: key })).ret).toBe(1);
      sent.push((await statementsSent()) - before);
    }
    // On PostgreSQL: the claim of the key; begin, the claim held, the pre-trade checks' two statements (the locks: the
    // account's row, the customer's stake lock and limits row; the reads: the freeze, the limits, the minute's
    // stakes), then one statement for the side's exposure row (locked), the order, the stake's move with its ledger
    // entry and the side's figure with the order, then the stored answer with the commit (db/transaction-control.ts):
    // 6 when measured. The order's transaction runs in the keyed one directly, not
    // in a savepoint. Before the listing, products, caps and halts were kept in memory and the keyed write lost its
    // own savepoint: 23 (the side's exposure was a lock and a sum); before a posting was one statement: 16; before the
    // order's transaction ran directly: 15; before the pre-trade checks took two statements: 13; before the exposure
    // was read in the posting: 10; before the order and its stake were one statement: 7.
    expect(Math.min(...sent)).toBeLessThanOrEqual(7);
  });

  it('answers ret -1 without a token, and moves nothing', async () => {
    const user = await customer(h, '100');
    const before = await moneyState(h, user.id);
    const order = { code: 'BTC', direction: 'up', amount: '10', product_id: String((await product('BTC', 1)).id) };
    expect(await h.call(placeOption, order)).toEqual(TOKEN_EXPIRED);
    expect(await h.call(placeOption, order, { token: 'not-a-token' })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(optionOrder, { id: '1' })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(optionOrders, {})).toEqual(TOKEN_EXPIRED);
    expect(await h.call(optionTotals)).toEqual(TOKEN_EXPIRED);
    expect(await moneyState(h, user.id)).toEqual(before);
  });
});

describe('order details, lists and totals', () => {
  it("shows one's own order and never another customer's", async () => {
    const owner = await customer(h, '100');
    const other = await customer(h, '100');
    await tickAt('LTC', h.clock.now().getTime(), '102.5');
    const placed = await h.call(
      placeOption,
      { code: 'LTC', direction: 'down', amount: '3', product_id: String((await product('LTC', 15)).id) },
      { token: owner.token },
    );
    expect(await h.call(optionOrder, { id: String(placed.data.id) }, { token: owner.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: placed.data,
    });
    h.clock.advance(1000);
    const startAt = h.clock.now().getTime();
    await tickAt('LTC', startAt, '102.6');
    await open();
    h.clock.advance(100_000);
    const shown = await h.call(optionOrder, { id: String(placed.data.id) }, { token: owner.token });
    expect(shown).toEqual({
      ret: 1,
      msg: 'Success',
      data: {
        ...placed.data,
        status: 'holding',
        start_price: '102.6',
        start_price_at: iso(startAt),
        end_at: iso(startAt + 15 * 60_000),
        remaining_seconds: 900 - 100,
      },
    });

    const notFound = refused('The order does not exist!');
    expect(await h.call(optionOrder, { id: String(placed.data.id) }, { token: other.token })).toEqual(notFound);
    expect(await h.call(optionOrder, { id: '999999' }, { token: owner.token })).toEqual(notFound);
    expect(await h.call(optionOrder, { id: 'abc' }, { token: owner.token })).toEqual(notFound);
    expect(await h.call(optionOrder, { id: '' }, { token: owner.token })).toEqual(notFound);
    expect(await h.call(optionOrder, {}, { token: owner.token })).toEqual(notFound);
    expect((await h.call(optionOrders, {}, { token: other.token })).data).toEqual({ lists: [], next: null, total: 0 });
  });

  it('lists holding orders soonest first and history newest first, 20 a page, and totals them', async () => {
    const user = await customer(h, '1000');
    const accepted = h.clock.now().getTime();
    await tickAt('DOGE', accepted, '0.385');
    const oneMinute = String((await product('DOGE', 1)).id);
    const threeMinutes = String((await product('DOGE', 3)).id);
    const placed: number[] = [];
    // 25 orders in one second: 12 of 1 minute (6 up, 6 down), then 13 of 3 minutes.
    for (let i = 0; i < 25; i++) {
      const res = await h.call(
        placeOption,
        {
          code: 'DOGE',
          direction: i % 2 ? 'down' : 'up',
          amount: String(10 + i),
          product_id: i < 12 ? oneMinute : threeMinutes,
        },
        { token: user.token },
      );
      expect(res.ret).toBe(1);
      placed.push(res.data.id);
    }
    const page1 = await h.call(optionOrders, { status: 'holding' }, { token: user.token });
    const page2 = await h.call(optionOrders, { status: 'holding', cursor: page1.data.next! }, { token: user.token });
    expect(page1.data).toMatchObject({ total: 25 });
    expect(page1.data.lists).toHaveLength(20);
    // The second page is the last: it says so, and no empty page follows it.
    expect(page2.data).toMatchObject({ next: null, total: 25 });
    expect(page2.data.lists).toHaveLength(5);
    // Orders still waiting for their start tick are listed with the holding ones, their whole time left.
    const opening = [...page1.data.lists, ...page2.data.lists];
    expect(opening.map((o) => o.id)).toEqual(placed);
    expect(
      opening.every(
        (o) =>
          o.status === 'opening' &&
          o.start_price === null &&
          o.end_at === null &&
          o.remaining_seconds === o.minutes * 60,
      ),
    ).toBe(true);
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toMatchObject({
      holding_count: 25,
      holding_amount: '550.00000000',
    });

    const start = accepted + 1000;
    h.clock.set(new Date(start));
    await tickAt('DOGE', start, '0.385');
    await open();
    const head = (await h.call(optionOrders, { status: 'holding' }, { token: user.token })).data;
    const holding = [
      ...head.lists,
      ...(await h.call(optionOrders, { status: 'holding', cursor: head.next! }, { token: user.token })).data.lists,
    ];
    // Every order once across the pages, soonest end first.
    expect(holding.map((o) => o.id).sort((a, b) => a - b)).toEqual(placed);
    expect(holding.slice(0, 12).every((o) => o.minutes === 1 && o.end_at === iso(start + 60_000))).toBe(true);
    expect(holding.slice(12).every((o) => o.minutes === 3 && o.end_at === iso(start + 180_000))).toBe(true);
    expect(holding.every((o) => o.status === 'holding' && o.remaining_seconds > 0)).toBe(true);
    expect((await h.call(optionOrders, { status: 'history' }, { token: user.token })).data).toEqual({
      lists: [],
      next: null,
      total: 0,
    });

    // sum 10..34 = 550
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toEqual({
      holding_count: 25,
      holding_amount: '550.00000000',
      settled_count: 0,
      wins: 0,
      losses: 0,
      ties: 0,
      total_profit: '0.00000000',
    });

    // The 1-minute orders end on a rise: the 6 up orders win, the 6 down orders lose.
    await tickAt('DOGE', start + 60_000, '0.386');
    h.clock.set(new Date(start + 61_000));
    await settle(); // (other customers' due orders of earlier tests settle too)

    const history = await h.call(optionOrders, { status: 'history' }, { token: user.token });
    expect(history.data).toMatchObject({ next: null, total: 12 });
    expect(history.data.lists.map((o) => o.id)).toEqual(placed.slice(0, 12).reverse());
    expect(history.data.lists.every((o) => o.status === 'settled' && o.end_price === '0.386')).toBe(true);
    expect((await h.call(optionOrders, {}, { token: user.token })).data).toMatchObject({ total: 13 });

    // Up stakes 10, 12, …, 20 (sum 90) win 0.8 each; down stakes 11, 13, …, 21 (sum 96) are lost.
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toEqual({
      holding_count: 13,
      holding_amount: '364.00000000',
      settled_count: 12,
      wins: 6,
      losses: 6,
      ties: 0,
      total_profit: '-24.00000000',
    });
    // 1000 − 550 + 90 × 1.8
    expect(await usdtOf(user.token)).toBe('612.00000000');
    await expectLedgerBalanced(h);
  });

  it('refuses a bad list status or cursor', async () => {
    const user = await customer(h);
    expect(await h.call(optionOrders, { status: 'open' }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
    // Not a cursor at all, or not one of the holdings' (end time and id).
    for (const cursor of ['x', '-1', '1', '1.2.3'])
      expect(await h.call(optionOrders, { status: 'holding', cursor }, { token: user.token }), cursor).toEqual(
        refused('The request is not valid!'),
      );
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toEqual({
      holding_count: 0,
      holding_amount: '0.00000000',
      settled_count: 0,
      wins: 0,
      losses: 0,
      ties: 0,
      total_profit: '0.00000000',
    });
  });
});

describe('an order opens at the first tick recorded after it was accepted', () => {
  it('never at a tick recorded before or at the moment it was accepted; its end counts from its start tick', async () => {
    const user = await customer(h, '100');
    const t = h.clock.now().getTime();
    const productId = String((await product('BNB', 1)).id);
    await tickAt('BNB', t, '640');
    const first = await h.call(
      placeOption,
      { code: 'BNB', direction: 'up', amount: '10', product_id: productId },
      { token: user.token },
    );
    expect(first.data).toMatchObject({
      status: 'opening',
      start_price: null,
      start_price_at: null,
      start_at: iso(t),
      end_at: null,
      remaining_seconds: 60,
    });

    // However long the job waits, the tick recorded when it was accepted is not its start price.
    h.clock.set(new Date(t + 900));
    await open();
    expect(await orderOf(user.token, first.data.id)).toMatchObject({
      status: 'opening',
      start_price: null,
      end_at: null,
      remaining_seconds: 60,
    });

    // A second order accepted at the very moment of the next tick: that tick opens the first order only.
    h.clock.set(new Date(t + 1000));
    await tickAt('BNB', t + 1000, '641.5');
    const second = await h.call(
      placeOption,
      { code: 'BNB', direction: 'down', amount: '20', product_id: productId },
      { token: user.token },
    );
    await open();
    expect(await orderOf(user.token, first.data.id)).toMatchObject({
      status: 'holding',
      start_price: '641.5',
      start_price_at: iso(t + 1000),
      start_at: iso(t),
      end_at: iso(t + 1000 + 60_000),
      remaining_seconds: 60,
    });
    expect(await orderOf(user.token, second.data.id)).toMatchObject({
      status: 'opening',
      start_price: null,
      start_at: iso(t + 1000),
      end_at: null,
    });
    // The order still opening comes first (its end is not known yet), then the running one; both are at stake.
    expect(
      (await h.call(optionOrders, { status: 'holding' }, { token: user.token })).data.lists.map((o) => [
        o.id,
        o.status,
      ]),
    ).toEqual([
      [second.data.id, 'opening'],
      [first.data.id, 'holding'],
    ]);
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toMatchObject({
      holding_count: 2,
      holding_amount: '30.00000000',
      settled_count: 0,
    });

    h.clock.set(new Date(t + 2000));
    await tickAt('BNB', t + 2000, '641');
    await open();
    expect(await orderOf(user.token, second.data.id)).toMatchObject({
      status: 'holding',
      start_price: '641',
      start_price_at: iso(t + 2000),
      end_at: iso(t + 2000 + 60_000),
    });
    expect(await orderOf(user.token, first.data.id)).toMatchObject({
      start_price: '641.5',
      end_at: iso(t + 1000 + 60_000),
    });

    // Each settles against its own start price: the first (up from 641.5) loses, the second (down from 641) wins.
    await tickAt('BNB', t + 61_000, '641.2');
    await tickAt('BNB', t + 62_000, '640.9');
    h.clock.set(new Date(t + 62_000));
    await settle(); // (other customers' due orders of earlier tests settle too)
    expect(await orderOf(user.token, first.data.id)).toMatchObject({
      outcome: 'loss',
      end_price: '641.2',
      end_price_at: iso(t + 61_000),
    });
    expect(await orderOf(user.token, second.data.id)).toMatchObject({
      outcome: 'win',
      end_price: '640.9',
      end_price_at: iso(t + 62_000),
      payout: '36.00000000',
    });
    expect(await usdtOf(user.token)).toBe('106.00000000');
    await expectLedgerBalanced(h);
  });

  it('with no tick in the 10 s after it was accepted, never opens: void, the stake refunded once', async () => {
    const user = await customer(h, '100');
    const t = h.clock.now().getTime();
    await tickAt('DOT', t, '8.75');
    await tickAt('ADA', t, '0.98');
    const late = await h.call(
      placeOption,
      { code: 'DOT', direction: 'up', amount: '10', product_id: String((await product('DOT', 1)).id) },
      { token: user.token },
    );
    const edge = await h.call(
      placeOption,
      { code: 'ADA', direction: 'down', amount: '5', product_id: String((await product('ADA', 1)).id) },
      { token: user.token },
    );
    expect(await usdtOf(user.token)).toBe('85.00000000');

    // 10 s after: a tick then still opens an order (ADA); without one (DOT) the order keeps waiting until that time has
    // passed.
    h.clock.set(new Date(t + 10_000));
    await tickAt('ADA', t + 10_000, '0.99');
    await open();
    expect(await orderOf(user.token, edge.data.id)).toMatchObject({
      status: 'holding',
      start_price: '0.99',
      start_price_at: iso(t + 10_000),
      end_at: iso(t + 70_000),
    });
    expect(await orderOf(user.token, late.data.id)).toMatchObject({
      status: 'opening',
      start_price: null,
      outcome: null,
    });

    // A tick 1 ms too late is not a start price: the order is void.
    h.clock.set(new Date(t + 10_001));
    await tickAt('DOT', t + 10_001, '8.80');
    await open();
    expect(await orderOf(user.token, late.data.id)).toMatchObject({
      status: 'settled',
      outcome: 'void',
      start_price: null,
      start_price_at: null,
      end_at: null,
      end_price: null,
      end_price_at: null,
      payout: '10.00000000',
      profit: '0.00000000',
      settled_at: iso(t + 10_001),
    });
    expect(await usdtOf(user.token)).toBe('95.00000000');

    // Running the jobs again pays nothing more.
    h.clock.set(new Date(t + 20_000));
    expect(await open()).toBe(0);
    await settle();
    const entries = await h.database.db
      .select({ kind: ledgerEntries.kind, amount: ledgerEntries.amount, reference: ledgerEntries.reference })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id))
      .orderBy(asc(ledgerEntries.id));
    expect(entries).toEqual([
      { kind: 'test_credit', amount: '100.00000000', reference: expect.any(String) },
      { kind: 'option_stake', amount: '-10.00000000', reference: `option:${late.data.id}` },
      { kind: 'option_stake', amount: '-5.00000000', reference: `option:${edge.data.id}` },
      { kind: 'option_payout', amount: '10.00000000', reference: `option:${late.data.id}` },
    ]);
    expect(await usdtOf(user.token)).toBe('95.00000000');
    expect(
      (await h.call(optionOrders, { status: 'history' }, { token: user.token })).data.lists.map((o) => [
        o.id,
        o.outcome,
      ]),
    ).toEqual([[late.data.id, 'void']]);
    expect(
      (await h.call(optionOrders, { status: 'holding' }, { token: user.token })).data.lists.map((o) => o.id),
    ).toEqual([edge.data.id]);
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toEqual({
      holding_count: 1,
      holding_amount: '5.00000000',
      settled_count: 1,
      wins: 0,
      losses: 0,
      ties: 0,
      total_profit: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });
});

describe('the settlement job', () => {
  it('settles an order at its end whichever process opened it, reading option_orders only when one can be due', async () => {
    // Another coin than the other tests', so their orders (settled already) do not mix in.
    const coin = 'ETH';
    const user = await customer(h, '100');
    let real = 0;
    let reads = 0;
    const db = h.database.db;
    // The job's database, counting its reads outside a transaction (each run's check of what can be due).
    const counted = new Proxy(db, {
      get: (target, key) =>
        key === 'execute'
          ? (...args: Parameters<typeof db.execute>) => ((reads += 1), target.execute(...args))
          : (Reflect.get(target, key) as unknown),
    });
    const due = settlementWhenDue(counted, 1000, () => real);
    const run = () => due.run(h.clock.now());
    await settle();
    expect(await run()).toBe(0);
    expect(reads).toBe(1);
    // Nothing holds: the runs within the recheck read nothing.
    expect(await run()).toBe(0);
    expect(reads).toBe(1);

    /** An order bought now and opened at the next tick; ends a minute later. */
    const bought = async () => {
      const accepted = h.clock.now().getTime();
      await tickAt(coin, accepted, '3000'); // a fresh price to buy at
      const { id: productId } = await product(coin, 1);
      const placed = await h.call(
        placeOption,
        { code: coin, direction: 'up', amount: '10', product_id: String(productId) },
        { token: user.token },
      );
      expect(placed.ret).toBe(1);
      h.clock.set(new Date(accepted + 1000));
      await tickAt(coin, accepted + 1000, '3000');
      expect(await open()).toBe(1);
      return { id: placed.data.id, end: accepted + 61_000 };
    };
    const endOf = async ({ end }: { end: number }) => {
      await tickAt(coin, end, '3001');
      h.clock.set(new Date(end));
    };

    // Opened by another process (this job was not told): found at the recheck, a real second later at the most.
    const first = await bought();
    await endOf(first);
    expect(await run()).toBe(0);
    expect((await orderOf(user.token, first.id)).status).toBe('holding');
    real += 1000;
    expect(await run()).toBe(1);
    expect(await orderOf(user.token, first.id)).toMatchObject({ status: 'settled', outcome: 'win' });

    // Opened by this process (the opening job tells it): its end is read at once and it settles at that end.
    const second = await bought();
    due.orderOpened();
    expect(await run()).toBe(0);
    const readsBeforeEnd = reads;
    h.clock.set(new Date(second.end - 1));
    expect(await run()).toBe(0);
    expect(reads).toBe(readsBeforeEnd); // before its end: nothing read
    await endOf(second);
    expect(await run()).toBe(1);
    expect(await orderOf(user.token, second.id)).toMatchObject({ status: 'settled', outcome: 'win' });
    await expectLedgerBalanced(h);
  });
});
