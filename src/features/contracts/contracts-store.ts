// Coin-to-coin contracts: the pairs and their rules, the caller's amounts of the
// chosen pair, placing and revoking orders, the open orders of the trade screen and the order
// list (open or history, by pair). While open orders are on screen they are asked for again every
// few seconds, so a limit the feed crosses is seen filled (and told) without a reload.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import {
  CONTRACT_LISTS,
  PlaceContractInput,
  cancelContract,
  checkOrderRules,
  contractAmounts,
  contractOrders,
  contractPairs,
  fillAmounts,
  hasLimitPrice,
  hasTrigger,
  limitReserve,
  marketReserve,
  placeContract,
  type ContractList,
  type ContractOrder,
  type ContractPair,
  type FillAmounts,
  type OrderFields,
  type PairAmounts,
} from '../../api-contract/contracts.ts';
import { stopMarketReserve } from '../../api-contract/contract-triggers.ts';
import { texts } from '../../api-contract/texts.ts';
import { api } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { cursorLists } from '../../lib/paged-list.ts';
import { accountField, currentAccount, loadPractice, onAccountChange } from '../../lib/practice.ts';
import { session } from '../../lib/session.ts';
import { toast, type ToastText } from '../../lib/toast.ts';
import { firstError } from '../../lib/validate.ts';
import { formatPrice, formatQuantity } from '../../lib/format.ts';

export const DEFAULT_PAIR = 'BTC';

export const contractsState = proxy({
  /** The pair on the trade screen. */
  code: DEFAULT_PAIR,
  pairs: [] as ContractPair[],
  pairsLoaded: false,
  /** The caller's amounts per pair code (of the coin and of USDT). */
  amounts: {} as Record<string, PairAmounts>,
  /** The open orders of the pair on the trade screen, oldest first. */
  open: [] as ContractOrder[],
  openCode: null as string | null,
  openLoaded: false,
  /** The chart under the quote, opened on demand so the order form fits a phone's screen. */
  chartShown: false,
});

export async function loadPairs(): Promise<void> {
  const { lists } = await api(contractPairs, undefined, { loading: false });
  contractsState.pairs = lists;
  contractsState.pairsLoaded = true;
}

/** The amounts of the account traded with (an answer for the other, after a switch, is dropped). */
export async function loadAmounts(code: string): Promise<void> {
  const account = currentAccount();
  const amounts = await api(contractAmounts, { code, ...accountField(account) }, { loading: false });
  if (currentAccount() === account) contractsState.amounts[code] = amounts;
}

/** The open orders of one pair, for the trade screen; an order that left them meanwhile has filled or been revoked. */
export async function loadOpenOrders(code: string): Promise<void> {
  const account = currentAccount();
  const answer = await api(contractOrders, { status: 'open', code, ...accountField(account) }, { loading: false });
  if (contractsState.code !== code || currentAccount() !== account) return;
  const before = contractsState.openCode === code ? contractsState.open : [];
  const still = new Set(answer.lists.map((order) => order.id));
  // A market order's fill is told by awaitMarketFill, a revoke by the revoke itself.
  const gone = before.filter(
    (order) => !still.has(order.id) && !revoking.has(order.id) && !awaitingFill.has(order.id) && order.type === 'limit',
  );
  contractsState.open = answer.lists;
  contractsState.openCode = code;
  contractsState.openLoaded = true;
  if (gone.length) {
    // Filled by the matching job (a revoke made here is told by the revoke itself).
    for (const order of gone) toast(filledText(order), 3000);
    void loadAmounts(code).catch(() => undefined);
    void refreshBalancesOf(account).catch(() => undefined);
    refreshOrderList();
  }
}

/** The balances of `account` asked for again: the practice account's, or the real ones. */
const refreshBalancesOf = (account = currentAccount()) => (account === 'practice' ? loadPractice() : refreshBalances());

/** What a limit order filled by the matching job says: its quantity beside its coin ("0.001 BTC"). */
function filledText(order: Pick<ContractOrder, 'side' | 'code' | 'quantity'>): ToastText {
  const amount = formatQuantity(order.quantity);
  const parts = { amount: { amount, unit: order.code } };
  return order.side === 'buy'
    ? { message: msg`Limit buy of ${amount} filled`, parts }
    : { message: msg`Limit sell of ${amount} filled`, parts };
}

/** What the order form holds; empty strings for fields not used by the order's type. */
export type OrderForm = OrderFields;

/** The fields the server receives for a form: only those its type uses. */
export function orderInput(code: string, form: OrderForm) {
  const marketBuy = form.type === 'market' && form.side === 'buy';
  return {
    code,
    side: form.side,
    type: form.type,
    price: hasLimitPrice(form.type) ? form.price : '',
    quantity: marketBuy ? '' : form.quantity,
    total: marketBuy ? form.total : '',
    trigger_price: hasTrigger(form.type) ? (form.trigger_price ?? '') : '',
    take_profit: form.side === 'buy' ? (form.take_profit ?? '') : '',
    stop_loss: form.side === 'buy' ? (form.stop_loss ?? '') : '',
  };
}

/**
 * The first rule the order breaks (the spec's and the server's texts, translated), or null: the
 * fields, the pair's tick, step, band and minimum at the latest price, then what is available.
 */
export function orderProblem(
  code: string,
  form: OrderForm,
  pair: ContractPair | undefined,
  amounts: PairAmounts | undefined,
  lastPrice: string | undefined,
): string | null {
  const input = orderInput(code, form);
  const problem = firstError(PlaceContractInput, input);
  if (problem) return problem;
  if (!pair) return i18n._(texts.pairUnavailable);
  if (!lastPrice) return i18n._(texts.priceUnavailable);
  const checked = checkOrderRules(input, pair, lastPrice);
  if ('broken' in checked) {
    // A named descriptor: Lingui's extractor cannot read an object literal with a spread here.
    const text = { ...checked.broken.text, values: checked.broken.values };
    return i18n._(text);
  }
  if (
    amounts &&
    new Big(spendOf(code, form, pair, checked.quantity, lastPrice)).gt(
      form.side === 'buy' ? amounts.usdt_available : amounts.available,
    )
  ) {
    return i18n._(texts.insufficientBalance);
  }
  return null;
}

/** What placing the order takes from the available balance: USDT of a buy (what a limit or a market order freezes), the
 * coin of a sell. */
function spendOf(code: string, form: OrderForm, pair: ContractPair, quantity: string, lastPrice: string): string {
  if (form.side === 'sell') return quantity;
  if (hasLimitPrice(form.type)) return limitReserve('buy', code, form.price, quantity, pair.fee_rate).amount;
  if (form.type === 'stop_market')
    return stopMarketReserve('buy', code, form.trigger_price ?? '', quantity, pair.price_band).amount;
  return marketReserve('buy', code, lastPrice, quantity, form.total, pair.price_band).amount;
}

/**
 * What the order would bring at the price it would fill at (a limit at its price, a market order
 * at the latest price), for the form's summary; null while the fields do not make an order.
 */
export function orderPreview(
  code: string,
  form: OrderForm,
  pair: ContractPair | undefined,
  lastPrice: string | undefined,
): (FillAmounts & { quantity: string; price: string }) | null {
  if (!pair || !lastPrice) return null;
  const input = orderInput(code, form);
  if (firstError(PlaceContractInput, input)) return null;
  const checked = checkOrderRules(input, pair, lastPrice);
  const quantity = 'quantity' in checked ? checked.quantity : null;
  if (!quantity || new Big(quantity).eq(0)) return null;
  // A conditional order as it would fill once released: a stop-limit at its limit, a stop-market at its trigger.
  const price = hasLimitPrice(form.type) ? form.price : form.type === 'stop_market' ? input.trigger_price : lastPrice;
  const type = hasLimitPrice(form.type) ? 'limit' : 'market';
  return { ...fillAmounts(form.side, type, code, price, quantity, pair.fee_rate), quantity, price };
}

/**
 * The field value for a share (25, 50, 75, 100 %) of what is available: a buy's USDT (a market
 * buy's total; a limit buy's quantity at its price, leaving room for the fee), a sell's coins.
 */
export function shareOf(percent: number, form: OrderForm, pair: ContractPair, amounts: PairAmounts): string {
  const part = (value: string) => new Big(value).times(percent).div(100);
  if (form.side === 'sell')
    return part(amounts.available).round(pair.quantity_decimals, Big.roundDown).toFixed(pair.quantity_decimals);
  if (form.type === 'market') return part(amounts.usdt_available).round(2, Big.roundDown).toFixed(2);
  if (!form.price || new Big(form.price).lte(0)) return '';
  // price × quantity × (1 + fee) ≤ the share, less 3e-8: the reserve rounds the cost and the fee
  // up to 8 decimals (at most 1e-8 each, and the fee on the first), so it never asks for more.
  const room = part(amounts.usdt_available).minus('0.00000003');
  if (room.lte(0)) return new Big(0).toFixed(pair.quantity_decimals);
  return room
    .div(new Big(form.price).times(new Big(1).plus(pair.fee_rate)))
    .round(pair.quantity_decimals, Big.roundDown)
    .toFixed(pair.quantity_decimals);
}

/**
 * Places the order at the fee rate shown of its pair; an open limit, or a market order filling at the next recorded
 * price, joins the open orders; amounts and balances refresh. A market order's fill (or why it was void) is told by
 * awaitMarketFill. A refused or failed order reads the pairs again.
 */
export async function placeOrder(code: string, form: OrderForm): Promise<ContractOrder> {
  const input = orderInput(code, form);
  // The pair's fee rate shown goes with the order: an operator's change meanwhile refuses it, not charges another.
  const pair = contractsState.pairs.find((item) => item.code === code);
  const order = await api(placeContract, {
    ...input,
    ...(pair ? { fee_rate: pair.fee_rate } : {}),
    ...accountField(),
  }).catch((error: unknown) => {
    // A refusal may be about the pair as shown (closed, its fee changed): the pairs are read again.
    void loadPairs().catch(() => undefined);
    throw error;
  });
  // Its take-profit / stop-loss legs are orders of their own: the open orders are read again to show them.
  if (input.take_profit !== '' || input.stop_loss !== '') void loadOpenOrders(code).catch(() => undefined);
  if (
    (order.status === 'open' || order.status === 'filling' || order.status === 'waiting') &&
    contractsState.openCode === code &&
    !contractsState.open.some((item) => item.id === order.id)
  ) {
    contractsState.open = [...contractsState.open, order];
  }
  refreshOrderList();
  await Promise.all([loadAmounts(code), refreshBalancesOf(order.practice ? 'practice' : 'real')]).catch(
    () => undefined,
  );
  return order;
}

const FILL_POLL_MS = 400;
/** The fill comes at the next recorded price, about a second away; a void one after 10 s. Past this, the open orders
 * tell it. */
const FILL_WAIT_MS = 20_000;

/**
 * Asks for a market order until it has filled or is void (it shows "Filling…" meanwhile), then
 * refreshes amounts and lists and answers it; null if it is still filling after FILL_WAIT_MS.
 */
export async function awaitMarketFill(
  order: Pick<ContractOrder, 'id' | 'code' | 'practice'>,
): Promise<ContractOrder | null> {
  const account = order.practice ? 'practice' : 'real';
  awaitingFill.add(order.id);
  try {
    const until = Date.now() + FILL_WAIT_MS;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, FILL_POLL_MS));
      const { lists } = await api(
        contractOrders,
        { status: 'history', code: order.code, ...accountField(account) },
        { loading: false },
      ).catch(() => ({ lists: [] as ContractOrder[] }));
      const done = lists.find((item) => item.id === order.id);
      if (!done) continue;
      contractsState.open = contractsState.open.filter((item) => item.id !== order.id);
      refreshOrderList();
      await Promise.all([loadAmounts(order.code), refreshBalancesOf(account)]).catch(() => undefined);
      return done;
    }
    return null;
  } finally {
    awaitingFill.delete(order.id);
  }
}

/**
 * What a finished market order says: the fill (its quantity beside its coin, "Bought 0.001 BTC at 97,074.84", each
 * amount kept left to right in any language), or why it did not fill.
 */
export function marketOutcomeText(
  order: Pick<ContractOrder, 'status' | 'side' | 'code' | 'quantity' | 'unit_price' | 'void_reason'>,
  priceDecimals?: number,
): ToastText {
  if (order.status === 'void') {
    return order.void_reason === 'price_moved'
      ? t`Market order not filled: the next recorded price moved beyond what it held. Nothing was traded and your funds are released.`
      : t`Market order not filled: no price was recorded within 10 s of it. Nothing was traded and your funds are released.`;
  }
  const amount = formatQuantity(order.quantity);
  const price = formatPrice(order.unit_price ?? '0', priceDecimals);
  const parts = { amount: { amount, unit: order.code }, price: { amount: price, unit: '' } };
  return order.side === 'buy'
    ? { message: msg`Bought ${amount} at ${price}`, parts }
    : { message: msg`Sold ${amount} at ${price}`, parts };
}

const revoking = new Set<number>();
const awaitingFill = new Set<number>();

/**
 * Revokes an open order: what it froze returns. Refused (it filled a moment before, say), the order list is read
 * again, so the order shows as it now is rather than still open.
 */
export async function revokeOrder(order: Pick<ContractOrder, 'id' | 'code' | 'practice'>): Promise<void> {
  revoking.add(order.id);
  try {
    // Revoked or refused, the order list is read again.
    await api(cancelContract, { id: String(order.id) }).finally(refreshOrderList);
    contractsState.open = contractsState.open.filter((item) => item.id !== order.id);
    await Promise.all([loadAmounts(order.code), refreshBalancesOf(order.practice ? 'practice' : 'real')]).catch(
      () => undefined,
    );
  } finally {
    revoking.delete(order.id);
  }
}

/** A value of the order-list filter: every pair, or one. */
export const orderListFilter = proxy({ code: '' });

/**
 * The order list (/pages/contracts/orderList): open (oldest first) or history (newest first), of the chosen pair or
 * all, of the account traded with.
 */
export const contractOrderList = cursorLists<ContractOrder, ContractList>(
  CONTRACT_LISTS,
  (status, cursor, loading) =>
    api(contractOrders, { status, code: orderListFilter.code, cursor, ...accountField() }, { loading }),
  // Open orders are oldest first: a new one lands at the end. A limit order joins the history when it fills or is
  // cancelled, below orders placed after it.
  { arrivals: () => 'anywhere' },
);

/** Orders changed: the order list forgets its pages and, when it was showing one, loads it again. */
function refreshOrderList(): void {
  const { filter, lists } = contractOrderList.state;
  const shown = lists[filter].loaded;
  contractOrderList.reset();
  if (shown) void contractOrderList.load(filter).catch(() => undefined);
}

/** Forgets the amounts and open orders shown (those of another session or account). */
function forgetShown(): void {
  contractsState.amounts = {};
  contractsState.open = [];
  contractsState.openCode = null;
  contractsState.openLoaded = false;
}

// Another session (logout, another user) must never see these amounts and orders.
subscribeKey(session, 'token', forgetShown);
// A switch between Real and Practice: the other account's amounts and orders are read (the screens ask again).
onAccountChange(() => {
  forgetShown();
  contractOrderList.reset();
});
