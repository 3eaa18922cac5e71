// The session record as the app keeps it (src/lib/session.ts, IndexedDB 'coinvest', store 'state'):
// written from a page of the app's origin, the next start of the app is logged in. No vitest here:
// the Lighthouse bench uses it too.
import type { Page } from 'playwright-core';
import { FIRST_SCREEN_HINT_KEY, type FirstScreenHint } from '../../src/lib/first-screen-pick.ts';

export function storeSession(page: Page, token: string): Promise<void> {
  const hint: FirstScreenHint = { locale: null, signedIn: true };
  return page.evaluate(
    ({ session, hintKey, hint }) =>
      new Promise<void>((done, fail) => {
        // What the app keeps beside it for the first screen in the HTML (src/lib/first-screen-hint.ts).
        localStorage.setItem(hintKey, JSON.stringify(hint));
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
    { session: { token, user: null }, hintKey: FIRST_SCREEN_HINT_KEY, hint },
  );
}

/**
 * Opens the app at `route` (its hash route, `/#/pages/…`) in `page`, signed in with `token`: first a page of the app's
 * origin that runs no app code (its icon), where the session is stored (storeSession), so that the app's first start
 * reads it and nothing writes over it. `origin` is the app's address when the page's context has no base URL.
 */
export async function openSignedIn(page: Page, token: string, route: string, origin = ''): Promise<void> {
  await page.goto(`${origin}/favicon.svg`);
  await storeSession(page, token);
  await page.goto(`${origin}${route}`);
}
