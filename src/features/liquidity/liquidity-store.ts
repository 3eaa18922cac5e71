// Liquidity mining: the product and its ladder, the caller's liquidity
// balance, what a subscription or a redemption can use, the checks made before anything is sent,
// subscribing and redeeming (quick or standard), and the record. Figures stay null until the server
// (or the service worker's copy of its answer) has said them: a screen shows "—", never an invented 0.
import Big from 'big.js';
import * as v from 'valibot';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import { addDays, earnBalance, type InterestDay } from '../../api-contract/earn.ts';
import {
  LIQUIDITY_FILTERS,
  dailyInterest,
  liquidityProduct,
  liquidityRecords,
  liquidityRule,
  transferIn,
  transferInInfo,
  transferOut,
  transferOutInfo,
  type LadderTier,
  type LiquidityBalance,
  type LiquidityFilter,
  type LiquidityProduct,
  type LiquidityRecord,
  type RedeemMode,
  type TransferInInfo,
  type TransferOutInfo,
} from '../../api-contract/liquidity.ts';
import { AMOUNT, amount as amountField } from '../../api-contract/markets.ts';
import { texts } from '../../api-contract/texts.ts';
import { ApiError, api } from '../../lib/api.ts';
import { USDT, refreshBalances } from '../../lib/balances.ts';
import { cursorLists } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { writtenAmounts } from '../../lib/format.ts';

interface Figures {
  product: LiquidityProduct | null;
  /** The rule page's answer (/yuebao/rule): the same figures as the product. */
  rule: LiquidityProduct | null;
  balance: LiquidityBalance | null;
  subscribeInfo: TransferInInfo | null;
  redeemInfo: TransferOutInfo | null;
}

const noFigures = (): Figures => ({ product: null, rule: null, balance: null, subscribeInfo: null, redeemInfo: null });

interface Draft {
  subscribe: string;
  redeem: string;
  mode: RedeemMode;
}
const noDraft = (): Draft => ({ subscribe: '', redeem: '', mode: 'quick' });

export const liquidityState = proxy<Figures & { draft: Draft }>({
  ...noFigures(),
  /** What the forms hold, kept while the user looks at the confirmation and comes back to change it. */
  draft: noDraft(),
});

const latest: Record<keyof Figures, number> = { product: 0, rule: 0, balance: 0, subscribeInfo: 0, redeemInfo: 0 };

/**
 * Asks for one figure; the mask shows only while it is still unknown. An answer overtaken by a
 * newer request, or meant for another session, is dropped.
 */
async function fetchFigure<K extends keyof Figures>(
  key: K,
  ask: (loading: boolean) => Promise<NonNullable<Figures[K]>>,
): Promise<void> {
  const request = ++latest[key];
  const token = session.token;
  const answer = await ask(liquidityState[key] === null);
  if (request !== latest[key] || token !== session.token) return;
  (liquidityState as Figures)[key] = answer;
}

export const loadProduct = () => fetchFigure('product', (loading) => api(liquidityProduct, undefined, { loading }));
export const loadRule = () => fetchFigure('rule', (loading) => api(liquidityRule, undefined, { loading }));
export const loadSubscribeInfo = () =>
  fetchFigure('subscribeInfo', (loading) => api(transferInInfo, undefined, { loading }));
export const loadRedeemInfo = () =>
  fetchFigure('redeemInfo', (loading) => api(transferOutInfo, undefined, { loading }));
export const loadBalance = () =>
  fetchFigure('balance', async (loading) => {
    const answer = await api(earnBalance, { type: 'liquidity' }, { loading });
    if (answer.type !== 'liquidity') throw new ApiError(i18n._(texts.unknownError));
    return answer;
  });

/** A typed amount the API contract accepts and that is above zero. */
export const isAmount = (value: string) => AMOUNT.test(value.trim()) && new Big(value.trim()).gt(0);

/** Money subscribed on an interest day earns from the next one. */
export const earningStartsOn = (today: InterestDay): InterestDay => addDays(today, 1);

/** A standard redemption made today is paid at the end of this interest day. */
export const standardPayDay = (product: Pick<LiquidityProduct, 'today' | 'standard_payout_days'>): InterestDay =>
  addDays(product.today, product.standard_payout_days);

/** What the estimates read of a product (a snapshot's readonly copy will do). */
interface Ladders {
  readonly ladder: readonly LadderTier[];
  readonly next_ladder: readonly LadderTier[] | null;
}

/** The ladder new money first earns with: tomorrow's when published, else today's. */
export const startingLadder = (product: Ladders): readonly LadderTier[] => product.next_ladder ?? product.ladder;

/**
 * One day's interest on the liquidity balance once `amount` is added (dailyInterest of the
 * contract), or null while the amount, the balance or the ladder is unknown.
 */
export function estimatedDailyInterest(
  amount: string,
  principal: string | null | undefined,
  product: Ladders | null,
): string | null {
  if (!isAmount(amount) || principal === null || principal === undefined || !product) return null;
  const ladder = startingLadder(product);
  if (ladder.length === 0) return null;
  return dailyInterest(new Big(principal).plus(amount.trim()).toFixed(8), ladder);
}

const SubscribeForm = v.object({ amount: amountField });

/** The first rule a subscription breaks (the spec's texts, translated), or null. */
export function subscribeProblem(
  amount: string,
  info: Pick<TransferInInfo, 'usdt_available' | 'min_amount'> | null,
): string | null {
  const problem = firstError(SubscribeForm, { amount });
  if (problem) return problem;
  const value = new Big(amount.trim());
  if (info) {
    const outside = amountOutsideLimits(amount.trim(), { min: info.min_amount }, USDT);
    if (outside) return i18n._(writtenAmounts(outside));
    if (value.gt(info.usdt_available)) return i18n._(texts.insufficientBalance);
  } else if (value.lte(0)) return i18n._(texts.amountFormat);
  return null;
}

/** The first rule a redemption breaks, or null. Quick redemption is capped at 30,000,000 USDT a day. */
export function redeemProblem(amount: string, mode: string, info: TransferOutInfo | null): string | null {
  const problem = firstError(transferOut.input, { amount, mode });
  if (problem) return problem;
  const value = new Big(amount.trim());
  if (value.lte(0)) return i18n._(texts.amountFormat);
  if (info) {
    if (value.gt(info.redeemable)) return i18n._(texts.insufficientBalance);
    if (mode === 'quick' && value.gt(info.quick_remaining)) {
      const values = { 0: new Big(info.quick_daily_max), 1: new Big(info.quick_remaining) };
      return i18n._(writtenAmounts({ ...texts.quickRedeemLimit, values }));
    }
  }
  return null;
}

/** A mode named in a query, or null when it names none. */
export const redeemModeOf = (value: string | null): RedeemMode | null =>
  value === 'quick' || value === 'standard' ? value : null;

/** Subscribes `amount` USDT: it leaves the available balance at once and earns from the next interest day. */
export async function subscribeLiquidity(amount: string): Promise<LiquidityRecord> {
  const record = await api(transferIn, { amount: amount.trim() });
  liquidityState.draft.subscribe = '';
  await afterMove();
  return record;
}

/** Redeems `amount`: quick into the available balance now, standard paid at the end of the next interest day. */
export async function redeemLiquidity(amount: string, mode: RedeemMode): Promise<LiquidityRecord> {
  const record = await api(transferOut, { amount: amount.trim(), mode });
  liquidityState.draft.redeem = '';
  await afterMove();
  return record;
}

/** After money moved: the figures and balances again, and the record from its first page next time. */
async function afterMove(): Promise<void> {
  liquidityRecord.reset();
  await Promise.allSettled([loadBalance(), loadSubscribeInfo(), loadRedeemInfo(), refreshBalances()]);
}

/** The record: all, subscriptions, redemptions, interest, newest first, a page at a time (by cursor). */
export const liquidityRecord = cursorLists<LiquidityRecord, LiquidityFilter>(
  LIQUIDITY_FILTERS,
  (kind, cursor, loading) => api(liquidityRecords, { kind, cursor }, { loading }),
  // A standard redemption shown below the head is waiting, then confirmed later: the pages shown are read again.
  { arrivals: () => 'anywhere' },
);

// Another session (logout, another user) must never see these figures.
subscribeKey(session, 'token', () => {
  for (const key of Object.keys(latest) as (keyof Figures)[]) latest[key] += 1;
  Object.assign(liquidityState, noFigures(), { draft: noDraft() });
});
