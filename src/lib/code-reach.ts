// Whether the app's code can be asked for now. A browser keeps a failed fetch of a module (a page's chunk, its texts)
// for the document's whole life: asked again once the network is back, the same import fails at once (Chromium does
// so), and only a reload, which loses what was typed, would bring the page. So, offline, code is asked for only when
// the service worker holds every file of the app (its precache answers offline); otherwise the load fails without
// touching the network, and the page tries again when the browser is back online (App's PageBoundary).
import { PRECACHE_STATE_MESSAGE } from '../api-contract/offline-cache.ts';

/** Why a page's code was not asked for: the browser is offline and the service worker does not hold all of it. */
export class CodeOffline extends Error {
  constructor() {
    super('offline: the page code is not on the device');
    this.name = 'CodeOffline';
  }
}

/**
 * Resolves when the app's code may be imported now: the browser says it is online, or the controlling service worker
 * holds every file of the app (sw/sw.ts answers PRECACHE_STATE from its caches, fetching nothing). Rejects with
 * CodeOffline otherwise (offline with no worker, or one still fetching the later files).
 */
export async function whenCodeCanArrive(): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine !== false) return;
  if (!(await serviceWorkerHoldsEveryFile())) throw new CodeOffline();
}

/**
 * How long the worker has to answer, in ms: one that does not (a worker of an older version that knows no such
 * question, one stopped mid-update) counts as not holding the files, so the page waits for the network instead of
 * showing its loading state for ever.
 */
const WORKER_ANSWER_MS = 3_000;

/** Whether the worker controlling the page holds every file of the app; false with none or with no answer in time. */
function serviceWorkerHoldsEveryFile(): Promise<boolean> {
  const controller = navigator.serviceWorker?.controller;
  if (!controller) return Promise.resolve(false);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const unanswered = setTimeout(() => resolve(false), WORKER_ANSWER_MS);
    channel.port1.onmessage = (event: MessageEvent<{ cached?: unknown } | null>) => {
      clearTimeout(unanswered);
      resolve(event.data?.cached === true);
    };
    controller.postMessage({ type: PRECACHE_STATE_MESSAGE }, [channel.port2]);
  });
}
