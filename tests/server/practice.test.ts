// The practice account through the calls a customer makes: opened on first use with 10,000 virtual USDT, it trades
// options and contracts on the same recorded prices under the same rules and settlement, into assets of its own;
// a reset brings it back to 10,000 and no coins (refused while a practice option is open); its orders are listed
// apart from the real ones; no real balance, list, limit, house figure or risk figure counts it; and no call of the
// contract moves practice money into real money. On PostgreSQL (the server-pg project), where two resets at once go
// through the pool: exactly one grant per reset number.
import Big from 'big.js';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, grant, refused } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { practiceAccount, resetPractice, practiceAsset } from '../../src/api-contract/practice.ts';
import {
  optionOrder,
  optionOrders,
  optionProducts,
  optionTotals,
  placeOption,
} from '../../src/api-contract/options.ts';
import { cancelContract, contractAmounts, contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import { balances } from '../../src/api-contract/markets.ts';
import { accountEntries } from '../../src/api-contract/funds.ts';
import { consoleCustomer } from '../../src/api-contract/console.ts';
import { consoleChangeHouseCaps } from '../../src/api-contract/console-house.ts';
import { setProtection, protection } from '../../src/api-contract/protection.ts';
import { subscribePush } from '../../src/api-contract/notifications.ts';
import { inputShapes, type DeclaredEndpoint } from '../../src/api-contract/registry.ts';
import { balances as balanceRows, ledgerEntries, outbox } from '../../src/server/db/schema.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { DEFAULT_HOUSE_CAPS } from '../../src/server/domain/house-limits.ts';
import { houseView } from '../../src/server/domain/house-result.ts';
import { computeRiskFigure } from '../../src/server/domain/risk-figure.ts';
import { reconcileNow } from '../../src/server/domain/reconciliation.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';
import { POINTS } from '../../src/api-contract/rewards.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';

const OPTION_OPEN = refused('A practice option is still open: you can reset once it has settled!');

let h: Harness;
let admin: string;
let reviewer: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorToken(h, 'paula', 'admin');
  reviewer = await operatorToken(h, 'rita', 'reviewer');
});
afterAll(() => h.close());
afterEach(async () => {
  await expectLedgerBalanced(h);
  // The books reconcile with practice entries in them: reserves of practice orders, payouts of practice options.
  const run = await reconcileNow(h.database.db);
  expect(run.mismatches).toEqual([]);
  expect(run.ok).toBe(true);
});

/** One recorded tick of a coin `offsetMs` after the harness clock, the clock moved there. */
async function tick(coin: string, price: string, offsetMs = 1000) {
  h.clock.advance(offsetMs);
  await h.market.record([{ coin, at: h.clock.now(), price, volume: '1' }]);
}
const open = () => openAllPending(h.database.db, h.clock.now());
const settle = () => settleAllDue(h.database.db, h.clock.now());
const match = () => matchAllPairs(h.database.db, h.clock.now());

async function productId(code: string, minutes: number): Promise<string> {
  const found = (await h.call(optionProducts, { code })).data.lists.find((p) => p.minutes === minutes);
  if (!found) throw new Error(`no ${minutes}-minute product for ${code}`);
  return String(found.id);
}

/** The real balances as the customer reads them (/users/balances). */
async function realBalances(token: string) {
  const answer = await h.call(balances, {}, { token });
  expect(answer.ret).toBe(1);
  return answer.data.lists;
}

async function practice(token: string) {
  const answer = await h.call(practiceAccount, {}, { token });
  expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1 });
  return answer.data;
}
const practiceUsdt = async (token: string) =>
  (await practice(token)).balances.find((balance) => balance.asset === 'USDT')!.available;

/** Every balance row of a user straight from the table, real and practice. */
const storedBalances = (userId: number) =>
  h.database.db
    .select({ asset: balanceRows.asset, available: balanceRows.available, frozen: balanceRows.frozen })
    .from(balanceRows)
    .where(eq(balanceRows.userId, userId))
    .orderBy(asc(balanceRows.asset));
const realRows = async (userId: number) =>
  (await storedBalances(userId)).filter((row) => !row.asset.startsWith('practice:'));

const grantsOf = (userId: number) =>
  h.database.db
    .select({ reference: ledgerEntries.reference, amount: ledgerEntries.amount, asset: ledgerEntries.asset })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'practice_grant')))
    .orderBy(asc(ledgerEntries.id));

async function buyOption(token: string, direction: 'up' | 'down', amount: string, account = 'practice') {
  return h.call(
    placeOption,
    { code: 'BTC', direction, amount, product_id: await productId('BTC', 1), account },
    { token },
  );
}

/** Opens the accepted options at a tick one second on, then settles them at a tick at their end. */
async function runOptions(endPrice: string, startPrice = '50000') {
  await tick('BTC', startPrice);
  await open();
  await tick('BTC', endPrice, 60_000);
  await settle();
}

describe('opening', () => {
  it('opens on first use with 10,000 practice USDT, granted once, never a real balance', async () => {
    const user = await customer(h, '100');
    const first = await practice(user.token);
    expect(first).toEqual({
      balances: [{ asset: 'USDT', available: '10000.00000000', frozen: '0.00000000' }],
      start_amount: '10000',
      resets: 0,
      opened_at: h.clock.now().toISOString(),
      reset_at: null,
    });
    // Twice at once and again: still one grant.
    await Promise.all([practice(user.token), practice(user.token)]);
    expect(await practice(user.token)).toEqual(first);
    expect(await grantsOf(user.id)).toEqual([
      { reference: `${user.id}:0`, amount: '10000.00000000', asset: practiceAsset('USDT') },
    ]);
    // The real money: the same 100 USDT, no practice line, no practice entry in the account details.
    expect(await realBalances(user.token)).toEqual([
      { asset: 'USDT', available: '100.00000000', frozen: '0.00000000' },
    ]);
    const entries = await h.call(accountEntries, {}, { token: user.token });
    expect(entries.data.lists.map((entry) => entry.asset)).toEqual(['USDT']);
    // The console's customer view shows real money only.
    const view = await h.call(consoleCustomer, { id: String(user.id) }, { token: reviewer });
    expect(view.ret).toBe(1);
    expect(view.data.balances.map((balance) => balance.asset)).toEqual(['USDT']);
    expect(view.data.ledger.map((entry) => entry.asset)).toEqual(['USDT']);
  });

  it('a first practice order opens the account itself; the trading amounts of practice start at 10,000', async () => {
    const user = await customer(h);
    expect(await h.call(contractAmounts, { code: 'BTC', account: 'practice' }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { code: 'BTC', available: '0.00000000', usdt_available: '10000.00000000', usdt_frozen: '0.00000000' },
    });
    const other = await customer(h);
    await tick('BTC', '50000');
    expect((await buyOption(other.token, 'up', '10')).ret).toBe(1);
    expect(await practiceUsdt(other.token)).toBe('9990.00000000');
    expect(await realBalances(other.token)).toEqual([]);
  });
});

describe('practice options', () => {
  it('same rules and settlement, paid in practice money; lists and totals apart; reset refused while open', async () => {
    const user = await customer(h, '100');
    await subscribe(user.token);
    await tick('BTC', '50000');
    // The product's rules hold: below its minimum and beyond the balance, the real account's refusals.
    expect(await buyOption(user.token, 'up', '0.5')).toEqual(await buyOption(user.token, 'up', '0.5', 'real'));
    expect((await buyOption(user.token, 'up', '0.5')).ret).toBe(0);
    expect(await buyOption(user.token, 'up', '20000')).toEqual(refused('Insufficient balance!'));
    const up = await buyOption(user.token, 'up', '1000');
    const down = await buyOption(user.token, 'down', '500');
    expect(up).toMatchObject({ ret: 1, data: { practice: true, amount: '1000.00000000', status: 'opening' } });
    expect(down.data.practice).toBe(true);
    expect(await practiceUsdt(user.token)).toBe('8500.00000000');
    expect(await realBalances(user.token)).toEqual([
      { asset: 'USDT', available: '100.00000000', frozen: '0.00000000' },
    ]);

    // The real lists and totals show none of it; the practice ones show both.
    const holding = (account?: string) =>
      h.call(optionOrders, account ? { status: 'holding', account } : { status: 'holding' }, { token: user.token });
    expect((await holding()).data).toEqual({ lists: [], next: null, total: 0 });
    expect((await holding('real')).data.lists.length).toBe(0);
    expect((await holding('practice')).data.lists.map((order) => order.id).sort()).toEqual(
      [up.data.id, down.data.id].sort(),
    );
    expect((await h.call(optionTotals, {}, { token: user.token })).data).toMatchObject({
      holding_count: 0,
      holding_amount: '0.00000000',
    });
    expect((await h.call(optionTotals, { account: 'practice' }, { token: user.token })).data).toMatchObject({
      holding_count: 2,
      holding_amount: '1500.00000000',
    });
    expect(await h.call(resetPractice, {}, { token: user.token })).toEqual(OPTION_OPEN);

    // The same settlement: the start tick after acceptance, the end tick at the end; the win paid in practice USDT.
    await runOptions('50100');
    const won = (await h.call(optionOrder, { id: String(up.data.id) }, { token: user.token })).data;
    expect(won).toMatchObject({ practice: true, status: 'settled', outcome: 'win', start_price: '50000' });
    const lost = (await h.call(optionOrder, { id: String(down.data.id) }, { token: user.token })).data;
    expect(lost).toMatchObject({ outcome: 'loss', payout: '0.00000000' });
    expect(await practiceUsdt(user.token)).toBe(new Big('8500').plus(won.payout!).toFixed(8));
    expect(await realBalances(user.token)).toEqual([
      { asset: 'USDT', available: '100.00000000', frozen: '0.00000000' },
    ]);
    const payouts = await h.database.db
      .select({ asset: ledgerEntries.asset })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.reference, `option:${up.data.id}`));
    expect(payouts.map((entry) => entry.asset)).toEqual([practiceAsset('USDT'), practiceAsset('USDT')]);

    // The notification says Practice, in the browser's language.
    const subjects = await h.database.db
      .select({ subject: outbox.subject })
      .from(outbox)
      .where(and(eq(outbox.userId, user.id), eq(outbox.kind, 'option_settled')));
    expect(subjects.map((row) => row.subject)).toEqual([
      'Practice: BTC option settled',
      'Practice: BTC option settled',
    ]);

    // Settled: the reset works, back to 10,000.
    const reset = await h.call(resetPractice, {}, { token: user.token });
    expect(reset).toMatchObject({
      ret: 1,
      data: { balances: [{ asset: 'USDT', available: '10000.00000000', frozen: '0.00000000' }], resets: 1 },
    });
    expect(reset.data.reset_at).toBe(h.clock.now().toISOString());
    expect((await grantsOf(user.id)).map((row) => row.reference)).toEqual([`${user.id}:0`, `${user.id}:1`]);
    // Its settled orders stay in the practice history.
    expect(
      (await h.call(optionOrders, { status: 'history', account: 'practice' }, { token: user.token })).data.lists.length,
    ).toBe(2);
    expect((await h.call(optionOrders, { status: 'history' }, { token: user.token })).data.lists.length).toBe(0);
  });

  it('takes none of the house room and counts in no house, protection or risk figure; the time-out holds', async () => {
    const real = await customer(h, '1000');
    const user = await customer(h, '1000');
    const before = await houseView(h.database.db, h.clock.now(), 'UTC');
    // Caps a practice order would pass only if it took no room: the per-order cap still holds (a rule of the order).
    await caps({ exposure: '150', per_order: '100', per_minute: '100' });
    try {
      await tick('BTC', '50000');
      expect(await buyOption(user.token, 'up', '101')).toEqual(refused('The maximum purchase amount is: 100 USDT!'));
      for (let i = 0; i < 3; i++) expect((await buyOption(user.token, 'up', '100')).ret).toBe(1);
      // The real customer still has the whole room: the minute's and the exposure's.
      expect((await buyOption(real.token, 'up', '80', 'real')).ret).toBe(1);
    } finally {
      await caps(DEFAULT_HOUSE_CAPS);
    }
    // The customer's own limits count real options only (none here); practice ones are not stakes of money.
    await h.call(setProtection, { setting: 'max_open_options', value: '1' }, { token: user.token });
    expect((await h.call(protection, {}, { token: user.token })).data.used).toMatchObject({
      stake_day: '0',
      open_options: 0,
      open_stakes: '0',
    });
    expect((await buyOption(user.token, 'up', '10')).ret).toBe(1);
    expect((await buyOption(user.token, 'up', '10', 'real')).ret).toBe(1);
    expect(await buyOption(user.token, 'up', '10', 'real')).toEqual(
      refused('You have reached your limit of 1 open options at once!'),
    );

    // The house: exposure and results of real orders only.
    const during = await houseView(h.database.db, h.clock.now(), 'UTC');
    const btcUp = (view: typeof during) => view.exposure.find((line) => line.coin === 'BTC' && line.direction === 'up');
    expect(btcUp(during)?.open_orders ?? 0).toBe((btcUp(before)?.open_orders ?? 0) + 2);
    await runOptions('49000');
    const after = await houseView(h.database.db, h.clock.now(), 'UTC');
    const stakes = (view: typeof after) => new Big(view.today.totals.stakes);
    expect(stakes(after).minus(stakes(before)).toFixed(8)).toBe('90.00000000');

    // The risk figure of the next day: the two real traders lost; the practice losses count for nobody.
    const next = new Date(h.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    await computeRiskFigure(h.database.db, next, h.clock.now());
    const [figure] = rowsOf<{ traders: number; losers: number }>(
      await h.database.db.execute(sql`select traders, losers from risk_figures where day = ${next}`),
    );
    const realTraders = rowsOf<{ n: number }>(
      await h.database.db.execute(
        sql`select count(distinct user_id)::int as n from option_orders where status = 'settled' and not practice and outcome <> 'void'`,
      ),
    );
    expect(Number(figure!.traders)).toBe(Number(realTraders[0]!.n));

    // A time-out is a break from trading: practice orders wait for its end too.
    const until = new Date(h.clock.now().getTime() + 48 * 3_600_000).toISOString();
    expect((await h.call(setProtection, { setting: 'timeout_until', value: until }, { token: user.token })).ret).toBe(
      1,
    );
    await tick('BTC', '50000');
    expect((await buyOption(user.token, 'up', '10')).msg).toMatch(/^You are taking a time-out until /);
    const contract = await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'market', quantity: '0.001', account: 'practice' },
      { token: user.token },
    );
    expect(contract.msg).toMatch(/^You are taking a time-out until /);
  });
});

describe('practice contracts', () => {
  it('market and limit orders fill into practice coins; a cancel returns practice money; a reset clears it all', async () => {
    const user = await customer(h, '100');
    await subscribe(user.token);
    await tick('ETH', '2000.00');
    const bought = await h.call(
      placeContract,
      { code: 'ETH', side: 'buy', type: 'market', quantity: '1', account: 'practice' },
      { token: user.token },
    );
    expect(bought).toMatchObject({ ret: 1, data: { practice: true, status: 'filling', frozen_asset: 'USDT' } });
    // Real contract lists and amounts know nothing of it.
    expect((await h.call(contractOrders, { status: 'open' }, { token: user.token })).data.lists.length).toBe(0);
    expect(
      (await h.call(contractOrders, { status: 'open', account: 'practice' }, { token: user.token })).data.lists.length,
    ).toBe(1);
    expect(await h.call(resetPractice, {}, { token: user.token })).toEqual(
      refused('A practice order is being filled: please try again in a few seconds!'),
    );
    await tick('ETH', '2000.00');
    await match();
    const filled = (await h.call(contractOrders, { status: 'history', account: 'practice' }, { token: user.token }))
      .data.lists[0]!;
    expect(filled).toMatchObject({ id: bought.data.id, status: 'filled', practice: true, received_asset: 'ETH' });
    const amounts = await h.call(contractAmounts, { code: 'ETH', account: 'practice' }, { token: user.token });
    expect(amounts.data).toMatchObject({ available: filled.received, usdt_available: '8000.00000000' });
    expect((await h.call(contractAmounts, { code: 'ETH' }, { token: user.token })).data).toMatchObject({
      available: '0.00000000',
      usdt_available: '100.00000000',
    });
    expect((await practice(user.token)).balances.map((balance) => balance.asset)).toEqual(['USDT', 'ETH']);

    // A limit sell rests with practice ETH frozen; cancelled, it comes back.
    const sell = await h.call(
      placeContract,
      { code: 'ETH', side: 'sell', type: 'limit', price: '2100', quantity: '0.5', account: 'practice' },
      { token: user.token },
    );
    expect(sell).toMatchObject({ ret: 1, data: { status: 'open', practice: true, frozen_asset: 'ETH' } });
    expect((await practice(user.token)).balances[1]).toMatchObject({ asset: 'ETH', frozen: '0.50000000' });
    expect((await h.call(cancelContract, { id: String(sell.data.id) }, { token: user.token })).ret).toBe(1);
    expect((await practice(user.token)).balances[1]).toMatchObject({ asset: 'ETH', frozen: '0.00000000' });

    // A limit buy that a later tick crosses fills at its price, into practice money.
    const buy = await h.call(
      placeContract,
      { code: 'ETH', side: 'buy', type: 'limit', price: '1990', quantity: '0.5', account: 'practice' },
      { token: user.token },
    );
    await tick('ETH', '1985.00');
    await match();
    expect(
      (await h.call(contractOrders, { status: 'history', account: 'practice' }, { token: user.token })).data.lists[0],
    ).toMatchObject({ id: buy.data.id, status: 'filled', unit_price: '1990' });
    const fills = await h.database.db
      .select({ subject: outbox.subject, url: sql<string>`${outbox.payload}->>'url'` })
      .from(outbox)
      .where(and(eq(outbox.userId, user.id), eq(outbox.kind, 'contract_filled')));
    const url = `#${ROUTES.contractOrders}?code=ETH&account=practice`;
    expect(fills).toEqual([
      { subject: 'Practice: contract order filled', url },
      { subject: 'Practice: contract order filled', url },
    ]);

    // One more resting order, then a reset: cancelled, the coins gone, 10,000 USDT again, real money untouched.
    const resting = await h.call(
      placeContract,
      { code: 'ETH', side: 'sell', type: 'limit', price: '2150', quantity: '1', account: 'practice' },
      { token: user.token },
    );
    expect(resting.ret).toBe(1);
    const reset = await h.call(resetPractice, {}, { token: user.token });
    expect(reset).toMatchObject({
      ret: 1,
      data: { balances: [{ asset: 'USDT', available: '10000.00000000', frozen: '0.00000000' }], resets: 1 },
    });
    expect(
      (await h.call(contractOrders, { status: 'open', account: 'practice' }, { token: user.token })).data.lists.length,
    ).toBe(0);
    expect(
      (await h.call(contractOrders, { status: 'history', account: 'practice' }, { token: user.token })).data.lists[0],
    ).toMatchObject({ id: resting.data.id, status: 'cancelled' });
    expect(
      (await storedBalances(user.id)).filter(
        (row) => row.asset.startsWith('practice:') && row.asset !== 'practice:USDT',
      ),
    ).toEqual([{ asset: practiceAsset('ETH'), available: '0.00000000', frozen: '0.00000000' }]);
    expect(await realRows(user.id)).toEqual([{ asset: 'USDT', available: '100.00000000', frozen: '0.00000000' }]);
    // The same cached answer of real balances as before any of it.
    expect(await realBalances(user.token)).toEqual([
      { asset: 'USDT', available: '100.00000000', frozen: '0.00000000' },
    ]);
  });

  it('with no tick in time, a practice option and a practice market order are void and refunded in practice money', async () => {
    const user = await customer(h, '100');
    await tick('SOL', '150.00');
    const option = await h.call(
      placeOption,
      { code: 'SOL', direction: 'up', amount: '100', product_id: await productId('SOL', 1), account: 'practice' },
      { token: user.token },
    );
    const order = await h.call(
      placeContract,
      { code: 'SOL', side: 'buy', type: 'market', quantity: '1', account: 'practice' },
      { token: user.token },
    );
    expect([option.ret, order.ret]).toEqual([1, 1]);
    expect(await practiceUsdt(user.token)).not.toBe('10000.00000000');
    h.clock.advance(11_000);
    await open();
    await match();
    expect((await h.call(optionOrder, { id: String(option.data.id) }, { token: user.token })).data).toMatchObject({
      outcome: 'void',
      payout: '100.00000000',
    });
    expect(
      (await h.call(contractOrders, { status: 'history', account: 'practice' }, { token: user.token })).data.lists[0],
    ).toMatchObject({ id: order.data.id, status: 'void', void_reason: 'no_price' });
    expect(await practice(user.token)).toMatchObject({
      balances: [{ asset: 'USDT', available: '10000.00000000', frozen: '0.00000000' }],
    });
    expect(await realRows(user.id)).toEqual([{ asset: 'USDT', available: '100.00000000', frozen: '0.00000000' }]);
  });

  it('two resets at once: one after the other, one grant per reset number', async () => {
    const user = await customer(h);
    await practice(user.token);
    const answers = await Promise.all([
      h.call(resetPractice, {}, { token: user.token }),
      h.call(resetPractice, {}, { token: user.token }),
    ]);
    expect(answers.map((answer) => answer.ret)).toEqual([1, 1]);
    expect(answers.map((answer) => answer.data.resets).sort()).toEqual([1, 2]);
    expect((await grantsOf(user.id)).map((row) => row.reference)).toEqual([0, 1, 2].map((n) => `${user.id}:${n}`));
    expect(await practiceUsdt(user.token)).toBe('10000.00000000');
  });

  it('a reset racing practice orders: either comes first, never between an order and its stake', async () => {
    const user = await customer(h);
    await practice(user.token);
    await tick('BTC', '50000');
    const [reset, ...orders] = await Promise.all([
      h.call(resetPractice, {}, { token: user.token }),
      buyOption(user.token, 'up', '100'),
      buyOption(user.token, 'down', '200'),
    ]);
    expect(orders.map((order) => order.ret)).toEqual([1, 1]);
    // Refused when an order came first (it is open), done when it came before both: the stakes come off 10,000 once.
    expect([1, 0]).toContain(reset.ret);
    expect(await practiceUsdt(user.token)).toBe('9700.00000000');
    expect((await grantsOf(user.id)).length).toBe(reset.ret === 1 ? 2 : 1);
    await runOptions('50000');
  });
});

/** Sets the house caps as an admin. */
async function caps(values: Record<string, string>) {
  const answer = await h.call(consoleChangeHouseCaps, values, { token: admin, ip: '203.0.113.9' });
  expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1 });
}

/** A push subscription of the customer's browser, in English: the notifications are queued for it. */
let browsers = 0;
async function subscribe(token: string) {
  const answer = await h.call(
    subscribePush,
    {
      endpoint: `https://push.example.com/send/practice-${++browsers}`,
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
      language: 'en',
    },
    { token },
  );
  expect(answer.ret).toBe(1);
}

// ---- No call moves practice money into real money ------------------------------------------------

/** Fields that name an asset or a coin: each gets a practice asset's ledger name. */
const ASSET_FIELDS = new Set(['asset', 'code', 'coin', 'currency', 'pay']);
const PRACTICE_NAMES = [practiceAsset('USDT'), practiceAsset('BTC')];
/** The kinds a practice asset may ever be moved by: its own grants and resets, and practice trades. */
const PRACTICE_KINDS = new Set([
  'practice_grant',
  'practice_reset',
  'option_stake',
  'option_payout',
  'contract_freeze',
  'contract_trade',
  'contract_cancel',
  'contract_void',
]);

/** Literal and picklist values a field schema names itself. */
function namedValues(schema: unknown): string[] {
  const node = schema as { type?: string; literal?: unknown; options?: unknown[]; wrapped?: unknown };
  if (node.type === 'literal' && typeof node.literal === 'string') return [node.literal];
  if (node.type === 'picklist' && Array.isArray(node.options))
    return node.options.filter((option): option is string => typeof option === 'string');
  if (node.wrapped) return namedValues(node.wrapped);
  return [];
}

/** A plausible form: each field the first sample its schema takes, asset fields and the account set to practice. */
function formFor(shape: Record<string, v.GenericSchema>, name: string, pool: string[]): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (field === 'account') form[field] = 'practice';
    else if (ASSET_FIELDS.has(field)) form[field] = name;
    // The yield a buyer confirmed must be the product's own (a sample would refuse every option): left out, the order
    // takes its product's yield.
    else if (field === 'yield_rate') continue;
    else {
      const accepted = [...namedValues(schema), ...pool].find((value) => v.safeParse(schema, value).success);
      if (accepted !== undefined) form[field] = accepted;
    }
  }
  return form;
}

describe('isolation', () => {
  it('no declared call, with inputs naming practice assets or the practice account, moves practice money into real', async () => {
    const user = await customer(h, '5000');
    await grant(h, user.id, '100000', POINTS);
    // Practice money of two assets to steal: USDT and BTC.
    await tick('BTC', '50000.00');
    await h.call(
      placeContract,
      { code: 'BTC', side: 'buy', type: 'market', quantity: '0.01', account: 'practice' },
      { token: user.token },
    );
    await tick('BTC', '50000.00');
    await match();
    const held = await storedBalances(user.id);
    expect(held.map((row) => row.asset)).toEqual(
      expect.arrayContaining([practiceAsset('BTC'), practiceAsset('USDT'), 'USDT', POINTS]),
    );
    const endpoints = (await declaredEndpoints()).filter((declared) => !declared.endpoint.multipart);
    const pool = ['BTC', '1', '10', '0.01', 'buy', 'market', 'up', 'USDT', 'all', '2026-11-01', 'UTC'];
    const firstEntry = await lastEntryId();
    let sent = 0;

    for (const declared of endpoints) {
      for (const name of PRACTICE_NAMES) {
        for (const shape of inputShapes(declared.endpoint.input).concat([{}]).slice(0, 3)) {
          const form = { asset: name, account: 'practice', ...formFor(shape, name, pool) };
          const namesPractice = Object.keys(shape).some((field) => field === 'account' || ASSET_FIELDS.has(field));
          const realBefore = await realRows(user.id);
          const before = await lastEntryId();
          const answer = await send(declared, form, user.token);
          sent++;
          if (answer.ret === -1) user.token = await createSession(h.database.db, user.id);
          const where = `${declared.name} ${JSON.stringify(form).slice(0, 160)} → ${JSON.stringify(answer).slice(0, 160)}`;
          // A call naming a practice asset or the practice account leaves the real money as it was.
          if (namesPractice) expect(await realRows(user.id), where).toEqual(realBefore);
          await expectNoPracticeLeak(before, where);
        }
      }
      // A valid call of the practice account (a practice trade, list or amount): the real money stays as it was.
      for (const shape of inputShapes(declared.endpoint.input).filter((shape) => 'account' in shape)) {
        const form = formFor(shape, 'BTC', pool);
        const realBefore = await realRows(user.id);
        const before = await lastEntryId();
        const answer = await send(declared, form, user.token);
        sent++;
        const where = `${declared.name} ${JSON.stringify(form)} → ${JSON.stringify(answer).slice(0, 160)}`;
        expect(await realRows(user.id), where).toEqual(realBefore);
        await expectNoPracticeLeak(before, where);
      }
      // And each field alone set to a practice name, the others valid (a real call may move real money itself).
      for (const shape of inputShapes(declared.endpoint.input).slice(0, 2)) {
        for (const field of Object.keys(shape)) {
          const form = { ...formFor(shape, 'BTC', pool), [field]: practiceAsset('USDT') };
          const before = await lastEntryId();
          const answer = await send(declared, form, user.token);
          sent++;
          if (answer.ret === -1) user.token = await createSession(h.database.db, user.id);
          await expectNoPracticeLeak(before, `${declared.name}.${field} → ${JSON.stringify(answer).slice(0, 160)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(endpoints.length * PRACTICE_NAMES.length);
    // Over the whole walk: practice money only ever moved by practice kinds, never beside a real asset in one event.
    await expectNoPracticeLeak(firstEntry, 'the walk');
    // The walk got past the schemas: practice orders were placed by it (and real money never paid for them).
    const [traded] = rowsOf<{ n: number }>(
      await h.database.db.execute(
        sql`select count(*)::int as n from ledger_entries where id > ${firstEntry} and asset like 'practice:%'
          and kind in ('option_stake', 'contract_freeze')`,
      ),
    );
    expect(Number(traded!.n)).toBeGreaterThan(0);
  }, 600_000);
});

async function lastEntryId(): Promise<number> {
  const [row] = rowsOf<{ id: number | null }>(
    await h.database.db.execute(sql`select max(id) as id from ledger_entries`),
  );
  return Number(row?.id ?? 0);
}

/**
 * The entries written since `after`: a practice asset moved only by a practice kind, and no event (kind and
 * reference) moves a practice asset and a real one together — the only way money could cross from one to the other.
 */
async function expectNoPracticeLeak(after: number, where: string) {
  const entries = rowsOf<{ kind: string; reference: string; asset: string }>(
    await h.database.db.execute(sql`select kind, reference, asset from ledger_entries where id > ${after}`),
  );
  const events = new Map<string, { practice: boolean; real: boolean }>();
  for (const entry of entries) {
    const practice = entry.asset.startsWith('practice:');
    if (practice) expect(PRACTICE_KINDS.has(entry.kind), `${where}: ${entry.kind} moved ${entry.asset}`).toBe(true);
    const key = `${entry.kind} ${entry.reference}`;
    const event = events.get(key) ?? { practice: false, real: false };
    events.set(key, { practice: event.practice || practice, real: event.real || !practice });
  }
  for (const [key, event] of events) expect(event.practice && event.real, `${where}: ${key} mixes`).toBe(false);
}

async function send(declared: DeclaredEndpoint, form: Record<string, string>, token: string) {
  const { method, path } = declared.endpoint;
  const body = new URLSearchParams(form).toString();
  const response = await h.app.inject({
    method,
    url: `/api${path}${method === 'GET' ? `?${body}` : ''}`,
    headers: {
      lang: 'en',
      token,
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    payload: method === 'POST' ? body : undefined,
  });
  expect(response.statusCode, `${declared.name}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
  return response.json() as { ret: number; msg: string; data: unknown };
}
