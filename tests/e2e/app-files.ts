// Whether the service worker keeps every file of the app (sw/sw.ts answers PRECACHE_STATE without
// fetching anything). No vitest here: the first-visit bench asks it too.
import type { Page } from 'playwright-core';
import { PRECACHE_STATE_MESSAGE } from '../../src/api-contract/offline-cache.ts';

/** Whether the controlling worker keeps every file of the app; false while no worker controls the page. */
export function appFilesCached(page: Page): Promise<boolean> {
  return page.evaluate(
    (type) =>
      new Promise<boolean>((resolve) => {
        const controller = navigator.serviceWorker?.controller;
        if (!controller) return resolve(false);
        const channel = new MessageChannel();
        channel.port1.onmessage = (event: MessageEvent<{ cached?: boolean }>) => resolve(event.data.cached === true);
        controller.postMessage({ type }, [channel.port2]);
      }),
    PRECACHE_STATE_MESSAGE,
  );
}
