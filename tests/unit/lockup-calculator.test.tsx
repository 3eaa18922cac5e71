// @vitest-environment jsdom
// The lock-up product page's calculator as a customer uses it: an amount a subscription would refuse (below the
// product's minimum, above its maximum, above the balance) shows why it is refused, never an expected income for an
// order that cannot be placed; an amount inside the limits shows the income.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { configureApi } from '../../src/lib/api.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { session } from '../../src/lib/session.ts';
import { loadNumberParser } from '../../src/lib/typed-amount.ts';
import LockupDetailsPage from '../../src/features/lockup/LockupDetailsPage.tsx';
import { lockupState } from '../../src/features/lockup/lockup-store.ts';
import { envelope, lockupMonth, mountPoint, resetClientState } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const month = lockupMonth({ remaining: null });

/** The server as the page calls it: the product, today's interest day, and `usdt` available. */
function serve(usdt: string) {
  const answers: Record<string, () => Response> = {
    '/api/lockup/product': () => envelope(1, 'ok', month),
    '/api/yuebao/product': () => envelope(1, 'ok', { today: '2026-11-23', timezone: 'Asia/Bangkok' }),
    '/api/users/balances': () =>
      envelope(1, 'ok', { lists: [{ asset: 'USDT', available: usdt, frozen: '0' }], page: 1, total: 1 }),
  };
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const answer = answers[new URL((input as Request).url).pathname];
    return answer ? answer() : envelope(0, 'not served');
  });
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
}

beforeAll(async () => {
  await loadNumberParser();
});
beforeEach(() => {
  resetClientState();
  Object.assign(lockupState, { details: {}, today: null });
});
afterEach(() => act(async () => resetClientState()));

async function openProduct() {
  await renderInApp(view, <LockupDetailsPage />, '/pages/Lock-up/productDetails/productDetails?id=3');
  // Every call the page makes answered: the product, today, and a signed-in customer's balance.
  await settled(() => {
    expect(view.container.querySelector('.lockup-calculator input')).not.toBeNull();
    expect(lockupState.today).toBe('2026-11-23');
    if (session.token) expect(userBalances.updatedAt).not.toBeNull();
  });
}

/** Waits, inside act, until `check` passes (the page's calls answered and rendered). */
const settled = (check: () => void) => act(() => vi.waitFor(check));

async function type(text: string) {
  await act(async () => {
    const input = view.container.querySelector<HTMLInputElement>('.lockup-calculator input')!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** What the calculator card says now: the refusal shown, and each row's label and figure. */
function calculator() {
  const card = view.container.querySelector('.lockup-calculator')!;
  const rows = [...card.querySelectorAll('.detail-rows > div')].map((row) => [
    row.querySelector('dt')?.textContent,
    row.querySelector('dd')?.textContent,
  ]);
  return { problem: card.querySelector('.lockup-problem')?.textContent ?? null, rows: Object.fromEntries(rows) };
}

it.each([
  ['below the minimum', '499.99', 'The minimum amount is: 500 USDT!'],
  ['above the maximum', '200000.01', 'The maximum amount is: 200,000 USDT!'],
  ['above the balance', '1500', 'Insufficient balance!'],
])('an amount %s shows why it is refused, and no income', async (_case, typed, refusal) => {
  session.token = 'token-a';
  serve('1000');
  await openProduct();
  expect(view.container.querySelector('.lockup-available')?.textContent).toBe('Available 1,000.00 USDT');
  await type(typed);
  const shown = calculator();
  expect(shown.problem).toBe(refusal);
  expect(shown.rows['Income per day']).toBe('—');
  expect(shown.rows['Principal + income']).toBe('—');
});

it('an amount that can be subscribed shows its income and no refusal', async () => {
  session.token = 'token-a';
  serve('1000');
  await openProduct();
  expect(view.container.querySelector('.lockup-available')?.textContent).toBe('Available 1,000.00 USDT');
  await type('1000');
  const shown = calculator();
  expect(shown.problem).toBeNull();
  expect(shown.rows['Income per day']).toBe('1.20 USDT');
});

it('a visitor (balance unknown) is told the limits, and nothing while the field is empty', async () => {
  serve('0');
  await openProduct();
  expect(calculator().problem).toBeNull();
  await type('100');
  expect(calculator()).toMatchObject({ problem: 'The minimum amount is: 500 USDT!' });
  await type('5000');
  expect(calculator().problem).toBeNull();
});
