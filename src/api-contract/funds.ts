// Money in and out: recharge by crypto address or bank transfer, withdraw to a
// wallet or a bank card, and the account details (the ledger as the user sees it). An operator
// reviews recharges and withdrawals; a refusal always carries a reason the user sees.
import Big from 'big.js';
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { NoInput, get, post, returns } from './endpoint.ts';
import { cursor, matching, optionalMatching, otp, PAY_PASSWORD, UPLOAD_URL } from './fields.ts';
import { amount } from './markets.ts';
import { texts } from './texts.ts';
import { CHAINS, HASH_MIN_LENGTH } from './constants.ts';
import { CursorPaged, Paged } from './envelope.ts';
import { decimal, decimalOrEmpty, isoTime, shape, signedDecimal, whole } from './answers.ts';
import { PayoutHold } from './account-freeze.ts';

export const FUNDS_PAGE_SIZE = 20;
const page = v.optional(matching(/^[1-9]\d{0,5}$/, texts.invalidRequest), '1');
const id = (missing: MessageDescriptor = texts.orderNotFound) => matching(/^\d{1,9}$/, missing);

// ---- Recharge -------------------------------------------------------------------------------

export const CHANNEL_KINDS = ['crypto', 'bank'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** A way to pay in: a crypto address on a chain (shown as a QR code), or a bank account. */
export const RechargeChannel = shape({
  id: whole,
  kind: v.picklist(CHANNEL_KINDS),
  name: v.string(),
  /** What the amount is typed in: the coin for crypto, the bank's currency (THB) for a transfer. */
  currency: v.string(),
  /** What is credited: always USDT here. */
  asset: v.string(),
  chain: v.nullable(v.picklist(CHAINS)),
  /** Crypto: the deposit address; bank: the account number. */
  address: v.string(),
  bank_name: v.string(),
  account_name: v.string(),
  /** Units of `currency` per 1 `asset`, as it stands now (1 for USDT itself). */
  rate: decimal,
  min_amount: decimal,
});
export type RechargeChannel = v.InferOutput<typeof RechargeChannel>;
export const rechargeChannels = get('/pay/lists', NoInput, returns(Paged(RechargeChannel)), { cache: 'user' });

/** A crypto recharge names its transaction by a hash of at least 60 (HASH_MIN_LENGTH) letters and digits. */
export const HASH = new RegExp(`^[A-Za-z0-9]{${HASH_MIN_LENGTH},128}$`);
/**
 * One transaction, one spelling: a hex hash (EVM "0x…", TRON and Bitcoin txids) is kept in lower
 * case without its "0x" or "0X", so the same payment cannot be reported twice in another case.
 */
export const canonicalHash = (hash: string) =>
  /^(0x)?[0-9a-f]{64}$/i.test(hash) ? hash.replace(/^0x/i, '').toLowerCase() : hash;
const hash = v.pipe(matching(HASH, texts.hashFormat), v.transform(canonicalHash));
export const RechargeInput = v.variant(
  'kind',
  [
    v.object({
      kind: v.literal('crypto'),
      channel_id: id(texts.chooseChannel),
      amount,
      hash,
      /**
       * The deposit address the app showed the customer ('' from an app that sends none: the one shown now). Recorded
       * when it is the caller's under the channel's key, a key it held before, or the channel's one address, so a
       * transfer made before an operator changed the key is reviewed against where it went.
       */
      address: optionalMatching(/^[A-Za-z0-9]{20,100}$/, texts.depositAddressUnknown),
    }),
    v.object({
      kind: v.literal('bank'),
      channel_id: id(texts.chooseChannel),
      amount,
      proof: matching(UPLOAD_URL, texts.uploadProof),
    }),
  ],
  texts.chooseChannel.id,
);
export type RechargeInputType = v.InferInput<typeof RechargeInput>;

/** Pending, then success; or rejected with a reason. */
export const RECHARGE_STATUSES = ['pending', 'success', 'rejected'] as const;
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number];
export const RechargeOrder = shape({
  id: whole,
  order_no: v.string(),
  kind: v.picklist(CHANNEL_KINDS),
  channel_name: v.string(),
  chain: v.nullable(v.picklist(CHAINS)),
  /** The address or account the user paid to. */
  address: v.string(),
  currency: v.string(),
  amount: decimal,
  rate: decimal,
  asset: v.string(),
  /** What is (or will be) credited: amount ÷ rate, rounded down to 8 decimals. */
  actual_amount: decimal,
  hash: v.string(),
  proof: v.string(),
  block_height: v.string(),
  remark: v.string(),
  /** Why the operator rejected it (shown to the user). */
  reason: v.string(),
  status: v.picklist(RECHARGE_STATUSES),
  created_at: isoTime,
  reviewed_at: v.nullable(isoTime),
});
export type RechargeOrder = v.InferOutput<typeof RechargeOrder>;
export const submitRecharge = post('/pay/submit', RechargeInput, returns(RechargeOrder));

/** The record's filters: all, completed (reviewed: credited or rejected), unfinished (waiting for review). */
export const RECHARGE_FILTERS = ['all', 'completed', 'unfinished'] as const;
export type RechargeFilter = (typeof RECHARGE_FILTERS)[number];
/** Our additions: the caller's recharges, newest first, and one of them. */
export const rechargeRecords = get(
  '/pay/record',
  v.object({ status: v.optional(v.picklist(RECHARGE_FILTERS, texts.invalidRequest.id), 'all'), cursor }),
  returns(CursorPaged(RechargeOrder)),
  { cache: 'user' },
);
export const rechargeOrder = get('/pay/info', v.object({ id: id() }), returns(RechargeOrder), { cache: 'user' });

/** What a recharge credits: amount ÷ rate, rounded down to 8 decimals (never more than was paid). */
export function rechargeCredit(amount: string, rate: string): string {
  return new Big(amount).div(rate).round(8, Big.roundDown).toFixed(8);
}

// ---- Withdraw -------------------------------------------------------------------------------

export const WithdrawRule = shape({
  asset: v.string(),
  /** 0.01 = 1 % of the amount. */
  fee_rate: decimal,
  min_amount: decimal,
  max_amount: decimal,
  available: decimal,
});
export type WithdrawRule = v.InferOutput<typeof WithdrawRule>;
export const withdrawRule = get(
  '/users/extract/rate',
  v.object({ asset: v.optional(matching(/^[A-Z0-9]{2,10}$/, texts.invalidRequest), 'USDT') }),
  returns(WithdrawRule),
);

export const PAYEE_KINDS = ['bank', 'wallet'] as const;
export type PayeeKind = (typeof PAYEE_KINDS)[number];
export const WithdrawInput = v.object({
  target: v.picklist(['bank', 'wallet'], texts.choosePayee.id),
  /** Checked after the prompts for a missing card, wallet or payment password, so such a user hears that first. */
  target_id: v.optional(v.pipe(v.string(), v.trim(), v.regex(/^(\d{1,9})?$/, texts.payeeNotFound.id)), ''),
  amount,
  paypass: matching(PAY_PASSWORD, texts.enterPayPassword, texts.payPasswordFormat),
  /** The authenticator or recovery code, when the user has two-factor on. */
  otp,
});
export type WithdrawInputType = v.InferInput<typeof WithdrawInput>;

/** In review, then success or fail (with a reason; the frozen funds come back). */
export const WITHDRAW_STATUSES = ['review', 'success', 'fail'] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];
export const WithdrawOrder = shape({
  id: whole,
  order_no: v.string(),
  target: v.picklist(PAYEE_KINDS),
  asset: v.string(),
  amount: decimal,
  fee_rate: decimal,
  fee: decimal,
  /** What left the balance: amount + fee (frozen at once, paid out or returned on review). */
  total: decimal,
  /** What the payee receives. */
  actual_amount: decimal,
  payee_name: v.string(),
  /** Wallet address in full; a bank account number as "•••• 1234". */
  payee_account: v.string(),
  /** Bank name, or the wallet's chain. */
  payee_network: v.string(),
  /** Bank payouts are made in baht at the rate of the moment of the request. */
  fiat_currency: v.string(),
  fiat_rate: decimalOrEmpty,
  fiat_amount: decimalOrEmpty,
  status: v.picklist(WITHDRAW_STATUSES),
  reason: v.string(),
  /** The payout transaction, when the operator recorded it. */
  hash: v.string(),
  created_at: isoTime,
  reviewed_at: v.nullable(isoTime),
  /**
   * In review and held because the customer froze the account (null: nothing holds it). Said by one withdrawal's
   * details (`/users/extract/info`); lists and the request's answer leave it out.
   */
  held: v.optional(v.nullable(PayoutHold)),
});
export type WithdrawOrder = v.InferOutput<typeof WithdrawOrder>;
export const submitWithdraw = post('/users/extract', WithdrawInput, returns(WithdrawOrder));

/**
 * The record's filters: all; processing (waiting for review or being paid: status review); completed (reviewed:
 * succeeded or failed); and each status alone.
 */
export const WITHDRAW_FILTERS = ['all', 'processing', 'completed', 'review', 'success', 'fail'] as const;
export type WithdrawFilter = (typeof WITHDRAW_FILTERS)[number];
/** Our additions: the caller's withdrawals, newest first, and one of them. */
export const withdrawRecords = get(
  '/users/extract/record',
  v.object({ status: v.optional(v.picklist(WITHDRAW_FILTERS, texts.invalidRequest.id), 'all'), cursor }),
  returns(CursorPaged(WithdrawOrder)),
  { cache: 'user' },
);
export const withdrawOrder = get('/users/extract/info', v.object({ id: id() }), returns(WithdrawOrder), {
  cache: 'user',
});

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
  contract: [
    'contract_freeze',
    'contract_trade',
    'contract_cancel',
    'contract_void',
    'dust_hold',
    'dust_convert',
    'dust_return',
  ],
  points: ['points_redeem', 'points_closure'],
} as const satisfies Partial<Record<AccountFilter, readonly string[]>>;

export const AccountEntry = shape({
  id: whole,
  asset: v.string(),
  /** Signed: "+" credited to the available balance, "-" taken from it. */
  amount: signedDecimal,
  kind: v.string(),
  /** The business event: "recharge:12", "withdraw:3", "option:40"… */
  reference: v.string(),
  created_at: isoTime,
});
export type AccountEntry = v.InferOutput<typeof AccountEntry>;
/** A place in the account details: the ledger sequence number of the entry a page follows. */
export const LEDGER_CURSOR = /^\d{1,15}$/;
/**
 * Its filter is `setup`: the group of entries to list. Moves of the available balance only, newest first (in
 * the order they took effect). `before` (the `next` of the page before) asks the page after it by a cursor, which
 * entries added meanwhile cannot shift; `page` alone still counts pages from the newest. `next` is null on the last.
 */
export const accountEntries = get(
  '/users/account/lists',
  v.object({
    setup: v.optional(v.picklist(ACCOUNT_FILTERS, texts.invalidRequest.id), 'all'),
    page,
    before: v.optional(matching(LEDGER_CURSOR, texts.invalidRequest)),
  }),
  returns(
    Paged(AccountEntry, shape({ next: v.nullable(v.pipe(v.string(), v.regex(LEDGER_CURSOR), v.examples(['4821']))) })),
  ),
  { cache: 'user' },
);
/** A page of the account details, with the cursor of the next one (null on the last). */
export type AccountEntriesPage = Paged<AccountEntry> & { next: string | null };
