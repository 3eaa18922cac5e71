// Contract orders attacked by what a customer (or an operator) can do: requests racing each other for one order or
// one pair of legs, a revoke of one leg of a take-profit / stop-loss pair before its buy filled, a sell whose tick
// makes it small, an OCO pair expiring on a quiet coin while one leg's revoke is in progress, an order too large for
// any balance, a pair closed to new orders with orders on it, a practice reset with legs attached or racing the
// matcher, a pair whose matching run fails, a pair's fee raised while a customer confirms an order at the fee shown,
// two coins' runs at once where one fills a customer's order and expires another's stop.
// Each ends with what the customer then holds, and the ledger summing to every balance where money moved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { customer, expectLedgerBalanced, grant, moneyState, refused, rowLocked, waitersOnLocks } from './helpers.ts';
import { contractOrders as contractOrdersTable } from '../../src/server/db/schema.ts';
import { TRIGGER_LIFETIME_MS } from '../../src/api-contract/contract-triggers.ts';
import { EXPIRY_GRACE_MS } from '../../src/server/domain/contract-triggers.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { matchCrossedOrders } from '../../src/server/domain/contracts.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import {
  attachTakeProfitStopLoss,
  cancelContract,
  contractAmounts,
  contractOrders,
  contractPairs,
  placeContract,
} from '../../src/api-contract/contracts.ts';
import { practiceAccount, resetPractice } from '../../src/api-contract/practice.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const { tick, ticks, match, amounts, listed, bracketBuy, legsOf } = contractKit(() => h);

describe('take-profit / stop-loss legs of a buy', () => {
  it('two requests racing to attach legs to one buy: one is attached, and the coin’s matching goes on', async () => {
    const user = await customer(h, '1000');
    const bystander = await customer(h, '1000');
    await tick('ETH', '3000.00');
    const placed = await h.call(
      placeContract,
      { code: 'ETH', side: 'buy', type: 'limit', price: '2990.00', quantity: '0.1' },
      { token: user.token },
    );
    const other = await h.call(
      placeContract,
      { code: 'ETH', side: 'buy', type: 'limit', price: '2995.00', quantity: '0.1' },
      { token: bystander.token },
    );
    expect([placed.ret, other.ret]).toEqual([1, 1]);
    // Both requests get as far as the buy's row and wait there, as when they arrive together.
    const holding = await rowLocked(h, sql`select id from contract_orders where id = ${placed.data.id} for update`);
    const attach = () =>
      h.call(
        attachTakeProfitStopLoss,
        { code: 'ETH', order_id: String(placed.data.id), take_profit: '3100.00', stop_loss: '2900.00' },
        { token: user.token },
      );
    const racing = [attach(), attach()];
    await waitersOnLocks(h.database.db, 2);
    await holding.release();
    const answers = (await Promise.all(racing)).map((res) => [res.ret, res.msg]).sort();
    expect(answers).toEqual([
      [0, 'This order is no longer open, or already has a take-profit or stop-loss!'],
      [1, 'Success'],
    ]);
    expect((await legsOf(user.token, placed.data.id)).map((leg) => leg.leg)).toEqual(['stop_loss', 'take_profit']);

    await tick('ETH', '2980.00');
    expect(await match()).toBe(2);
    expect(await listed(bystander.token, other.data.id)).toMatchObject({ status: 'filled' });
    expect(await listed(user.token, placed.data.id)).toMatchObject({ status: 'filled' });
    // The one pair holds what the buy bought.
    expect(await amounts(user.token, 'ETH')).toMatchObject({ available: '0.00000000', frozen: '0.10000000' });
    await expectLedgerBalanced(h);
  });

  it('revoking the stop-loss before the buy filled leaves a take-profit that holds what it bought and sells it', async () => {
    const user = await customer(h, '1000');
    await tick('BTC', '50500.00');
    const placed = await bracketBuy(user.token);
    const [stopLoss, takeProfit] = await legsOf(user.token, placed.data.id);
    expect((await h.call(cancelContract, { id: String(stopLoss!.id) }, { token: user.token })).ret).toBe(1);
    await tick('BTC', '49900.00');
    expect(await match()).toBe(1);
    expect(await listed(user.token, takeProfit!.id)).toMatchObject({ status: 'waiting', frozen: '0.01000000' });
    expect(await amounts(user.token, 'BTC')).toMatchObject({ available: '0.00000000', frozen: '0.01000000' });

    await ticks('BTC', ['56000.00', '56100.00']);
    expect(await match()).toBe(1);
    expect(await listed(user.token, takeProfit!.id)).toMatchObject({
      status: 'filled',
      unit_price: '56100',
      received: '560.43900000',
    });
    // 1000 − 500.5 for the buy + 561 less the 0.561 fee for the take-profit.
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

describe('take-profit / stop-loss legs of a position', () => {
  it('both legs revoked at once return the one reserve once', async () => {
    const user = await customer(h);
    await grant(h, user.id, '10', 'SOL');
    await tick('SOL', '200.00');
    const legs = await h.call(
      attachTakeProfitStopLoss,
      { code: 'SOL', quantity: '2', take_profit: '220.00', stop_loss: '180.00' },
      { token: user.token },
    );
    const [stopLoss, takeProfit] = legs.data.lists;
    // The take-profit's row held: the two revokes meet on it, in whichever order.
    const holding = await rowLocked(h, sql`select id from contract_orders where id = ${takeProfit!.id} for update`);
    const revoke = (id: number) => h.call(cancelContract, { id: String(id) }, { token: user.token });
    const racing = [revoke(stopLoss!.id), revoke(takeProfit!.id)];
    await waitersOnLocks(h.database.db, 2);
    await holding.release();
    expect((await Promise.all(racing)).map((res) => res.ret)).toEqual([1, 1]);
    expect(await amounts(user.token, 'SOL')).toMatchObject({ available: '10.00000000', frozen: '0.00000000' });
    await expectLedgerBalanced(h);
  });
});

describe('a take-profit / stop-loss pair expiring on a coin with no new prices', () => {
  it('a revoke of one leg in progress holds the pair back, never the matcher: the other leg then expires, once', async () => {
    const user = await customer(h);
    await grant(h, user.id, '4', 'XRP');
    await tick('XRP', '1.4000');
    const acceptedAt = h.clock.now().getTime();
    const legs = await h.call(
      attachTakeProfitStopLoss,
      { code: 'XRP', quantity: '4', take_profit: '1.5000', stop_loss: '1.3000' },
      { token: user.token },
    );
    const [stopLoss, takeProfit] = legs.data.lists;
    expect([stopLoss!.frozen, takeProfit!.frozen]).toEqual(['4.00000000', '0.00000000']);
    await match();
    // No XRP tick after the pair; its month and the grace a late tick has are over.
    h.clock.set(new Date(acceptedAt + TRIGGER_LIFETIME_MS + EXPIRY_GRACE_MS));
    user.token = await createSession(h.database.db, user.id, h.clock.now());

    const holding = await rowLocked(h, sql`select id from contract_orders where id = ${stopLoss!.id} for update`);
    const revoke = h.call(cancelContract, { id: String(stopLoss!.id) }, { token: user.token });
    await waitersOnLocks(h.database.db, 1);
    // The matcher skips the held leg and leaves its pair whole for a later run, without waiting for the revoke.
    expect(await match()).toBe(0);
    expect(await listed(user.token, takeProfit!.id)).toMatchObject({ status: 'waiting', frozen: '0.00000000' });
    await holding.release();
    expect((await revoke).ret).toBe(1);
    // The revoke passed the reserve to the take-profit, which the next run expires.
    expect(await listed(user.token, takeProfit!.id)).toMatchObject({ status: 'waiting', frozen: '4.00000000' });
    expect(await match()).toBe(0);
    expect(await listed(user.token, takeProfit!.id)).toMatchObject({ status: 'expired', frozen: '4.00000000' });
    expect(await listed(user.token, stopLoss!.id)).toMatchObject({ status: 'cancelled' });
    expect(await amounts(user.token, 'XRP')).toMatchObject({ available: '4.00000000', frozen: '0.00000000' });
    await expectLedgerBalanced(h);
  });
});

describe('a sell fills at its tick whatever the tick makes it worth', () => {
  it('a stop-loss over a small holding sells at the tick after its trigger, though that is worth under the minimum', async () => {
    const user = await customer(h);
    await grant(h, user.id, '0.00011', 'BTC');
    await tick('BTC', '50000.00');
    // 0.00011 BTC: 5.5 USDT at the latest price, 5.06 at the stop-loss; an order must be worth 5.
    const legs = await h.call(
      attachTakeProfitStopLoss,
      { code: 'BTC', quantity: '0.00011', stop_loss: '46000.00' },
      { token: user.token },
    );
    expect(legs.ret).toBe(1);
    const [stopLoss] = legs.data.lists;
    await ticks('BTC', ['45900.00', '45000.00']);
    expect(await match()).toBe(1);
    // 0.00011 × 45000 = 4.95, less the fee 0.00495.
    expect(await listed(user.token, stopLoss!.id)).toMatchObject({
      status: 'filled',
      unit_price: '45000',
      received: '4.94505000',
      void_reason: null,
    });
    expect(await amounts(user.token, 'BTC')).toMatchObject({
      available: '0.00000000',
      frozen: '0.00000000',
      usdt_available: '4.94505000',
    });
    await expectLedgerBalanced(h);
  });

  it('a market sell of the minimum fills at a next tick a little lower', async () => {
    const user = await customer(h);
    await grant(h, user.id, '0.0001', 'BTC');
    await tick('BTC', '50000.00');
    const placed = await h.call(
      placeContract,
      { code: 'BTC', side: 'sell', type: 'market', quantity: '0.0001' },
      { token: user.token },
    );
    expect(placed.ret).toBe(1);
    await tick('BTC', '49990.00');
    expect(await match()).toBe(1);
    // 0.0001 × 49990 = 4.999, less the fee 0.004999.
    expect(await listed(user.token, placed.data.id)).toMatchObject({ status: 'filled', received: '4.99400100' });
    await expectLedgerBalanced(h);
  });
});

describe('an order no balance could cover', () => {
  it.each([
    { type: 'stop_market', trigger_price: '999999999999999999.99' },
    { type: 'stop_limit', trigger_price: '999999999999999999.99', price: '999999999999999999.99' },
  ])(
    'a $type buy of the largest quantity at the largest trigger is refused as such, and moves nothing',
    async (order) => {
      const user = await customer(h, '1000');
      await tick('BTC', '50000.00');
      const res = await h.call(
        placeContract,
        { code: 'BTC', side: 'buy', quantity: '999999999999999999.99999', ...order },
        { token: user.token },
      );
      expect(res).toEqual({ ret: 0, msg: 'Insufficient balance!', data: null });
      expect(await amounts(user.token, 'BTC')).toMatchObject({
        usdt_available: '1000.00000000',
        usdt_frozen: '0.00000000',
      });
      expect((await h.call(contractOrders, { status: 'open' }, { token: user.token })).data.lists).toEqual([]);
    },
  );
});

describe('a pair the operator closes to new orders', () => {
  it('still fills the market order it accepted, at the first tick after it, and the limit resting on it', async () => {
    const user = await customer(h, '1000');
    await tick('LTC', '100.00');
    const market = await h.call(
      placeContract,
      { code: 'LTC', side: 'buy', type: 'market', quantity: '1' },
      { token: user.token },
    );
    const limit = await h.call(
      placeContract,
      { code: 'LTC', side: 'buy', type: 'limit', price: '99.00', quantity: '1' },
      { token: user.token },
    );
    expect([market.data.status, limit.data.status]).toEqual(['filling', 'open']);
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    expect(await ops('pair', 'LTC', 'active=false')).toMatchObject({ ok: true });
    await ticks('LTC', ['101.00', '98.00']);
    expect(await match()).toBe(2);
    expect(await listed(user.token, market.data.id)).toMatchObject({ status: 'filled', unit_price: '101' });
    expect(await listed(user.token, limit.data.id)).toMatchObject({ status: 'filled', unit_price: '99' });
    // 1000 − 101 − (99 + 0.099); 1 LTC less its 0.001 fee, and 1.
    expect(await amounts(user.token, 'LTC')).toMatchObject({
      available: '1.99900000',
      frozen: '0.00000000',
      usdt_available: '799.90100000',
      usdt_frozen: '0.00000000',
    });
    expect(await ops('pair', 'LTC', 'active=true')).toMatchObject({ ok: true });
    await expectLedgerBalanced(h);
  });
});

describe('a pair whose fee the operator raises while a customer confirms an order', () => {
  it('refuses the order confirmed at the fee shown before the change, moving nothing; one at the fee now is placed', async () => {
    const user = await customer(h, '1000');
    await tick('DOGE', '0.10000');
    // What the order form shows and the customer confirms: the pair's fee rate.
    const shown = (await h.call(contractPairs)).data.lists.find((pair) => pair.code === 'DOGE')!;
    expect(shown.fee_rate).toBe('0.001');
    const ops = (...argv: string[]) =>
      runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
    expect(await ops('pair', 'DOGE', 'fee=0.09')).toMatchObject({ ok: true });
    try {
      const buy = (feeRate: string, lang = 'en') =>
        h.call(
          placeContract,
          { code: 'DOGE', side: 'buy', type: 'limit', price: '0.10000', quantity: '1000', fee_rate: feeRate },
          { token: user.token, lang },
        );
      const before = await moneyState(h, user.id, { orders: contractOrdersTable });
      expect(await buy(shown.fee_rate)).toEqual(
        refused('The fee of this pair is now 9%: check what the order costs and place it again!'),
      );
      const thai = await buy(shown.fee_rate, 'th');
      expect(thai).toMatchObject({ ret: 0, data: null });
      expect(thai.msg).toMatch(/9%/);
      expect(thai.msg).not.toMatch(/The fee/);
      expect(await moneyState(h, user.id, { orders: contractOrdersTable })).toEqual(before);
      // At the fee now, confirmed: placed, holding 100 USDT and its 9 USDT fee.
      expect(await buy('0.090')).toMatchObject({ ret: 1, data: { status: 'open', fee_rate: '0.09' } });
      expect(await amounts(user.token, 'DOGE')).toMatchObject({ usdt_frozen: '109.00000000' });
      await expectLedgerBalanced(h);
    } finally {
      expect(await ops('pair', 'DOGE', `fee=${shown.fee_rate}`)).toMatchObject({ ok: true });
    }
  });
});

describe('a pair whose matching run fails', () => {
  it('holds back only its own orders: the pairs after it fill, and the failure names it', async () => {
    const user = await customer(h, '1000');
    await tick('ADA', '0.9800');
    await tick('ETH', '3000.00');
    const order = (code: string, quantity: string) =>
      h.call(placeContract, { code, side: 'buy', type: 'market', quantity }, { token: user.token });
    const ada = await order('ADA', '10');
    const eth = await order('ETH', '0.1');
    // Any failure of one pair's run (a bad row, a constraint, a bug): ADA's orders, matched first, cannot be written.
    await h.database.db.execute(sql`
      create function refuse_ada_fills() returns trigger language plpgsql as $$
        begin raise exception 'ADA order % cannot be written', new.id; end $$;
      create trigger refuse_ada_fills before update on contract_orders for each row
        when (new.coin = 'ADA') execute function refuse_ada_fills()`);
    try {
      await ticks('ADA', ['0.9810']);
      await ticks('ETH', ['3001.00']);
      await expect(match()).rejects.toThrow(/ADA/);
      expect(await listed(user.token, eth.data.id)).toMatchObject({ status: 'filled', unit_price: '3001' });
      expect(await listed(user.token, ada.data.id)).toMatchObject({ status: 'filling' });
    } finally {
      await h.database.db.execute(
        sql`drop trigger refuse_ada_fills on contract_orders; drop function refuse_ada_fills()`,
      );
    }
    // Once it can be written, it fills at the first tick after it was accepted, as it would have.
    expect(await match()).toBe(1);
    expect(await listed(user.token, ada.data.id)).toMatchObject({ status: 'filled', unit_price: '0.981' });
    await expectLedgerBalanced(h);
  });
});

describe('the practice account', () => {
  it('a reset with a buy carrying take-profit / stop-loss legs revokes them all and starts afresh', async () => {
    const user = await customer(h);
    await tick('BTC', '50500.00');
    await bracketBuy(user.token, 'practice');
    const before = await h.call(practiceAccount, {}, { token: user.token });
    const reset = await h.call(resetPractice, {}, { token: user.token });
    expect(reset).toMatchObject({ ret: 1, data: { resets: before.data.resets + 1 } });
    const open = await h.call(contractOrders, { status: 'open', account: 'practice' }, { token: user.token });
    expect(open.data.lists).toEqual([]);
    expect((await h.call(contractAmounts, { code: 'BTC', account: 'practice' }, { token: user.token })).data).toEqual({
      code: 'BTC',
      available: '0.00000000',
      frozen: '0.00000000',
      usdt_available: '10000.00000000',
      usdt_frozen: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });

  it('a reset while the matcher releases a practice stop waits for it, and is refused while that order fills', async () => {
    const user = await customer(h);
    await tick('SOL', '200.00');
    const stop = await h.call(
      placeContract,
      { code: 'SOL', side: 'buy', type: 'stop_market', trigger_price: '210.00', quantity: '1', account: 'practice' },
      { token: user.token },
    );
    expect(stop.data).toMatchObject({ status: 'waiting', frozen: '231.00000000' });
    await tick('SOL', '211.00');
    // The matcher's transaction releases the stop and is still open when the reset comes.
    let commit!: () => void;
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let released!: () => void;
    const inMatcher = new Promise<void>((resolve) => (released = resolve));
    const matching = h.database.db.transaction(async (tx) => {
      expect(await matchCrossedOrders(tx, 'SOL', h.clock.now(), 100)).toMatchObject({ released: 1 });
      released();
      await gate;
    });
    await inMatcher;
    const resetting = h.call(resetPractice, {}, { token: user.token });
    await waitersOnLocks(h.database.db, 1);
    commit();
    await matching;
    expect(await resetting).toEqual({
      ret: 0,
      msg: 'A practice order is being filled: please try again in a few seconds!',
      data: null,
    });
    await tick('SOL', '212.00');
    expect(await match()).toBe(1);
    const history = await h.call(contractOrders, { status: 'history', account: 'practice' }, { token: user.token });
    expect(history.data.lists).toMatchObject([{ id: stop.data.id, status: 'filled', unit_price: '212' }]);
    await expectLedgerBalanced(h);
    expect(await h.call(resetPractice, {}, { token: user.token })).toMatchObject({ ret: 1 });
    await expectLedgerBalanced(h);
  });
});

describe('two coins matched at once, one filling a customer’s order and expiring another’s stop', () => {
  it('neither run is deadlocked by the other: each fills its orders, and the stop expires once', async () => {
    const first = await customer(h, '10000');
    const second = await customer(h, '10000');
    await tick('BNB', '600.00');
    const stop = await h.call(
      placeContract,
      { code: 'BNB', side: 'buy', type: 'stop_market', trigger_price: '700.00', quantity: '1' },
      { token: first.token },
    );
    expect(stop.data).toMatchObject({ status: 'waiting', frozen: '770.00000000' });
    // The stop's lifetime passes; then limit buys the next ticks cross: the second customer's on BNB, both on DOT.
    h.clock.advance(TRIGGER_LIFETIME_MS + 1000);
    for (const user of [first, second]) user.token = await createSession(h.database.db, user.id, h.clock.now());
    await tick('BNB', '600.00');
    await tick('DOT', '8.000', 0);
    const buy = (token: string, code: string, price: string, quantity: string) =>
      h.call(placeContract, { code, side: 'buy', type: 'limit', price, quantity }, { token });
    const placed = [
      await buy(second.token, 'BNB', '595.00', '1'),
      await buy(first.token, 'DOT', '7.950', '10'),
      await buy(second.token, 'DOT', '7.950', '10'),
    ];
    expect(placed.map((res) => res.ret)).toEqual([1, 1, 1]);
    await tick('BNB', '590.00');
    await tick('DOT', '7.900', 0);
    // The second customer's USDT is held by another writer while the BNB run, then the DOT run, reach it.
    const holding = await rowLocked(
      h,
      sql`select 1 from balances where user_id = ${second.id} and asset = 'USDT' for update`,
    );
    const run = (coin: string) => h.database.db.transaction((tx) => matchCrossedOrders(tx, coin, h.clock.now(), 100));
    const bnb = run('BNB');
    await waitersOnLocks(h.database.db, 1);
    const dot = run('DOT');
    await waitersOnLocks(h.database.db, 2);
    await holding.release();
    expect(await Promise.all([bnb, dot])).toMatchObject([{ filled: 1 }, { filled: 2 }]);
    await match();
    expect(await listed(first.token, stop.data.id)).toMatchObject({ status: 'expired' });
    for (const [user, res] of [second, first, second].map((user, n) => [user, placed[n]!] as const))
      expect(await listed(user.token, res.data.id)).toMatchObject({ status: 'filled' });
    // 10,000 − 7.95 × 10 − its 0.0795 fee; the stop's 770 came back.
    expect(await amounts(first.token, 'DOT')).toMatchObject({
      usdt_available: '9920.42050000',
      usdt_frozen: '0.00000000',
    });
    await expectLedgerBalanced(h);
  });
});
