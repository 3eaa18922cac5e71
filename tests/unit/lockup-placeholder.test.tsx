// @vitest-environment jsdom
// The lock-up calculator's amount field says the subscription range in its placeholder, where no element can stand:
// the range in the language's words, each amount isolated (Unicode's FSI … PDI: digits, left to right) and the whole
// in an isolate of the page's direction. The field itself is left to right (an amount is typed so): without that outer
// isolate an Arabic reader would meet 50,000.00 first, reading from the right.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import { configureApi } from '../../src/lib/api.ts';
import LockupDetailsPage from '../../src/features/lockup/LockupDetailsPage.tsx';
import { lockupState } from '../../src/features/lockup/lockup-store.ts';
import { envelope, lockupMonth, mountPoint, resetClientState } from './helpers.ts';
import { activateCatalog, renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const product = lockupMonth({ min_amount: '100', max_amount: '50000', remaining: null });
const [RLI, LRI, FSI, PDI] = ['\u2067', '\u2066', '\u2068', '\u2069'];
/** An amount as the placeholder holds it: in its own first-strong isolate. */
const amount = (text: string) => `${FSI}${text}${PDI}`;

const before = i18n.locale;
beforeEach(() => {
  resetClientState();
  Object.assign(lockupState, { details: {}, today: null });
  const answers: Record<string, () => Response> = {
    '/api/lockup/product': () => envelope(1, 'ok', product),
    '/api/yuebao/product': () => envelope(1, 'ok', { today: '2026-11-23', timezone: 'Asia/Bangkok' }),
  };
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const answer = answers[new URL((input as Request).url).pathname];
    return answer ? answer() : envelope(0, 'not served');
  });
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
});
afterEach(() => act(async () => resetClientState()));
afterAll(() => act(() => i18n.activate(before)));

/** The calculator's amount placeholder, the product page opened in `locale`. */
async function placeholderIn(locale: string): Promise<string> {
  await activateCatalog(locale);
  await renderInApp(view, <LockupDetailsPage />, '/pages/Lock-up/productDetails/productDetails?id=3');
  await act(() => vi.waitFor(() => expect(view.container.querySelector('.lockup-calculator input')).not.toBeNull()));
  return view.container.querySelector<HTMLInputElement>('.lockup-calculator input')!.placeholder;
}

it('in Arabic the range reads from its minimum on the right: a right-to-left isolate, each amount isolated', async () => {
  expect(await placeholderIn('ar')).toBe(`${RLI}${amount('100.00')} – ${amount('50,000.00')}${PDI}`);
});

it('in English the range reads left to right, each amount isolated', async () => {
  expect(await placeholderIn('en')).toBe(`${LRI}${amount('100.00')} – ${amount('50,000.00')}${PDI}`);
});

it('in Chinese and Japanese the range takes the language’s words, as on the product card', async () => {
  expect(await placeholderIn('zh')).toBe(`${LRI}${amount('100.00')} 至 ${amount('50,000.00')}${PDI}`);
  expect(await placeholderIn('jp')).toBe(`${LRI}${amount('100.00')}〜${amount('50,000.00')}${PDI}`);
});
