// The session record as the app keeps it (src/lib/session.ts, IndexedDB 'coinvest', store 'state'):
// written from a page of the app's origin, the next start of the app is logged in. No vitest here:
// the Lighthouse bench uses it too.
import type { Page } from 'playwright-core';

export function storeSession(page: Page, token: string): Promise<void> {
  return page.evaluate(
    (session) =>
      new Promise<void>((done, fail) => {
        const open = indexedDB.open('coinvest');
        // A page that ran no app code yet: the store does not exist until the app's first start.
        open.onupgradeneeded = () => open.result.createObjectStore('state');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const write = open.result.transaction('state', 'readwrite');
          write.objectStore('state').put(session, 'session');
          write.oncomplete = () => (open.result.close(), done());
          write.onerror = () => fail(write.error);
        };
      }),
    { token, user: null },
  );
}
