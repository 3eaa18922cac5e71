// The price alerts page's logic: the form as the API contract takes it and its checks (the API contract's own rules and
// texts), making an alert (online at once; offline, or when the network fails on the way, kept in the outbox with the
// Idempotency-Key of the first try and sent when the connection returns), deleting one (offline likewise kept and sent
// later; an alert not sent yet is simply dropped), and the rows the list shows: what waits in the outbox, the alerts
// that wait for their price, then those that fired. The list itself is lib/price-alerts.ts (the outbox's sender reads
// it again after each change it delivers).
import { i18n } from '@lingui/core';
import Big from 'big.js';
import type { Snapshot } from 'valtio/vanilla';
import {
  AddPriceAlertInput,
  addPriceAlert,
  deletePriceAlert,
  type PriceAlert,
} from '../../api-contract/price-alerts.ts';
import { alertAlreadyMet } from '../../api-contract/price-alert-met.ts';
import type { PriceAlertKind } from '../../api-contract/price-alerts.ts';
import { texts } from '../../api-contract/texts.ts';
import { api, newIdempotencyKey } from '../../lib/api.ts';
import { flushOutbox, keepForLater, outbox, registerBackgroundSync } from '../../lib/outbox.ts';
import type { OutboxEntry, PriceAlertDeletion, PriceAlertOutgoing } from '../../lib/outbox-store.ts';
import { alertList, loadPriceAlerts } from '../../lib/price-alerts.ts';
import { firstError } from '../../lib/validate.ts';
import { writtenAmounts } from '../../lib/format.ts';

export { alertList, loadPriceAlerts } from '../../lib/price-alerts.ts';

export interface AlertForm {
  code: string;
  kind: PriceAlertKind;
  /** The price of above / below, the percent of a move, as typed. */
  value: string;
}

/**
 * A typed number as the API contract writes it: '070000.50' → '70000.5'; anything else as typed (the checks say why).
 */
function clean(typed: string): string {
  const value = typed.trim();
  try {
    return /^\d+(?:\.\d*)?$/.test(value) ? new Big(value).toFixed() : value;
  } catch {
    return value;
  }
}

/** The fields the API contract takes: the value is the price of above / below, the percent of a move. */
export function alertInput({ code, kind, value }: AlertForm) {
  const typed = clean(value);
  return { code, kind, price: kind === 'move' ? '' : typed, percent: kind === 'move' ? typed : '' };
}

/** The alerts that count against the most a customer may hold: the waiting ones, here and in the outbox. */
export function alertsHeld(
  lists: readonly Readonly<PriceAlert>[] = alertList.lists,
  pending: readonly Snapshot<OutboxEntry>[] = outbox.pending,
): number {
  const deleting = new Set(pending.flatMap((entry) => (entry.kind === 'price-alert-delete' ? [entry.id] : [])));
  const waiting = lists.filter((alert) => !alert.fired_at && !deleting.has(alert.id)).length;
  return waiting + pending.filter((entry) => entry.kind === 'price-alert' && !entry.withdrawn).length;
}

/** The first rule the form breaks, in the API contract's words (and the most alerts one may hold), else null; with
 * `last`, the coin's last recorded price known here, an above / below alert that price already meets is refused too. */
export function alertProblem(
  form: AlertForm,
  held = alertsHeld(),
  max = alertList.max,
  last: string | null = null,
): string | null {
  const input = alertInput(form);
  const problem = firstError(AddPriceAlertInput, input);
  if (problem) return problem;
  if (held >= max) return i18n._(texts.priceAlertsFull);
  // The server refuses it too; offline, its last price here may be older than the one the server weighs it against.
  const met = last === null ? null : alertAlreadyMet(input, last);
  return met && i18n._(writtenAmounts(met));
}

/** Makes the alert: 'sent' when the server has it, 'queued' when it waits in the outbox for the connection. */
export async function createAlert(form: AlertForm): Promise<'sent' | 'queued'> {
  const input = alertInput(form);
  // One key for the try now and the sends later: a make whose answer was lost applies once.
  const key = newIdempotencyKey();
  if (!keepForLater()) {
    try {
      const made = await api(addPriceAlert, input, { idempotencyKey: key });
      alertList.lists = [made, ...alertList.lists.filter((alert) => alert.id !== made.id)];
      // Read again quietly, so the answer kept for offline holds it too.
      loadPriceAlerts().catch(() => undefined);
      return 'sent';
    } catch (error) {
      if (!keepForLater(error)) throw error;
    }
  }
  const { code, kind, price, percent } = input;
  const entry: PriceAlertOutgoing = {
    key,
    kind: 'price-alert',
    code,
    alert: kind,
    price,
    percent,
    queuedAt: new Date().toISOString(),
  };
  outbox.pending.push(entry);
  void registerBackgroundSync();
  return 'queued';
}

/** What a row of the list deletes: an alert the server has, or one still in the outbox (its key). */
export type AlertRef = { id: number } | { key: string };

/** Deletes an alert: 'deleted' at once, or 'queued' (offline) to be deleted when the connection returns. */
export async function deleteAlert(ref: AlertRef): Promise<'deleted' | 'queued'> {
  if ('key' in ref) {
    // Not sent yet: dropped here. The outbox may be sending it this moment, so it is marked rather than taken out.
    const entry = outbox.pending.find((item) => item.kind === 'price-alert' && item.key === ref.key);
    if (entry?.kind === 'price-alert') entry.withdrawn = true;
    return 'deleted';
  }
  const key = newIdempotencyKey();
  if (!keepForLater()) {
    try {
      await api(deletePriceAlert, { id: String(ref.id) }, { idempotencyKey: key });
      alertList.lists = alertList.lists.filter((alert) => alert.id !== ref.id);
      loadPriceAlerts().catch(() => undefined);
      return 'deleted';
    } catch (error) {
      if (!keepForLater(error)) throw error;
    }
  }
  const entry: PriceAlertDeletion = { key, kind: 'price-alert-delete', id: ref.id, queuedAt: new Date().toISOString() };
  outbox.pending.push(entry);
  void registerBackgroundSync();
  return 'queued';
}

/** Sends what waits now, when the network allows (the page calls it as it opens online). */
export const sendWaiting = () => (keepForLater() ? Promise.resolve() : flushOutbox());

/** One row of the list. */
export type AlertRow =
  | { state: 'unsent'; key: string; code: string; kind: PriceAlertKind; price: string; percent: string }
  | { state: 'waiting' | 'deleting' | 'fired'; alert: Readonly<PriceAlert> };

/**
 * The list as the page shows it: the alerts made here and not sent yet (newest first), then the server's waiting
 * alerts (one whose deletion waits in the outbox says so), then the fired ones, each group in the server's order.
 */
export function alertRows(
  lists: readonly Readonly<PriceAlert>[],
  pending: readonly Snapshot<OutboxEntry>[],
): { waiting: AlertRow[]; fired: AlertRow[] } {
  const deleting = new Set(pending.flatMap((entry) => (entry.kind === 'price-alert-delete' ? [entry.id] : [])));
  const unsent: AlertRow[] = pending
    .flatMap((entry) => (entry.kind === 'price-alert' && !entry.withdrawn ? [entry] : []))
    .reverse()
    .map(({ key, code, alert, price, percent }) => ({ state: 'unsent', key, code, kind: alert, price, percent }));
  const waiting: AlertRow[] = lists
    .filter((alert) => !alert.fired_at)
    .map((alert) => ({ state: deleting.has(alert.id) ? 'deleting' : 'waiting', alert }));
  const fired: AlertRow[] = lists
    .filter((alert) => alert.fired_at && !deleting.has(alert.id))
    .map((alert) => ({ state: 'fired', alert }));
  return { waiting: [...unsent, ...waiting], fired };
}
