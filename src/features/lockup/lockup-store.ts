// Lock-up mining (server/domain/README.md "Earn", api-contract/lockup.ts): the products (public), the signed-in user's
// regular balance (locked principal, income earned, orders processing), the calculator of the
// details page's subscription itself and the order record. The details page's form (its
// calculator and checks) is in lockup-form.ts, which the products page does not load.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { addDays, earnBalance, type InterestDay } from '../../api-contract/earn.ts';
import { liquidityProduct } from '../../api-contract/liquidity.ts';
import {
  LOCKUP_FILTERS,
  lockupOrders,
  lockupProduct,
  lockupProducts,
  lockupSubscribe,
  type LockupOrder,
  type LockupProduct,
  type RegularBalance,
} from '../../api-contract/lockup.ts';
import { DEFAULT_EARN_TIMEZONE, interestDay } from '../../api-contract/earn-days.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { cursorLists } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';

export type LockupFilter = (typeof LOCKUP_FILTERS)[number];

export const lockupState = proxy({
  products: [] as LockupProduct[],
  productsLoaded: false,
  /** What the last load of the products said when it failed. */
  productsFailure: null as string | null,
  /** Products seen on this device by id: the details page shows one at once, then asks again. */
  details: {} as Record<number, LockupProduct>,
  /** The signed-in user's lock-up side; null while unknown (shown as "—", never 0.00). */
  summary: null as RegularBalance | null,
  /** Today's interest day as the server said it (GET /yuebao/product); null until it answers. */
  today: null as InterestDay | null,
  timeZone: DEFAULT_EARN_TIMEZONE,
});

export async function loadProducts(): Promise<void> {
  try {
    const { lists } = await api(lockupProducts, undefined, { loading: !lockupState.productsLoaded });
    lockupState.products = lists;
    lockupState.productsLoaded = true;
    lockupState.productsFailure = null;
    for (const product of lists) lockupState.details[product.id] = product;
  } catch (error) {
    lockupState.productsFailure = errorText(error);
    throw error;
  }
}

export async function loadProduct(id: number): Promise<void> {
  lockupState.details[id] = await api(lockupProduct, { id: String(id) }, { loading: !lockupState.details[id] });
}

/** Locked principal, income earned, orders processing: only for a signed-in user. */
export async function loadSummary(): Promise<void> {
  const token = session.token;
  if (!token) return;
  const answer = await api(earnBalance, { type: 'regular' }, { loading: false });
  // An answer for a session that has ended since is not this user's.
  if (token === session.token && answer.type === 'regular') lockupState.summary = answer;
}

/** The server's interest day (the calculator's start date follows it); the device's clock in the earn zone until it
 * answers. */
export async function loadToday(): Promise<void> {
  const product = await api(liquidityProduct, undefined, { loading: false });
  lockupState.today = product.today;
  lockupState.timeZone = product.timezone || DEFAULT_EARN_TIMEZONE;
}

/** Today as the server counts it, else as the device's clock makes it in the earn zone. */
export const todayOf = (
  state: { readonly today: InterestDay | null; readonly timeZone: string },
  now: Date = new Date(),
) => state.today ?? interestDay(now, state.timeZone);

export interface LockupPeriod {
  /** The first interest day that pays income: the day after the subscription's. */
  start: InterestDay;
  /** The last one; the principal comes back at its end. */
  end: InterestDay;
}

/** Income from the next interest day, for `days` days (the server's rule, domain/lockup.ts). */
export function lockupPeriod(today: InterestDay, days: number): LockupPeriod {
  const start = addDays(today, 1);
  return { start, end: addDays(start, days - 1) };
}

/** Subscribes to `product` at the period and daily rate shown of it, which go with the request: an operator's change
 * meanwhile is refused rather than taken. The principal leaves available USDT at once; everything shown of it is
 * asked again (in the background), and after a refusal the product (the refusal may be about its terms). */
export async function subscribeLockup(
  product: Pick<LockupProduct, 'id' | 'days' | 'daily_rate'>,
  typed: string,
): Promise<LockupOrder> {
  const order = await api(lockupSubscribe, {
    product_id: String(product.id),
    amount: typed,
    days: String(product.days),
    daily_rate: product.daily_rate,
  }).catch((error: unknown) => {
    void loadProduct(product.id).catch(() => undefined);
    throw error;
  });
  // The record opens on "All", with the new order first.
  lockupRecord.reset({ filter: true });
  for (const refresh of [refreshBalances, loadSummary, loadProducts]) refresh().catch(() => undefined);
  return order;
}

/** The record: all, processing, ended; newest first, a page at a time (by cursor). */
export const lockupRecord = cursorLists<LockupOrder, LockupFilter>(
  LOCKUP_FILTERS,
  (status, cursor, loading) => api(lockupOrders, { status, cursor }, { loading }),
  // An order shown below the head may end meanwhile: the pages shown are read again.
  { arrivals: () => 'anywhere' },
);

// Another session (logout, another user) must never see this user's figures.
subscribeKey(session, 'token', () => {
  lockupState.summary = null;
});
