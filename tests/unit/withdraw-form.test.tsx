// @vitest-environment jsdom
// The withdrawal form as a customer reads it.
// - Its "Limits" in Arabic: the range in the language's words, each amount kept left to right on its own and the range
//   itself right to left, so it reads from its minimum on the right (never one left-to-right run, which an Arabic
//   reader would read from 50,000.00 down to 10.00). The same range as a lock-up product's (ui/AmountRange.tsx).
// - Its Max (withdraw-store.ts maxWithdrawable) takes the whole balance whenever an amount plus its fee equals it;
//   when none does (the fee is rounded up to 8 decimals, so the total steps over the balance), the form says what
//   stays, 0.00000001, and why, rather than leave it unexplained.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { WithdrawRule } from '../../src/api-contract/funds.ts';
import { configureApi } from '../../src/lib/api.ts';
import { session } from '../../src/lib/session.ts';
import WithdrawPage from '../../src/features/funds/WithdrawPage.tsx';
import { withdrawState } from '../../src/features/funds/withdraw-store.ts';
import { activateCatalog, renderInApp } from './render-in-app.tsx';
import { envelope, mountPoint, resetClientState, customerInfo, savedCard } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const user = customerInfo();
const card = savedCard();
const rule: WithdrawRule = { asset: 'USDT', fee_rate: '0.01', min_amount: '10', max_amount: '50000', available: '800' };
/** 8,805.88447299 USDT at a 1 % fee: no amount plus its fee (rounded up to 8 decimals) is this balance exactly. */
const UNEVEN = '8805.88447299';
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
  await activateCatalog('ar');
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

/** The Max tapped: the amount field takes it and the quote follows. */
async function tapMax() {
  await renderInApp(view, <WithdrawPage />);
  await act(() => vi.waitFor(() => expect(withdrawState.rules.USDT).toBeDefined()));
  const max = view.container.querySelector<HTMLButtonElement>('.field-all')!;
  expect(max.textContent).toBe('Max');
  await act(async () => max.click());
}

it('says the 0.00000001 USDT the Max leaves, and why, when no amount plus its fee is the whole balance', async () => {
  ANSWERS['/users/extract/rate'] = { ...rule, available: UNEVEN };
  try {
    await act(() => i18n.activate('en'));
    await tapMax();
    expect(view.container.querySelector<HTMLInputElement>('input[inputmode="decimal"]')?.value).toBe('8718.697498');
    const notes = [...view.container.querySelectorAll('.funds-quote .funds-note')].map((note) => note.textContent);
    expect(notes).toContain(
      '0.00000001 USDT stays in your balance: the fee is rounded up to 8 decimals, so no amount plus its fee comes to your whole balance exactly.',
    );
  } finally {
    ANSWERS['/users/extract/rate'] = rule;
  }
});

it('says nothing when the Max takes the whole balance', async () => {
  ANSWERS['/users/extract/rate'] = { ...rule, available: '1000' };
  try {
    await act(() => i18n.activate('en'));
    await tapMax();
    expect(view.container.querySelector<HTMLInputElement>('input[inputmode="decimal"]')?.value).toBe('990.0990099');
    const notes = [...view.container.querySelectorAll('.funds-quote .funds-note')].map((note) => note.textContent);
    expect(notes.some((note) => note?.includes('stays in your balance'))).toBe(false);
  } finally {
    ANSWERS['/users/extract/rate'] = rule;
  }
});
