// @vitest-environment jsdom
// The withdrawal's "Limits" as a customer reads them in Arabic: the range in the language's words, each amount kept
// left to right on its own and the range itself right to left, so it reads from its minimum on the right (never one
// left-to-right run, which an Arabic reader would read from 50,000.00 down to 10.00). The same range as a lock-up
// product's (ui/AmountRange.tsx).
import { act } from 'react';
import { i18n, type Messages } from '@lingui/core';
import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WithdrawRule } from '../../src/api-contract/funds.ts';
import { configureApi } from '../../src/lib/api.ts';
import { session } from '../../src/lib/session.ts';
import WithdrawPage from '../../src/features/funds/WithdrawPage.tsx';
import { withdrawState } from '../../src/features/funds/withdraw-store.ts';
import { renderInApp } from './render-in-app.tsx';
import { envelope, mountPoint, resetClientState, customerInfo, savedCard } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const user = customerInfo();
const card = savedCard();
const rule: WithdrawRule = { asset: 'USDT', fee_rate: '0.01', min_amount: '10', max_amount: '50000', available: '800' };
const list = (lists: unknown[]) => ({ lists, page: 1, total: lists.length });
const ANSWERS: Record<string, unknown> = {
  '/users/bank': list([card]),
  '/users/wallet/lists': list([]),
  '/users/info': user,
  '/users/extract/rate': rule,
};

const before = i18n.locale;
beforeEach(async () => {
  resetClientState();
  session.token = 'token-withdraw';
  session.user = user;
  // A new session forgets the user's stores (told in a microtask): the test's own state is set after.
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  const fetch = async (input: RequestInfo | URL) => {
    const path = new URL((input as Request).url).pathname.replace(/^\/api/, '');
    return path in ANSWERS ? envelope(1, '', ANSWERS[path]) : envelope(0, 'unexpected call');
  };
  configureApi({ fetch: fetch as typeof globalThis.fetch, retryDelay: () => 0 });
});
afterEach(() => act(async () => resetClientState()));
afterAll(() => act(() => i18n.activate(before)));

it('in Arabic the limits read from the minimum on the right: each amount isolated inside a translated range', async () => {
  const locale = 'ar';
  const { messages } = (await import(`../../src/locales/${locale}/messages.po`)) as { messages: Messages };
  await act(() => {
    i18n.load('ar', messages);
    i18n.activate('ar');
  });
  await renderInApp(view, <WithdrawPage />);
  await act(() => vi.waitFor(() => expect(withdrawState.rules.USDT).toBeDefined()));
  const row = [...view.container.querySelectorAll('.funds-rule dl > div')].find(
    (item) => item.querySelector('dt')?.textContent === 'الحدود',
  )!;
  const limits = row.querySelector('dd')!;
  expect(limits.textContent).toBe('10.00 – 50,000.00 USDT');
  // The range follows the page's direction (right to left), so its first amount, the minimum, stands on the right.
  expect(limits.querySelector('[dir="ltr"] [dir="ltr"]')).toBeNull();
  expect(limits.firstElementChild?.closest('[dir="ltr"]')).toBeNull();
  expect([...limits.querySelectorAll('[dir="ltr"]')].map((amount) => amount.textContent)).toEqual([
    '10.00',
    '50,000.00',
  ]);
  expect(limits.querySelector('bdi')?.textContent).toBe('USDT');
});
