// Closing with a small amount left (api-contract/closure.ts closureEnding): an available amount below its asset's
// withdrawal minimum that no order can sell ends with the account, with the customer's consent to exactly the amounts
// shown, in a ledger entry of its own, the books still balanced; any difference from what was shown refuses the whole
// call and writes nothing; amounts at or above the minimum, frozen ones and coins an order can still sell hold the
// closure as before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { and, asc, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { contractKit } from './contract-helpers.ts';
import { CLOSURE_CHANGED, closureHeldBy, endingOf } from './closure-helpers.ts';
import { PASSWORD, TOKEN_EXPIRED, customer, expectLedgerBalanced, grant, moneyState, refused } from './helpers.ts';
import { EXPORT_PATH, closeAccount, closureEnding } from '../../src/api-contract/closure.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { LIQUIDITY_ASSET } from '../../src/api-contract/earn.ts';
import { closedAccounts, contractPairs, ledgerEntries } from '../../src/server/db/schema.ts';
import { reconcileNow } from '../../src/server/domain/reconciliation.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

const { tick } = contractKit(() => h);

const close = (token: string, amounts?: string) =>
  h.call(
    closeAccount,
    { secret_kind: 'login', secret: PASSWORD, ...(amounts === undefined ? {} : { amounts }) },
    { token },
  );
const ending = (token: string) => endingOf(h, token);
const closedRow = (userId: number) =>
  h.database.db.select().from(closedAccounts).where(eq(closedAccounts.userId, userId));

/** Closing is refused with `answer`, and nothing of the account moved or closed. */
async function refusedUntouched(user: { id: number; token: string }, amounts: string | undefined, answer: unknown) {
  const before = await moneyState(h, user.id);
  expect(await close(user.token, amounts)).toEqual(answer);
  expect(await moneyState(h, user.id)).toEqual(before);
  expect(await closedRow(user.id)).toEqual([]);
  expect((await h.call(userInfo, {}, { token: user.token })).ret).toBe(1);
}

it('needs a login', async () => {
  expect(await h.call(closureEnding, {})).toEqual(TOKEN_EXPIRED);
});

it('closes with 0.77 USDT left, below the 10 USDT withdrawal minimum, only as shown, in an entry of its own', async () => {
  const user = await customer(h, '0.77');
  expect(await ending(user.token)).toEqual([
    { asset: 'USDT', amount: '0.77000000', min_amount: '10.00000000', least_amount: '10.10000000' },
  ]);

  // Not what was shown: no consent sent, another amount, an asset more. Each refuses the whole call, writing nothing.
  await refusedUntouched(user, undefined, CLOSURE_CHANGED);
  await refusedUntouched(user, '', CLOSURE_CHANGED);
  await refusedUntouched(user, 'USDT:0.76', CLOSURE_CHANGED);
  await refusedUntouched(user, 'USDT:0.77,BTC:0.00000898', CLOSURE_CHANGED);

  // The amount shown, in any spelling of the same number.
  expect((await close(user.token, 'USDT:0.770')).ret).toBe(1);
  const entries = await h.database.db
    .select({
      asset: ledgerEntries.asset,
      bucket: ledgerEntries.bucket,
      amount: ledgerEntries.amount,
      kind: ledgerEntries.kind,
      reference: ledgerEntries.reference,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, user.id))
    .orderBy(asc(ledgerEntries.seq));
  expect(entries).toEqual([
    { asset: 'USDT', bucket: 'available', amount: '0.77000000', kind: 'test_credit', reference: expect.any(String) },
    {
      asset: 'USDT',
      bucket: 'available',
      amount: '-0.77000000',
      kind: 'closure_balance',
      reference: `closure:${user.id}`,
    },
  ]);
  expect((await moneyState(h, user.id)).balances).toEqual([
    expect.objectContaining({ asset: 'USDT', available: '0.00000000', frozen: '0.00000000' }),
  ]);
  expect(await closedRow(user.id)).toHaveLength(1);
  await expectLedgerBalanced(h);
  const run = await reconcileNow(h.database.db);
  expect(run.mismatches).toEqual([]);
  expect(run.ok).toBe(true);
});

it('ends 10 USDT, the minimum itself, which no withdrawal can take as its 1 % fee is frozen on top', async () => {
  const user = await customer(h, '10');
  expect(await ending(user.token)).toEqual([
    { asset: 'USDT', amount: '10.00000000', min_amount: '10.00000000', least_amount: '10.10000000' },
  ]);
  expect((await close(user.token, 'USDT:10')).ret).toBe(1);
  expect((await moneyState(h, user.id)).balances).toEqual([
    expect.objectContaining({ asset: 'USDT', available: '0.00000000', frozen: '0.00000000' }),
  ]);
  await expectLedgerBalanced(h);
});

it('holds the closure once a withdrawal can take it, with the amount frozen, or once an order could sell it', async () => {
  // At the minimum plus its fee (10 USDT and 1 %) a withdrawal can take the amount: it holds the closure, whatever the
  // request says.
  const atMinimum = await customer(h, '10.1');
  expect(await ending(atMinimum.token)).toEqual([]);
  await refusedUntouched(atMinimum, 'USDT:10.1', closureHeldBy('USDT'));
  await refusedUntouched(atMinimum, '', closureHeldBy('USDT'));

  // Below the minimum but partly frozen (an open limit buy): nothing ends, the frozen part holds the closure.
  const frozen = await customer(h, '5.77');
  await tick('BTC', '49000.00');
  const buy = await h.call(
    placeContract,
    { code: 'BTC', side: 'buy', type: 'limit', price: '48000.00', quantity: '0.00011' },
    { token: frozen.token },
  );
  expect(buy).toMatchObject({ ret: 1, data: { status: 'open' } });
  const available = (await moneyState(h, frozen.id)).balances.find((row) => row.asset === 'USDT')!.available;
  expect(Number(available)).toBeGreaterThan(0);
  expect(await ending(frozen.token)).toEqual([]);
  await refusedUntouched(frozen, `USDT:${available}`, closureHeldBy('USDT'));

  // A coin below its withdrawal minimum (0.0005 BTC) that an order can still sell: 0.0004 BTC is worth 19.60 USDT.
  const sellable = await customer(h);
  await grant(h, sellable.id, '0.0004', 'BTC');
  await tick('BTC', '49000.00');
  expect(await ending(sellable.token)).toEqual([]);
  await refusedUntouched(sellable, 'BTC:0.0004', closureHeldBy('BTC'));

  // 0.0001 BTC at 40,000 is worth 4 USDT, 4.40 at the band's top: under the 5 USDT order minimum, so no order sells
  // it and it is listed. Then the price moves to 60,000: a market sell would take it, so it holds the closure again.
  const dust = await customer(h);
  await grant(h, dust.id, '0.0001', 'BTC');
  await tick('BTC', '40000.00');
  expect(await ending(dust.token)).toEqual([
    { asset: 'BTC', amount: '0.00010000', min_amount: '0.00050000', least_amount: '0.00050250' },
  ]);
  await tick('BTC', '60000.00');
  await refusedUntouched(dust, 'BTC:0.0001', closureHeldBy('BTC'));
  await expectLedgerBalanced(h);
});

it('ends a coin no order can sell beside USDT, one entry each; a balance that grows since it was shown refuses', async () => {
  const user = await customer(h, '0.5');
  await tick('BTC', '49000.00');
  // Below the 0.00001 BTC step: no order can sell it.
  await grant(h, user.id, '0.00000898', 'BTC');
  const shown = await ending(user.token);
  expect(shown).toEqual([
    { asset: 'BTC', amount: '0.00000898', min_amount: '0.00050000', least_amount: '0.00050250' },
    { asset: 'USDT', amount: '0.50000000', min_amount: '10.00000000', least_amount: '10.10000000' },
  ]);
  // Only USDT shown: the BTC is an asset more than the customer agreed to.
  await refusedUntouched(user, 'USDT:0.5', CLOSURE_CHANGED);
  // A credit after the list was shown: the amount is not the one agreed to.
  await grant(h, user.id, '0.01');
  await refusedUntouched(user, 'BTC:0.00000898,USDT:0.5', CLOSURE_CHANGED);

  expect((await close(user.token, 'BTC:0.00000898,USDT:0.51')).ret).toBe(1);
  const ended = await h.database.db
    .select({ asset: ledgerEntries.asset, amount: ledgerEntries.amount })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'closure_balance')))
    .orderBy(asc(ledgerEntries.asset));
  expect(ended).toEqual([
    { asset: 'BTC', amount: '-0.00000898' },
    { asset: 'USDT', amount: '-0.51000000' },
  ]);
  expect((await moneyState(h, user.id)).balances.every((row) => Number(row.available) === 0)).toBe(true);
  await expectLedgerBalanced(h);
  expect((await reconcileNow(h.database.db)).mismatches).toEqual([]);
});

it('the data export taken before closing names each balance and what closing would end with it', async () => {
  const user = await customer(h, '0.77');
  await tick('BTC', '49000.00');
  await grant(h, user.id, '0.00000898', 'BTC');
  await grant(h, user.id, '1', 'ETH');
  const archive = async (lang = 'en') => {
    const response = await h.app.inject({ url: EXPORT_PATH, headers: { lang, token: user.token } });
    expect(response.headers['content-type']).toBe('application/zip');
    return unzipSync(new Uint8Array(response.rawPayload));
  };
  const files = await archive();
  // The ETH a sell can take holds the closure: it ends with nothing. The BTC dust and the 0.77 USDT would end.
  expect(JSON.parse(strFromU8(files['balances.json']!))).toEqual([
    { asset: 'BTC', available: '0.00000898', frozen: '0.00000000', ends_with_closure: '0.00000898' },
    { asset: 'ETH', available: '1.00000000', frozen: '0.00000000', ends_with_closure: '0.00000000' },
    { asset: 'USDT', available: '0.77000000', frozen: '0.00000000', ends_with_closure: '0.77000000' },
  ]);
  const csv = strFromU8(files['balances.csv']!);
  expect(csv).toContain('"asset","available","frozen","ends_with_closure"');
  expect(csv).toContain('"USDT","0.77000000","0.00000000","0.77000000"');
  const readme = strFromU8(files['README.txt']!);
  expect(readme).toContain('balances.csv, balances.json: ');
  expect(readme).toMatch(/ends_with_closure: .*not paid out/);
  // In every language the app speaks, the README says it in that language.
  expect(strFromU8((await archive('th'))['README.txt']!)).not.toMatch(/ends_with_closure: .*not paid out/);
});

it('a coin with no withdrawal and no current price is named, with what to do, never taken', async () => {
  // SOL has no withdrawal rule (only USDT, BTC and ETH do), and no price was ever recorded for it here: it can be
  // neither withdrawn nor sold, nor valued.
  const user = await customer(h, '0.5');
  await grant(h, user.id, '3', 'SOL');
  const stuck = refused(
    'SOL cannot be withdrawn, and cannot be sold while its market has no current price, so it holds the closure. ' +
      'Sell it once its market trades again, then close the account; customer service can tell you when.',
  );
  // The page lists the USDT only; the close, consented to it, names the SOL and what to do, and takes nothing.
  expect(await ending(user.token)).toEqual([
    { asset: 'USDT', amount: '0.50000000', min_amount: '10.00000000', least_amount: '10.10000000' },
  ]);
  await refusedUntouched(user, 'USDT:0.5', stuck);
  // Its market closed by the operator (the pair inactive) with a fresh price: still no way to sell it.
  await tick('SOL', '235.00');
  await h.database.db.update(contractPairs).set({ active: false }).where(eq(contractPairs.coin, 'SOL'));
  try {
    await refusedUntouched(user, 'USDT:0.5', stuck);
  } finally {
    await h.database.db.update(contractPairs).set({ active: true }).where(eq(contractPairs.coin, 'SOL'));
  }
  // Its market trades: an order can sell it, and the usual text asks for it.
  await refusedUntouched(user, 'USDT:0.5', closureHeldBy('SOL'));
  // An earn balance is no coin: it has no withdrawal and no market, and its redemption empties it, as the usual text
  // asks.
  const saver = await customer(h);
  await grant(h, saver.id, '5', LIQUIDITY_ASSET);
  await refusedUntouched(saver, '', closureHeldBy(LIQUIDITY_ASSET));
  await expectLedgerBalanced(h);
});

it('the closing page reads every reason that holds the closure, in the order the close gives them, in its language', async () => {
  const user = await customer(h, '50');
  await grant(h, user.id, '250', 'POINT');
  await tick('BTC', '49000.00');
  // A limit buy below the price: open, its USDT frozen.
  const buy = await h.call(
    placeContract,
    { code: 'BTC', side: 'buy', type: 'limit', price: '48000.00', quantity: '0.00011' },
    { token: user.token },
  );
  expect(buy).toMatchObject({ ret: 1, data: { status: 'open' } });
  const holds = async (lang = 'en') => (await h.call(closureEnding, {}, { token: user.token, lang })).data.holds ?? [];
  const said = await holds();
  expect(said).toEqual([
    closureHeldBy('USDT').msg,
    'Your account still holds 250 points, enough to redeem (at least 100 at a time). Redeem them before closing.',
    'A contract order is still open. Revoke it, or close the account once it has filled.',
  ]);
  // The close refuses with the first of them, and moves nothing.
  await refusedUntouched(user, '', closureHeldBy('USDT'));
  // In Thai, the same three reasons in Thai.
  const thai = await holds('th');
  expect(thai).toHaveLength(3);
  expect(thai.join(' ')).toMatch(/[\u0E00-\u0E7F]/);

  // An account with nothing left and nothing open can close: no reason is listed.
  const empty = await customer(h);
  expect((await h.call(closureEnding, {}, { token: empty.token })).data).toEqual({ lists: [], holds: [] });
});
