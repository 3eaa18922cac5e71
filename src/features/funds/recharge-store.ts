// Recharge (reviewed by an operator before it credits): the ways to pay in, reporting a payment (a crypto transaction
// hash, or a bank transfer with its receipt), the caller's recharge record and one order.
import { i18n } from '@lingui/core';
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  RECHARGE_FILTERS,
  RechargeInput,
  rechargeChannels,
  rechargeCredit,
  rechargeOrder,
  rechargeRecords,
  submitRecharge,
  type RechargeChannel,
  type RechargeFilter,
  type RechargeInputType,
  type RechargeOrder,
} from '../../api-contract/funds.ts';
import { api } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { isAmount } from './funds-format.ts';
import { cursorLists } from '../../lib/paged-list.ts';
import { writtenAmounts } from '../../lib/format.ts';

export const rechargeState = proxy({
  channels: [] as RechargeChannel[],
  channelsLoaded: false,
  /** Orders seen on this device by id: the details page shows them at once, then asks again. */
  details: {} as Record<number, RechargeOrder>,
});

export async function loadChannels(): Promise<void> {
  const { lists } = await api(rechargeChannels, undefined, { loading: !rechargeState.channelsLoaded });
  rechargeState.channels = lists;
  rechargeState.channelsLoaded = true;
}

/** What the typed amount credits in the channel's asset, or null while it is not an amount. */
export function creditPreview(amount: string, rate: string | undefined): string | null {
  if (!rate || !isAmount(amount) || new Big(rate).lte(0)) return null;
  return rechargeCredit(amount, rate);
}

/** The first rule a recharge breaks (the spec's texts, translated), or null. */
export function rechargeProblem(
  input: RechargeInputType,
  channel: Pick<RechargeChannel, 'min_amount' | 'currency'> | undefined,
): string | null {
  const problem = firstError(RechargeInput, input);
  if (problem) return problem;
  const outside = channel && amountOutsideLimits(input.amount, { min: channel.min_amount }, channel.currency);
  return outside ? i18n._(writtenAmounts(outside)) : null;
}

/** Reports the payment; it waits for an operator's review and nothing is credited before. */
export async function sendRecharge(input: RechargeInputType): Promise<RechargeOrder> {
  const order = await api(submitRecharge, input);
  rechargeState.details[order.id] = order;
  return order;
}

export async function loadRechargeOrder(id: number): Promise<void> {
  const order = await api(rechargeOrder, { id: String(id) }, { loading: !rechargeState.details[id] });
  rechargeState.details[id] = order;
}

/** The record: all, completed, unfinished, newest first, a page at a time (by cursor). */
export const rechargeRecord = cursorLists<RechargeOrder, RechargeFilter>(
  RECHARGE_FILTERS,
  async (status, cursor, loading) => {
    const answer = await api(rechargeRecords, { status, cursor }, { loading });
    for (const order of answer.lists) rechargeState.details[order.id] = order;
    return answer;
  },
  // A recharge shown below the head may be reviewed meanwhile: the pages shown are read again.
  { arrivals: () => 'anywhere' },
);

// Another session (logout, another user) must never see these orders.
subscribeKey(session, 'token', () => {
  rechargeState.details = {};
  // A crypto channel's address is the customer's own: another account must never be shown it, even offline.
  rechargeState.channels = [];
  rechargeState.channelsLoaded = false;
});
