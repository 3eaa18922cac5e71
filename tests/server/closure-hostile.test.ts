// Closing with small amounts left and converting small balances, tried by a hostile caller on a real PostgreSQL: the
// consent (`amounts`) written every wrong way, and the calls that move the same balances racing each other. Whatever
// comes, exactly one outcome takes effect, a refusal writes nothing, and the books still balance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { CLOSURE_CHANGED, closureHeldBy, endingOf } from './closure-helpers.ts';
import { PASSWORD, customer, expectLedgerBalanced, grant, moneyState, refused } from './helpers.ts';
import { addTronWallet, withdraw } from './funds-helpers.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { convertSmallBalances, placeContract } from '../../src/api-contract/contracts.ts';
import { closedAccounts, contractOrders, ledgerEntries, withdrawOrders } from '../../src/server/db/schema.ts';
import { reconcileNow } from '../../src/server/domain/reconciliation.ts';
import { openPracticeAccount } from '../../src/server/domain/practice.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

const { tick, match } = contractKit(() => h);

const INVALID = refused('The request is not valid!');

const close = (token: string, amounts: string, idempotencyKey?: string) =>
  h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD, amounts }, { token, idempotencyKey });
const ending = (token: string) => endingOf(h, token);
const closedRows = (userId: number) =>
  h.database.db.select().from(closedAccounts).where(eq(closedAccounts.userId, userId));
const closureEntries = (userId: number) =>
  h.database.db
    .select({ asset: ledgerEntries.asset, amount: ledgerEntries.amount, reference: ledgerEntries.reference })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'closure_balance')));
const everything = (userId: number) => moneyState(h, userId, { orders: contractOrders, withdrawals: withdrawOrders });

/** The books after a race: every balance equals its entries, none below zero, the reconciliation finds nothing. */
async function booksBalanced() {
  await expectLedgerBalanced(h);
  const run = await reconcileNow(h.database.db);
  expect(run.mismatches).toEqual([]);
  expect(run.ok).toBe(true);
}

it('refuses every consent that is not exactly one amount per asset shown, writing nothing', async () => {
  const user = await customer(h, '0.77');
  const before = await everything(user.id);
  const wrong: [string, unknown][] = [
    // An asset named twice is no consent to one amount, even when both say the same.
    ['USDT:5,USDT:0.77', INVALID],
    ['USDT:0.77,USDT:0.77', INVALID],
    ['usdt:0.77', INVALID],
    ['USDT:7.7e-1', INVALID],
    ['USDT:0.770000000', INVALID],
    ['USDT:-0.77', INVALID],
    ['USDT:+0.77', INVALID],
    ['USDT:.77', INVALID],
    ['USDT:0.77,', INVALID],
    ['USDT:0,77', INVALID],
    ['practice:USDT:0.77', INVALID],
    ['USDT:0.77;BTC:1', INVALID],
    // Well-formed but not what was shown: an asset of the practice account, points, a coin not held, zero.
    ['USDT:0.77,PRACTICE:1', CLOSURE_CHANGED],
    ['USDT:0.77,POINTS:1', CLOSURE_CHANGED],
    ['USDT:0.77,DOGE:0', CLOSURE_CHANGED],
    ['USDT:0', CLOSURE_CHANGED],
    ['USDT:999999999999999999', CLOSURE_CHANGED],
    ['USDT:1000000000000000000', INVALID],
    // At most 50 pairs; 51 is not a request the page can send.
    [Array.from({ length: 51 }, (_, i) => `C${i}:1`).join(','), INVALID],
    [`USDT:0.77,${'A'.repeat(100_000)}:1`, INVALID],
  ];
  for (const [amounts, answer] of wrong) expect(await close(user.token, amounts), amounts).toEqual(answer);
  // Forty-nine coins more than shown, in the form the contract takes.
  const many = ['USDT:0.77', ...Array.from({ length: 49 }, (_, i) => `C${i}:1`)].join(',');
  expect(await close(user.token, many)).toEqual(CLOSURE_CHANGED);
  expect(await everything(user.id)).toEqual(before);
  expect(await closedRows(user.id)).toEqual([]);
  // The same amount in a spelling of its own (leading zero, trailing zeros, spaces the form trims) is the one shown.
  expect((await close(user.token, ' USDT:00.7700 ')).ret).toBe(1);
  expect(await closureEntries(user.id)).toEqual([
    { asset: 'USDT', amount: '-0.77000000', reference: `closure:${user.id}` },
  ]);
  await booksBalanced();
});

it('refuses a conversion that names a coin twice, writing nothing', async () => {
  const user = await customer(h);
  await tick('BTC', '49000.00');
  await grant(h, user.id, '0.00000898', 'BTC');
  const before = await everything(user.id);
  for (const amounts of ['BTC:5,BTC:0.00000898', 'BTC:0.00000898,BTC:0.00000898', 'btc:0.00000898', 'BTC:8.98e-6'])
    expect(await h.call(convertSmallBalances, { amounts }, { token: user.token }), amounts).toEqual(INVALID);
  expect(await everything(user.id)).toEqual(before);
});

it('two closes at once: one closes, the other is refused, one entry per amount', async () => {
  const user = await customer(h, '0.77');
  const answers = await Promise.all([close(user.token, 'USDT:0.77'), close(user.token, 'USDT:0.77')]);
  expect(answers.map((answer) => answer.ret).sort()).toEqual([0, 1]);
  expect(await closureEntries(user.id)).toHaveLength(1);
  expect(await closedRows(user.id)).toHaveLength(1);
  await booksBalanced();
});

it('a close and a conversion of the same dust at once: exactly one of them takes effect', async () => {
  for (let round = 0; round < 3; round++) {
    const user = await customer(h, '0.5');
    await tick('BTC', '49000.00');
    await grant(h, user.id, '0.00000898', 'BTC');
    expect((await ending(user.token)).map((row) => row.asset)).toEqual(['BTC', 'USDT']);
    const [closed, converted] = await Promise.all([
      close(user.token, 'BTC:0.00000898,USDT:0.5'),
      h.call(convertSmallBalances, { amounts: 'BTC:0.00000898' }, { token: user.token }),
    ]);
    expect([closed.ret, converted.ret].sort(), JSON.stringify([closed, converted])).toEqual([0, 1]);
    const orders = (await everything(user.id)).orders;
    if (closed.ret === 1) {
      expect(orders).toEqual([]);
      expect(await closureEntries(user.id)).toHaveLength(2);
    } else {
      // The conversion holds the BTC: the close names it.
      expect(closed).toEqual(closureHeldBy('BTC'));
      expect(orders).toHaveLength(1);
      expect(await closedRows(user.id)).toEqual([]);
      expect(await closureEntries(user.id)).toEqual([]);
    }
    await booksBalanced();
  }
});

it('a close while a conversion of the same coin is filling is refused; after the fill the list has changed', async () => {
  const user = await customer(h, '0.5');
  await tick('BTC', '49000.00');
  await grant(h, user.id, '0.00000898', 'BTC');
  const shown = await ending(user.token);
  expect(shown.map((row) => row.asset)).toEqual(['BTC', 'USDT']);
  expect((await h.call(convertSmallBalances, { amounts: 'BTC:0.00000898' }, { token: user.token })).ret).toBe(1);
  const before = await everything(user.id);
  expect(await close(user.token, 'BTC:0.00000898,USDT:0.5')).toEqual(closureHeldBy('BTC'));
  expect(await everything(user.id)).toEqual(before);
  await tick('BTC', '48000.00');
  expect(await match()).toBeGreaterThanOrEqual(1);
  // 0.43060896 USDT came in: the old consent is to another amount.
  expect(await close(user.token, 'USDT:0.5')).toEqual(CLOSURE_CHANGED);
  expect(await ending(user.token)).toEqual([expect.objectContaining({ asset: 'USDT', amount: '0.93060896' })]);
  expect((await close(user.token, 'USDT:0.93060896')).ret).toBe(1);
  await booksBalanced();
});

it('a close and a withdrawal at once: the withdrawal holds the money, never both', async () => {
  for (let round = 0; round < 3; round++) {
    const user = await customer(h, '10.87');
    const wallet = await addTronWallet(h, user.token);
    const [closed, withdrawn] = await Promise.all([
      close(user.token, 'USDT:0.77'),
      withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '10' }),
    ]);
    expect(withdrawn.ret, JSON.stringify(withdrawn)).toBe(1);
    expect(closed.ret).toBe(0);
    expect(await closedRows(user.id)).toEqual([]);
    expect(await closureEntries(user.id)).toEqual([]);
    await booksBalanced();
  }
});

it('a withdrawal rule changed between the list and the close: the close goes by the rule in force', async () => {
  const user = await customer(h, '0.77');
  expect(await ending(user.token)).toEqual([expect.objectContaining({ asset: 'USDT', amount: '0.77000000' })]);
  const rule = async (min: string) =>
    h.database.db.execute(sql`update withdraw_rules set min_amount = ${min} where asset = 'USDT'`);
  try {
    // Lowered: a withdrawal can take the 0.77 now, so it holds the closure.
    await rule('0.5');
    expect(await ending(user.token)).toEqual([]);
    const before = await everything(user.id);
    expect(await close(user.token, 'USDT:0.77')).toEqual(closureHeldBy('USDT'));
    expect(await everything(user.id)).toEqual(before);

    // Raised: 15 USDT nobody was told would end cannot end on an empty consent.
    const richer = await customer(h, '15');
    expect(await ending(richer.token)).toEqual([]);
    await rule('20');
    expect(await close(richer.token, '')).toEqual(CLOSURE_CHANGED);
    expect(await closedRows(richer.id)).toEqual([]);
  } finally {
    await rule('10');
  }
  await booksBalanced();
});

it('the practice account neither holds the closure nor ends with it', async () => {
  const user = await customer(h, '0.77');
  await h.database.db.transaction((tx) => openPracticeAccount(tx, user.id, h.clock.now()));
  await grant(h, user.id, '0.00000898', 'practice:BTC');
  expect(await ending(user.token)).toEqual([
    { asset: 'USDT', amount: '0.77000000', min_amount: '10.00000000', least_amount: '10.10000000' },
  ]);
  const practiceBefore = (await everything(user.id)).balances.filter((row) => row.asset.startsWith('practice:'));
  expect(practiceBefore.length).toBeGreaterThan(0);
  expect((await close(user.token, 'USDT:0.77')).ret).toBe(1);
  expect((await everything(user.id)).balances.filter((row) => row.asset.startsWith('practice:'))).toEqual(
    practiceBefore,
  );
  expect(await closureEntries(user.id)).toEqual([expect.objectContaining({ asset: 'USDT' })]);
  await booksBalanced();
});

it('frozen funds of another asset hold the closure, whatever consent is sent', async () => {
  const user = await customer(h, '0.77');
  await tick('ETH', '3000.00');
  await grant(h, user.id, '0.01', 'ETH');
  const sell = await h.call(
    placeContract,
    { code: 'ETH', side: 'sell', type: 'limit', price: '3200.00', quantity: '0.01' },
    { token: user.token },
  );
  expect(sell).toMatchObject({ ret: 1, data: { status: 'open' } });
  // USDT alone is listed (its own amount is not frozen); the frozen ETH holds the closure.
  expect((await ending(user.token)).map((row) => row.asset)).toEqual(['USDT']);
  const before = await everything(user.id);
  expect(await close(user.token, 'USDT:0.77')).toEqual(closureHeldBy('ETH'));
  expect(await close(user.token, 'ETH:0.01,USDT:0.77')).toEqual(closureHeldBy('ETH'));
  expect(await everything(user.id)).toEqual(before);
});
