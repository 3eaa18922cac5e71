// What waits in the outbox (lib/outbox.ts sends it): kept on the device per user, so a reload or the
// next start still has it. The lists of messages read it too, so a message marked read offline
// stays read on screen when a cached answer (stored before it was read) is shown again; the service
// chat shows its messages waiting here, and those the server refused (with the reason) until removed; the price
// alerts page likewise shows the alerts made and deleted offline.
import { persistedStore } from './storage.ts';

interface Queued {
  /** The Idempotency-Key of every attempt to send it. */
  key: string;
  queuedAt: string;
}

export interface MessagesRead extends Queued {
  kind: 'messages-read';
  ids: number[] | 'all';
}

/** A message to customer service (lib/chat-send.ts sends it). */
export interface ChatOutgoing extends Queued {
  kind: 'chat-message';
  body: string;
  /** The picture: a data: URL until it is uploaded, then the upload's URL (a retry does not upload it again). */
  picture: string;
}

/** A price alert made offline (lib/price-alert-send.ts sends it): the form's fields as the API contract takes them. */
export interface PriceAlertOutgoing extends Queued {
  kind: 'price-alert';
  code: string;
  alert: 'above' | 'below' | 'move';
  /** above / below: the price; '' for a move. */
  price: string;
  /** move: the percent; '' otherwise. */
  percent: string;
  /** Removed on this device before it was sent: the outbox drops it unsent (one on its way may still arrive). */
  withdrawn?: boolean;
}

/** The deletion of a price alert asked for offline (sent by lib/price-alert-send.ts too). */
export interface PriceAlertDeletion extends Queued {
  kind: 'price-alert-delete';
  id: number;
}

export type OutboxEntry = MessagesRead | ChatOutgoing | PriceAlertOutgoing | PriceAlertDeletion;

export const outbox = persistedStore(
  'outbox',
  {
    pending: [] as OutboxEntry[],
    /** Chat messages the server refused: shown with its reason until the customer removes them. */
    refused: [] as (ChatOutgoing & { reason: string })[],
    /** Price alerts made offline that the server refused: shown on the alerts page with its reason until removed. */
    refusedAlerts: [] as (PriceAlertOutgoing & { reason: string })[],
  },
  { perUser: true, heldForUser: true, acrossTabs: true },
);

/** The messages marked read on this device that the server has not heard of yet: their ids, or 'all'. */
export function pendingReads(entries: readonly Readonly<OutboxEntry>[] = outbox.pending): ReadonlySet<number> | 'all' {
  const ids = new Set<number>();
  for (const entry of entries) {
    if (entry.kind !== 'messages-read') continue;
    if (entry.ids === 'all') return 'all';
    for (const id of entry.ids) ids.add(id);
  }
  return ids;
}

/** Whether a message the server calls unread is read on this device already (the change waits to be sent). */
export const readHere = (id: number, pending = pendingReads()) => pending === 'all' || pending.has(id);
