// Conditional contract orders through the calls a customer makes: a stop-market or stop-limit order waits, its reserve
// frozen, until the first tick recorded after it was accepted reaches its trigger (never one stamped before), then
// fills at the next tick as a market order or rests as a limit; take-profit / stop-loss legs over a position or an open
// buy form an OCO pair that fills exactly one leg, the other cancelled in the fill's transaction, even when the ticks
// gap through both; a revoke, a release that cannot fill and an expiry (after a tick past it, or at its time on a coin
// with no tick) return every reserve; each refusal answers its text and moves nothing; and the ledger reconciles after
// each. The amounts are worked out here by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { customer, expectLedgerBalanced, grant, refused } from './helpers.ts';
import { attachTakeProfitStopLoss, cancelContract, placeContract } from '../../src/api-contract/contracts.ts';
import { TRIGGER_LIFETIME_MS } from '../../src/api-contract/contract-triggers.ts';
import { EXPIRY_GRACE_MS } from '../../src/server/domain/contract-triggers.ts';
import { createSession } from '../../src/server/domain/sessions.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const { tick, ticks, match, amounts, listed, entriesOf, bracketBuy, legsOf } = contractKit(() => h);

describe('stop orders', () => {
  it('a stop-market buy triggers on exactly the first tick at or above it after acceptance, then fills at the next', async () => {
    const user = await customer(h, '10000');
    await tick('BTC', '50000.00');
    const acceptedAt = h.clock.now().getTime();
    const placed = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'stop_market', trigger_price: '51000.00', quantity: '0.1' },
      { token: user.token },
    );
    // What a market buy would freeze when it triggers: 0.1 × 51000 (the trigger) × (1 + the 10 % band).
    expect(placed).toMatchObject({
      ret: 1,
      data: {
        type: 'stop_market',
        status: 'waiting',
        trigger_state: 'waiting',
        trigger_price: '51000',
        trigger_above: true,
        price: null,
        frozen: '5610.00000000',
        frozen_asset: 'USDT',
        trigger_tick_at: null,
        expires_at: new Date(acceptedAt + TRIGGER_LIFETIME_MS).toISOString(),
      },
    });
    const id = placed.data.id;
    expect(await amounts(user.token, 'BTC')).toMatchObject({
      usdt_available: '4390.00000000',
      usdt_frozen: '5610.00000000',
    });

    // A tick above the trigger but stamped before the acceptance (arriving late) never triggers it; one just below
    // waits.
    await h.market.record([{ coin: 'BTC', at: new Date(acceptedAt - 500), price: '52000.00', volume: '1' }]);
    expect(await match()).toBe(0);
    await tick('BTC', '50999.99');
    expect(await match()).toBe(0);
    expect(await listed(user.token, id)).toMatchObject({ list: 'open', status: 'waiting', trigger_state: 'waiting' });

    const triggerAt = await tick('BTC', '51000.00');
    expect(await match()).toBe(0);
    expect(await listed(user.token, id)).toMatchObject({
      list: 'open',
      status: 'filling',
      trigger_state: 'triggered',
      trigger_tick_price: '51000',
      trigger_tick_at: triggerAt,
      unit_price: null,
    });

    const fillAt = await tick('BTC', '51500.00');
    expect(await match()).toBe(1);
    // 0.1 × 51500 = 5150 USDT spent; the fee 0.1 × 0.001 BTC comes out of the BTC received.
    expect(await listed(user.token, id)).toMatchObject({
      list: 'history',
      status: 'filled',
      trigger_state: 'filled',
      unit_price: '51500',
      spent: '5150.00000000',
      received: '0.09990000',
      tick_at: fillAt,
      trigger_tick_at: triggerAt,
    });
    expect(await amounts(user.token, 'BTC')).toEqual({
      code: 'BTC',
      available: '0.09990000',
      frozen: '0.00000000',
      usdt_available: '4850.00000000',
      usdt_frozen: '0.00000000',
    });
    expect(await entriesOf(id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-5610.00000000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '5610.00000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'frozen', amount: '-5610.00000000' },
      { kind: 'contract_trade', asset: 'USDT', bucket: 'available', amount: '460.00000000' },
      { kind: 'contract_trade', asset: 'BTC', bucket: 'available', amount: '0.09990000' },
    ]);
    expect(await match()).toBe(0);
    await expectLedgerBalanced(h);
  });

  it('a stop-limit sell rests as a limit from its trigger tick and fills at its price on a later tick', async () => {
    const user = await customer(h);
    await grant(h, user.id, '1', 'ETH');
    await tick('ETH', '3000.00');
    const placed = await h.call(
      placeContract,
      { code: 'ETH', side: 'sell', type: 'stop_limit', trigger_price: '2900.00', price: '2890.00', quantity: '0.5' },
      { token: user.token },
    );
    expect(placed.data).toMatchObject({
      status: 'waiting',
      trigger_above: false,
      frozen: '0.50000000',
      frozen_asset: 'ETH',
    });
    const id = placed.data.id;
    // The trigger tick crosses the limit too, but the released limit rests: only a later tick fills it.
    await tick('ETH', '2900.00');
    expect(await match()).toBe(0);
    expect(await listed(user.token, id)).toMatchObject({ status: 'open', trigger_state: 'triggered', price: '2890' });
    await tick('ETH', '2895.00');
    expect(await match()).toBe(1);
    // 0.5 × 2890 = 1445 USDT, less the fee 1.445.
    expect(await listed(user.token, id)).toMatchObject({
      status: 'filled',
      unit_price: '2890',
      received: '1443.55500000',
      trigger_tick_price: '2900',
    });
    expect(await amounts(user.token, 'ETH')).toMatchObject({ available: '0.50000000', frozen: '0.00000000' });
    await expectLedgerBalanced(h);
  });

  it('a revoke returns a waiting stop’s reserve; an expiry returns another’s', async () => {
    const user = await customer(h, '1000');
    await tick('LTC', '100.00');
    const revoked = await h.call(
      placeContract,
      { code: 'LTC', side: 'buy', type: 'stop_limit', trigger_price: '110.00', price: '111.00', quantity: '1' },
      { token: user.token },
    );
    // A stop-limit freezes what its limit would: 111 + the 0.111 fee.
    expect(revoked.data).toMatchObject({ status: 'waiting', frozen: '111.11100000' });
    expect(await h.call(cancelContract, { id: String(revoked.data.id) }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { status: 'cancelled', trigger_state: 'cancelled' },
    });
    expect(await amounts(user.token, 'LTC')).toMatchObject({
      usdt_available: '1000.00000000',
      usdt_frozen: '0.00000000',
    });

    const lapsing = await h.call(
      placeContract,
      { code: 'LTC', side: 'sell', type: 'stop_market', trigger_price: '90.00', quantity: '1' },
      { token: user.token },
    );
    expect(lapsing.ret).toBe(0); // nothing to sell yet
    await grant(h, user.id, '1', 'LTC');
    const expiring = await h.call(
      placeContract,
      { code: 'LTC', side: 'sell', type: 'stop_market', trigger_price: '90.00', quantity: '1' },
      { token: user.token },
    );
    expect(expiring.data).toMatchObject({ status: 'waiting', frozen: '1.00000000' });
    await tick('LTC', '95.00', TRIGGER_LIFETIME_MS - 2000);
    await match();
    expect(await listed(user.token, expiring.data.id)).toMatchObject({ status: 'waiting' });
    await tick('LTC', '96.00', 2000);
    await match();
    expect(await listed(user.token, expiring.data.id)).toMatchObject({
      list: 'history',
      status: 'expired',
      trigger_state: 'expired',
    });
    expect(await entriesOf(expiring.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'LTC', bucket: 'available', amount: '-1.00000000' },
      { kind: 'contract_freeze', asset: 'LTC', bucket: 'frozen', amount: '1.00000000' },
      { kind: 'contract_expire', asset: 'LTC', bucket: 'frozen', amount: '-1.00000000' },
      { kind: 'contract_expire', asset: 'LTC', bucket: 'available', amount: '1.00000000' },
    ]);
    await expectLedgerBalanced(h);
  });
});

describe('take-profit / stop-loss as an OCO pair', () => {
  async function protectedPosition() {
    const user = await customer(h);
    await grant(h, user.id, '10', 'SOL');
    await tick('SOL', '200.00');
    const legs = await h.call(
      attachTakeProfitStopLoss,
      { code: 'SOL', quantity: '2', take_profit: '220.00', stop_loss: '180.00' },
      { token: user.token },
    );
    expect(legs.ret).toBe(1);
    const [stopLoss, takeProfit] = legs.data.lists;
    // One reserve for the pair, held by the stop-loss leg.
    expect(stopLoss).toMatchObject({ leg: 'stop_loss', status: 'waiting', trigger_above: false, frozen: '2.00000000' });
    expect(takeProfit).toMatchObject({
      leg: 'take_profit',
      status: 'waiting',
      trigger_above: true,
      frozen: '0.00000000',
    });
    expect(takeProfit!.oco_group).toBe(stopLoss!.id);
    expect(stopLoss!.oco_group).toBe(stopLoss!.id);
    expect(await amounts(user.token, 'SOL')).toMatchObject({ available: '8.00000000', frozen: '2.00000000' });
    return { user, stopLoss: stopLoss!, takeProfit: takeProfit! };
  }

  it('a gap through both legs: the stop-loss, reached first, fills once; the take-profit is cancelled', async () => {
    const { user, stopLoss, takeProfit } = await protectedPosition();
    const [slAt, nextAt] = await ticks('SOL', ['170.00', '230.00']);
    expect(await match()).toBe(1);
    expect(await listed(user.token, stopLoss.id)).toMatchObject({
      status: 'filled',
      trigger_tick_at: slAt,
      tick_at: nextAt,
      unit_price: '230',
      // 2 × 230 = 460, less the fee 0.46.
      received: '459.54000000',
    });
    const other = await listed(user.token, takeProfit.id);
    expect(other).toMatchObject({ list: 'history', status: 'cancelled', trigger_state: 'cancelled', tick_at: null });
    // Cancelled in the fill's own transaction: at the same instant.
    const filled = await listed(user.token, stopLoss.id);
    expect(other.cancelled_at).toBe(filled.filled_at);
    expect(await amounts(user.token, 'SOL')).toMatchObject({
      available: '8.00000000',
      frozen: '0.00000000',
      usdt_available: '459.54000000',
    });
    expect(await entriesOf(takeProfit.id)).toEqual([]);
    await expectLedgerBalanced(h);
  });

  it('a gap the other way: the take-profit, reached first, takes the reserve and fills; the stop-loss is cancelled', async () => {
    const { user, stopLoss, takeProfit } = await protectedPosition();
    await ticks('SOL', ['230.00', '170.00']);
    expect(await match()).toBe(1);
    expect(await listed(user.token, takeProfit.id)).toMatchObject({
      status: 'filled',
      unit_price: '170',
      received: '339.66000000',
    });
    expect(await listed(user.token, stopLoss.id)).toMatchObject({ status: 'cancelled', frozen: '0.00000000' });
    expect(await amounts(user.token, 'SOL')).toMatchObject({ available: '8.00000000', frozen: '0.00000000' });
    await expectLedgerBalanced(h);
  });

  it('revoking one leg passes the reserve to the other; revoking that one returns it', async () => {
    const { user, stopLoss, takeProfit } = await protectedPosition();
    expect((await h.call(cancelContract, { id: String(stopLoss.id) }, { token: user.token })).ret).toBe(1);
    expect(await listed(user.token, takeProfit.id)).toMatchObject({ status: 'waiting', frozen: '2.00000000' });
    expect(await amounts(user.token, 'SOL')).toMatchObject({ available: '8.00000000', frozen: '2.00000000' });
    await expectLedgerBalanced(h);
    expect((await h.call(cancelContract, { id: String(takeProfit.id) }, { token: user.token })).ret).toBe(1);
    expect(await amounts(user.token, 'SOL')).toMatchObject({ available: '10.00000000', frozen: '0.00000000' });
    await expectLedgerBalanced(h);
  });

  it('legs attached to a buy wait for its fill, then hold what it bought', async () => {
    const user = await customer(h, '1000');
    await tick('BTC', '50500.00');
    const placed = await bracketBuy(user.token);
    expect(placed.data).toMatchObject({ status: 'open', frozen: '500.50000000' });
    const legs = await legsOf(user.token, placed.data.id);
    expect(legs.map((leg) => [leg.leg, leg.status, leg.trigger_state, leg.frozen])).toEqual([
      ['stop_loss', 'attached', 'waiting', '0.00000000'],
      ['take_profit', 'attached', 'waiting', '0.00000000'],
    ]);
    // Above the take-profit before the buy filled: nothing.
    await tick('BTC', '55500.00');
    expect(await match()).toBe(0);
    await tick('BTC', '49900.00');
    expect(await match()).toBe(1);
    expect(await amounts(user.token, 'BTC')).toMatchObject({ available: '0.00000000', frozen: '0.01000000' });
    await tick('BTC', '56000.00');
    await tick('BTC', '56100.00');
    expect(await match()).toBe(1);
    const [stopLoss, takeProfit] = legs;
    expect(await listed(user.token, takeProfit!.id)).toMatchObject({ status: 'filled', unit_price: '56100' });
    expect(await listed(user.token, stopLoss!.id)).toMatchObject({ status: 'cancelled' });
    // 0.01 × 56100 = 561, less the 0.561 fee; 1000 − 500.5 + 560.439.
    expect(await amounts(user.token, 'BTC')).toEqual({
      code: 'BTC',
      available: '0.00000000',
      frozen: '0.00000000',
      usdt_available: '1059.93900000',
      usdt_frozen: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });
});

describe('refusals answer their text and move nothing', () => {
  it.each([
    [
      { type: 'stop_market', side: 'buy', trigger_price: '49000.00', quantity: '0.1' },
      'The trigger price must be above the latest price (50000)!',
    ],
    [
      { type: 'stop_market', side: 'sell', trigger_price: '50000.00', quantity: '0.1' },
      'The trigger price must be below the latest price (50000)!',
    ],
    [{ type: 'stop_market', side: 'buy', quantity: '0.1' }, 'Please enter the trigger price!'],
    [{ type: 'stop_limit', side: 'buy', trigger_price: '51000.00', quantity: '0.1' }, 'Please enter the price!'],
    [
      { type: 'stop_market', side: 'buy', trigger_price: '51k', quantity: '0.1' },
      'Please enter a valid trigger price!',
    ],
    [
      { type: 'stop_market', side: 'buy', trigger_price: '51000.001', quantity: '0.1' },
      'The trigger price must be a multiple of 0.01!',
    ],
    [{ type: 'stop_market', side: 'buy', trigger_price: '0', quantity: '0.1' }, 'Please enter a price above zero!'],
    [
      { type: 'limit', side: 'buy', price: '50000.00', quantity: '0.1', stop_loss: '0.00' },
      'Please enter a price above zero!',
    ],
    [
      { type: 'limit', side: 'sell', price: '50000.00', quantity: '0.1', stop_loss: '45000.00' },
      'Take-profit and stop-loss can be attached to a buy order only!',
    ],
    [
      { type: 'limit', side: 'buy', price: '50000.00', quantity: '0.1', take_profit: '49000.00' },
      'The take-profit price must be above 50000!',
    ],
  ] as const)('%o → %s', async (fields, text) => {
    const user = await customer(h, '100000');
    await tick('BTC', '50000.00');
    const res = await h.call(placeContract, { code: 'BTC', ...fields }, { token: user.token });
    expect(res).toEqual(refused(text));
    expect(await amounts(user.token, 'BTC')).toMatchObject({
      usdt_available: '100000.00000000',
      usdt_frozen: '0.00000000',
    });
  });

  it('answers in the customer’s language', async () => {
    const user = await customer(h, '100000');
    await tick('BTC', '50000.00');
    const res = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'stop_market', trigger_price: '49000.00', quantity: '0.1' },
      { token: user.token, lang: 'zh' },
    );
    expect(res).toEqual(refused('触发价必须高于最新价格（50000）！'));
  });

  it('a position needs a take-profit or stop-loss on the right side of the latest price', async () => {
    const user = await customer(h);
    await grant(h, user.id, '1', 'SOL');
    await tick('SOL', '200.00');
    const call = (fields: Record<string, string>) =>
      h.call(attachTakeProfitStopLoss, { code: 'SOL', quantity: '1', ...fields }, { token: user.token });
    expect(await call({})).toEqual(refused('Please enter a take-profit or a stop-loss price!'));
    expect(await call({ stop_loss: '201.00' })).toEqual({
      ret: 0,
      msg: 'The stop-loss price must be below 200!',
      data: null,
    });
    expect(await call({ stop_loss: '150.00', quantity: '2' })).toMatchObject({ ret: 0 });
    expect(await amounts(user.token, 'SOL')).toMatchObject({ available: '1.00000000', frozen: '0.00000000' });
  });
});

describe('a stop on a coin with no new prices', () => {
  it('expires at its time without a tick: its reserve, its pair’s and its legs’ come back once, and nothing fills', async () => {
    const user = await customer(h, '1000');
    await grant(h, user.id, '5', 'DOT');
    await tick('DOT', '8.000');
    const acceptedAt = h.clock.now().getTime();
    const stop = await h.call(
      placeContract,
      {
        code: 'DOT',
        side: 'buy',
        type: 'stop_limit',
        trigger_price: '9.000',
        price: '9.100',
        quantity: '10',
        take_profit: '10.000',
        stop_loss: '8.500',
      },
      { token: user.token },
    );
    // 10 × 9.1 = 91 USDT and the 0.091 fee.
    expect(stop.data).toMatchObject({ status: 'waiting', frozen: '91.09100000' });
    const legs = await legsOf(user.token, stop.data.id);
    const pair = await h.call(
      attachTakeProfitStopLoss,
      { code: 'DOT', quantity: '5', take_profit: '9.500', stop_loss: '7.000' },
      { token: user.token },
    );
    expect(pair.ret).toBe(1);
    const [stopLoss, takeProfit] = pair.data.lists;
    expect(await amounts(user.token, 'DOT')).toMatchObject({
      available: '0.00000000',
      frozen: '5.00000000',
      usdt_available: '908.90900000',
      usdt_frozen: '91.09100000',
    });
    await match();

    // No DOT tick from here on (the feed went quiet, or the operator halted it). Just within the grace a tick stamped
    // before the expiry may still be recorded, and would decide: the orders wait for it.
    const expiresAt = acceptedAt + TRIGGER_LIFETIME_MS;
    h.clock.set(new Date(expiresAt + EXPIRY_GRACE_MS - 1));
    // The session idled out over the month: the customer logs in again.
    user.token = await createSession(h.database.db, user.id, h.clock.now());
    expect(await match()).toBe(0);
    expect(await listed(user.token, stop.data.id)).toMatchObject({ status: 'waiting' });

    h.clock.advance(1);
    expect(await match()).toBe(0);
    expect(await listed(user.token, stop.data.id)).toMatchObject({
      list: 'history',
      status: 'expired',
      trigger_state: 'expired',
      trigger_tick_at: null,
      unit_price: null,
      cancelled_at: h.clock.now().toISOString(),
    });
    for (const leg of legs) expect(await listed(user.token, leg.id)).toMatchObject({ status: 'cancelled' });
    for (const leg of [stopLoss!, takeProfit!])
      expect(await listed(user.token, leg.id)).toMatchObject({ status: 'expired', frozen: leg.frozen });
    expect(await amounts(user.token, 'DOT')).toEqual({
      code: 'DOT',
      available: '5.00000000',
      frozen: '0.00000000',
      usdt_available: '1000.00000000',
      usdt_frozen: '0.00000000',
    });
    expect(await entriesOf(stop.data.id)).toEqual([
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'available', amount: '-91.09100000' },
      { kind: 'contract_freeze', asset: 'USDT', bucket: 'frozen', amount: '91.09100000' },
      { kind: 'contract_expire', asset: 'USDT', bucket: 'frozen', amount: '-91.09100000' },
      { kind: 'contract_expire', asset: 'USDT', bucket: 'available', amount: '91.09100000' },
    ]);
    expect(await entriesOf(stopLoss!.id)).toEqual([
      { kind: 'contract_freeze', asset: 'DOT', bucket: 'available', amount: '-5.00000000' },
      { kind: 'contract_freeze', asset: 'DOT', bucket: 'frozen', amount: '5.00000000' },
      { kind: 'contract_expire', asset: 'DOT', bucket: 'frozen', amount: '-5.00000000' },
      { kind: 'contract_expire', asset: 'DOT', bucket: 'available', amount: '5.00000000' },
    ]);
    expect(await entriesOf(takeProfit!.id)).toEqual([]);
    // Once: the next runs find nothing more to return.
    h.clock.advance(1000);
    expect(await match()).toBe(0);
    expect((await entriesOf(stop.data.id)).length).toBe(4);
    await expectLedgerBalanced(h);
  });

  it('a tick stamped before the expiry and recorded late still decides: the stop is released, not expired', async () => {
    const user = await customer(h);
    await grant(h, user.id, '10', 'ADA');
    await tick('ADA', '1.0000');
    const acceptedAt = h.clock.now().getTime();
    const stop = await h.call(
      placeContract,
      { code: 'ADA', side: 'sell', type: 'stop_limit', trigger_price: '0.9000', price: '0.8900', quantity: '10' },
      { token: user.token },
    );
    expect(stop.data).toMatchObject({ status: 'waiting', frozen: '10.00000000' });
    await match();
    const expiresAt = acceptedAt + TRIGGER_LIFETIME_MS;
    h.clock.set(new Date(expiresAt + EXPIRY_GRACE_MS - 1));
    user.token = await createSession(h.database.db, user.id, h.clock.now());
    expect(await match()).toBe(0);
    const lateAt = new Date(expiresAt - 1000);
    await h.market.record([{ coin: 'ADA', at: lateAt, price: '0.8950', volume: '1' }]);
    h.clock.advance(1);
    expect(await match()).toBe(0);
    expect(await listed(user.token, stop.data.id)).toMatchObject({
      status: 'open',
      trigger_state: 'triggered',
      trigger_tick_at: lateAt.toISOString(),
      frozen: '10.00000000',
    });
    expect((await entriesOf(stop.data.id)).map((entry) => entry.kind)).toEqual(['contract_freeze', 'contract_freeze']);
    await expectLedgerBalanced(h);
  });
});
