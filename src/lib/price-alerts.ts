// The customer's price alerts as the server last answered (GET /users/price-alerts, kept for offline like the other
// reads of a user): shared by the alerts page and the outbox's sender (lib/price-alert-send.ts), which reads the list
// again after each change it delivers, so the page and the answer kept for offline hold it. The page's store queues
// what the customer does offline, so the sender the outbox loads does not import the outbox back.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { PRICE_ALERTS_MAX, priceAlerts, type PriceAlert } from '../api-contract/price-alerts.ts';
import { api } from './api.ts';
import { session } from './session.ts';

export const alertList = proxy({
  /** Waiting ones first, then fired ones, newest first (the server's order). */
  lists: [] as PriceAlert[],
  max: PRICE_ALERTS_MAX,
  loaded: false,
});

let latest = 0;

/**
 * Reads the list (the mask only while none is shown, if asked); an answer for an earlier session or read is dropped.
 */
export async function loadPriceAlerts({ loading = false } = {}): Promise<void> {
  const asked = ++latest;
  const token = session.token;
  const answer = await api(priceAlerts, undefined, { loading: loading && !alertList.loaded });
  if (asked !== latest || token !== session.token) return;
  Object.assign(alertList, { lists: answer.lists, max: answer.max, loaded: true });
}

// Another session starts from nothing.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(alertList, { lists: [], max: PRICE_ALERTS_MAX, loaded: false });
});
