// @vitest-environment jsdom
// A lock-up product's "Per subscription" range as a customer reads it: in the language's words ("100.00 – 50,000.00
// USDT", "100.00 至 50,000.00 USDT"), each amount kept left to right on its own and the range itself in the page's
// direction, so in Arabic it reads from its minimum on the right (never one left-to-right run, which an Arabic reader
// would read from 50,000.00 down to 100.00).
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterAll, expect, it } from 'vitest';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { ProductCard } from '../../src/features/lockup/LockupParts.tsx';
import { activateCatalog, renderInApp } from './render-in-app.tsx';
import { lockupMonth, mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const product = lockupMonth({ min_amount: '100', max_amount: '50000' });
/** The range in each language's words (the same words as the liquidity ladder's ranges). */
const RANGE: Record<string, string> = {
  zh: '100.00 至 50,000.00 USDT',
  jp: '100.00〜50,000.00 USDT',
};

const before = i18n.locale;
afterAll(() => act(() => i18n.activate(before)));

async function openIn(locale: string) {
  await activateCatalog(locale);
  await renderInApp(
    view,
    <ul>
      <ProductCard product={product} />
    </ul>,
  );
  // The card's foot: "Per subscription", then the range.
  return view.container.querySelector('.lockup-product-foot > span')!.lastElementChild!;
}

it('in Arabic each amount of the range is isolated left to right inside a translated text, not one run', async () => {
  const limits = await openIn('ar');
  expect(limits.textContent).toBe('100.00 – 50,000.00 USDT');
  // The range follows the page's direction (right to left), so its first amount, the minimum, stands on the right.
  expect(limits.closest('[dir="ltr"]')).toBeNull();
  const amounts = [...limits.querySelectorAll('[dir="ltr"]')].map((amount) => amount.textContent);
  expect(amounts).toEqual(['100.00', '50,000.00']);
  expect(limits.querySelector('bdi')?.textContent).toBe('USDT');
});

it.each([...LOCALES])('in %s the range reads in the language, its amounts isolated', async (locale) => {
  const limits = await openIn(locale);
  expect(limits.textContent).toBe(RANGE[locale] ?? '100.00 – 50,000.00 USDT');
  expect(limits.closest('[dir="ltr"]')).toBeNull();
  expect([...limits.querySelectorAll('[dir="ltr"]')].map((amount) => amount.textContent)).toEqual([
    '100.00',
    '50,000.00',
  ]);
});
