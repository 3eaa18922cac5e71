// A device whose storage is full refuses the app's writes: what waits to be sent (the outbox, a funds write kept
// before it leaves) then stays only in the open page, and would be lost with it. The customer is told at once, so they
// can keep the app open until it is sent, or free some space; at most once a minute, however many writes fail.
import { i18n } from '@lingui/core';
import { texts } from '../api-contract/texts.ts';
import { onSaveFailure } from './storage.ts';
import { toast, TOAST_MAX_MS } from './toast.ts';

/** The least time between two of these notices, ms. */
export const STORAGE_FULL_NOTICE_EVERY_MS = 60_000;

/** An IndexedDB write refused for want of room (the DOMException the standard names for it). */
export const isStorageFull = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'QuotaExceededError';

/**
 * From now on, a store's record refused for want of room on the device shows the translated notice
 * (texts.deviceStorageFull) as a toast, at most once every STORAGE_FULL_NOTICE_EVERY_MS (ms, `now` the clock). Other
 * failures (a browser with IndexedDB turned off) are not the customer's to mend and show nothing.
 */
export function tellWhenStorageFull(now: () => number = Date.now): void {
  let toldAt = -Infinity;
  onSaveFailure((_key, error) => {
    if (!isStorageFull(error) || now() - toldAt < STORAGE_FULL_NOTICE_EVERY_MS) return;
    toldAt = now();
    toast(i18n._(texts.deviceStorageFull), TOAST_MAX_MS);
  });
}
