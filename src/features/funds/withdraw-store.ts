// Withdraw: to a bank card (paid in baht) or a wallet. The payees and the
// rule of the asset (available, limits, fee rate), the fee / total / received figures shown before
// the request is sent, the three prompts (no payment password, no bank card, no wallet), the request,
// the record and one order.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import * as v from 'valibot';
import { i18n } from '@lingui/core';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { periodText } from '../../api-contract/period-text.ts';
import {
  WITHDRAW_FILTERS,
  WithdrawInput,
  submitWithdraw,
  withdrawFee,
  withdrawOrder,
  withdrawRecords,
  withdrawRule,
  type PayeeKind,
  type WithdrawFilter,
  type WithdrawInputType,
  type WithdrawOrder,
  type WithdrawRule,
} from '../../api-contract/funds.ts';
import { bankCards, coolingMs, usableBy, wallets, type BankCard, type Wallet } from '../../api-contract/payouts.ts';
import { PAY_PASSWORD } from '../../api-contract/fields.ts';
import { texts } from '../../api-contract/texts.ts';
import { api } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { isAmount } from './funds-format.ts';
import { cursorLists } from '../../lib/paged-list.ts';
import { writtenAmounts } from '../../lib/format.ts';

/** Bank payouts are made from the USDT balance (and paid in baht). */
export const BANK_ASSET = 'USDT';

export const withdrawState = proxy({
  target: 'bank' as PayeeKind,
  bankCards: [] as BankCard[],
  wallets: [] as Wallet[],
  payeesLoaded: false,
  /** When the payees' answer arrived (device ms): their cooling-off counts down from it. */
  payeesReceivedAt: 0,
  /** The payee chosen per target; null means the first one. */
  chosen: { bank: null as number | null, wallet: null as number | null },
  /** The rule of each asset, as the server last said it. */
  rules: {} as Record<string, WithdrawRule>,
  details: {} as Record<number, WithdrawOrder>,
});

export async function loadPayees(): Promise<void> {
  const [cards, addresses] = await Promise.all([
    api(bankCards, undefined, { loading: !withdrawState.payeesLoaded }),
    api(wallets, undefined, { loading: !withdrawState.payeesLoaded }),
  ]);
  // First opened on the target that has a payee: a customer with wallets alone starts on Wallet, not on the prompt to
  // bind a bank card.
  if (!withdrawState.payeesLoaded && cards.lists.length === 0 && addresses.lists.length > 0)
    withdrawState.target = 'wallet';
  withdrawState.bankCards = cards.lists;
  withdrawState.wallets = addresses.lists;
  withdrawState.payeesReceivedAt = Date.now();
  withdrawState.payeesLoaded = true;
}

export async function loadRule(asset: string): Promise<void> {
  withdrawState.rules[asset] = await api(withdrawRule, { asset }, { loading: !withdrawState.rules[asset] });
}

type Payees = {
  readonly bankCards: readonly BankCard[];
  readonly wallets: readonly Wallet[];
  readonly chosen: { readonly bank: number | null; readonly wallet: number | null };
};

/** The chosen bank card, or the first one. */
export const chosenCard = (state: Payees) =>
  state.bankCards.find((card) => card.id === state.chosen.bank) ?? state.bankCards[0];
/** The chosen wallet, or the first one. */
export const chosenWallet = (state: Payees) =>
  state.wallets.find((wallet) => wallet.id === state.chosen.wallet) ?? state.wallets[0];

/** What leaves the balance: USDT for a bank payout, the wallet's own currency for a wallet. */
export const assetFor = (target: PayeeKind, wallet: Pick<Wallet, 'currency'> | undefined) =>
  target === 'bank' ? BANK_ASSET : wallet?.currency;

export type WithdrawPrompt = 'noPayPassword' | 'noBankCard' | 'noWallet';
export const PROMPTS = ['noPayPassword', 'noBankCard', 'noWallet'] as const satisfies readonly WithdrawPrompt[];

/** What the user must set up before withdrawing, first things first (the payment password, then the card or wallet
 * of the chosen target); null when nothing is missing. */
export function withdrawPrompt(facts: {
  hasPayPassword: boolean;
  target: PayeeKind;
  bankCards: number;
  wallets: number;
}): WithdrawPrompt | null {
  if (!facts.hasPayPassword) return 'noPayPassword';
  if (facts.target === 'bank' && facts.bankCards === 0) return 'noBankCard';
  if (facts.target === 'wallet' && facts.wallets === 0) return 'noWallet';
  return null;
}

/** The prompt the server's answer stands for (it answers in the app's language), or null. */
export const promptForAnswer = (message: string): WithdrawPrompt | null =>
  PROMPTS.find((prompt) => i18n._(texts[prompt]) === message) ?? null;

export interface WithdrawQuote {
  amount: string;
  fee: string;
  /** What leaves the balance: amount + fee. */
  total: string;
  /** What the payee receives: the amount itself. */
  actual: string;
}

/** The figures shown before the request is sent, or null while the amount is not an amount. */
export function withdrawQuote(amount: string, feeRate: string | undefined): WithdrawQuote | null {
  if (feeRate === undefined || !isAmount(amount)) return null;
  const fee = withdrawFee(amount, feeRate);
  const exact = new Big(amount).toFixed(8);
  return { amount: exact, fee, total: new Big(amount).plus(fee).toFixed(8), actual: exact };
}

/** The largest amount whose total (amount + fee, the fee rounded up) fits the available balance and the maximum. */
export function maxWithdrawable(rule: Pick<WithdrawRule, 'available' | 'fee_rate' | 'max_amount'>): string {
  const available = new Big(rule.available);
  if (available.lte(0)) return '0';
  const step = new Big('0.00000001');
  let amount = available.div(new Big(1).plus(rule.fee_rate)).round(8, Big.roundDown);
  while (amount.gt(0) && amount.plus(withdrawFee(amount.toFixed(8), rule.fee_rate)).gt(available))
    amount = amount.minus(step);
  if (amount.gt(rule.max_amount)) amount = new Big(rule.max_amount);
  return amount.gt(0) ? amount.toFixed() : '0';
}

/**
 * What stays in the balance when `amount` is withdrawn and it is the Max (maxWithdrawable) of `rule`, neither capped
 * by the maximum nor below the minimum: the available balance less the amount and its fee, as a decimal string of 8
 * decimals, or null when nothing stays (or `amount` is not the Max). Something stays only when no amount plus its fee
 * equals the balance exactly: the fee is rounded up to 8 decimals, so at some amounts one more 0.00000001 of amount
 * adds 0.00000001 of fee too and the total steps over the balance, leaving exactly 0.00000001 (about 1 balance in 100
 * at a 1 % fee rate).
 */
export function leftAfterMax(
  rule: Pick<WithdrawRule, 'available' | 'fee_rate' | 'min_amount' | 'max_amount'>,
  amount: string,
): string | null {
  if (!isAmount(amount)) return null;
  const max = maxWithdrawable(rule);
  if (!new Big(amount).eq(max) || new Big(max).lt(rule.min_amount) || new Big(max).gte(rule.max_amount)) return null;
  const left = new Big(rule.available).minus(max).minus(withdrawFee(max, rule.fee_rate));
  return left.gt(0) ? left.toFixed(8) : null;
}

/** The form without the password: the amount's rules are told before the password is asked for. */
const WithdrawForm = v.omit(WithdrawInput, ['paypass']);

/** The payee chosen and when its list arrived (device ms): a payee still cooling off is refused as the server would. */
export interface ChosenPayee {
  payee: Pick<BankCard, 'created_at' | 'usable_at' | 'cooling_seconds'>;
  receivedAt: number;
}

/** The first rule the request breaks (the product's texts, translated), or null. The missing-setup prompts are
 * checked before. */
export function withdrawProblem(
  input: WithdrawInputType,
  rule: WithdrawRule | undefined,
  chosen?: ChosenPayee,
  now = Date.now(),
): string | null {
  const problem = firstError(WithdrawForm, input);
  if (problem) return problem;
  if (!input.target_id) return i18n._(texts.choosePayee);
  // The server refuses a payee still cooling off with the same text.
  if (chosen && usableBy(chosen.payee, chosen.receivedAt) > now) {
    const period = periodText(coolingMs(chosen.payee), intlLocale(currentLocale()));
    // Named first: Lingui's extractor cannot read a spread inside i18n._().
    const cooling = { ...texts.payeeCooling, values: { 0: period } };
    return i18n._(cooling);
  }
  if (rule) {
    const outside = amountOutsideLimits(input.amount, { min: rule.min_amount, max: rule.max_amount }, rule.asset);
    if (outside) return i18n._(writtenAmounts(outside));
    if (new Big(input.amount).plus(withdrawFee(input.amount, rule.fee_rate)).gt(rule.available))
      return i18n._(texts.insufficientBalance);
  }
  const password = firstError(WithdrawInput, input);
  if (password) return password;
  if (!PAY_PASSWORD.test(input.paypass.trim())) return i18n._(texts.payPasswordFormat);
  return null;
}

/** Sends the request: amount + fee are frozen at once, paid out or returned on review. */
export async function sendWithdraw(input: WithdrawInputType): Promise<WithdrawOrder> {
  const order = await api(submitWithdraw, input);
  withdrawState.details[order.id] = order;
  await Promise.all([refreshBalances(), loadRule(order.asset)]).catch(() => undefined);
  return order;
}

export async function loadWithdrawOrder(id: number): Promise<void> {
  withdrawState.details[id] = await api(withdrawOrder, { id: String(id) }, { loading: !withdrawState.details[id] });
}

/** The record: all, in review, succeeded, failed, newest first, a page at a time (by cursor). */
export const withdrawRecord = cursorLists<WithdrawOrder, WithdrawFilter>(
  WITHDRAW_FILTERS,
  async (status, cursor, loading) => {
    const answer = await api(withdrawRecords, { status, cursor }, { loading });
    for (const order of answer.lists) withdrawState.details[order.id] = order;
    return answer;
  },
  // A withdrawal shown below the head may be reviewed meanwhile: the pages shown are read again.
  { arrivals: () => 'anywhere' },
);

// Another session (logout, another user) must never see these payees, balances or orders.
subscribeKey(session, 'token', () => {
  Object.assign(withdrawState, {
    bankCards: [],
    wallets: [],
    payeesLoaded: false,
    chosen: { bank: null, wallet: null },
    rules: {},
    details: {},
  });
});
