// @vitest-environment jsdom
// A toast that says an amount with its unit reads "0.001 BTC" in Arabic too: the toast shows the amount and its unit in
// one left-to-right element, so the right-to-left text around them cannot flip the pair into "BTC 0.001"; a price it
// names is one left-to-right element too. No invisible direction character is put in the text. Checked on a market
// order's fill and an option's settlement.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ToastHost } from '../../src/app/Overlays.tsx';
import { marketOutcomeText } from '../../src/features/contracts/contracts-store.ts';
import { outcomeText } from '../../src/features/options/options-store.ts';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import { toast, toasts } from '../../src/lib/toast.ts';
import { contractOrderOf, mountPoint, resetClientState } from './helpers.ts';
import { activateCatalog, renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

const before = i18n.locale;
beforeAll(() => activateCatalog('ar'));
afterAll(() => act(() => i18n.activate(before)));
// The element that shows a toast's amounts is a chunk of its own (React.lazy): loaded before, it renders within act.
beforeAll(() => import('../../src/app/ToastMessageText.tsx'));
afterEach(() => act(async () => resetClientState()));

/** The toast showing, with the text of each of its left-to-right elements in order. */
async function shown(): Promise<{ text: string; ltr: (string | null)[] }> {
  await renderInApp(view, <ToastHost />);
  const box = view.container.querySelector('.toast')!;
  return {
    text: box.textContent ?? '',
    ltr: [...box.querySelectorAll('[dir="ltr"]')].map((element) => element.textContent),
  };
}

/** Characters that change the direction of text without being seen (marks, embeddings, isolates). */
const DIRECTION_CHARACTERS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/;

it("a market order's fill keeps its quantity beside its coin, and its price, left to right", async () => {
  const order = contractOrderOf({ status: 'filled', side: 'buy', code: 'BTC', quantity: '0.00100000' });
  await act(async () => toast(marketOutcomeText({ ...order, unit_price: '97074.84000000' }, 2)));
  const { text, ltr } = await shown();
  expect(ltr).toEqual(['0.001 BTC', '97,074.84']);
  expect(text).toBe('تم شراء 0.001 BTC بسعر 97,074.84');
  expect(text).not.toMatch(DIRECTION_CHARACTERS);
  // The plain text (its reading time, what other code reads) says the same.
  expect(toasts.current?.text).toBe(text);
});

it("an option's settlement keeps its USDT beside the amount", async () => {
  const order = {
    code: 'XRP',
    amount: '10.00000000',
    outcome: 'win',
    profit: '8.00000000',
    payout: null,
    status: 'settled',
  } as unknown as OptionOrder;
  await act(async () => toast(outcomeText(order)));
  expect((await shown()).ltr).toEqual(['+8.00 USDT']);
});
