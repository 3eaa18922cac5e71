// @vitest-environment jsdom
// The offer of notifications after an order (ui/push-offer.tsx), with a fake Notification and service worker: once
// the customer has said "Not now", or the browser's answer is "denied", later orders — in this session or a new one on
// the same device — do not offer it again; Settings still can. An offer whose texts could not load was never seen, and
// a later order makes it again.
import { act } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let permission: NotificationPermission = 'default';
const requestPermission = vi.fn(async () => permission);

beforeEach(() => {
  permission = 'default';
  requestPermission.mockClear();
  localStorage.clear();
  // The browser's answer so far, read live (Object.assign would copy a getter's value once).
  const fake = Object.defineProperty(function Notification() {}, 'permission', { get: () => permission });
  vi.stubGlobal('Notification', Object.assign(fake, { requestPermission }));
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      addEventListener: () => undefined,
      getRegistration: async () => ({ pushManager: { getSubscription: async () => null } }),
    },
  });
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

/** An order went through in a new session: the app's modules loaded afresh, the device's storage kept. */
async function orderPlacedInNewSession() {
  vi.resetModules();
  const { offerNotifications } = await import('../../src/ui/push-offer.tsx');
  await act(() => offerNotifications());
}
const offer = () => document.querySelector('[role="alertdialog"]');

it('offers once; after "Not now" no later order offers it, in this session or a new one', async () => {
  await orderPlacedInNewSession();
  expect(offer()).not.toBeNull();
  // The catalogs' area parts are not loaded here: the dialog shows its texts' ids.
  const notNow = [...offer()!.querySelectorAll('button')].find((button) => button.textContent === 'push.notNow')!;
  await act(async () => notNow.click());
  expect(offer()).toBeNull();
  for (let session = 0; session < 3; session++) {
    await orderPlacedInNewSession();
    expect(offer(), `session ${session}`).toBeNull();
  }
  expect(requestPermission).not.toHaveBeenCalled();
});

it('never offers on a device whose browser answered "denied", nor asks the browser', async () => {
  permission = 'denied';
  await orderPlacedInNewSession();
  expect(offer()).toBeNull();
  expect(requestPermission).not.toHaveBeenCalled();
});

it('offers again after an order whose offer could not load its texts (offline), and remembers it once shown', async () => {
  vi.resetModules();
  vi.doMock('../../src/lib/push.ts', async (original) => ({
    ...(await original<typeof import('../../src/lib/push.ts')>()),
    loadPushTexts: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  }));
  const offline = await import('../../src/ui/push-offer.tsx');
  // Nothing is shown and nothing rejects: the order that went through is not followed by an error.
  await act(() => expect(offline.offerNotifications()).resolves.toBeUndefined());
  expect(offer()).toBeNull();
  vi.doUnmock('../../src/lib/push.ts');

  await orderPlacedInNewSession();
  expect(offer()).not.toBeNull();
  expect(localStorage.getItem('push-offered')).not.toBeNull();
});
