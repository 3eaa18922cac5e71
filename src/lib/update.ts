// Updates of the app: the service worker registration and the startup version
// check (the dialog's state is in update-state.ts). One path: a waiting worker or a newer `v` in appurl_android
// opens the same dialog; accepting activates the new worker and reloads once it controls the page.
import { Workbox } from 'workbox-window';
import { APP_VERSION } from '../api-contract/constants.ts';
import { config } from '../api-contract/content.ts';
import { i18n } from '@lingui/core';
import { texts } from '../api-contract/texts.ts';
import { api } from './api.ts';
import { toast } from './toast.ts';
import { appUpdate } from './update-state.ts';
import { startOutbox } from './outbox.ts';
import { keepStorage } from './persistence.ts';
import { PRECACHE_LATER_MESSAGE } from '../api-contract/offline-cache.ts';

let workbox: Workbox | null = null;

/**
 * Registers the service worker (production builds only) and listens for a waiting version. Never rejects: where the
 * browser refuses a service worker (blocked in its settings, some private windows), the app goes on online without
 * offline use, as on a browser that has none, and the refusal is noted in the console.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD) return;
  if (!window.isSecureContext) return noteInsecureContext();
  if (!('serviceWorker' in navigator)) return;
  workbox = new Workbox(`${import.meta.env.BASE_URL}sw.js`, { type: 'module' });
  // Also fires at start when a version was already waiting (installed during an earlier visit).
  workbox.addEventListener('waiting', () => (appUpdate.waiting = true));
  try {
    await workbox.register();
    // The worker installs what a start needs; the other pages and languages it fetches when asked, here,
    // after the first screen (afterFirstScreen runs when the browser is idle) and once it is active.
    // Each start asks again: what an earlier one kept is not fetched twice.
    const registration = await navigator.serviceWorker.ready;
    registration.active?.postMessage({ type: PRECACHE_LATER_MESSAGE });
  } catch (error) {
    // The browser's choice, not a fault: nothing the customer can act on, so no toast (the diagnostics page shows
    // that no worker is registered). Reading navigator.serviceWorker itself throws in some browsers then.
    workbox = null;
    console.info('Offline use is unavailable: the browser refused the service worker.', error);
  }
}

/** Set once the plain-http notice was shown on this device. */
export const INSECURE_NOTICE_KEY = 'coinvest.secure-context-noted';
const INSECURE_NOTICE_MS = 6000;

/**
 * Opened over plain http from another host (a phone on the LAN), the browser gives no service
 * worker: the app works online but cannot be installed or used offline. Said once per device, as
 * a toast, never again.
 */
export function noteInsecureContext(storage: Storage = localStorage): void {
  if (storage.getItem(INSECURE_NOTICE_KEY)) return;
  storage.setItem(INSECURE_NOTICE_KEY, new Date().toISOString());
  toast(i18n._(texts.secureContextNeeded), INSECURE_NOTICE_MS);
}

/** The version number in the `v` parameter of appurl_android, or null when there is none. */
export function announcedVersion(appurlAndroid: string | undefined): number | null {
  if (!appurlAndroid) return null;
  try {
    const v = new URL(appurlAndroid, 'https://app.invalid/').searchParams.get('v') ?? '';
    return /^\d{1,9}$/.test(v) ? Number(v) : null;
  } catch {
    return null;
  }
}

/**
 * The startup version check: when appurl_android names a version newer than this one, look for a new
 * service worker first, then open the forced update dialog. Returns whether it opened.
 */
export async function applyVersionCheck(appurlAndroid: string | undefined): Promise<boolean> {
  const announced = announcedVersion(appurlAndroid);
  if (announced === null || announced <= APP_VERSION) return false;
  // A failed check (offline) still shows the dialog: the server said this version is too old.
  await workbox?.update().catch(() => undefined);
  appUpdate.link = new URL(appurlAndroid!, location.href).href;
  appUpdate.forced = true;
  return true;
}

/** Runs the version check against the system config; a start without network skips it. */
export async function checkAppVersion(): Promise<void> {
  const system = await api(config, { act: 'system' }, { loading: false });
  await applyVersionCheck(system.appurl_android);
}

/**
 * What the first screen does not need, started once the page has loaded (Workbox's advice for the
 * registration: the service worker's precache then does not compete with the first visit's own
 * downloads): the service worker, the outbox, persistent storage and the startup version check.
 */
export function afterFirstScreen(): void {
  void registerServiceWorker();
  startOutbox();
  keepStorage();
  // Best effort: without network (and nothing cached) the check waits for the next start.
  checkAppVersion().catch(() => undefined);
}
