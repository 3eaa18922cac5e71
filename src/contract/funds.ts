// Money in and out (§1, §3, §4, §5, §7): recharge by crypto address or bank transfer, withdraw to a
// wallet or a bank card, and the account details (the ledger as the user sees it). An operator
// reviews recharges and withdrawals; a refusal always carries a reason the user sees.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, result } from './endpoint.ts';
import { PAY_PASSWORD, UPLOAD_URL, matching } from './fields.ts';
import { amount } from './markets.ts';
import { HASH_MIN_LENGTH } from './constants.ts';
import { texts } from './texts.ts';
import type { Chain } from './payouts.ts';
import type { Paged } from './envelope.ts';

export const FUNDS_PAGE_SIZE = 20;
const page = v.optional(matching(/^[1-9]\d{0,5}$/, texts.invalidRequest), '1');
const id = (missing = texts.orderNotFound) => matching(/^\d{1,9}$/, missing);

// ---- Recharge -------------------------------------------------------------------------------

export type ChannelKind = 'crypto' | 'bank';

/** A way to pay in: a crypto address on a chain (shown as a QR code), or a bank account. */
export interface RechargeChannel {
  id: number;
  kind: ChannelKind;
  name: string;
  /** What the amount is typed in: the coin for crypto, the bank's currency (THB) for a transfer. */
  currency: string;
  /** What is credited: always USDT here. */
  asset: string;
  chain: Chain | null;
  /** Crypto: the deposit address; bank: the account number. */
  address: string;
  bank_name: string;
  account_name: string;
  /** Units of `currency` per 1 `asset`, as it stands now (1 for USDT itself). */
  rate: string;
  min_amount: string;
}
export const rechargeChannels = get('/pay/lists', NoInput, result<Paged<RechargeChannel>>());

/** §5: a crypto recharge names its transaction by a hash of at least 60 letters and digits. */
export const HASH = new RegExp(`^[A-Za-z0-9]{${HASH_MIN_LENGTH},128}$`);
/**
 * One transaction, one spelling: a hex hash (EVM "0x…", TRON and Bitcoin txids) is kept in lower
 * case without "0x", so the same payment cannot be reported twice in another case.
 */
export const canonicalHash = (hash: string) => (/^(0x)?[0-9a-fA-F]{64}$/.test(hash) ? hash.replace(/^0x/, '').toLowerCase() : hash);
const hash = v.pipe(matching(HASH, texts.hashFormat), v.transform(canonicalHash));
export const RechargeInput = v.variant(
  'kind',
  [
    v.object({ kind: v.literal('crypto'), channel_id: id(texts.chooseChannel), amount, hash }),
    v.object({ kind: v.literal('bank'), channel_id: id(texts.chooseChannel), amount, proof: matching(UPLOAD_URL, texts.uploadProof) }),
  ],
  texts.chooseChannel.id,
);
export type RechargeInputType = v.InferInput<typeof RechargeInput>;

/** §4: pending, then success; or rejected with a reason. */
export type RechargeStatus = 'pending' | 'success' | 'rejected';
export interface RechargeOrder {
  id: number;
  order_no: string;
  kind: ChannelKind;
  channel_name: string;
  chain: Chain | null;
  /** The address or account the user paid to. */
  address: string;
  currency: string;
  amount: string;
  rate: string;
  asset: string;
  /** What is (or will be) credited: amount ÷ rate, rounded down to 8 decimals. */
  actual_amount: string;
  hash: string;
  proof: string;
  block_height: string;
  remark: string;
  /** Why the operator rejected it (shown to the user). */
  reason: string;
  status: RechargeStatus;
  created_at: string;
  reviewed_at: string | null;
}
export const submitRecharge = post('/pay/submit', RechargeInput, result<RechargeOrder>());

/** §4 filters: all, completed (reviewed: credited or rejected), unfinished (waiting for review). */
export const RECHARGE_FILTERS = ['all', 'completed', 'unfinished'] as const;
export type RechargeFilter = (typeof RECHARGE_FILTERS)[number];
/** Our additions: the caller's recharges, newest first, and one of them. */
export const rechargeRecords = get(
  '/pay/record',
  v.object({ status: v.optional(v.picklist(RECHARGE_FILTERS, texts.invalidRequest.id), 'all'), page }),
  result<Paged<RechargeOrder>>(),
);
export const rechargeOrder = get('/pay/info', v.object({ id: id() }), result<RechargeOrder>());

/** What a recharge credits: amount ÷ rate, rounded down to 8 decimals (never more than was paid). */
export function rechargeCredit(amount: string, rate: string): string {
  return new Big(amount).div(rate).round(8, Big.roundDown).toFixed(8);
}

// ---- Withdraw -------------------------------------------------------------------------------

export interface WithdrawRule {
  asset: string;
  /** 0.01 = 1 % of the amount. */
  fee_rate: string;
  min_amount: string;
  max_amount: string;
  available: string;
}
export const withdrawRule = get(
  '/users/extract/rate',
  v.object({ asset: v.optional(matching(/^[A-Z0-9]{2,10}$/, texts.invalidRequest), 'USDT') }),
  result<WithdrawRule>(),
);

export type PayeeKind = 'bank' | 'wallet';
export const WithdrawInput = v.object({
  target: v.picklist(['bank', 'wallet'], texts.choosePayee.id),
  /** Checked after the §5 prompts, so a user with no card or wallet hears that first. */
  target_id: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^(\d{1,9})?$/, texts.payeeNotFound.id)), ''),
  amount,
  paypass: matching(PAY_PASSWORD, texts.enterPayPassword, texts.payPasswordFormat),
});
export type WithdrawInputType = v.InferInput<typeof WithdrawInput>;

/** §4: in review, then success or fail (with a reason; the frozen funds come back). */
export type WithdrawStatus = 'review' | 'success' | 'fail';
export interface WithdrawOrder {
  id: number;
  order_no: string;
  target: PayeeKind;
  asset: string;
  amount: string;
  fee_rate: string;
  fee: string;
  /** What left the balance: amount + fee (frozen at once, paid out or returned on review). */
  total: string;
  /** What the payee receives. */
  actual_amount: string;
  payee_name: string;
  /** Wallet address in full; a bank account number as "•••• 1234". */
  payee_account: string;
  /** Bank name, or the wallet's chain. */
  payee_network: string;
  /** Bank payouts are made in baht at the rate of the moment of the request. */
  fiat_currency: string;
  fiat_rate: string;
  fiat_amount: string;
  status: WithdrawStatus;
  reason: string;
  /** The payout transaction, when the operator recorded it. */
  hash: string;
  created_at: string;
  reviewed_at: string | null;
}
export const submitWithdraw = post('/users/extract', WithdrawInput, result<WithdrawOrder>());

export const WITHDRAW_FILTERS = ['all', 'review', 'success', 'fail'] as const;
export type WithdrawFilter = (typeof WITHDRAW_FILTERS)[number];
/** Our additions: the caller's withdrawals, newest first, and one of them. */
export const withdrawRecords = get(
  '/users/extract/record',
  v.object({ status: v.optional(v.picklist(WITHDRAW_FILTERS, texts.invalidRequest.id), 'all'), page }),
  result<Paged<WithdrawOrder>>(),
);
export const withdrawOrder = get('/users/extract/info', v.object({ id: id() }), result<WithdrawOrder>());

/** The fee of a withdrawal: amount × rate, rounded up to 8 decimals. The form and the server share it. */
export function withdrawFee(amount: string, feeRate: string): string {
  return new Big(amount).times(feeRate).round(8, Big.roundUp).toFixed(8);
}

// ---- Account details ---------------------------------------------------------------------------

/** Entries of the ledger, grouped the way the user filters them. */
export const ACCOUNT_FILTERS = ['all', 'recharge', 'withdraw', 'option', 'contract', 'points', 'other'] as const;
export type AccountFilter = (typeof ACCOUNT_FILTERS)[number];
export const ENTRY_KINDS = {
  recharge: ['recharge'],
  withdraw: ['withdraw_freeze', 'withdraw_return'],
  option: ['option_stake', 'option_payout'],
  contract: ['contract_freeze', 'contract_trade', 'contract_cancel'],
  points: ['points_redeem'],
} as const satisfies Partial<Record<AccountFilter, readonly string[]>>;

export interface AccountEntry {
  id: number;
  asset: string;
  /** Signed: "+" credited to the available balance, "-" taken from it. */
  amount: string;
  kind: string;
  /** The business event: "recharge:12", "withdraw:3", "option:40"… */
  reference: string;
  created_at: string;
}
/** §7 names the filter `setup`: the group of entries to list. Moves of the available balance only. */
export const accountEntries = get(
  '/users/account/lists',
  v.object({ setup: v.optional(v.picklist(ACCOUNT_FILTERS, texts.invalidRequest.id), 'all'), page }),
  result<Paged<AccountEntry>>(),
);
