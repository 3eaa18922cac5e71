// Sends one price alert entry of the outbox (lib/outbox.ts loads this module only when one waits): an alert made
// offline or the deletion of one, each with the entry's Idempotency-Key, so a send whose answer was lost applies once.
// Then the list is read again, so the page and the answer the service worker keeps for offline hold the change.
import { addPriceAlert, deletePriceAlert } from '../api-contract/price-alerts.ts';
import { api, refusedByServer } from './api.ts';
import { outbox, type PriceAlertDeletion, type PriceAlertOutgoing } from './outbox-store.ts';
import { alertList, loadPriceAlerts } from './price-alerts.ts';
import { session } from './session.ts';

export async function sendPriceAlertEntry(entry: PriceAlertOutgoing | PriceAlertDeletion): Promise<void> {
  // Removed on this device before it could be sent: nothing to tell the server.
  if (entry.kind === 'price-alert' && entry.withdrawn) return;
  // What the server answers is shown only while the session it was sent for lasts (another customer may sign in).
  const token = session.token;
  const current = () => session.token === token;
  try {
    if (entry.kind === 'price-alert-delete') {
      await api(deletePriceAlert, { id: String(entry.id) }, { loading: false, idempotencyKey: entry.key });
      if (!current()) return;
      alertList.lists = alertList.lists.filter((alert) => alert.id !== entry.id);
    } else {
      const made = await api(
        addPriceAlert,
        { code: entry.code, kind: entry.alert, price: entry.price, percent: entry.percent },
        { loading: false, idempotencyKey: entry.key },
      );
      if (!current()) return;
      // On screen at once, where the list shows the waiting ones, as the entry leaves the outbox.
      if (alertList.loaded) alertList.lists = [made, ...alertList.lists.filter((alert) => alert.id !== made.id)];
    }
  } catch (error) {
    // Refused by the server (not a lost connection, not an ended session): sending again cannot help. An alert stays
    // on the alerts page with the reason until the customer removes it; a deletion refused (the alert is gone) is done.
    if (refusedByServer(error) && current()) {
      if (entry.kind === 'price-alert') outbox.refusedAlerts.push({ ...entry, reason: error.message });
      loadPriceAlerts().catch(() => undefined);
    }
    throw error;
  }
  loadPriceAlerts().catch(() => undefined);
}
