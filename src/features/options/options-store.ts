// Short-term options (settled at expiry): products per coin, placing an order, the pending and settled
// lists with paging, one order's details and the totals. Watches pending orders: once one is due
// on the server's clock it is asked for every second until settled, then it moves to the record,
// the balance is refreshed and the result is told.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import * as v from 'valibot';
import {
  PlaceOptionInput,
  belowOptionMinimum,
  optionOrder,
  optionOrders,
  optionProducts,
  optionTotals,
  placeOption,
  type OptionOrder,
  type OptionProduct,
  type OptionTotals,
} from '../../api-contract/options.ts';
import { MIN_OPTION_USDT } from '../../api-contract/constants.ts';
import { texts } from '../../api-contract/texts.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { accountField, currentAccount, loadPractice, onAccountChange } from '../../lib/practice.ts';
import { plainText, toast, type ToastMessage } from '../../lib/toast.ts';
import { firstError } from '../../lib/validate.ts';
import { prices } from '../../lib/prices.ts';
import { knownOffline, offlineData } from '../../lib/offline.ts';
import { session } from '../../lib/session.ts';
import { readToDepth, withHead, withPage } from '../../lib/paged-list.ts';
import { formatSignedUsdt, formatUsdt } from './option-format.ts';
import { remainingMs, serverNow, syncClockFromOrder, syncClockFromPlacement } from './server-clock.ts';

export type OrderTab = 'holding' | 'history';
export const DEFAULT_COIN = 'BTC';

interface OrderList {
  lists: OptionOrder[];
  /** Where "Load more" continues; null once the list has ended. */
  next: string | null;
  /** The whole list's size, as the server counted it (the holdings' badge). */
  total: number;
  loaded: boolean;
  /** What the last read of the list said when it failed (offline: the offline text); null once one is answered. */
  failure: string | null;
}
const emptyList = (): OrderList => ({ lists: [], next: null, total: 0, loaded: false, failure: null });

export const optionsState = proxy({
  coin: DEFAULT_COIN,
  /** The chosen expiry, kept when the coin changes. */
  minutes: null as number | null,
  tab: 'holding' as OrderTab,
  products: {} as Record<string, OptionProduct[]>,
  holding: emptyList(),
  history: emptyList(),
  details: {} as Record<number, OptionOrder>,
  totals: null as OptionTotals | null,
});

export async function loadProducts(code: string): Promise<void> {
  const { lists } = await api(optionProducts, { code }, { loading: false });
  optionsState.products[code] = lists;
}

/**
 * Reads the list's head (the history again as deep as it was shown, since an order placed earlier may settle after
 * newer ones and join it below its head; the holdings, sorted by end time, start again); `more` adds the next page.
 * The lists are those of the account traded with. A failed read is kept as the list's `failure` (the list says it in
 * its place, as the other lists do) and rejects.
 */
export async function loadOrders(status: OrderTab, { more = false } = {}): Promise<void> {
  const before = new Set(optionsState.holding.lists.map((order) => order.id));
  const account = currentAccount();
  const token = session.token;
  const cursor = more ? optionsState[status].next : '';
  if (cursor === null) return;
  const read = (next: string) =>
    api(optionOrders, { status, cursor: next, ...accountField(account) }, { loading: false });
  // Switched meanwhile (the other account, another session): those lists are being read.
  const switched = () => currentAccount() !== account || session.token !== token;
  let answer: Awaited<ReturnType<typeof read>>;
  try {
    answer =
      !more && status === 'history' && optionsState.history.loaded
        ? await readToDepth(read, optionsState.history.lists.length)
        : await read(cursor);
  } catch (error) {
    if (!switched()) optionsState[status].failure = errorText(error);
    throw error;
  }
  if (switched()) return;
  const receivedAt = Date.now();
  const list = optionsState[status];
  const merged = more ? withPage(list, answer) : withHead(list, answer, 'anywhere');
  let lists = merged.lists;
  let total = answer.total;
  const complete = status === 'holding' && !more && answer.next === null;
  const listed = new Set(answer.lists.map((order) => order.id));
  if (complete) {
    // An order placed while the answer was on its way is not in it yet: it cannot have settled
    // before its end time, so it stays.
    const now = serverNow();
    const newer = Object.values(optionsState.details).filter(
      (order) =>
        !listed.has(order.id) &&
        ofAccountShown(order, account) &&
        (order.status === 'opening' ||
          (order.status === 'holding' && order.end_at !== null && remainingMs(order.end_at, now) > 0)),
    );
    lists = [...lists, ...newer].sort(byEndTime);
    total += newer.length;
  }
  list.lists = lists;
  list.next = merged.next;
  list.total = total;
  list.loaded = true;
  list.failure = null;
  for (const order of answer.lists) remember(order, receivedAt);
  if (complete) {
    // An order that left the pending list settled meanwhile: fetch it so its result is told.
    for (const id of before) if (!listed.has(id) && !lists.some((order) => order.id === id)) void pollOrder(id);
  }
}

/** Opening orders (no end time yet) first, then the soonest to end, as the server lists them. */
const byEndTime = (a: OptionOrder, b: OptionOrder) => (a.end_at ?? '').localeCompare(b.end_at ?? '') || a.id - b.id;

const pending = (order: Pick<OptionOrder, 'status'>) => order.status === 'opening' || order.status === 'holding';

export { hasMore } from '../../lib/paged-list.ts';

export function loadMore(status: OrderTab): Promise<void> {
  return loadOrders(status, { more: true });
}

export async function loadTotals(): Promise<void> {
  const account = currentAccount();
  const token = session.token;
  const totals = await api(optionTotals, accountField(account), { loading: false });
  if (currentAccount() === account && session.token === token) optionsState.totals = totals;
}

/** Whether an order belongs to the lists of `account` (by default the one traded with). */
const ofAccountShown = (order: Pick<OptionOrder, 'practice'>, account = currentAccount()) =>
  order.practice ? account === 'practice' : account === 'real';

/** The balance an order's stake came from, asked for again. */
const refreshBalanceOf = (order: Pick<OptionOrder, 'practice'>) =>
  order.practice ? loadPractice() : refreshBalances();

// The lists and totals shown are those of one account: a switch empties them (the page reads the other's).
onAccountChange(() => {
  optionsState.holding = emptyList();
  optionsState.history = emptyList();
  optionsState.totals = null;
});

// Another session (signed out, another customer on this device) must never see these orders: the lists, the totals
// and every order kept (whose pending ones would join the next customer's holdings) are forgotten, as the token
// changes (in sync), so nothing the new session reads is forgotten after it.
subscribeKey(
  session,
  'token',
  () => Object.assign(optionsState, { holding: emptyList(), history: emptyList(), totals: null, details: {} }),
  true,
);

export async function loadOrder(id: number): Promise<void> {
  const token = session.token;
  const order = await api(optionOrder, { id: String(id) }, { loading: !optionsState.details[id] });
  if (session.token === token) remember(order, Date.now());
}

/**
 * Keeps the latest answer for an order; one that opened replaces its "Opening…" entry in the
 * pending list, one that turns from pending to settled is announced once.
 */
function remember(order: OptionOrder, receivedAt: number): void {
  const known = optionsState.details[order.id];
  const wasPending = (known && pending(known)) || optionsState.holding.lists.some((item) => item.id === order.id);
  optionsState.details[order.id] = order;
  syncClockFromOrder(order, receivedAt);
  if (order.status === 'settled' && wasPending) settled(order);
  else if (order.status === 'holding') {
    const holding = optionsState.holding;
    const listedOpening = holding.lists.some((item) => item.id === order.id && item.status === 'opening');
    if (listedOpening)
      holding.lists = holding.lists.map((item) => (item.id === order.id ? order : item)).sort(byEndTime);
  }
}

export type PlaceInput = v.InferInput<typeof PlaceOptionInput>;

/**
 * The first rule the order breaks (the spec's text, translated), or null. A balance not known yet (null: the first
 * answer still on its way) is left to the server to judge, never taken for zero.
 */
export function orderProblem(
  input: PlaceInput,
  product: OptionProduct | undefined,
  available: string | null,
): string | null {
  const problem = firstError(PlaceOptionInput, input);
  if (problem) return problem;
  const belowMinimum = belowOptionMinimum(input.amount, product?.min_amount ?? MIN_OPTION_USDT);
  if (belowMinimum) return i18n._(belowMinimum);
  if (available !== null && new Big(input.amount).gt(available)) return i18n._(texts.insufficientBalance);
  return null;
}

/**
 * Places the order with the account traded with; the stake leaves its balance at once and the order joins the
 * pending list. A refused or failed order reads the coin's products again (the refusal may be about them).
 */
export async function placeOrder(input: PlaceInput): Promise<OptionOrder> {
  const order = await api(placeOption, { ...input, ...accountField() }).catch((error: unknown) => {
    // A refusal may be about the products as shown (one switched off, a yield changed): they are read again.
    void loadProducts(input.code).catch(() => undefined);
    throw error;
  });
  syncClockFromPlacement(order);
  remember(order, Date.now());
  const holding = optionsState.holding;
  if (ofAccountShown(order) && !holding.lists.some((item) => item.id === order.id)) {
    holding.lists = [...holding.lists, order].sort(byEndTime);
    holding.total += 1;
  }
  optionsState.tab = 'holding';
  await Promise.all([refreshBalanceOf(order), loadTotals()]).catch(() => undefined);
  return order;
}

const polling = new Set<number>();
const lastPoll = new Map<number, number>();
/**
 * Per order waiting for its start price: the time (ms since 1970) of its coin's latest streamed tick when it was last
 * asked for. Only a tick newer than that one can have brought its start price: the same tick seen again (the stream
 * is down, the prices on screen are those kept from before) is no reason to ask again.
 */
const tickAtLastPoll = new Map<number, number>();
const POLL_EVERY_MS = 1000;

/** Asks for one order again; a settled answer moves it to the record (see remember). `tickAt`: as tickAtLastPoll. */
async function pollOrder(id: number, tickAt?: number): Promise<void> {
  if (polling.has(id)) return;
  polling.add(id);
  lastPoll.set(id, Date.now());
  if (tickAt !== undefined) tickAtLastPoll.set(id, tickAt);
  try {
    const token = session.token;
    const order = await api(optionOrder, { id: String(id) }, { loading: false });
    if (session.token === token) remember(order, Date.now());
  } catch {
    // Asked again on the next second.
  } finally {
    polling.delete(id);
  }
}

function settled(order: OptionOrder): void {
  const holding = optionsState.holding;
  if (holding.lists.some((item) => item.id === order.id)) {
    holding.lists = holding.lists.filter((item) => item.id !== order.id);
    holding.total = Math.max(0, holding.total - 1);
  }
  const history = optionsState.history;
  if (history.loaded && ofAccountShown(order) && !history.lists.some((item) => item.id === order.id)) {
    history.lists = [order, ...history.lists];
    history.total += 1;
  }
  lastPoll.delete(order.id);
  tickAtLastPoll.delete(order.id);
  void refreshBalanceOf(order).catch(() => undefined);
  void loadTotals().catch(() => undefined);
  const result = outcomeText(order);
  const outcome = plainText(result);
  toast(order.practice ? { message: msg`Practice: ${outcome}`, parts: { outcome: result } } : result, 3000);
}

/**
 * What the toast says when an order settles: its coin, the outcome and the USDT won, lost or returned, the amount kept
 * beside its unit in any language ("+8.00 USDT").
 */
export function outcomeText(order: OptionOrder): ToastMessage {
  const code = order.code;
  const usdt = (amount: string) => ({ amount, unit: 'USDT' });
  if (order.outcome === 'win') {
    const profit = formatSignedUsdt(order.profit ?? '0');
    return { message: msg`${code} option won: ${profit}`, parts: { profit: usdt(profit) } };
  }
  const amount = formatUsdt(order.amount);
  const parts = { amount: usdt(amount) };
  if (order.outcome === 'tie')
    return { message: msg`${code} option closed at the same price: ${amount} returned`, parts };
  if (order.outcome === 'void' && order.start_price === null)
    return { message: msg`${code} option void, no market price after the order: ${amount} returned`, parts };
  if (order.outcome === 'void')
    return { message: msg`${code} option void, no market price at its end time: ${amount} returned`, parts };
  const loss = formatSignedUsdt(order.profit ?? new Big(order.amount).neg().toFixed());
  return { message: msg`${code} option lost: ${loss}`, parts: { loss: usdt(loss) } };
}

/** Pending orders this device knows of: the list and any opened on the details page. */
function pendingOrders(): OptionOrder[] {
  const byId = new Map<number, OptionOrder>();
  for (const order of optionsState.holding.lists) byId.set(order.id, order);
  for (const order of Object.values(optionsState.details)) if (pending(order)) byId.set(order.id, order);
  return [...byId.values()];
}

const WATCH_TICK_MS = 250;
/**
 * While the app knows itself offline but the browser says online (a network that answers nothing), a pending order is
 * asked for at most this often, to find the network back; with the browser offline it is not asked for at all: its
 * `online` event resumes the asking at once.
 */
const OFFLINE_POLL_EVERY_MS = 10_000;
/** Pending orders are re-read now and then: orders placed elsewhere, a clock that drifted. */
const RESYNC_EVERY_MS = 15_000;
let watchers = 0;
let watchTimer: ReturnType<typeof setInterval> | undefined;
let stopOnlineWatch: (() => void) | undefined;
let lastResync = 0;

/** The browser says it has no network: nothing sent can arrive. */
const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

function watchTick(): void {
  if (browserOffline()) return;
  const offline = knownOffline();
  const now = serverNow();
  for (const listed of pendingOrders()) {
    const order = optionsState.details[listed.id] ?? listed;
    if (order.status === 'settled') continue;
    const since = Date.now() - (lastPoll.get(order.id) ?? 0);
    if (offline) {
      if (since >= OFFLINE_POLL_EVERY_MS && (order.end_at === null || remainingMs(order.end_at, now) <= 0))
        void pollOrder(order.id);
      continue;
    }
    if (order.status === 'opening' || order.end_at === null) {
      // Its start price is the first tick after it was accepted: asked for as soon as the stream brings one newer than
      // the one seen when it was last asked for, and every second anyway (a stream that is off, an order that goes
      // void).
      const streamed = prices.quotes[order.code]?.at;
      const tickAt = streamed === undefined ? Number.NaN : Date.parse(streamed);
      const newTick = tickAt > Date.parse(order.start_at) && tickAt > (tickAtLastPoll.get(order.id) ?? -Infinity);
      if ((newTick && since >= WATCH_TICK_MS) || since >= POLL_EVERY_MS)
        void pollOrder(order.id, Number.isNaN(tickAt) ? undefined : tickAt);
      continue;
    }
    if (remainingMs(order.end_at, now) > 0) continue;
    if (since < POLL_EVERY_MS) continue;
    void pollOrder(order.id);
  }
  if (!offline && optionsState.holding.lists.length > 0 && Date.now() - lastResync > RESYNC_EVERY_MS) {
    lastResync = Date.now();
    void loadOrders('holding').catch(() => undefined);
  }
}

/** Back online (the browser's event, or a call answered): every pending order is asked for at once. */
function resumeWhenOnline(online: boolean): void {
  if (!online || browserOffline()) return;
  lastPoll.clear();
  watchTick();
}

/** Keeps watching pending orders while at least one screen asks; returns the release. */
export function watchSettlements(): () => void {
  watchers += 1;
  if (watchers === 1) {
    lastResync = Date.now();
    watchTimer = setInterval(watchTick, WATCH_TICK_MS);
    stopOnlineWatch = subscribeKey(offlineData, 'online', resumeWhenOnline, true);
    if (typeof window !== 'undefined') addEventListener('online', onBrowserOnline);
  }
  return () => {
    watchers -= 1;
    if (watchers === 0) {
      clearInterval(watchTimer);
      stopOnlineWatch?.();
      if (typeof window !== 'undefined') removeEventListener('online', onBrowserOnline);
    }
  };
}

/** The browser's `online` event: offlineData.online may have been true all along (it then does not change). */
const onBrowserOnline = () => resumeWhenOnline(true);
