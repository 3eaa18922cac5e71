// @vitest-environment jsdom
// Every amount with its unit on the contracts page reads "10,000.48 USDT" in Arabic too: the amount and its unit sit in
// one left-to-right element, so right-to-left text around them cannot flip the pair into "USDT 10,000.48" (or an
// empty quantity into "BTC —"). Checked on the order form (the market price line, Available, the preview's quantity,
// total, fee and what arrives), its confirmation, an order's details opened from the open orders list, what each open
// order holds in that list (a waiting stop's too, adding up to the pair's frozen amounts), and the practice account's
// strip above the form; and on the options page's order form (Available, what a win pays).
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import Big from 'big.js';
import { OrderDetails } from '../../src/features/contracts/ContractParts.tsx';
import { OpenOrders } from '../../src/features/contracts/OpenOrders.tsx';
import { contractsState } from '../../src/features/contracts/contracts-store.ts';
import { OrderPanel } from '../../src/features/contracts/OrderPanel.tsx';
import { optionsState } from '../../src/features/options/options-store.ts';
import { TradePanel } from '../../src/features/options/TradePanel.tsx';
import { userBalances } from '../../src/lib/balances.ts';
import { accountChoice, practice } from '../../src/lib/practice.ts';
import { prices } from '../../src/lib/prices.ts';
import { session } from '../../src/lib/session.ts';
import { AccountSwitch } from '../../src/ui/AccountSwitch.tsx';
import { coinQuote, contractOrderOf, customerInfo, mountPoint, resetClientState, contractPair } from './helpers.ts';
import { activateCatalog, renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const AT = '2026-12-05T08:00:00.000Z';
const BTC = contractPair();

const before = i18n.locale;
beforeAll(() => activateCatalog('ar'));
afterAll(() => act(() => i18n.activate(before)));

beforeEach(() => {
  contractsState.pairs = [BTC];
  contractsState.amounts = {
    BTC: {
      code: 'BTC',
      available: '0.50000000',
      frozen: '0',
      usdt_available: '10000.48000000',
      usdt_frozen: '0',
    },
  };
  prices.quotes = { BTC: coinQuote('BTC', '97280.39', AT) };
});
afterEach(() => act(async () => resetClientState()));

/** The text of each left-to-right element inside `element`, in order. */
const ltrTexts = (element: Element | null) =>
  [...(element?.querySelectorAll('[dir="ltr"]') ?? [])].map((item) => item.textContent);
/** Each figure of the preview (in the form, or in the confirmation when `inside` is the dialog) as its ltr texts. */
const figures = (inside: ParentNode) => [...inside.querySelectorAll('.ct-figures dd')].map((dd) => ltrTexts(dd));
const click = (element: Element | null | undefined) => act(async () => (element as HTMLElement).click());

/** Types `text` into the input `name` (an input's name, or a selector of it). */
async function type(name: string, text: string) {
  await act(async () => {
    const input = view.container.querySelector<HTMLInputElement>(/^\w+$/.test(name) ? `input[name="${name}"]` : name)!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

it('the order form keeps each amount beside its unit, left to right, before and after a quantity is typed', async () => {
  await renderInApp(view, <OrderPanel code="BTC" />);
  expect(ltrTexts(view.container.querySelector('.ct-available'))).toEqual(['10,000.48 USDT']);
  // Nothing typed yet: the quantity and total read "— BTC" and "— USDT", never "BTC —".
  expect(figures(view.container)).toEqual([['— BTC'], ['— USDT'], ['—'], ['—']]);

  // Market (the type's second button): the latest price and its unit.
  await click(view.container.querySelectorAll('.segmented button')[1]);
  expect(ltrTexts(view.container.querySelector('.ct-market-price'))).toEqual(['97,280.39 USDT']);

  // A limit buy of 0.1 BTC at 97,280.39: the preview and the confirmation say each amount with its unit.
  await click(view.container.querySelectorAll('.segmented button')[0]);
  await type('quantity', '0.1');
  // What it receives is written as its quantity is, by one formatter: 0.1 BTC twice, never 0.1 beside 0.10.
  const preview = [['0.1 BTC'], ['9,728.039 USDT'], ['9.728039 USDT'], ['0.1 BTC']];
  expect(figures(view.container)).toEqual(preview);
  await click(view.container.querySelector('.ct-submit'));
  const dialog = document.querySelector('[role="alertdialog"]')!;
  expect(figures(dialog)).toEqual(preview);
});

it("an order's details keep each amount beside its unit, left to right", async () => {
  const order = contractOrderOf({
    type: 'limit',
    status: 'open',
    price: '97000.00000000',
    quantity: '0.10000000',
    frozen: '9709.70000000',
    frozen_asset: 'USDT',
  });
  await renderInApp(view, <OrderDetails order={order} onClose={() => undefined} />);
  const rows = [...document.querySelectorAll('.ct-details > div')];
  const held = rows.find((row) => row.querySelector('dd')?.textContent?.includes('9,709.70'));
  expect(ltrTexts(held?.querySelector('dd') ?? null)).toEqual(['9,709.70 USDT']);
});

it('the open orders say what each waiting stop holds, left to right, and together what the pair has frozen', async () => {
  const waiting = { status: 'waiting' as const, trigger_state: 'waiting' as const };
  contractsState.open = [
    contractOrderOf({
      id: 1,
      type: 'stop_market',
      ...waiting,
      trigger_price: '51000',
      trigger_above: true,
      quantity: '0.10000000',
      frozen: '5610.00000000',
      frozen_asset: 'USDT',
    }),
    contractOrderOf({
      id: 2,
      side: 'sell',
      type: 'stop_limit',
      ...waiting,
      price: '89000.00000000',
      trigger_price: '90000',
      trigger_above: false,
      quantity: '0.50000000',
      frozen: '0.50000000',
      frozen_asset: 'BTC',
    }),
    contractOrderOf({
      id: 3,
      type: 'limit',
      status: 'open',
      price: '97000.00000000',
      quantity: '0.10000000',
      frozen: '9709.70000000',
      frozen_asset: 'USDT',
    }),
    // The take-profit of a pair whose stop-loss (id 2) holds the pair's reserve: it holds nothing, and says nothing.
    contractOrderOf({
      id: 4,
      side: 'sell',
      type: 'limit',
      ...waiting,
      price: '99000.00000000',
      trigger_price: '99000',
      trigger_above: true,
      quantity: '0.50000000',
      frozen: '0.00000000',
      frozen_asset: 'BTC',
      oco_group: 2,
    }),
  ];
  contractsState.openCode = 'BTC';
  contractsState.openLoaded = true;
  contractsState.amounts.BTC = { ...contractsState.amounts.BTC!, frozen: '0.50000000', usdt_frozen: '15319.70000000' };
  await renderInApp(view, <OpenOrders code="BTC" />);
  expect(view.container.querySelectorAll('.ct-order')).toHaveLength(4);
  const held = [...view.container.querySelectorAll('.ct-order .ct-held')].map((line) => ltrTexts(line));
  expect(held).toEqual([['5,610.00 USDT'], ['0.5 BTC'], ['9,709.70 USDT']]);
  // What the rows hold adds up to the pair's frozen USDT and coin.
  const sum = (unit: string) =>
    held
      .flat()
      .filter((text) => text!.endsWith(` ${unit}`))
      .reduce((total, text) => total.plus(text!.replace(/[^\d.]/g, '')), new Big(0));
  expect(sum('USDT').eq(contractsState.amounts.BTC!.usdt_frozen)).toBe(true);
  expect(sum('BTC').eq(contractsState.amounts.BTC!.frozen)).toBe(true);

  // The waiting stop's details say it too.
  await click(view.container.querySelector('.ct-order-open'));
  const rows = [...document.querySelectorAll('.ct-details > div')];
  // Its only amount is what it holds (it has no total, fee or fill yet).
  expect(rows.flatMap((row) => ltrTexts(row.querySelector('dd')))).toContain('5,610.00 USDT');
});

it("the practice account's strip says its virtual USDT left to right", async () => {
  // Signed in without a token: the strip asks for nothing and shows the practice account given here.
  session.user = customerInfo();
  accountChoice.byUser[String(session.user.id)] = 'practice';
  practice.account = {
    balances: [{ asset: 'USDT', available: '10000.00000000', frozen: '0' }],
    start_amount: '10000',
    resets: 0,
    opened_at: AT,
    reset_at: null,
  };
  await renderInApp(view, <AccountSwitch />);
  expect(ltrTexts(view.container.querySelector('.account-note'))).toEqual(['10,000.00 USDT']);
});

it('the options order form says Available and what a win pays with each unit after its amount', async () => {
  userBalances.lists = [{ asset: 'USDT', available: '80.00000000', frozen: '0' }];
  userBalances.updatedAt = AT;
  optionsState.products = { BTC: [{ id: 1, code: 'BTC', minutes: 1, yield_rate: '0.9', min_amount: '10' }] };
  prices.quotes = { BTC: coinQuote('BTC', '97280.39', AT) };
  await renderInApp(view, <TradePanel code="BTC" onPlaced={() => undefined} />);
  await type('.opt-trade input', '10');
  const notes = view.container.querySelector('.opt-amount-notes');
  // "المتاح: 80.00 USDT" read right to left: the amount and its unit one left-to-right element, never "USDT 80.00".
  expect(ltrTexts(notes)).toEqual(['80.00 USDT', '19.00 USDT']);
  expect(notes?.textContent).toContain('المتاح: 80.00 USDT');
  // The order's summary in its confirmation: the amount and the payout if it wins.
  await click(view.container.querySelector('.opt-buy.up'));
  const rows = [...document.querySelectorAll('[role="alertdialog"] dd')].map((dd) => ltrTexts(dd));
  expect(rows).toContainEqual(['10.00 USDT']);
  expect(rows).toContainEqual(['19.00 USDT']);
});
