// Converting small balances to USDT through the customer's call: only what the pair's sell rule refuses whole is
// converted (never the frozen part, never another customer's), filled like a market order at the first tick recorded
// after the request was accepted — not at the price recorded when it was — less the pair's sell fee, each movement a
// ledger entry; an Idempotency-Key replays the first answer; nothing to convert is refused and moves nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { TOKEN_EXPIRED, customer, expectLedgerBalanced, grant, moneyState, refused } from './helpers.ts';
import { contractAmounts, convertSmallBalances, placeContract } from '../../src/api-contract/contracts.ts';
import { consoleCustomer } from '../../src/api-contract/console.ts';
import { contractReceipt } from '../../src/api-contract/receipts.ts';
import { tradeFills } from '../../src/api-contract/trades.ts';
import { operatorToken } from './console-helpers.ts';
import { balances, contractOrders } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const { tick, match, amounts, listed, entriesOf } = contractKit(() => h);

/** Everything a conversion can move for one user: balances, ledger entries, contract orders. */
const held = (userId: number) => moneyState(h, userId, { orders: contractOrders });

const NOTHING = refused('You have no small balances to convert.');
const CHANGED = refused('Your small balances changed since you looked. Check the list again before converting.');

it('needs a login', async () => {
  expect(await h.call(convertSmallBalances, { amounts: 'BTC:0.00000898' })).toEqual(TOKEN_EXPIRED);
});

it('converts only the dust, at the first tick recorded after acceptance, once per key; the frozen part and another customer stay', async () => {
  const user = await customer(h, '100');
  const other = await customer(h, '5');
  await tick('ETH', '3000.00');
  await tick('BTC', '49000.00');
  // 0.001 BTC goes to an open limit sell (frozen); 0.00000898 BTC is left, below the 0.00001 step: dust. 1 ETH is not.
  await grant(h, user.id, '0.00100898', 'BTC');
  await grant(h, user.id, '1', 'ETH');
  const limit = await h.call(
    placeContract,
    { code: 'BTC', side: 'sell', type: 'limit', price: '50000.00', quantity: '0.001' },
    { token: user.token },
  );
  expect(limit.ret).toBe(1);
  expect(limit.data).toMatchObject({ status: 'open', frozen: '0.00100000' });
  await grant(h, other.id, '0.00000500', 'BTC');
  const otherBefore = await held(other.id);

  const acceptedAt = h.clock.now();
  const answer = await h.call(
    convertSmallBalances,
    { amounts: 'BTC:0.00000898' },
    { token: user.token, idempotencyKey: 'dust-1' },
  );
  expect(answer).toMatchObject({ ret: 1, data: { total: 1 } });
  const [order] = answer.data.lists;
  expect(order).toMatchObject({
    code: 'BTC',
    side: 'sell',
    type: 'market',
    status: 'filling',
    quantity: '0.00000898',
    frozen: '0.00000898',
    frozen_asset: 'BTC',
    dust_conversion: true,
    created_at: acceptedAt.toISOString(),
  });
  // Held for the conversion beside the limit sell's 0.001; ETH is not touched.
  expect(await amounts(user.token, 'BTC')).toMatchObject({ available: '0.00000000', frozen: '0.00100898' });
  expect(await amounts(user.token, 'ETH')).toMatchObject({ available: '1.00000000', frozen: '0.00000000' });

  // The same key again answers the first answer and converts nothing more.
  const replay = await h.call(
    convertSmallBalances,
    { amounts: 'BTC:0.00000898' },
    { token: user.token, idempotencyKey: 'dust-1' },
  );
  expect(replay).toEqual(answer);
  expect((await held(user.id)).orders.filter((row) => row.dustConversion)).toHaveLength(1);

  // Neither the tick recorded when it was accepted nor one stamped before it (arriving late) converts it.
  expect(await match()).toBe(0);
  await h.market.record([{ coin: 'BTC', at: new Date(acceptedAt.getTime() - 500), price: '60000.00', volume: '1' }]);
  expect(await match()).toBe(0);
  expect(await listed(user.token, order!.id)).toMatchObject({ list: 'open', status: 'filling' });

  const tickAt = await tick('BTC', '48000.00');
  expect(await match()).toBe(1);
  // 48000 × 0.00000898 = 0.43104 USDT, less the 0.1 % sell fee rounded up (0.00043104): 0.43060896 USDT.
  expect(await listed(user.token, order!.id)).toMatchObject({
    list: 'history',
    status: 'filled',
    dust_conversion: true,
    dealt_quantity: '0.00000898',
    unit_price: '48000',
    tick_price: '48000',
    tick_at: tickAt,
    total: '0.43104000',
    fee: '0.00043104',
    received: '0.43060896',
    received_asset: 'USDT',
  });
  expect(await entriesOf(order!.id)).toEqual([
    { kind: 'dust_hold', asset: 'BTC', bucket: 'available', amount: '-0.00000898' },
    { kind: 'dust_hold', asset: 'BTC', bucket: 'frozen', amount: '0.00000898' },
    { kind: 'dust_convert', asset: 'BTC', bucket: 'frozen', amount: '-0.00000898' },
    { kind: 'dust_convert', asset: 'USDT', bucket: 'available', amount: '0.43060896' },
  ]);
  expect(await h.call(contractAmounts, { code: 'BTC' }, { token: user.token })).toMatchObject({
    data: { available: '0.00000000', frozen: '0.00100000', usdt_available: '100.43060896', usdt_frozen: '0.00000000' },
  });
  // The limit sell still waits, its 0.001 BTC still frozen; 1 ETH still there.
  expect(await listed(user.token, limit.data.id)).toMatchObject({ list: 'open', status: 'open' });
  expect(await amounts(user.token, 'ETH')).toMatchObject({ available: '1.00000000' });
  // The other customer's dust is theirs until they ask.
  expect(await held(other.id)).toEqual(otherBefore);

  // Once more, with nothing left to convert: refused, nothing moved.
  const before = await held(user.id);
  expect(
    await h.call(convertSmallBalances, { amounts: 'BTC:0.00000898' }, { token: user.token, idempotencyKey: 'dust-2' }),
  ).toEqual(NOTHING);
  expect(await held(user.id)).toEqual(before);
  await expectLedgerBalanced(h);
});

it("a holding worth less than the minimum order even at the band's top is dust; one a limit can sell is not", async () => {
  const user = await customer(h);
  const seller = await customer(h);
  await tick('ETH', '3000.00');
  // 0.0015 ETH is on the step but worth 4.50 USDT, and 4.95 at 3300.00 (the 10 % band's top): below the 5 USDT minimum.
  await grant(h, user.id, '0.0015', 'ETH');
  const answer = await h.call(convertSmallBalances, { amounts: 'ETH:0.0015' }, { token: user.token });
  expect(answer.ret).toBe(1);
  expect(answer.data.lists).toEqual([expect.objectContaining({ code: 'ETH', quantity: '0.00150000' })]);

  // 0.0016 ETH is worth 4.80 USDT at the market, under the minimum, but a limit sell at 3200.00 (5.12) sells it.
  await grant(h, seller.id, '0.0016', 'ETH');
  const before = await held(seller.id);
  expect(await h.call(convertSmallBalances, { amounts: 'ETH:0.0016' }, { token: seller.token })).toEqual(NOTHING);
  expect(await held(seller.id)).toEqual(before);
  const limit = await h.call(
    placeContract,
    { code: 'ETH', side: 'sell', type: 'limit', price: '3200.00', quantity: '0.0016' },
    { token: seller.token },
  );
  expect(limit).toMatchObject({ ret: 1, data: { status: 'open' } });
});

it('converts only what the customer confirmed: a changed amount or a coin not shown is refused and nothing moves', async () => {
  const user = await customer(h);
  await tick('BTC', '49000.00');
  await tick('ETH', '3000.00');
  await grant(h, user.id, '0.00000898', 'BTC');
  const before = await held(user.id);
  // The amount shown was another (a balance moved since).
  expect(await h.call(convertSmallBalances, { amounts: 'BTC:0.000009' }, { token: user.token })).toEqual(CHANGED);
  // A coin became dust since (a price moved): ETH was not shown, so nothing is converted.
  await grant(h, user.id, '0.0015', 'ETH');
  const withEth = await held(user.id);
  expect(await h.call(convertSmallBalances, { amounts: 'BTC:0.00000898' }, { token: user.token })).toEqual(CHANGED);
  expect(await held(user.id)).toEqual(withEth);
  expect(withEth.orders).toEqual(before.orders);
  // A coin shown that is no longer dust, beside one that is.
  expect(
    await h.call(convertSmallBalances, { amounts: 'BTC:0.00000898,ETH:0.0015,DOGE:1' }, { token: user.token }),
  ).toEqual(CHANGED);
  const answer = await h.call(convertSmallBalances, { amounts: 'ETH:0.0015,BTC:0.00000898' }, { token: user.token });
  expect(answer.data.lists.map((order: { code: string }) => order.code)).toEqual(['BTC', 'ETH']);
});

it('with no tick within 10 s the conversion is void and the amount returns', async () => {
  const user = await customer(h);
  await tick('BTC', '49000.00');
  await grant(h, user.id, '0.00000001', 'BTC');
  const answer = await h.call(convertSmallBalances, { amounts: 'BTC:0.00000001' }, { token: user.token });
  expect(answer.ret).toBe(1);
  const id = answer.data.lists[0]!.id;
  h.clock.advance(11_000);
  expect(await match()).toBeGreaterThanOrEqual(1);
  expect(await listed(user.token, id)).toMatchObject({ status: 'void', void_reason: 'no_price' });
  expect(await entriesOf(id)).toEqual([
    { kind: 'dust_hold', asset: 'BTC', bucket: 'available', amount: '-0.00000001' },
    { kind: 'dust_hold', asset: 'BTC', bucket: 'frozen', amount: '0.00000001' },
    { kind: 'dust_return', asset: 'BTC', bucket: 'frozen', amount: '-0.00000001' },
    { kind: 'dust_return', asset: 'BTC', bucket: 'available', amount: '0.00000001' },
  ]);
  const [btc] = await h.database.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, user.id), eq(balances.asset, 'BTC')));
  expect(btc).toMatchObject({ available: '0.00000001', frozen: '0.00000000' });
  await expectLedgerBalanced(h);
});

it('reads as a small balance conversion wherever the order shows: trade history, signed receipt, console', async () => {
  const user = await customer(h, '100');
  await tick('BTC', '49000.00');
  await grant(h, user.id, '0.00000898', 'BTC');
  const answer = await h.call(convertSmallBalances, { amounts: 'BTC:0.00000898' }, { token: user.token });
  expect(answer.ret).toBe(1);
  const id = answer.data.lists[0]!.id;
  await tick('BTC', '48000.00');
  expect(await match()).toBe(1);

  const day = h.clock.now().toISOString().slice(0, 10);
  const fills = await h.call(tradeFills, { from: day, to: day, tz: 'UTC' }, { token: user.token });
  expect(fills.data.lists).toEqual([
    expect.objectContaining({ id, side: 'sell', type: 'market', dust_conversion: true }),
  ]);
  // Signed with the rest of the order: a receipt shared on says it too.
  const receipt = await h.call(contractReceipt, { id: String(id) }, { token: user.token });
  expect(receipt.ret).toBe(1);
  expect(receipt.data.receipt.order).toMatchObject({ side: 'sell', type: 'market', dust_conversion: 'true' });

  const reviewer = await operatorToken(h, 'dora', 'reviewer');
  const view = await h.call(consoleCustomer, { id: String(user.id) }, { token: reviewer });
  expect(view.data.contracts).toEqual([expect.objectContaining({ id, type: 'market', dust_conversion: true })]);
});

it('a plain market sell is no conversion in any of them', async () => {
  const user = await customer(h, '100');
  await tick('ETH', '3000.00');
  await grant(h, user.id, '0.01', 'ETH');
  const sell = await h.call(
    placeContract,
    { code: 'ETH', side: 'sell', type: 'market', quantity: '0.01' },
    { token: user.token },
  );
  expect(sell.ret).toBe(1);
  await tick('ETH', '3000.00');
  expect(await match()).toBe(1);
  const day = h.clock.now().toISOString().slice(0, 10);
  const fills = await h.call(tradeFills, { from: day, to: day, tz: 'UTC' }, { token: user.token });
  expect(fills.data.lists).toEqual([expect.objectContaining({ id: sell.data.id, dust_conversion: false })]);
  const receipt = await h.call(contractReceipt, { id: String(sell.data.id) }, { token: user.token });
  expect(receipt.data.receipt.order).not.toHaveProperty('dust_conversion');
});
