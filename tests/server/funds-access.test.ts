// Each money call reads and changes the caller's own records only: user B, naming user A's ids,
// is answered as if they did not exist and changes nothing of A's. No customer call reviews.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import {
  addCard,
  addTronWallet,
  balanceOf,
  cryptoRecharge,
  fundsState,
  opsOk,
  uploadedPicture,
  withdraw,
  withdrawn,
} from './funds-helpers.ts';
import {
  accountEntries,
  rechargeOrder,
  rechargeRecords,
  submitRecharge,
  withdrawOrder,
  withdrawRecords,
} from '../../src/api-contract/funds.ts';
import { bankCards, deleteBankCard, deleteWallet, wallets } from '../../src/api-contract/payouts.ts';
import { certificationState, submitCertification } from '../../src/api-contract/certification.ts';
import { pointRecords } from '../../src/api-contract/rewards.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import type { BankCard, Wallet } from '../../src/api-contract/payouts.ts';
import type { RechargeOrder, WithdrawOrder } from '../../src/api-contract/funds.ts';

let h: Harness;
/** A holds one of everything; B holds its own card and wallet and some USDT. */
let a: {
  token: string;
  id: number;
  card: BankCard;
  wallet: Wallet;
  recharge: RechargeOrder;
  rejected: RechargeOrder;
  withdrawal: WithdrawOrder;
  picture: string;
  option: number;
};
let b: { token: string; id: number; card: BankCard; wallet: Wallet };

beforeAll(async () => {
  h = await startHarness();
  const userA = await customer(h, '500');
  const card = await addCard(h, userA.token);
  const wallet = await addTronWallet(h, userA.token);
  const recharge = await cryptoRecharge(h, userA.token, '30');
  const rejected = await cryptoRecharge(h, userA.token, '31');
  await opsOk(h, 'recharge', 'reject', String(rejected.id), 'Not received');
  const withdrawal = await withdrawn(h, userA.token, { target: 'bank', target_id: String(card.id), amount: '50' });
  const picture = await uploadedPicture(h, userA.token);
  await h.tick();
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists[0]!;
  const option = await h.call(
    placeOption,
    { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) },
    { token: userA.token },
  );
  expect(option.ret).toBe(1);
  a = { ...userA, card, wallet, recharge, rejected, withdrawal, picture, option: option.data.id };

  const userB = await customer(h, '500');
  b = { ...userB, card: await addCard(h, userB.token), wallet: await addTronWallet(h, userB.token) };
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const notFound = refused('The order does not exist!');

it('B reading A’s recharges, withdrawal or option order is told they do not exist', async () => {
  expect(await h.call(rechargeOrder, { id: String(a.recharge.id) }, { token: b.token })).toEqual(notFound);
  expect(await h.call(rechargeOrder, { id: String(a.rejected.id) }, { token: b.token })).toEqual(notFound);
  expect(await h.call(withdrawOrder, { id: String(a.withdrawal.id) }, { token: b.token })).toEqual(notFound);
  expect(await h.call(optionOrder, { id: String(a.option) }, { token: b.token })).toEqual(notFound);
  // …while A reads them.
  expect((await h.call(rechargeOrder, { id: String(a.recharge.id) }, { token: a.token })).ret).toBe(1);
  expect((await h.call(withdrawOrder, { id: String(a.withdrawal.id) }, { token: a.token })).ret).toBe(1);
  expect((await h.call(optionOrder, { id: String(a.option) }, { token: a.token })).ret).toBe(1);
});

it('B deleting A’s card or wallet is refused and both stay A’s', async () => {
  const text = 'The bank card or wallet does not exist!';
  expect(await h.call(deleteBankCard, { id: String(a.card.id) }, { token: b.token })).toEqual(refused(text));
  expect(await h.call(deleteWallet, { id: String(a.wallet.id) }, { token: b.token })).toEqual(refused(text));
  expect((await h.call(bankCards, {}, { token: a.token })).data.lists).toEqual([a.card]);
  expect((await h.call(wallets, {}, { token: a.token })).data.lists).toEqual([a.wallet]);
  expect((await h.call(bankCards, {}, { token: b.token })).data.lists).toEqual([b.card]);
  expect((await h.call(wallets, {}, { token: b.token })).data.lists).toEqual([b.wallet]);
});

it('B’s lists never contain A’s records', async () => {
  const ownRecharge = await cryptoRecharge(h, b.token, '12');
  const ownWithdrawal = await withdrawn(h, b.token, { target: 'wallet', target_id: String(b.wallet.id), amount: '10' });
  expect((await h.call(rechargeRecords, {}, { token: b.token })).data).toMatchObject({
    next: null,
    lists: [{ id: ownRecharge.id }],
  });
  expect((await h.call(withdrawRecords, {}, { token: b.token })).data).toMatchObject({
    next: null,
    lists: [{ id: ownWithdrawal.id }],
  });
  const entries = (await h.call(accountEntries, {}, { token: b.token })).data.lists;
  expect(entries.map((entry) => entry.reference)).toEqual([
    `withdraw:${ownWithdrawal.id}`,
    expect.stringMatching(/^grant:/),
  ]);
  expect((await h.call(pointRecords, {}, { token: b.token })).data).toMatchObject({
    lists: [],
    next: null,
    balance: '0',
  });
  expect((await h.call(certificationState, {}, { token: b.token })).data).toMatchObject({
    primary: { status: 'none' },
    advanced: { status: 'none' },
  });
  // A's lists, for contrast, hold A's.
  expect((await h.call(rechargeRecords, {}, { token: a.token })).data.lists.map((o) => o.id)).toEqual([
    a.rejected.id,
    a.recharge.id,
  ]);
  expect((await h.call(withdrawRecords, {}, { token: a.token })).data.lists.map((o) => o.id)).toEqual([
    a.withdrawal.id,
  ]);
});

it('B withdrawing to A’s card or wallet is refused and freezes nothing on either account', async () => {
  const beforeA = await fundsState(h, a.id);
  const beforeB = await fundsState(h, b.id);
  const text = 'The bank card or wallet does not exist!';
  expect(await withdraw(h, b.token, { target: 'bank', target_id: String(a.card.id), amount: '20' })).toEqual(
    refused(text),
  );
  expect(await withdraw(h, b.token, { target: 'wallet', target_id: String(a.wallet.id), amount: '20' })).toEqual(
    refused(text),
  );
  expect(await fundsState(h, a.id)).toEqual(beforeA);
  expect(await fundsState(h, b.id)).toEqual(beforeB);
});

it('B cannot use A’s upload as a receipt or a certification photo', async () => {
  const before = await fundsState(h, b.id);
  expect(
    await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '1000', proof: a.picture },
      { token: b.token },
    ),
  ).toEqual(refused('Please upload the transfer receipt!'));
  expect(
    await h.call(
      submitCertification,
      { level: 'primary', doc_type: 'passport', name: 'B', number: 'AA1234567', image: a.picture },
      { token: b.token },
    ),
  ).toEqual(refused('Please upload a photo of the document!'));
  expect(await fundsState(h, b.id)).toEqual(before);
  expect((await h.call(certificationState, {}, { token: b.token })).data.primary.status).toBe('none');
});

it('no customer call approves or rejects: plausible review paths answer the 404 envelope', async () => {
  const paths = [
    '/api/pay/approve',
    '/api/pay/reject',
    '/api/users/extract/approve',
    '/api/users/extract/reject',
    '/api/users/levelauth/approve',
    '/api/admin/recharge/approve',
  ];
  for (const url of paths) {
    const response = await h.app.inject({
      method: 'POST',
      url,
      headers: { lang: 'en', token: a.token, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${a.recharge.id}`,
    });
    expect(response.statusCode, url).toBe(404);
    expect(response.json(), url).toEqual(refused('The requested resource was not found'));
  }
  expect(await balanceOf(h, a.id)).toEqual({ available: '439.50000000', frozen: '50.50000000' });
  expect((await h.call(rechargeOrder, { id: String(a.recharge.id) }, { token: a.token })).data.status).toBe('pending');
});
