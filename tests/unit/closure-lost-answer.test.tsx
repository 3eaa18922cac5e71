// @vitest-environment jsdom
// The close whose answer was lost (features/closure/closure-store.ts, ClosurePage.tsx): the close went through and
// ended the session, but no answer reached the phone. The page asks what became of the close's key instead of reading
// with the ended session (which would say the login expired), and a close that went through ends as an answered one
// does: "Your account is closed." and the login page. Tapping again sends the same key, whose stored answer the server
// replays to the ended session.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterEach, expect, it } from 'vitest';
import ClosurePage from '../../src/features/closure/ClosurePage.tsx';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import { envelope, mountPoint, resetClientState, stubFetch, type Call } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
afterEach(async () => {
  resetClientState();
  await act(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));
});

const CLOSED = {
  closed_at: '2026-12-05T00:00:00.000Z',
  contacts_free_at: '2027-06-03T00:00:00.000Z',
  kept_until: '2031-12-05T00:00:00.000Z',
};
const EXPIRED = 'Your login has expired, please log in again!';
const TOKEN = 'token-of-this-phone';

/**
 * The server as the phone meets it: `closed` once the close went through (the session ended with it). `lose`: which
 * answers are lost on the way (a dropped connection): none, the close's, or every one once the close went through.
 */
interface Server {
  closed: boolean;
  lose: 'none' | 'close' | 'all after the close';
}

/** Opens the page signed in, on a fake server that behaves as `server` says; answers the requests made. */
async function openWith(server: Server) {
  session.token = TOKEN;
  const log: { calls: Call[] } = { calls: [] };
  const route = () => {
    const { request } = log.calls.at(-1)!;
    const path = new URL(request.url).pathname;
    if (server.lose === 'all after the close' && server.closed) return new TypeError('Failed to fetch');
    if (path === '/api/users/close') {
      // The close goes through on its first arrival; a copy under the same key gets the stored answer.
      server.closed = true;
      return server.lose === 'none' ? envelope(1, 'Success', CLOSED) : new TypeError('Failed to fetch');
    }
    if (path === '/api/users/write-outcome')
      return server.closed
        ? envelope(1, 'Success', { state: 'applied', msg: null, received_at: '2026-12-05T00:00:00.000Z' })
        : envelope(-1, EXPIRED);
    // Any other call of the ended session is refused as an ended login.
    if (server.closed) return envelope(-1, EXPIRED);
    if (path === '/api/users/point/lists')
      return envelope(1, 'Success', { lists: [], next: null, usdt_per_point: '0.01', min_points: '100', balance: '0' });
    if (path === '/api/users/close/ending') return envelope(1, 'Success', { lists: [] });
    return envelope(0, `unexpected ${path}`);
  };
  log.calls = stubFetch(route).calls;
  await renderInApp(view, <ClosurePage />);
  await settle(() => log.calls.length >= 2);
  return log.calls;
}

/** Lets the page's calls answer and render (a few turns of the event loop; the bound only stops a hang). */
async function settle(done: () => boolean) {
  await act(async () => {
    for (let turn = 0; turn < 200 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  await act(async () => undefined);
}

/** The toast shown now (read afresh: the page sets it). */
const toastText = () => toasts.current?.text;
const closeSection = () => view.container.querySelectorAll('.closure-section')[1]!;
const pathsOf = (calls: Call[]) => calls.map((call) => new URL(call.request.url).pathname);
const closeKeys = (calls: Call[]) =>
  calls
    .filter((call) => new URL(call.request.url).pathname === '/api/users/close')
    .map((call) => call.request.headers.get('idempotency-key'));

async function tapClose() {
  const input = closeSection().querySelector<HTMLInputElement>('input[type="password"]')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setValue.call(input, 'secret123');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await act(async () => [...closeSection().querySelectorAll('button')].at(-1)!.click());
  const dialog = document.querySelector('[role="alertdialog"]')!;
  const confirm = [...dialog.querySelectorAll('button')].find((button) => button.textContent === 'Close it')!;
  await act(async () => confirm.click());
}

it('a close that went through while every answer was lost ends as an answered close: closed, then the login', async () => {
  const calls = await openWith({ closed: false, lose: 'close' });
  const before = calls.length;
  await tapClose();
  await settle(() => toasts.current !== null);

  expect(toastText()).toBe('Your account is closed.');
  expect(location.hash).toBe(`#${ROUTES.login}`);
  expect(session.token).toBeNull();
  // Every attempt of the close under one key, then the question about that key; no read with the ended session.
  const after = pathsOf(calls.slice(before));
  expect(after.filter((path) => path === '/api/users/close')).toHaveLength(5);
  expect(new Set(closeKeys(calls)).size).toBe(1);
  expect(after.at(-1)).toBe('/api/users/write-outcome');
  expect(new URLSearchParams(calls.at(-1)!.body).get('key')).toBe(closeKeys(calls)[0]);
  expect(after).not.toContain('/api/users/close/ending');
});

it('with the network gone, says so and stays; tapping again sends the same key and its replayed answer closes', async () => {
  const server: Server = { closed: false, lose: 'all after the close' };
  const calls = await openWith(server);
  const before = calls.length;
  await tapClose();
  await settle(() => toasts.current !== null);
  expect(toastText()).not.toBe(EXPIRED);
  expect(toastText()).not.toBe('Your account is closed.');
  expect(session.token).toBe(TOKEN);
  expect(pathsOf(calls.slice(before))).not.toContain('/api/users/close/ending');

  // Back online: the same tap, the same key, the stored answer.
  server.lose = 'none';
  toasts.current = null;
  await tapClose();
  await settle(() => toasts.current !== null);
  expect(toastText()).toBe('Your account is closed.');
  expect(location.hash).toBe(`#${ROUTES.login}`);
  expect(new Set(closeKeys(calls)).size).toBe(1);
});
