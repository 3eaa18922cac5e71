// @vitest-environment jsdom
// Mine and Withdraw offline, as a new user meets them: Mine marks figures from the service worker's cache "Offline —
// as of", also while other calls are answered, says why its figures are blank when nothing was cached, and reads them
// again when the connection returns;
// Withdraw's button says a connection is needed instead of greying without a word.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { subscribe } from 'valtio/vanilla';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Balance } from '../../src/api-contract/markets.ts';
import { SERVED_FROM_CACHE_HEADER } from '../../src/api-contract/offline-cache.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { configureApi } from '../../src/lib/api.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { formatClock, formatDate } from '../../src/lib/format.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import MinePage from '../../src/features/profile/MinePage.tsx';
import WithdrawPage from '../../src/features/funds/WithdrawPage.tsx';
import { withdrawState } from '../../src/features/funds/withdraw-store.ts';
import { envelope, mountPoint, resetClientState, customerInfo, savedCard } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const STORED_AT = '2026-03-04T05:06:07.000Z';

const user = customerInfo({ nickname: 'Newcomer' });
const held = (usdt: string): Balance[] => [{ asset: 'USDT', available: usdt, frozen: '0' }];
const page = (lists: unknown[]) => ({ lists, page: 1, total: lists.length });
const card = savedCard();

/** An answer as the service worker gives it from its cache: marked with when it was stored. */
function fromCache(data: unknown, storedAt = STORED_AT): Response {
  const answer = envelope(1, '', data);
  answer.headers.set(SERVED_FROM_CACHE_HEADER, storedAt);
  return answer;
}

/** The network is gone: the fetch fails, as the service worker's does for a call it kept nothing of. */
const noNetwork = () => new TypeError('Failed to fetch');

/** A fake API answering by path (after /api); a path it does not know finds no network. Records what was asked. */
function serve(answers: Record<string, () => Response | Error>) {
  const asked: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const path = new URL((input as Request).url).pathname.replace(/^\/api/, '');
    asked.push(path);
    const answer = (answers[path] ?? noNetwork)();
    if (answer instanceof Error) throw answer;
    return answer;
  };
  configureApi({ fetch: fetch as typeof globalThis.fetch, retryDelay: () => 0 });
  return asked;
}

const setBrowserOnline = (online: boolean) =>
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });

/** Every toast shown while the test runs (one may replace another before the test looks). */
let shownToasts: string[] = [];
let stopWatching = () => {};

// Mine's Real / Practice switch is a chunk of its own: loaded before, it arrives inside the first render's act.
beforeAll(() => import('../../src/features/profile/PracticeSwitch.tsx'));

beforeEach(async () => {
  resetClientState();
  session.token = 'token-new-user';
  session.user = user;
  // A new session forgets the user's stores (told in a microtask): the test's own state is set after.
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  userBalances.lists = [];
  userBalances.updatedAt = null;
  setBrowserOnline(false);
  offlineData.online = false;
  shownToasts = [];
  stopWatching = subscribe(toasts, () => {
    if (toasts.current) shownToasts.push(toasts.current.text);
  });
});
// Inside act: the page is still on screen (unmounted after this) and hears the stores go back.
afterEach(async () => {
  stopWatching();
  delete (navigator as { onLine?: boolean }).onLine;
  await act(async () => resetClientState());
});

async function open(Page: () => React.JSX.Element) {
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Page />
      </I18nProvider>,
    ),
  );
}

/** Waits, inside act, until `check` passes: the page's loads have answered and what they changed is rendered. */
const until = (check: () => void) => act(() => vi.waitFor(check));
const text = () => view.container.textContent ?? '';
const offlineNote = () => view.container.querySelector('.offline-note');
const totalAssets = () => view.container.querySelector('.total-assets-amount')?.textContent;

describe('Mine offline', () => {
  it('marks the balances from the cache "Offline — as of" the time they were stored', async () => {
    serve({ '/users/info': () => fromCache(user), '/users/balances': () => fromCache(page(held('1000'))) });
    await open(MinePage);
    await until(() => expect(userBalances.updatedAt).not.toBeNull());
    expect(totalAssets()).toBe('1,000.00');
    // Stored on another day than today: the day is said, so yesterday's figures are not read as today's.
    expect(offlineNote()?.textContent).toBe(`Offline — as of ${formatDate('dayClock', new Date(STORED_AT))}`);
    expect(offlineNote()?.textContent).toMatch(/^Offline — as of 03\/04, /);
    expect(offlineNote()?.getAttribute('role')).toBe('status');
  });

  it('says only the time of answers stored today', async () => {
    const today = new Date().toISOString();
    serve({
      '/users/info': () => fromCache(user, today),
      '/users/balances': () => fromCache(page(held('1000')), today),
    });
    await open(MinePage);
    await until(() => expect(userBalances.updatedAt).not.toBeNull());
    expect(offlineNote()?.textContent).toBe(`Offline — as of ${formatClock(today)}`);
  });

  it('keeps the balances from the cache marked when the network answers the user’s record but not them', async () => {
    // A lossy network: the record comes fresh, the balances' read fails and the worker gives the ones it kept.
    setBrowserOnline(true);
    offlineData.online = true;
    const asked = serve({
      '/users/info': () => envelope(1, '', user),
      '/users/balances': () => fromCache(page(held('1000'))),
    });
    await open(MinePage);
    await until(() => expect(userBalances.updatedAt).not.toBeNull());
    await until(() => expect(asked).toContain('/users/info'));
    expect(totalAssets()).toBe('1,000.00');
    expect(offlineNote()?.textContent).toBe(`Offline — as of ${formatDate('dayClock', new Date(STORED_AT))}`);
  });

  it('with nothing cached, the blank figures say why: the offline text, as the other pages say it', async () => {
    serve({});
    await open(MinePage);
    await until(() => expect(shownToasts).toContain(texts.offline.message));
    expect(totalAssets()).toBe('—');
    // Nothing came from the cache, so no "as of".
    expect(offlineNote()).toBeNull();
  });

  it('reads its figures again when the connection returns, and the marker goes', async () => {
    let online = false;
    const asked = serve({
      '/users/info': () => (online ? envelope(1, '', user) : fromCache(user)),
      '/users/balances': () => (online ? envelope(1, '', page(held('1500'))) : fromCache(page(held('1000')))),
    });
    await open(MinePage);
    await until(() => expect(userBalances.updatedAt).not.toBeNull());
    expect(totalAssets()).toBe('1,000.00');
    expect(offlineNote()).not.toBeNull();
    const before = asked.filter((path) => path === '/users/balances').length;

    online = true;
    setBrowserOnline(true);
    await act(async () => void dispatchEvent(new Event('online')));
    await until(() => expect(userBalances.lists).toEqual(held('1500')));
    expect(totalAssets()).toBe('1,500.00');
    expect(asked.filter((path) => path === '/users/balances').length).toBe(before + 1);
    expect(asked).toContain('/users/info');
    expect(offlineNote()).toBeNull();
  });
});

describe('Withdraw offline', () => {
  it('its button says a connection is needed, before anything else, and sends nothing', async () => {
    // The bank card and wallets come from the cache; the withdrawal rule was never kept.
    const asked = serve({
      '/users/bank': () => fromCache(page([card])),
      '/users/wallet/lists': () => fromCache(page([])),
      '/users/info': () => fromCache(user),
    });
    await open(WithdrawPage);
    // Loaded: the cached card, and the rule's call answered with the offline text.
    await until(() => expect(withdrawState.payeesLoaded).toBe(true));
    await until(() => expect(shownToasts).toContain(texts.offline.message));
    expect(offlineNote()).not.toBeNull();
    expect(text()).toContain('7890');
    const submit = [...view.container.querySelectorAll('button')].find((item) => item.textContent === 'Withdraw')!;
    expect(submit.disabled).toBe(false);

    shownToasts = [];
    const callsBefore = asked.length;
    await act(async () => submit.click());
    expect(shownToasts).toEqual([texts.offline.message]);
    // The confirmation does not open; nothing goes out.
    expect(document.querySelector('[role="alertdialog"], [role="dialog"]')).toBeNull();
    expect(asked.length).toBe(callsBefore);
    expect(text()).toContain('Withdraw');
  });
});
