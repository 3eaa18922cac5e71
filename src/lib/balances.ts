// The signed-in user's balances per asset, shared by every screen that shows or spends them
// (home, options, funds…). Not kept on the device: balances are always the server's latest.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { balances, type Balance } from '../contract/markets.ts';
import { api } from './api.ts';
import { session } from './session.ts';

export const USDT = 'USDT';

export const userBalances = proxy({
  lists: [] as Balance[],
  /** When the server last answered (ISO); null before the first answer. */
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
  userBalances.updatedAt = new Date().toISOString();
}

/** The available amount of `asset` (a decimal string, '0' when the user holds none). */
export function availableOf(snapshot: { readonly lists: readonly Balance[] }, asset: string): string {
  return snapshot.lists.find((balance) => balance.asset === asset)?.available ?? '0';
}

/** The USDT the user can spend now, from a snapshot of `userBalances`. */
export const usdtAvailable = (snapshot: { readonly lists: readonly Balance[] }) => availableOf(snapshot, USDT);

// Another session (logout, another user) must never see these balances.
subscribeKey(session, 'token', () => {
  latestRequest += 1;
  userBalances.lists = [];
  userBalances.updatedAt = null;
});
