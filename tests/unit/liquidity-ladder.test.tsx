// @vitest-environment jsdom
// The liquidity ladder's tier ranges as a customer reads them in each of the six languages: a bounded tier "0 – 1,000",
// the open-ended top tier "10,000 and above" in the language's words (never "10,000 +", nor a range to 0); each
// amount kept left to right on its own, the words around it in the language's direction (right to left in Arabic).
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterAll, expect, it } from 'vitest';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { LadderTable } from '../../src/features/liquidity/LiquidityParts.tsx';
import { activateCatalog, renderInApp } from './render-in-app.tsx';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const LADDER = [
  { up_to: '1000', rate: '0.06' },
  { up_to: '10000', rate: '0.04' },
  { up_to: null, rate: '0.025' },
];
/** A bounded range in each language's words (the catalog's one text for a range "from – to"). */
const RANGE: Record<string, (from: string, to: string) => string> = {
  zh: (from, to) => `${from} 至 ${to}`,
  jp: (from, to) => `${from}〜${to}`,
};
const range = (locale: string, from: string, to: string) => RANGE[locale]?.(from, to) ?? `${from} – ${to}`;
/** The open upper bound in each language's words, around the amount. */
const AND_ABOVE: Record<string, string> = {
  en: '10,000 and above',
  zh: '10,000 及以上',
  jp: '10,000 以上',
  th: '10,000 ขึ้นไป',
  ar: '10,000 وما فوق',
  hi: '10,000 और उससे अधिक',
};

const before = i18n.locale;
afterAll(() => act(() => i18n.activate(before)));

it.each([...LOCALES])(
  'in %s the top tier reads as its lower bound "and above", the others as ranges',
  async (locale) => {
    await activateCatalog(locale);
    await renderInApp(view, <LadderTable ladder={LADDER} caption="Today" />);
    const cells = [...view.container.querySelectorAll('tbody tr td:first-child')];
    expect(cells.map((cell) => cell.textContent)).toEqual([
      range(locale, '0', '1,000'),
      range(locale, '1,000', '10,000'),
      AND_ABOVE[locale],
    ]);
    for (const cell of cells) {
      // Each amount on its own left to right; the cell itself follows the page's direction, so the words and the order
      // of the two bounds are the language's.
      const amounts = [...cell.querySelectorAll('[dir="ltr"]')].map((amount) => amount.textContent);
      expect(amounts.every((amount) => /^[\d,]+$/.test(amount ?? ''))).toBe(true);
      expect(cell.closest('[dir="ltr"]')).toBeNull();
    }
    expect(cells[2]!.querySelectorAll('[dir="ltr"]')).toHaveLength(1);
  },
);
