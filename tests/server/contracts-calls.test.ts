// Coin-to-coin contracts through the calls a customer makes: a market order freezes
// what it may spend and fills at the first tick recorded after it was accepted (or is void, its
// funds released, when none comes in 10 s or that tick is beyond what it froze), a limit order
// freezes its funds and fills at its own price once a tick recorded after it was placed crosses it,
// a revoke returns what was frozen, every refusal answers a translated text and moves nothing, and
// one customer never sees another's orders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { customer, expectLedgerBalanced, grant, refused, statementsSent } from './helpers.ts';
import {
  cancelContract,
  contractAmounts,
  contractOrders,
  contractPairs,
  placeContract,
} from '../../src/api-contract/contracts.ts';
import { balances } from '../../src/api-contract/markets.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const { tick, match, amounts, listed, entriesOf } = contractKit(() => h);

describe('pairs', () => {
  it('lists every listed coin against USDT with its rules, without a login', async () => {
    const res = await h.call(contractPairs);
    expect(res.ret).toBe(1);
    expect(res.data.lists.map((pair) => pair.code)).toEqual([
      'BTC',
      'ETH',
      'BNB',
      'SOL',
      'XRP',
      'DOGE',
      'ADA',
      'TRX',
      'LTC',
      'DOT',
    ]);
    expect(res.data.lists[0]).toEqual({
      code: 'BTC',
      name: 'Bitcoin',
      price_decimals: 2,
      quantity_decimals: 5,
      min_notional: '5',
      fee_rate: '0.001',
      price_band: '0.1',
    });
  });
});

describe('market orders fill at the first tick recorded after they were accepted', () => {
  it('buys BTC by quantity: the fee comes out of the BTC received, the order keeps the tick', async () => {
    const user = await customer(h, '10000');
    await tick('BTC', '49000.00');
    const acceptedAt = h.clock.now().getTime();
    const placed = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'market', quantity: '0.1' },
      { token: user.token },
    );
    // Nothing is traded yet: 0.1 × 49000 (the latest price) × (1 + the 10 % band) waits frozen for the next tick.
    expect(placed).toMatchObject({
      ret: 1,
      data: {
        code: 'BTC',
        side: 'buy',
        type: 'market',
        status: 'filling',
        price: null,
        quantity: '0.10000000',
        frozen: '5390.00000000',
        frozen_asset: 'USDT',
        dealt_quantity: '0.00000000',
        unit_price: null,
        spent: null,
        received: null,
        tick_price: null,
        tick_at: null,
        created_at: new Date(acceptedAt).toISOString(),
        filled_at: null,
        void_reason: null,
      },
    });
    expect(await amounts(user.token, 'BTC')).toEqual({
      code: 'BTC',
      available: '0.00000000',
      frozen: '0.00000000',
      usdt_available: '4610.00000000',
      usdt_frozen: '5390.00000000',
    });
    expect(await entriesOf(placed.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-5390.00000000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '5390.00000000' },
    ]);

    // Neither the tick recorded when it was accepted nor one stamped before it (arriving late) fills it.
    expect(await match()).toBe(0);
    await h.market.record([{ coin: 'BTC', at: new Date(acceptedAt - 500), price: '48000.00', volume: '1' }]);
    expect(await match()).toBe(0);
    expect(await listed(user.token, placed.data.id)).toMatchObject({
      list: 'open',
      status: 'filling',
      unit_price: null,
    });

    await tick('BTC', '50000.00');
    const tickAt = h.clock.now().toISOString();
    expect(await match()).toBe(1);
    expect(await listed(user.token, placed.data.id)).toMatchObject({
      list: 'history',
      code: 'BTC',
      side: 'buy',
      type: 'market',
      status: 'filled',
      price: null,
      quantity: '0.10000000',
      dealt_quantity: '0.10000000',
      unit_price: '50000',
      total: '5000.00000000',
      fee: '0.00010000',
      fee_asset: 'BTC',
      spent: '5000.00000000',
      spent_asset: 'USDT',
      received: '0.09990000',
      received_asset: 'BTC',
      tick_price: '50000',
      tick_at: tickAt,
      filled_at: tickAt,
      void_reason: null,
      simulated: true,
      seeded: true,
    });
    expect(await amounts(user.token, 'BTC')).toEqual({
      code: 'BTC',
      available: '0.09990000',
      frozen: '0.00000000',
      usdt_available: '5000.00000000',
      usdt_frozen: '0.00000000',
    });
    // The reserve leaves the frozen bucket; what the fill did not cost returns to available.
    expect(await entriesOf(placed.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-5390.00000000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '5390.00000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'frozen', amount: '-5390.00000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'available', amount: '390.00000000' },
      { kind: 'contract_trade', asset: 'BTC', bucket: 'available', amount: '0.09990000' },
    ]);
    expect(await match()).toBe(0);
    const held = await h.call(balances, {}, { token: user.token });
    expect(held.data.lists.map((b) => [b.asset, b.available])).toEqual([
      ['BTC', '0.09990000'],
      ['USDT', '5000.00000000'],
    ]);
    await expectLedgerBalanced(h);
  });

  it('buys by USDT total: the quantity is rounded down to the step, what is spent never exceeds the total', async () => {
    const user = await customer(h, '100');
    await tick('ETH', '3300.00');
    const placed = await h.call(
      placeContract,
      { code: 'ETH', side: 'buy', type: 'market', total: '100' },
      { token: user.token },
    );
    // The whole total waits frozen; the quantity shown is what it would buy at the latest price (100 / 3300 → 0.0303).
    expect(placed.data).toMatchObject({
      status: 'filling',
      quantity: '0.03030000',
      total_asked: '100.00000000',
      frozen: '100.00000000',
      frozen_asset: 'USDT',
      spent: null,
    });
    expect(await amounts(user.token, 'ETH')).toMatchObject({
      available: '0.00000000',
      usdt_available: '0.00000000',
      usdt_frozen: '100.00000000',
    });
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({ status: 'filling', quantity: '0.03030000' });

    await tick('ETH', '3333.33');
    await match();
    // What the total buys at the tick it filled at: 100 / 3333.33 = 0.030000030… → 0.0300 (4 decimals for ETH)
    expect(await listed(user.token, placed.data.id)).toMatchObject({
      status: 'filled',
      quantity: '0.03000000',
      dealt_quantity: '0.03000000',
      unit_price: '3333.33',
      total_asked: '100.00000000',
      spent: '99.99990000',
      received: '0.02997000',
      fee: '0.00003000',
    });
    expect(await amounts(user.token, 'ETH')).toMatchObject({
      available: '0.02997000',
      usdt_available: '0.00010000',
      usdt_frozen: '0.00000000',
    });
    expect(await entriesOf(placed.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-100.00000000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '100.00000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'frozen', amount: '-100.00000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'available', amount: '0.00010000' },
      { kind: 'contract_trade', asset: 'ETH', bucket: 'available', amount: '0.02997000' },
    ]);
  });

  it('sells: the fee comes out of the USDT received', async () => {
    const user = await customer(h);
    await grant(h, user.id, '2', 'SOL');
    await tick('SOL', '199.00');
    const placed = await h.call(
      placeContract,
      { code: 'SOL', side: 'sell', type: 'market', quantity: '1.5' },
      { token: user.token },
    );
    expect(placed.data).toMatchObject({ status: 'filling', frozen: '1.50000000', frozen_asset: 'SOL', received: null });
    expect(await amounts(user.token, 'SOL')).toMatchObject({
      available: '0.50000000',
      frozen: '1.50000000',
      usdt_available: '0.00000000',
    });
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({ list: 'open', status: 'filling' });

    await tick('SOL', '200.00');
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({
      list: 'history',
      status: 'filled',
      unit_price: '200',
      spent: '1.50000000',
      spent_asset: 'SOL',
      total: '300.00000000',
      fee: '0.30000000',
      fee_asset: 'USDT',
      received: '299.70000000',
    });
    expect(await amounts(user.token, 'SOL')).toMatchObject({
      available: '0.50000000',
      frozen: '0.00000000',
      usdt_available: '299.70000000',
    });
    expect(await entriesOf(placed.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'SOL', bucket: 'available', amount: '-1.50000000' },
      { kind: 'contract_freeze', asset: 'SOL', bucket: 'frozen', amount: '1.50000000' },
      { kind: 'contract_trade', asset: 'SOL', bucket: 'frozen', amount: '-1.50000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'available', amount: '299.70000000' },
    ]);
    await expectLedgerBalanced(h);
  });
});

describe('refusals answer a translated text and move nothing', () => {
  it.each([
    [{ code: 'BTC', side: 'buy', type: 'limit', quantity: '0.01' }, 'Please enter the price!'],
    [{ code: 'BTC', side: 'buy', type: 'limit', price: '50000' }, 'Please enter the quantity!'],
    [{ code: 'BTC', side: 'sell', type: 'market', total: '100' }, 'Please enter the quantity!'],
    [{ code: 'BTC', side: 'up', type: 'market', quantity: '0.01' }, 'Please choose Buy or Sell!'],
    [{ code: 'BTC', side: 'buy', type: 'stop', quantity: '0.01' }, 'Please choose an order type!'],
    [{ code: 'BTC', side: 'buy', type: 'limit', price: '5e4', quantity: '0.01' }, 'Please enter a valid price!'],
    [{ code: 'BTC', side: 'buy', type: 'market', quantity: '-1' }, 'Please enter a valid quantity!'],
    [
      { code: 'BTC', side: 'buy', type: 'limit', price: '50000.001', quantity: '0.01' },
      'The price must be a multiple of 0.01!',
    ],
    [{ code: 'BTC', side: 'buy', type: 'limit', price: '0', quantity: '0.01' }, 'Please enter a price above zero!'],
    [{ code: 'BTC', side: 'buy', type: 'market', quantity: '0.000001' }, 'The quantity must be a multiple of 0.00001!'],
    [{ code: 'BTC', side: 'buy', type: 'market', quantity: '0.00009' }, 'The order must be worth at least 5 USDT!'],
    [
      { code: 'BTC', side: 'buy', type: 'limit', price: '44000', quantity: '0.01' },
      'The price is more than 10% away from the market price!',
    ],
    [
      { code: 'BTC', side: 'sell', type: 'limit', price: '56000', quantity: '0.01' },
      'The price is more than 10% away from the market price!',
    ],
    [{ code: 'NOPE', side: 'buy', type: 'market', quantity: '1' }, 'This trading pair is not available!'],
    [{ code: 'BTC', side: 'buy', type: 'market', quantity: '1' }, 'Insufficient balance!'],
    [{ code: 'BTC', side: 'sell', type: 'limit', price: '51000', quantity: '1' }, 'Insufficient balance!'],
  ])('%o → %s', async (input, text) => {
    const user = await customer(h, '100');
    await tick('BTC', '50000.00');
    const before = await amounts(user.token, 'BTC');
    const res = await h.call(placeContract, input, { token: user.token });
    expect(res).toEqual(refused(text));
    expect(await amounts(user.token, 'BTC')).toEqual(before);
    expect((await h.call(contractOrders, { status: 'history' }, { token: user.token })).data.lists.length).toBe(0);
  });

  it('refuses when no price was recorded in the last 10 s', async () => {
    const user = await customer(h, '1000');
    await tick('BNB', '600.00');
    h.clock.advance(10_001);
    const res = await h.call(
      placeContract,
      { code: 'BNB', side: 'buy', type: 'market', quantity: '1' },
      { token: user.token },
    );
    expect(res).toEqual({ ret: 0, msg: 'The price is not available right now, please try again later!', data: null });
  });

  it('answers in the request language', async () => {
    const user = await customer(h, '100');
    const res = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'limit', quantity: '0.01' },
      { token: user.token, lang: 'zh' },
    );
    expect(res.ret).toBe(0);
    expect(res.msg).not.toBe('Please enter the price!');
  });
});

describe('limit orders', () => {
  it('a buy freezes price × quantity + fee, rests, and fills at its own price when a recorded tick crosses it', async () => {
    const user = await customer(h, '1000');
    await tick('LTC', '100.00');
    const placed = await h.call(
      placeContract,
      { code: 'LTC', side: 'buy', type: 'limit', price: '95.00', quantity: '2' },
      { token: user.token },
    );
    expect(placed.data).toMatchObject({
      status: 'open',
      price: '95',
      frozen: '190.19000000',
      frozen_asset: 'USDT',
      dealt_quantity: '0.00000000',
      unit_price: null,
    });
    expect(await amounts(user.token, 'LTC')).toMatchObject({
      usdt_available: '809.81000000',
      usdt_frozen: '190.19000000',
    });

    await tick('LTC', '95.01');
    expect(await match()).toBe(0);
    await tick('LTC', '94.50');
    const crossedAt = h.clock.now().toISOString();
    await tick('LTC', '93.00');
    expect(await match()).toBe(1);

    const [order] = (await h.call(contractOrders, { status: 'history', code: 'LTC' }, { token: user.token })).data
      .lists;
    // At its limit price, at the first tick that crossed it (not the lower one after).
    expect(order).toMatchObject({
      id: placed.data.id,
      status: 'filled',
      unit_price: '95',
      total: '190.00000000',
      fee: '0.19000000',
      fee_asset: 'USDT',
      received: '2.00000000',
      tick_price: '94.5',
      tick_at: crossedAt,
    });
    expect(await amounts(user.token, 'LTC')).toEqual({
      code: 'LTC',
      available: '2.00000000',
      frozen: '0.00000000',
      usdt_available: '809.81000000',
      usdt_frozen: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });

  it('a sell freezes the coin and fills when a tick reaches its price; a tick before it was placed does not count', async () => {
    const user = await customer(h);
    await grant(h, user.id, '10', 'DOT');
    await tick('DOT', '8.000');
    const placed = await h.call(
      placeContract,
      { code: 'DOT', side: 'sell', type: 'limit', price: '8.500', quantity: '10' },
      { token: user.token },
    );
    expect(placed.data).toMatchObject({ status: 'open', frozen: '10.00000000', frozen_asset: 'DOT' });
    await tick('DOT', '8.499');
    await match();
    expect(
      (await h.call(contractOrders, { status: 'open', code: 'DOT' }, { token: user.token })).data.lists.length,
    ).toBe(1);
    await tick('DOT', '8.600');
    await match();
    expect(await amounts(user.token, 'DOT')).toEqual({
      code: 'DOT',
      available: '0.00000000',
      frozen: '0.00000000',
      usdt_available: '84.91500000',
      usdt_frozen: '0.00000000',
    });
  });

  it('a limit the latest price already crosses rests, and fills at its own price at the next tick that crosses it', async () => {
    const user = await customer(h, '1000');
    await tick('BNB', '600.00');
    const placed = await h.call(
      placeContract,
      { code: 'BNB', side: 'buy', type: 'limit', price: '610.00', quantity: '1' },
      { token: user.token },
    );
    expect(placed.data).toMatchObject({
      status: 'open',
      price: '610',
      unit_price: null,
      frozen: '610.61000000',
      frozen_asset: 'USDT',
      dealt_quantity: '0.00000000',
    });
    expect(await amounts(user.token, 'BNB')).toMatchObject({
      available: '0.00000000',
      usdt_available: '389.39000000',
      usdt_frozen: '610.61000000',
    });
    // The tick recorded when it was placed crosses it, but was there before it: it stays open.
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({ list: 'open', status: 'open', unit_price: null });
    await tick('BNB', '610.01');
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({ list: 'open', status: 'open' });

    await tick('BNB', '605.00');
    const crossedAt = h.clock.now().toISOString();
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({
      list: 'history',
      status: 'filled',
      price: '610',
      unit_price: '610',
      total: '610.00000000',
      fee: '0.61000000',
      spent: '610.61000000',
      received: '1.00000000',
      tick_price: '605',
      tick_at: crossedAt,
    });
    expect(await amounts(user.token, 'BNB')).toMatchObject({
      available: '1.00000000',
      usdt_available: '389.39000000',
      usdt_frozen: '0.00000000',
    });
    expect(await entriesOf(placed.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-610.61000000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '610.61000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'frozen', amount: '-610.61000000' },
      { kind: 'contract_trade', asset: 'BNB', bucket: 'available', amount: '1.00000000' },
    ]);
    await expectLedgerBalanced(h);
  });

  it('revoking returns what was frozen; revoking again, or a filled order, fails', async () => {
    const user = await customer(h, '1000');
    await tick('XRP', '1.4000');
    const placed = await h.call(
      placeContract,
      { code: 'XRP', side: 'buy', type: 'limit', price: '1.3000', quantity: '100' },
      { token: user.token },
    );
    expect(await amounts(user.token, 'XRP')).toMatchObject({
      usdt_available: '869.87000000',
      usdt_frozen: '130.13000000',
    });
    const revoked = await h.call(cancelContract, { id: String(placed.data.id) }, { token: user.token });
    expect(revoked).toMatchObject({ ret: 1, data: { status: 'cancelled', dealt_quantity: '0.00000000' } });
    expect(revoked.data.cancelled_at).not.toBeNull();
    expect(await amounts(user.token, 'XRP')).toMatchObject({
      usdt_available: '1000.00000000',
      usdt_frozen: '0.00000000',
    });
    expect(await h.call(cancelContract, { id: String(placed.data.id) }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'This order is no longer open and cannot be cancelled!',
      data: null,
    });

    // A market order cannot be revoked while it waits for its tick (10 × 1.4 × 1.1 frozen), nor once filled.
    const market = await h.call(
      placeContract,
      { code: 'XRP', side: 'buy', type: 'market', quantity: '10' },
      { token: user.token },
    );
    expect(market.data).toMatchObject({ status: 'filling', frozen: '15.40000000' });
    expect(await h.call(cancelContract, { id: String(market.data.id) }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'This order is no longer open and cannot be cancelled!',
      data: null,
    });
    expect(await amounts(user.token, 'XRP')).toMatchObject({
      usdt_available: '984.60000000',
      usdt_frozen: '15.40000000',
    });
    // A crossing tick after the revoke fills nothing of the revoked limit; the market order fills at it.
    await tick('XRP', '1.2000');
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({ status: 'cancelled', unit_price: null });
    expect(await listed(user.token, market.data.id)).toMatchObject({ status: 'filled', unit_price: '1.2' });
    expect(await h.call(cancelContract, { id: String(market.data.id) }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'This order is no longer open and cannot be cancelled!',
      data: null,
    });
    expect(await amounts(user.token, 'XRP')).toMatchObject({
      available: '9.99000000',
      frozen: '0.00000000',
      usdt_available: '988.00000000',
      usdt_frozen: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });

  it('a keyed limit buy and its revoke send their statements within a bound', async () => {
    const user = await customer(h, '1000');
    await tick('DOT', '7.0000');
    const order = { code: 'DOT', side: 'buy', type: 'limit', price: '6.5000', quantity: '1' } as const;
    expect((await h.call(placeContract, order, { token: user.token, idempotencyKey: 'dot-count-0' })).ret).toBe(1);
    // The fewest of three: what the process keeps in memory (the halt, the latest price) may have expired for one.
    const placing: number[] = [];
    const revoking: number[] = [];
    const ids: number[] = [];
    for (const key of ['dot-count-1', 'dot-count-2', 'dot-count-3']) {
      const before = await statementsSent();
      const placed = await h.call(placeContract, order, { token: user.token, idempotencyKey: key });
      placing.push((await statementsSent()) - before);
      expect(placed.ret).toBe(1);
      ids.push(placed.data.id);
    }
    for (const id of ids) {
      const before = await statementsSent();
      expect((await h.call(cancelContract, { id: String(id) }, { token: user.token })).ret).toBe(1);
      revoking.push((await statementsSent()) - before);
    }
    // Measured on both databases: 6 for the buy (the claim of the key; begin, the claim held, the pre-trade checks' two
    // statements, the second of which also reads the pair's rules, held for share; one statement that inserts the
    // order and freezes its reserve, both buckets and both entries; the answer with the commit); 7 when the pair's
    // rules were a statement of their own, 9 when the order's insert and the freeze's two postings were three
    // statements, 8 when the freeze alone was one. A revoke: 5 on PostgreSQL and 3 on the embedded database, 6 and 4
    // before.
    expect(Math.min(...placing)).toBeLessThanOrEqual(6);
    expect(Math.min(...revoking)).toBeLessThanOrEqual(5);
    expect(await amounts(user.token, 'DOT')).toMatchObject({ usdt_available: '993.49350000' });
  });
});

describe('access', () => {
  it('another customer cannot list, revoke or learn of the orders', async () => {
    const a = await customer(h, '1000');
    const b = await customer(h, '1000');
    await tick('ADA', '1.0000');
    const placed = await h.call(
      placeContract,
      { code: 'ADA', side: 'buy', type: 'limit', price: '0.9500', quantity: '100' },
      { token: a.token },
    );
    expect(placed.ret).toBe(1);
    for (const status of ['open', 'history'])
      expect((await h.call(contractOrders, { status }, { token: b.token })).data).toEqual({
        lists: [],
        next: null,
      });
    const foreign = await h.call(cancelContract, { id: String(placed.data.id) }, { token: b.token });
    const unknown = await h.call(cancelContract, { id: '999999' }, { token: b.token });
    expect(foreign).toEqual(unknown);
    expect(foreign).toEqual({ ret: 0, msg: 'Cancellation failed, please try again!', data: null });
    expect(
      (await h.call(contractOrders, { status: 'open' }, { token: a.token })).data.lists.map((o) => o.status),
    ).toEqual(['open']);
    expect(await amounts(b.token, 'ADA')).toMatchObject({ available: '0.00000000', usdt_available: '1000.00000000' });
  });

  it('needs a login', async () => {
    expect((await h.call(placeContract, { code: 'BTC', side: 'buy', type: 'market', quantity: '1' })).ret).toBe(-1);
    expect((await h.call(contractOrders, {})).ret).toBe(-1);
    expect((await h.call(contractAmounts, { code: 'BTC' })).ret).toBe(-1);
  });
});

describe('the operator command edits trading rules, never an outcome', () => {
  it('a new fee rate and minimum apply to new orders; an open order keeps its own; bad values change nothing', async () => {
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    const user = await customer(h, '10000');
    await tick('TRX', '0.20000');
    const resting = await h.call(
      placeContract,
      { code: 'TRX', side: 'buy', type: 'limit', price: '0.19000', quantity: '100' },
      { token: user.token },
    );
    expect(resting.data.fee_rate).toBe('0.001');

    expect(await ops('pair', 'trx', 'fee=0.002', 'min=10')).toMatchObject({ ok: true });
    expect(await ops('pair', 'TRX', 'fee=0.5')).toMatchObject({ ok: false });
    expect(await ops('pair', 'TRX', 'price=1')).toMatchObject({ ok: false });
    expect((await h.call(contractPairs)).data.lists.find((pair) => pair.code === 'TRX')).toMatchObject({
      fee_rate: '0.002',
      min_notional: '10',
    });
    expect(
      await h.call(placeContract, { code: 'TRX', side: 'buy', type: 'market', quantity: '40' }, { token: user.token }),
    ).toMatchObject({
      ret: 0,
      msg: 'The order must be worth at least 10 USDT!',
    });
    const market = await h.call(
      placeContract,
      { code: 'TRX', side: 'buy', type: 'market', quantity: '100' },
      { token: user.token },
    );
    expect(market.data).toMatchObject({ status: 'filling', fee_rate: '0.002', fee: null });

    await tick('TRX', '0.18000');
    await match();
    expect(await listed(user.token, market.data.id)).toMatchObject({
      status: 'filled',
      fee_rate: '0.002',
      unit_price: '0.18',
      fee: '0.20000000',
    });
    const [filled] = (
      await h.call(contractOrders, { status: 'history', code: 'TRX' }, { token: user.token })
    ).data.lists.filter((order) => order.id === resting.data.id);
    expect(filled).toMatchObject({ status: 'filled', fee_rate: '0.001', unit_price: '0.19', fee: '0.01900000' });
    expect((await ops('pairs')).output).toContain('TRX/USDT');
  });
});

describe('a market order that cannot fill at its tick is void, and everything it froze returns', () => {
  it('a buy by quantity whose next tick costs more than it froze is void (price_moved); one exactly at its reserve fills', async () => {
    const user = await customer(h, '1000');
    await tick('DOGE', '0.40000');
    await h.market.record([{ coin: 'LTC', at: h.clock.now(), price: '100.00', volume: '1' }]);
    // 1000 × 0.4 × 1.1 = 440 and 1 × 100 × 1.1 = 110 frozen.
    const moved = await h.call(
      placeContract,
      { code: 'DOGE', side: 'buy', type: 'market', quantity: '1000' },
      { token: user.token },
    );
    const atReserve = await h.call(
      placeContract,
      { code: 'LTC', side: 'buy', type: 'market', quantity: '1' },
      { token: user.token },
    );
    expect(moved.data).toMatchObject({ status: 'filling', frozen: '440.00000000', frozen_asset: 'USDT' });
    expect(atReserve.data).toMatchObject({ status: 'filling', frozen: '110.00000000', frozen_asset: 'USDT' });
    expect(await amounts(user.token, 'DOGE')).toMatchObject({
      usdt_available: '450.00000000',
      usdt_frozen: '550.00000000',
    });

    // 1000 × 0.44001 = 440.01, beyond the 440 frozen; 1 × 110.00 = 110, all of it.
    await tick('DOGE', '0.44001');
    await h.market.record([{ coin: 'LTC', at: h.clock.now(), price: '110.00', volume: '1' }]);
    const tickedAt = h.clock.now().toISOString();
    await match();
    expect(await listed(user.token, moved.data.id)).toMatchObject({
      list: 'history',
      status: 'void',
      void_reason: 'price_moved',
      cancelled_at: tickedAt,
      dealt_quantity: '0.00000000',
      unit_price: null,
      spent: null,
      received: null,
      filled_at: null,
    });
    expect(await listed(user.token, atReserve.data.id)).toMatchObject({
      list: 'history',
      status: 'filled',
      void_reason: null,
      unit_price: '110',
      spent: '110.00000000',
      received: '0.99900000',
    });
    expect(await entriesOf(moved.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-440.00000000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '440.00000000' },
      { kind: 'contract_void', asset: 'USDT', bucket: 'frozen', amount: '-440.00000000' },
      { kind: 'contract_void', asset: 'USDT', bucket: 'available', amount: '440.00000000' },
    ]);
    expect(await amounts(user.token, 'DOGE')).toEqual({
      code: 'DOGE',
      available: '0.00000000',
      frozen: '0.00000000',
      usdt_available: '890.00000000',
      usdt_frozen: '0.00000000',
    });
    expect(await amounts(user.token, 'LTC')).toMatchObject({ available: '0.99900000', frozen: '0.00000000' });

    // A later tick changes nothing: a void order is done, and cannot be revoked.
    await tick('DOGE', '0.40000');
    await match();
    expect(await listed(user.token, moved.data.id)).toMatchObject({ status: 'void', void_reason: 'price_moved' });
    expect(await h.call(cancelContract, { id: String(moved.data.id) }, { token: user.token })).toEqual({
      ret: 0,
      msg: 'This order is no longer open and cannot be cancelled!',
      data: null,
    });
    expect(await entriesOf(moved.data.id)).toHaveLength(4);
    expect(await amounts(user.token, 'DOGE')).toMatchObject({
      usdt_available: '890.00000000',
      usdt_frozen: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });

  it('with no tick in the 10 s after it was accepted, it is void (no_price): listed open while filling, in the history once void', async () => {
    const user = await customer(h);
    await grant(h, user.id, '10', 'DOT');
    await tick('DOT', '8.000');
    const acceptedAt = h.clock.now().getTime();
    const placed = await h.call(
      placeContract,
      { code: 'DOT', side: 'sell', type: 'market', quantity: '5' },
      { token: user.token },
    );
    expect(placed.data).toMatchObject({
      status: 'filling',
      frozen: '5.00000000',
      frozen_asset: 'DOT',
      void_reason: null,
    });
    expect((await h.call(contractOrders, { status: 'open', code: 'DOT' }, { token: user.token })).data).toMatchObject({
      next: null,
      lists: [{ id: placed.data.id, status: 'filling' }],
    });
    expect(
      (await h.call(contractOrders, { status: 'history', code: 'DOT' }, { token: user.token })).data.lists.length,
    ).toBe(0);

    // 10 s on, with no tick since: it still waits (a tick stamped then would fill it).
    h.clock.set(new Date(acceptedAt + 10_000));
    await match();
    expect(await listed(user.token, placed.data.id)).toMatchObject({ list: 'open', status: 'filling' });
    expect(await amounts(user.token, 'DOT')).toMatchObject({ available: '5.00000000', frozen: '5.00000000' });

    // A tick 1 ms later is too late to fill it.
    await tick('DOT', '8.100', 1);
    await match();
    expect((await h.call(contractOrders, { status: 'open', code: 'DOT' }, { token: user.token })).data).toEqual({
      lists: [],
      next: null,
    });
    const history = (await h.call(contractOrders, { status: 'history', code: 'DOT' }, { token: user.token })).data;
    expect(history).toMatchObject({
      next: null,
      lists: [
        {
          id: placed.data.id,
          status: 'void',
          void_reason: 'no_price',
          cancelled_at: new Date(acceptedAt + 10_001).toISOString(),
          unit_price: null,
          received: null,
        },
      ],
    });
    expect(await amounts(user.token, 'DOT')).toEqual({
      code: 'DOT',
      available: '10.00000000',
      frozen: '0.00000000',
      usdt_available: '0.00000000',
      usdt_frozen: '0.00000000',
    });
    expect(await entriesOf(placed.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'DOT', bucket: 'available', amount: '-5.00000000' },
      { kind: 'contract_freeze', asset: 'DOT', bucket: 'frozen', amount: '5.00000000' },
      { kind: 'contract_void', asset: 'DOT', bucket: 'frozen', amount: '-5.00000000' },
      { kind: 'contract_void', asset: 'DOT', bucket: 'available', amount: '5.00000000' },
    ]);
    await match();
    expect(await entriesOf(placed.data.id)).toHaveLength(4);
    await expectLedgerBalanced(h);
  });
});
