// What each movement of money is called: every kind of ledger entry the server can post, and every asset of its own
// making (the liquidity and lock-up balances, points, the practice account), named once in the six languages. The
// server's posting functions take only a LedgerKind, so a new kind cannot be posted before it has a name here; the
// app's account details, the statement (and its CSV file), the point record and the console all read these names.
import type { MessageDescriptor } from '@lingui/core';
import { LIQUIDITY_ASSET, REGULAR_ASSET } from './earn.ts';
import { isPracticeAsset } from './practice.ts';
import { POINTS } from './rewards.ts';

/** The name of each kind of ledger entry, by kind (the `kind` column of the ledger and of the account details). */
export const LEDGER_KIND_LABELS = {
  recharge: /*i18n*/ { id: 'k.recharge', message: 'Recharge' },
  withdraw_freeze: /*i18n*/ { id: 'k.withdraw_freeze', message: 'Withdrawal' },
  withdraw_return: /*i18n*/ { id: 'k.withdraw_return', message: 'Withdrawal returned' },
  withdraw_paid: /*i18n*/ { id: 'k.withdraw_paid', message: 'Withdrawal paid out' },
  option_stake: /*i18n*/ { id: 'k.option_stake', message: 'Option purchase' },
  option_payout: /*i18n*/ { id: 'k.option_payout', message: 'Option settlement' },
  contract_freeze: /*i18n*/ { id: 'k.contract_freeze', message: 'Contract order placed' },
  contract_trade: /*i18n*/ { id: 'k.contract_trade', message: 'Contract order filled' },
  contract_cancel: /*i18n*/ { id: 'k.contract_cancel', message: 'Contract order revoked' },
  contract_void: /*i18n*/ { id: 'k.contract_void', message: 'Contract order void' },
  contract_expire: /*i18n*/ { id: 'k.contract_expire', message: 'Conditional contract order expired' },
  // A small balance converted to USDT (convertSmallBalances): held when asked, converted at the next recorded tick, or
  // returned when no tick came in time.
  dust_hold: /*i18n*/ { id: 'k.dust_hold', message: 'Small balance held for conversion' },
  dust_convert: /*i18n*/ { id: 'k.dust_convert', message: 'Small balance converted to USDT' },
  dust_return: /*i18n*/ { id: 'k.dust_return', message: 'Small balance conversion returned' },
  yuebao_in: /*i18n*/ { id: 'k.yuebao_in', message: 'Liquidity mining subscription' },
  yuebao_out: /*i18n*/ { id: 'k.yuebao_out', message: 'Liquidity mining redemption' },
  yuebao_interest: /*i18n*/ { id: 'k.yuebao_interest', message: 'Liquidity mining interest' },
  yuebao_payout: /*i18n*/ { id: 'k.yuebao_payout', message: 'Liquidity mining redemption paid' },
  lockup_subscribe: /*i18n*/ { id: 'k.lockup_subscribe', message: 'Lock-up subscription' },
  lockup_income: /*i18n*/ { id: 'k.lockup_income', message: 'Lock-up daily income' },
  lockup_end: /*i18n*/ { id: 'k.lockup_end', message: 'Lock-up ended: principal returned' },
  blind_box: /*i18n*/ { id: 'k.blind_box', message: 'Blind box' },
  points_redeem: /*i18n*/ { id: 'k.points_redeem', message: 'Points redeemed for USDT' },
  // Points below the redemption minimum, ended when the account closed (domain/closure.ts).
  points_closure: /*i18n*/ { id: 'k.points_closure', message: 'Points ended with the account' },
  // An available amount below the least balance a withdrawal of its asset takes (its minimum plus fee) that no order
  // could sell, ended (not paid out) when the account closed with the customer's consent (domain/closure-balances.ts).
  closure_balance: /*i18n*/ { id: 'k.closure_balance', message: 'Small balance ended with the account' },
  // The daily check-in's reward; the kind keeps its historical name, stored in every entry of it.
  sign_in: /*i18n*/ { id: 'k.sign_in', message: 'Daily check-in' },
  welfare: /*i18n*/ { id: 'k.welfare', message: 'Welfare reward' },
  // Paid to the inviter once per invited friend whose primary certification is verified (domain/referrals.ts).
  referral_reward: /*i18n*/ { id: 'k.referral_reward', message: 'Referral reward' },
  demo_grant: /*i18n*/ { id: 'k.demo_grant', message: 'Demo account grant' },
  test_credit: /*i18n*/ { id: 'k.test_credit', message: 'Test credit' },
  practice_grant: /*i18n*/ { id: 'k.practice_grant', message: 'Practice funds' },
  practice_reset: /*i18n*/ { id: 'k.practice_reset', message: 'Practice account reset' },
} as const satisfies Record<string, MessageDescriptor>;

/** A kind of ledger entry the server can post. */
export type LedgerKind = keyof typeof LEDGER_KIND_LABELS;
/** Every kind the server can post, in the order above. */
export const LEDGER_KINDS = Object.keys(LEDGER_KIND_LABELS) as LedgerKind[];
export const isLedgerKind = (kind: string): kind is LedgerKind => Object.hasOwn(LEDGER_KIND_LABELS, kind);

/** The ledger's own assets, which are no coin's code: the liquidity balance, the lock-up balance, points. */
export const ASSET_LABELS = {
  [LIQUIDITY_ASSET]: /*i18n*/ { id: 'k.asset.YUEBAO', message: 'Liquidity mining' },
  [REGULAR_ASSET]: /*i18n*/ { id: 'k.asset.REGULAR', message: 'Lock-up mining' },
  [POINTS]: /*i18n*/ { id: 'k.asset.POINT', message: 'Points' },
} as const satisfies Record<string, MessageDescriptor>;
/** A practice account's asset ('practice:USDT'), {0} the coin's code. */
export const PRACTICE_ASSET_LABEL = /*i18n*/ { id: 'k.asset.practice', message: '{0} (practice)' };

/** Turns a descriptor into the reader's language: i18n._ of Lingui in the app and the console. */
export type TranslateText = (text: MessageDescriptor & { values?: Record<string, string> }) => string;

/** An entry's kind in the reader's language; a kind this build does not know reads as the server names it. */
export function ledgerKindName(kind: string, translate: TranslateText): string {
  return isLedgerKind(kind) ? translate(LEDGER_KIND_LABELS[kind]) : kind;
}

/** An asset in the reader's language: a coin's code stays itself (USDT, BTC); the ledger's own assets get a name. */
export function assetName(asset: string, translate: TranslateText): string {
  if (isPracticeAsset(asset))
    return translate({ ...PRACTICE_ASSET_LABEL, values: { 0: assetName(asset.slice('practice:'.length), translate) } });
  return Object.hasOwn(ASSET_LABELS, asset) ? translate(ASSET_LABELS[asset as keyof typeof ASSET_LABELS]) : asset;
}
