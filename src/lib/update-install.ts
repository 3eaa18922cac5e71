// The update dialog's button (its state is in update-state.ts; the worker's registration and the
// version check in update.ts): apart, so the code every start loads after its first screen does not
// carry what only a tap in the dialog runs.
import { appUpdate } from './update-state.ts';

/** The app runs inside the Android shell (its WebView adds this to the user agent). */
export const isAndroidShell = (userAgent = navigator.userAgent) => userAgent.includes('CoinvestAndroid');

/** The dialog's button: the Android shell downloads the new app; the web app activates the new worker and reloads. */
export async function installUpdate(): Promise<void> {
  if (appUpdate.forced && appUpdate.link && isAndroidShell()) {
    location.assign(appUpdate.link);
    return;
  }
  const registration = await navigator.serviceWorker?.getRegistration();
  const next = registration?.waiting ?? registration?.installing;
  // No new worker (or the very first one still installing): the reload itself is the update.
  if (!next || !navigator.serviceWorker.controller) {
    location.reload();
    return;
  }
  // Reload once the new worker controls the page. workbox-window's `controlling` says isUpdate
  // false when this page session installed the first worker, so listen to the browser itself.
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  if (next.state !== 'installed') await installed(next);
  // Activated meanwhile (accepted in another tab) or replaced by a newer one: just reload.
  if (next.state === 'installed') next.postMessage({ type: 'SKIP_WAITING' });
  else location.reload();
}

const installed = (worker: ServiceWorker) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (worker.state === 'installed' || worker.state === 'activated' || worker.state === 'redundant') {
        worker.removeEventListener('statechange', check);
        resolve();
      }
    };
    worker.addEventListener('statechange', check);
    check();
  });
