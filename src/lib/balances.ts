// The signed-in user's balances per asset, shared by every screen that shows or spends them
// (home, options, funds…). Always asked of the server; offline, the service worker's last kept answer, which every
// page showing them marks "Offline — as of" (ui/OfflineNote.tsx with the `balances` call) until the server answers.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import Big from 'big.js';
import { balances, type Balance, type CoinQuote } from '../api-contract/markets.ts';
import { balanceDecimals } from '../api-contract/decimal-values.ts';
import { EARN_ASSETS } from '../api-contract/earn.ts';
import { POINTS } from '../api-contract/rewards.ts';
import { api } from './api.ts';
import { formatMoney } from './format.ts';
import { offlineData } from './offline.ts';
import { session } from './session.ts';

export const USDT = 'USDT';

export const userBalances = proxy({
  lists: [] as Balance[],
  /**
   * When the server gave the balances on screen (ISO): now for a fresh answer, the time it was stored for one the
   * service worker gave from its cache (offlineData.asOf); null before the first answer.
   */
  updatedAt: null as string | null,
});

let latestRequest = 0;

/** Asks the server again; an answer that arrives after a newer request's is dropped. */
export async function refreshBalances(options: { loading?: boolean } = {}): Promise<void> {
  if (!session.token) return;
  const request = ++latestRequest;
  const token = session.token;
  const { lists } = await api(balances, undefined, { loading: options.loading ?? false });
  if (request !== latestRequest || token !== session.token) return;
  userBalances.lists = lists;
  userBalances.updatedAt = offlineData.asOf[balances.path] ?? new Date().toISOString();
}

/**
 * Asks the server again (refreshBalances) and has `say` tell a failure only while no balances are on screen (offline
 * with nothing kept: the offline text). Figures already shown, fresh or kept on the device and marked "Offline — as
 * of", stay without a word: a toast over them would nag about what the page already marks.
 */
export function refreshBalancesOrSay(say: (error: unknown) => void): void {
  refreshBalances().catch((error: unknown) => {
    if (!userBalances.updatedAt) say(error);
  });
}

/** The available amount of `asset` (a decimal string, '0' when the user holds none). */
export function availableOf(snapshot: { readonly lists: readonly Balance[] }, asset: string): string {
  return snapshot.lists.find((balance) => balance.asset === asset)?.available ?? '0';
}

/** The assets whose balances are shown to the cent: USDT and the earn balances, counted 1:1 in USDT. */
const CENTS_ASSETS: readonly string[] = [USDT, ...EARN_ASSETS];

/**
 * A balance of `asset` as every page shows it: USDT (and the earn balances) to the cent, a coin as exact as it is, and
 * a nonzero balance never as 0.00 (balanceDecimals); rounded down, grouped in the app's language. '1234.56789' USDT
 * reads 1,234.56, '0.004' USDT 0.004, '0.0012' BTC 0.0012.
 */
export function formatBalance(amount: string, asset: string): string {
  return formatMoney(amount, balanceDecimalsOf(amount, asset));
}

/** The decimals formatBalance shows `amount` of `asset` with (for <Money decimals>, which adds the fiat line). */
export const balanceDecimalsOf = (amount: string, asset: string) => balanceDecimals(amount, asset, CENTS_ASSETS);

/** The USDT the user can spend now, from a snapshot of `userBalances`. */
export const usdtAvailable = (snapshot: { readonly lists: readonly Balance[] }) => availableOf(snapshot, USDT);

/**
 * Everything the user holds (available and frozen), valued in USDT at the latest recorded prices:
 * USDT and the earn balances count 1:1, each coin at its price; points are not money. Null while a
 * coin held has no known price, so an estimate is never shown short.
 */
export function totalAssetsUsdt(
  snapshot: { readonly lists: readonly Balance[] },
  quotes: Readonly<Record<string, Pick<CoinQuote, 'price'>>>,
): string | null {
  let total = new Big(0);
  for (const balance of snapshot.lists) {
    if (balance.asset === POINTS) continue;
    const held = new Big(balance.available).plus(balance.frozen);
    if (held.eq(0)) continue;
    const oneToOne = balance.asset === USDT || (EARN_ASSETS as readonly string[]).includes(balance.asset);
    const price = oneToOne ? '1' : quotes[balance.asset]?.price;
    if (!price) return null;
    total = total.plus(held.times(price));
  }
  return total.round(8, Big.roundDown).toFixed(8);
}

// Another session (logout, another user) must never see these balances.
subscribeKey(session, 'token', () => {
  latestRequest += 1;
  userBalances.lists = [];
  userBalances.updatedAt = null;
});
