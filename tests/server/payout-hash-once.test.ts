// One payout transaction pays one withdrawal: the hash an operator records as a withdrawal's payout (the console or
// `npm run ops`) is refused for any other withdrawal on the same chain, in any spelling of the same transaction
// (letter case, "0x"), and two operators recording it at once in two connections (two server processes) record it once.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refusedAbout, waitersOnLocks } from './helpers.ts';
import { addTronWallet, fundsState, newEvmAddress, newHash, ops, opsOk, withdrawn } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { consoleApproveWithdrawal } from '../../src/api-contract/console.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { approveWithdrawal } from '../../src/server/domain/withdraw.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';
import { consoleTexts } from '../../src/api-contract/console-texts.ts';

let h: Harness;
let reviewer: string;
beforeAll(async () => {
  h = await startHarness();
  reviewer = await operatorToken(h, 'reviewer3', 'reviewer');
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const usedFor = (orderNo: string) =>
  `This transaction is already recorded as the payout of withdrawal ${orderNo}: one transaction pays one withdrawal. Check the hash.`;

/** A customer with 100 USDT and a withdrawal of 20 USDT in review to a TRON wallet. */
async function tronWithdrawal() {
  const user = await customer(h, '100');
  const wallet = await addTronWallet(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '20' });
  return { user, order };
}

it('refuses a payout hash already recorded for another customer’s withdrawal, in any case and with or without 0x', async () => {
  const first = await tronWithdrawal();
  const second = await tronWithdrawal();
  const payout = newHash();
  await opsOk(h, 'withdrawal', 'approve', String(first.order.id), `hash=${payout}`);

  const before = await fundsState(h, second.user.id);
  for (const spelling of [payout, payout.toUpperCase(), `0x${payout}`, `0X${payout.toUpperCase()}`]) {
    expect(
      await h.call(consoleApproveWithdrawal, { id: String(second.order.id), hash: spelling }, { token: reviewer }),
      spelling,
    ).toEqual(refusedAbout(usedFor(first.order.order_no), 'hash'));
    expect(await ops(h, 'withdrawal', 'approve', String(second.order.id), `hash=${spelling}`), spelling).toEqual({
      ok: false,
      output: usedFor(first.order.order_no),
    });
  }
  // Nothing moved: the second withdrawal is still in review, its funds frozen, and its own payout records it.
  expect(await fundsState(h, second.user.id)).toEqual(before);
  expect(
    await h.call(consoleApproveWithdrawal, { id: String(second.order.id), hash: newHash() }, { token: reviewer }),
  ).toMatchObject({ ret: 1, data: { status: 'success' } });
});

it('refuses it for the same customer’s next withdrawal too: each withdrawal is paid by its own transaction', async () => {
  const { user, order } = await tronWithdrawal();
  const wallet = await addTronWallet(h, user.token);
  const next = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '20' });
  await opsOk(h, 'withdrawal', 'approve', String(order.id), 'hash=bank-ref-0001');
  expect(await ops(h, 'withdrawal', 'approve', String(next.id), 'hash=bank-ref-0001')).toEqual({
    ok: false,
    output: usedFor(order.order_no),
  });
});

it('takes the same hash on another chain: a transaction is one chain’s', async () => {
  const tron = await tronWithdrawal();
  const payout = newHash();
  await opsOk(h, 'withdrawal', 'approve', String(tron.order.id), `hash=${payout}`);
  const user = await customer(h, '100');
  const added = await h.call(
    addWallet,
    { alias: 'My BSC', currency: 'USDT', chain: 'BEP20', address: newEvmAddress() },
    { token: user.token },
  );
  expect(added).toMatchObject({ ret: 1 });
  const order = await withdrawn(h, user.token, { target: 'wallet', target_id: String(added.data.id), amount: '20' });
  await opsOk(h, 'withdrawal', 'approve', String(order.id), `hash=0x${payout}`);
});

// Two operators, in two processes, record one transaction for two customers' withdrawals at the same moment: each
// checks the other's record before its own commits, so the later waits for the earlier and is refused.
it('two payouts recorded with one hash at once for two customers: the later is refused', async () => {
  const first = await tronWithdrawal();
  const second = await tronWithdrawal();
  const payout = newHash();
  const db = h.database.db;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let recorded!: () => void;
  const firstRecorded = new Promise<void>((resolve) => (recorded = resolve));
  const paying = db.transaction(async (tx) => {
    await approveWithdrawal(tx, first.order.id, { hash: payout }, h.clock.now());
    recorded();
    await held;
  });
  await firstRecorded;
  const payingAgain = db.transaction((tx) =>
    approveWithdrawal(tx, second.order.id, { hash: `0x${payout.toUpperCase()}` }, h.clock.now()),
  );
  const waited = await waitersOnLocks(db, 1, payingAgain);
  release();
  await paying;
  await expect(payingAgain).rejects.toEqual(
    new Refusal(consoleTexts.consolePayoutHashUsed.id, { 0: first.order.order_no }, 'hash'),
  );
  expect(waited).toBe(true);
  expect(await fundsState(h, second.user.id)).toMatchObject({ withdrawals: [{ status: 'review', hash: '' }] });
});
