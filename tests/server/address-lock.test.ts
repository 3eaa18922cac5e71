// The withdrawal address lock: on, a withdrawal goes only to a saved payee past its cooling-off (at least 24 hours,
// here where new payees are otherwise usable at once); turning it on is immediate, turning it off asks for the
// second factor (or the payment password without two-factor) and takes effect 24 hours later, cancellable until
// then; each step is a security notice. And payee labels: saved, shown, edited, validated.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { PAYPASS, customer, refused, withTwoFactor } from './helpers.ts';
import { addCard, addTronWallet, fundsState, newTronAddress, withdraw } from './funds-helpers.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { addressLock, keepAddressLock, lockAddresses, unlockAddresses } from '../../src/api-contract/address-lock.ts';
import { bankCards, editPayeeLabel, wallets } from '../../src/api-contract/payouts.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { consoleWithdrawal } from '../../src/api-contract/console.ts';
import { operatorToken } from './console-helpers.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { addressLocks, bankCards as bankCardRows, wallets as walletRows } from '../../src/server/db/schema.ts';

const HOUR = 3_600_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const locked =
  'Your withdrawal address lock is on: withdrawals go only to a saved bank card or wallet 24 hours after it was added. Please try again later.';
const when = (at = h.clock.now()) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const lockOf = async (token: string) => (await h.call(addressLock, {}, { token })).data;
const titles = async (token: string) =>
  (await h.call(messages, { status: 'all', page: '1' }, { token })).data.lists.map((message) => message.title);
const newest = async (token: string) =>
  (await h.call(messages, { status: 'all', page: '1' }, { token })).data.lists[0]!;

describe('the lock on', () => {
  it('refuses a payee saved less than 24 hours ago and one not saved, moving nothing; a saved one past 24 hours goes', async () => {
    const user = await customer(h, '500');
    const old = await addTronWallet(h, user.token);
    h.clock.advance(24 * HOUR);
    const fresh = await addTronWallet(h, user.token);
    // Off: the fresh wallet is usable at once here (no server cooling-off in this harness).
    expect(await lockOf(user.token)).toEqual({ on: false, on_since: null, off_at: null, off_seconds: 0 });

    const lockedAt = h.clock.now().toISOString();
    expect(await h.call(lockAddresses, {}, { token: user.token })).toEqual({
      ret: 1,
      msg: expect.any(String),
      data: { on: true, on_since: lockedAt, off_at: null, off_seconds: 0 },
    });
    const notice = await newest(user.token);
    expect(notice).toMatchObject({ title: serverTexts.addressLockOnTitle.message });
    expect(notice.content).toContain(when());

    const before = await fundsState(h, user.id);
    for (const target_id of [String(fresh.id), '999999']) {
      expect(await withdraw(h, user.token, { target: 'wallet', target_id, amount: '100' })).toEqual(refused(locked));
    }
    expect(await fundsState(h, user.id)).toEqual(before);

    const paid = await withdraw(h, user.token, { target: 'wallet', target_id: String(old.id), amount: '100' });
    expect(paid).toMatchObject({ ret: 1, data: { status: 'review' } });
    // The reviewer sees the lock beside the withdrawal's payee, read only.
    const reviewer = await operatorToken(h, 'lockreader', 'reviewer');
    expect(
      (await h.call(consoleWithdrawal, { id: String(paid.data!.id) }, { token: reviewer })).data.address_lock,
    ).toEqual({ on: true, on_since: lockedAt, off_at: null, off_seconds: 0 });
    // A payee added while locked is allowed, and usable like the others once 24 hours have passed.
    const card = await addCard(h, user.token);
    expect(await withdraw(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' })).toEqual(
      refused(locked),
    );
    h.clock.advance(24 * HOUR);
    expect(await withdraw(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' })).toMatchObject({
      ret: 1,
    });
  });

  it('turning on again changes nothing and tells nothing', async () => {
    const user = await customer(h);
    const first = (await h.call(lockAddresses, {}, { token: user.token })).data;
    const told = await titles(user.token);
    h.clock.advance(HOUR);
    expect((await h.call(lockAddresses, {}, { token: user.token })).data).toEqual(first);
    expect(await titles(user.token)).toEqual(told);
  });
});

describe('turning it off', () => {
  it('asks for the payment password without two-factor, waits 24 hours with its countdown, then is off', async () => {
    const user = await customer(h, '500');
    const wallet = await addTronWallet(h, user.token);
    expect(await h.call(unlockAddresses, { paypass: PAYPASS }, { token: user.token })).toEqual(
      refused(serverTexts.addressLockNotOn.message),
    );
    await h.call(lockAddresses, {}, { token: user.token });
    expect(await h.call(unlockAddresses, {}, { token: user.token })).toEqual(refused(texts.enterPayPassword.message));
    expect(await h.call(unlockAddresses, { paypass: '654321' }, { token: user.token })).toEqual(
      refused(serverTexts.wrongPayPassword.message),
    );
    expect((await lockOf(user.token)).off_at).toBeNull();

    const asked = h.clock.now();
    const offAt = new Date(asked.getTime() + 24 * HOUR).toISOString();
    expect((await h.call(unlockAddresses, { paypass: PAYPASS }, { token: user.token })).data).toMatchObject({
      on: true,
      off_at: offAt,
      off_seconds: 24 * 3600,
    });
    const notice = await newest(user.token);
    expect(notice.title).toBe(serverTexts.addressLockOffAskedTitle.message);
    expect(notice.content).toContain(when(asked));
    // Asking again does not move the time.
    h.clock.advance(HOUR);
    expect((await h.call(unlockAddresses, { paypass: PAYPASS }, { token: user.token })).data).toMatchObject({
      off_at: offAt,
      off_seconds: 23 * 3600,
    });

    h.clock.advance(23 * HOUR - 1_000);
    expect(await lockOf(user.token)).toMatchObject({ on: true, off_seconds: 1 });
    expect(await withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '10' })).toEqual(
      refused(locked),
    );
    h.clock.advance(1_000);
    // Due: off for the withdrawal that comes first, and told once, dated when it took effect.
    expect(
      await withdraw(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '10' }),
    ).toMatchObject({ ret: 1 });
    expect(await lockOf(user.token)).toEqual({ on: false, on_since: null, off_at: null, off_seconds: 0 });
    const told = await titles(user.token);
    expect(told.filter((title) => title === serverTexts.addressLockOffTitle.message)).toHaveLength(1);
    expect((await newest(user.token)).content).toContain(when(new Date(offAt)));
  });

  it('asks for the authenticator code with two-factor on; cancelling is immediate and keeps the lock', async () => {
    const user = await customer(h);
    const { code } = await withTwoFactor(h, user.token);
    await h.call(lockAddresses, {}, { token: user.token });
    // The payment password alone does not do with two-factor on.
    expect(await h.call(unlockAddresses, { paypass: PAYPASS }, { token: user.token })).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );
    expect(await h.call(unlockAddresses, { otp: code() }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { on: true, off_seconds: 24 * 3600 },
    });
    h.clock.advance(12 * HOUR);
    expect((await h.call(keepAddressLock, {}, { token: user.token })).data).toMatchObject({
      on: true,
      off_at: null,
      off_seconds: 0,
    });
    h.clock.advance(13 * HOUR);
    expect(await lockOf(user.token)).toMatchObject({ on: true, off_at: null });
    expect(await titles(user.token)).not.toContain(serverTexts.addressLockOffTitle.message);
  });

  it('turning on while a turning-off waits keeps it on and cancels the wait', async () => {
    const user = await customer(h);
    const on = (await h.call(lockAddresses, {}, { token: user.token })).data;
    await h.call(unlockAddresses, { paypass: PAYPASS }, { token: user.token });
    expect((await h.call(lockAddresses, {}, { token: user.token })).data).toEqual(on);
    h.clock.advance(25 * HOUR);
    expect(await lockOf(user.token)).toEqual(on);
  });
});

describe('labels', () => {
  it('a bank card is saved with a label, both payees are renamed and listed with theirs', async () => {
    const user = await customer(h);
    const card = await addCard(h, user.token, { label: '  Rent  ' });
    expect(card.label).toBe('Rent');
    const plain = await addCard(h, user.token);
    expect(plain.label).toBe('');
    const wallet = await addTronWallet(h, user.token);

    expect(
      await h.call(
        editPayeeLabel,
        { kind: 'bank', id: String(plain.id), label: 'Savings ออมทรัพย์' },
        { token: user.token },
      ),
    ).toMatchObject({ ret: 1 });
    expect(
      await h.call(editPayeeLabel, { kind: 'wallet', id: String(wallet.id), label: 'Cold' }, { token: user.token }),
    ).toMatchObject({ ret: 1 });
    expect(
      (await h.call(bankCards, {}, { token: user.token })).data.lists.map((listed) => [listed.id, listed.label]),
    ).toEqual([
      [card.id, 'Rent'],
      [plain.id, 'Savings ออมทรัพย์'],
    ]);
    expect((await h.call(wallets, {}, { token: user.token })).data.lists[0]).toMatchObject({ alias: 'Cold' });
    // A bank card's label can be cleared; a wallet's name cannot.
    expect(
      await h.call(editPayeeLabel, { kind: 'bank', id: String(card.id), label: '' }, { token: user.token }),
    ).toMatchObject({ ret: 1 });
    expect(
      await h.call(editPayeeLabel, { kind: 'wallet', id: String(wallet.id), label: ' ' }, { token: user.token }),
    ).toEqual(refused(texts.fillInformation.message));
  });

  it('refuses markup, control characters, a long label and another customer’s payee, writing nothing', async () => {
    const user = await customer(h);
    const stranger = await customer(h);
    const card = await addCard(h, user.token, { label: 'Rent' });
    const wallet = await addTronWallet(h, user.token);
    const rows = async () => ({
      cards: await h.database.db.select().from(bankCardRows).where(eq(bankCardRows.userId, user.id)),
      wallets: await h.database.db.select().from(walletRows).where(eq(walletRows.userId, user.id)),
    });
    const before = await rows();
    const format = refused(texts.payeeLabelFormat.message);
    const hidden = refused(texts.hiddenCharacters.message);
    for (const [label, answer] of [
      ['<img src=x onerror=alert(1)>', format],
      ['a>b', format],
      ['x'.repeat(31), format],
      ['line\nbreak', hidden],
      ['bell\u0007', hidden],
      ['Mom\u202Egnp.exe', hidden],
    ] as const) {
      for (const kind of ['bank', 'wallet'] as const) {
        const id = String(kind === 'bank' ? card.id : wallet.id);
        expect(await h.call(editPayeeLabel, { kind, id, label }, { token: user.token }), label).toEqual(answer);
      }
    }
    expect(
      await h.call(editPayeeLabel, { kind: 'bank', id: String(card.id), label: 'Mine' }, { token: stranger.token }),
    ).toEqual(refused(texts.payeeNotFound.message));
    expect(
      await h.call(editPayeeLabel, { kind: 'wallet', id: String(wallet.id), label: 'Mine' }, { token: stranger.token }),
    ).toEqual(refused(texts.payeeNotFound.message));
    expect(
      await h.call(editPayeeLabel, { kind: 'card', id: String(card.id), label: 'x' }, { token: user.token }),
    ).toEqual(refused(texts.payeeNotFound.message));
    // Nor does a new card or wallet take a hostile label.
    expect(
      await h.call(
        (await import('../../src/api-contract/payouts.ts')).addBankCard,
        { ...(await import('./funds-helpers.ts')).cardForm(), label: '<b>x</b>' },
        { token: user.token },
      ),
    ).toEqual(format);
    // A wallet's alias past 30 characters is told the label's rule, not "Please fill in the information".
    expect(
      await h.call(
        addWallet,
        { alias: 'x'.repeat(500), currency: 'USDT', chain: 'TRC20', address: newTronAddress() },
        { token: user.token },
      ),
    ).toEqual(format);
    expect(await rows()).toEqual(before);
    expect(await h.database.db.select().from(addressLocks).where(eq(addressLocks.userId, user.id))).toEqual([]);
  });
});
