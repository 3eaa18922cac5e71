// Shared steps of the money tests: the operator's commands, payees (cards, wallets), recharges and
// withdrawals made the way a customer makes them, and the money state a refusal must leave alone.
import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { expect } from 'vitest';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { balances, certifications, rechargeOrders, withdrawOrders } from '../../src/server/db/schema.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { addBankCard, type BankCard, type Wallet } from '../../src/api-contract/payouts.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import {
  submitRecharge,
  submitWithdraw,
  type RechargeOrder,
  type WithdrawOrder,
} from '../../src/api-contract/funds.ts';
import { customer, moneyState, PAYPASS, uploadFile, userIdOf } from './helpers.ts';
import { png } from '../png.ts';
import type { Harness } from './harness.ts';

/** Runs an operator command at the harness clock's time, as `npm run ops -- …` would. */
export const ops = (h: Harness, ...argv: string[]) =>
  runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);

/** An operator command that must apply; answers what it printed. */
export async function opsOk(h: Harness, ...argv: string[]): Promise<string> {
  const result = await ops(h, ...argv);
  expect(result, result.output).toMatchObject({ ok: true });
  return result.output;
}

/** A transaction hash nobody has submitted: 64 hex digits, like a TRON or EVM transaction id. */
export const newHash = () => randomBytes(32).toString('hex');

const base58check = createBase58check(sha256);
/** A valid TRON address nobody has added: base58check of version byte 0x41 and 20 random bytes ("T…"). */
export const newTronAddress = () => base58check.encode(Uint8Array.from([0x41, ...randomBytes(20)]));
/** A valid EVM address (ERC20, BEP20), in lower case (the EIP-55 form is what the server stores). */
export const newEvmAddress = () => `0x${randomBytes(20).toString('hex')}`;
/** A bank account number of 12 digits. */
export const newBankNumber = () => String(100_000_000_000 + (randomBytes(4).readUInt32BE() % 800_000_000_000));

/** A complete, valid bank card form. */
export const cardForm = (fields: Record<string, string> = {}) => ({
  real_name: 'Somchai Jaidee',
  ifsc: 'KASI0001234',
  bank_code: 'KBANK',
  bank_number: newBankNumber(),
  phone: '0812345678',
  email: 'somchai@example.com',
  ...fields,
});

export async function addCard(h: Harness, token: string, fields: Record<string, string> = {}): Promise<BankCard> {
  const res = await h.call(addBankCard, cardForm(fields), { token });
  expect(res, JSON.stringify(res)).toMatchObject({ ret: 1 });
  return res.data;
}

export async function addTronWallet(h: Harness, token: string, fields: Record<string, string> = {}): Promise<Wallet> {
  const res = await h.call(
    addWallet,
    { alias: 'My TRON', currency: 'USDT', chain: 'TRC20', address: newTronAddress(), ...fields },
    { token },
  );
  expect(res, JSON.stringify(res)).toMatchObject({ ret: 1 });
  return res.data;
}

/** A 2×2 PNG of random colours: a picture no other call makes (one receipt picture backs one recharge). */
export const picturePng = () => new Uint8Array(png(2, () => [...randomBytes(3), 0xff]));

/** Uploads a picture (`bytes`, else one of its own, picturePng) as `token`'s user; answers its URL. */
export async function uploadedPicture(h: Harness, token: string, bytes = picturePng()): Promise<string> {
  const res = await uploadFile(h, token, { bytes, name: 'receipt.png', type: 'image/png' });
  expect(res).toMatchObject({ ret: 1, data: { url: expect.stringMatching(/^\/api\/uploads\//) } });
  return res.data.url;
}

/**
 * Sends `token`'s user's primary certification (a passport with a picture, document `number`) and, unless `verify` is
 * false, has the operator approve it with the command line's `certification approve`, as the console's rule does: the
 * user is then verified. Answers the certification's id. Two customers certified with one number are one person to
 * the referral reward (domain/referrals.ts): give each customer of a test their own.
 */
export async function certifyPrimary(
  h: Harness,
  token: string,
  { number = 'AB1234567', verify = true }: { number?: string; verify?: boolean } = {},
): Promise<number> {
  const sent = await h.call(
    submitCertification,
    { level: 'primary', doc_type: 'passport', name: 'Malee Srisuk', number, image: await uploadedPicture(h, token) },
    { token },
  );
  expect(sent.ret).toBe(1);
  const userId = await userIdOf(h, token);
  const [row] = await h.database.db
    .select({ id: certifications.id })
    .from(certifications)
    .where(and(eq(certifications.userId, userId), eq(certifications.level, 'primary')))
    .orderBy(desc(certifications.id))
    .limit(1);
  if (verify) await opsOk(h, 'certification', 'approve', String(row!.id));
  return row!.id;
}

/** A pending crypto recharge on channel 1 (USDT TRC20, rate 1). */
export async function cryptoRecharge(h: Harness, token: string, amount: string, channel = '1'): Promise<RechargeOrder> {
  const res = await h.call(submitRecharge, { kind: 'crypto', channel_id: channel, amount, hash: newHash() }, { token });
  expect(res, JSON.stringify(res)).toMatchObject({ ret: 1, data: { status: 'pending' } });
  return res.data;
}

/** A crypto recharge the operator approved: `amount` USDT credited. */
export async function approvedRecharge(h: Harness, token: string, amount: string): Promise<RechargeOrder> {
  const order = await cryptoRecharge(h, token, amount);
  await opsOk(h, 'recharge', 'approve', String(order.id));
  return order;
}

/** A withdrawal request with the right transaction password unless told otherwise. */
export const withdraw = (h: Harness, token: string, fields: Record<string, string>, idempotencyKey?: string) =>
  h.call(submitWithdraw, { paypass: PAYPASS, ...fields }, { token, idempotencyKey });

export async function withdrawn(h: Harness, token: string, fields: Record<string, string>): Promise<WithdrawOrder> {
  const res = await withdraw(h, token, fields);
  expect(res, JSON.stringify(res)).toMatchObject({ ret: 1, data: { status: 'review' } });
  return res.data;
}

/** One asset's balance of a user as stored ("0.00000000" for an asset never moved). */
export async function balanceOf(h: Harness, userId: number, asset = 'USDT') {
  const [row] = await h.database.db
    .select()
    .from(balances)
    .where(and(eq(balances.userId, userId), eq(balances.asset, asset)));
  return { available: row?.available ?? '0.00000000', frozen: row?.frozen ?? '0.00000000' };
}

/** Everything a funds call can move for one user: balances, ledger entries, recharges, withdrawals. */
export const fundsState = (h: Harness, userId: number) =>
  moneyState(h, userId, { recharges: rechargeOrders, withdrawals: withdrawOrders });

/**
 * A customer's withdrawal of 500 USDT in review (to a TRON wallet), and its payout's transaction (not yet recorded)
 * reported by the customer as a recharge of 500 USDT, pending.
 */
export async function payoutReported(h: Harness) {
  const user = await customer(h, '1000');
  const wallet = await addTronWallet(h, user.token);
  const order = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '500' });
  const payout = newHash();
  const reported = await h.call(
    submitRecharge,
    { kind: 'crypto', channel_id: '1', amount: '500', hash: payout },
    { token: user.token },
  );
  expect(reported).toMatchObject({ ret: 1, data: { status: 'pending' } });
  return { user, order, payout, reported };
}
