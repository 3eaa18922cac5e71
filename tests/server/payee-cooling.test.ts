// New withdrawal addresses wait: a bank card or wallet added is usable for withdrawals only after the cooling-off
// period (the one configured when it was saved), its owner is told at once by a station message, and deleting is
// immediate. Whoever takes over a session cannot add an address and drain the account before the owner can react.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { callApp, otherProcessApp, startHarness, type Harness } from './harness.ts';
import { customer, PAYPASS, refused, refusedAbout } from './helpers.ts';
import { addCard, addTronWallet, cardForm, fundsState, newTronAddress, withdraw } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { addBankCard, bankCards, deleteWallet, wallets } from '../../src/api-contract/payouts.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { consoleWithdrawal } from '../../src/api-contract/console.ts';
import { wallets as walletRows } from '../../src/server/db/schema.ts';
import { translator } from '../../src/server/i18n.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { loadConfig } from '../../src/server/config.ts';
import { Period } from '../../src/api-contract/period-text.ts';

const HOUR = 3_600_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ payeeCoolingMs: 24 * HOUR });
});
afterAll(() => h.close());

const cooling =
  'For your safety, a newly added bank card or wallet can receive withdrawals 24 hours after it was added. Please try again later.';

/** A withdrawal to the wallet is refused one second before 24 hours from now, and accepted (in review) at 24 hours. */
async function refusedUntilDay(token: string, walletId: number) {
  const request = { target: 'wallet', target_id: String(walletId), amount: '100' };
  h.clock.advance(24 * HOUR - 1_000);
  expect(await withdraw(h, token, request)).toEqual(refused(cooling));
  h.clock.advance(1_000);
  expect(await withdraw(h, token, request)).toMatchObject({ ret: 1, data: { status: 'review' } });
}

it('a wallet added is refused for withdrawals for 24 hours, with the reason, and nothing moves; after 24 hours the same request is accepted', async () => {
  const user = await customer(h, '500');
  const wallet = await addTronWallet(h, user.token);
  expect(Date.parse(wallet.usable_at) - Date.parse(wallet.created_at)).toBe(24 * HOUR);
  expect(wallet.cooling_seconds).toBe(24 * 3600);

  const before = await fundsState(h, user.id);
  // About the payee chosen: the form shows it under the payee.
  expect(await withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '100' })).toEqual(
    refusedAbout(cooling, 'target_id'),
  );
  expect(await fundsState(h, user.id)).toEqual(before);

  await refusedUntilDay(user.token, wallet.id);
});

it('a bank card waits the same way, and the lists say from when each payee is usable', async () => {
  const user = await customer(h, '500');
  const card = await addCard(h, user.token);
  expect(await withdraw(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' })).toEqual(
    refused(cooling),
  );

  h.clock.advance(HOUR);
  const listed = (await h.call(bankCards, {}, { token: user.token })).data.lists;
  expect(listed).toEqual([
    expect.objectContaining({
      id: card.id,
      usable_at: new Date(Date.parse(card.created_at) + 24 * HOUR).toISOString(),
      cooling_seconds: 23 * 3600,
    }),
  ]);
  h.clock.advance(23 * HOUR);
  expect(await withdraw(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' })).toMatchObject({
    ret: 1,
  });
});

it('the owner gets a station message for each payee added, read in the reader’s language; deleting is immediate', async () => {
  const user = await customer(h);
  const wallet = await addTronWallet(h, user.token, { alias: 'Cold storage' });
  const inbox = await h.call(messages, { page: '1' }, { token: user.token });
  expect(inbox.data.lists[0]).toMatchObject({
    title: 'New withdrawal address added',
    content: `\u2068Cold storage\u2069 (USDT TRC20 …${wallet.address.slice(-6)}) was added to your account. For your safety, withdrawals to it are possible 24 hours after it was added. If you did not add it, delete it at once and change your passwords.`,
    status: 'unread',
  });

  expect(await h.call(deleteWallet, { id: String(wallet.id) }, { token: user.token })).toMatchObject({ ret: 1 });
  expect((await h.call(wallets, {}, { token: user.token })).data.lists).toEqual([]);

  // Added from an English screen, read on a Chinese one: in Chinese.
  const card = await h.call(addBankCard, cardForm(), { token: user.token });
  const latest = (await h.call(messages, { page: '1' }, { token: user.token, lang: 'zh' })).data.lists[0]!;
  const zh = translator('zh');
  expect(latest.title).toBe(zh(serverTexts.payeeAddedTitle));
  expect(latest.title).not.toBe('New withdrawal address added');
  expect(latest.content).toBe(
    zh(serverTexts.payeeAddedCooling, {
      0: `${card.data.bank_name} ${card.data.bank_number}`,
      1: new Period(24 * HOUR),
    }),
  );
  // The period in Chinese words, not "24 hours" nor "24 小时 小时".
  expect(latest.content).toContain('为了您的资金安全，添加24小时后才能向其提现。');
});

it('with the cooling-off turned off (PAYEE_COOLING_HOURS=0) a payee is usable at once and the message says nothing of a wait', async () => {
  const open = await startHarness({ payeeCoolingMs: 0 });
  try {
    const user = await customer(open, '500');
    const wallet = await addTronWallet(open, user.token);
    expect(wallet.usable_at).toBe(wallet.created_at);
    expect(wallet.cooling_seconds).toBe(0);
    expect(
      await withdraw(open, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '100' }),
    ).toMatchObject({ ret: 1 });
    const inbox = await open.call(messages, { page: '1' }, { token: user.token });
    expect(inbox.data.lists[0]!.content).toBe(
      `\u2068My TRON\u2069 (USDT TRC20 …${wallet.address.slice(-6)}) was added to your account. If you did not add it, delete it at once and change your passwords.`,
    );
  } finally {
    await open.close();
  }
});

it('a payee keeps the wait it was given: a restart with a shorter period does not shorten it, nor a longer one lengthen the wait of a payee saved under the shorter', async () => {
  const user = await customer(h, '500');
  const early = await addTronWallet(h, user.token);
  // The same database served by a process started with PAYEE_COOLING_HOURS=1.
  const restarted = await otherProcessApp(h, {}, { payeeCoolingMs: HOUR });
  try {
    const added = await callApp(
      restarted,
      addWallet,
      { alias: 'Later', currency: 'USDT', chain: 'TRC20', address: newTronAddress() },
      { token: user.token },
    );
    expect(added.ret, added.msg).toBe(1);
    const late = added.data;
    expect(Date.parse(late.usable_at) - Date.parse(late.created_at)).toBe(HOUR);
    const inbox = await callApp(restarted, messages, { page: '1' }, { token: user.token });
    expect(inbox.data.lists[0]!.content).toContain('withdrawals to it are possible 1 hour after it was added');

    // The shorter process lists the earlier payee with the 24 hours it was given, and refuses it saying so.
    const listed = (await callApp(restarted, wallets, {}, { token: user.token })).data.lists;
    expect(listed.find((wallet) => wallet.id === early.id)).toMatchObject({ usable_at: early.usable_at });
    h.clock.advance(2 * HOUR);
    const toEarly = { paypass: PAYPASS, target: 'wallet', target_id: String(early.id), amount: '100' };
    const before = await fundsState(h, user.id);
    expect(await callApp(restarted, submitWithdraw, toEarly, { token: user.token })).toEqual(refused(cooling));
    expect(await fundsState(h, user.id)).toEqual(before);

    // The 24-hour process lets the later payee through after its 1 hour, and the console shows the wait it had.
    const order = await withdraw(h, user.token, { target: 'wallet', target_id: String(late.id), amount: '100' });
    expect(order).toMatchObject({ ret: 1, data: { status: 'review' } });
    const reviewer = await operatorToken(h, 'cooling-reviewer', 'reviewer');
    const detail = await h.call(consoleWithdrawal, { id: String(order.data.id) }, { token: reviewer });
    expect(detail.data.payee).toMatchObject({ saved_at: late.created_at, usable_at: late.usable_at, cooled: true });
  } finally {
    await restarted.close();
  }
});

it('a payee saved before its wait was kept waits the period configured now, as it always did', async () => {
  const user = await customer(h, '500');
  const wallet = await addTronWallet(h, user.token);
  await h.database.db.update(walletRows).set({ usableAt: null }).where(eq(walletRows.id, wallet.id));
  const listed = (await h.call(wallets, {}, { token: user.token })).data.lists;
  expect(listed).toEqual([expect.objectContaining({ id: wallet.id, usable_at: wallet.usable_at })]);
  await refusedUntilDay(user.token, wallet.id);
});

it('the configuration: 24 hours unless PAYEE_COOLING_HOURS says otherwise, and a typo stops the server rather than turning the protection off', () => {
  expect(loadConfig({}).payeeCoolingMs).toBe(24 * HOUR);
  expect(loadConfig({ PAYEE_COOLING_HOURS: '0' }).payeeCoolingMs).toBe(0);
  expect(loadConfig({ PAYEE_COOLING_HOURS: '1.5' }).payeeCoolingMs).toBe(1.5 * HOUR);
  expect(() => loadConfig({ PAYEE_COOLING_HOURS: '24h' })).toThrow(/PAYEE_COOLING_HOURS=24h/);
  expect(() => loadConfig({ PAYEE_COOLING_HOURS: '-1' })).toThrow(/PAYEE_COOLING_HOURS=-1/);
});
