// @vitest-environment jsdom
// An option's recorded prices as a customer reads them: with the pair's price decimals, as its live price reads
// (BTC: 2), in the order lists and on the order's page; but where the start and end prices differ only beyond those
// decimals (the settlement compares every recorded digit), both with every digit and a line that says why, so a loss
// at "97,250.12 → 97,250.12" never reads as a tie.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import { configureApi } from '../../src/lib/api.ts';
import { prices } from '../../src/lib/prices.ts';
import { OrderTabs } from '../../src/features/options/OrderLists.tsx';
import OrderRecordPage from '../../src/features/options/OrderRecordPage.tsx';
import { optionsState } from '../../src/features/options/options-store.ts';
import { coinQuote, envelope, mountPoint, resetClientState } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';
import { option as settledOption } from './option-orders.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

const option = (id: number, fields: Partial<OptionOrder>): OptionOrder =>
  settledOption(id, {
    start_price: '97190.8312',
    start_price_at: '2026-11-27T20:58:00.000Z',
    start_at: '2026-11-27T20:58:00.000Z',
    end_at: '2026-11-27T20:59:00.000Z',
    settled_at: '2026-11-27T20:59:00.000Z',
    ...fields,
  });
/** Won: the end price plainly above the start. */
const won = option(1, {
  end_price: '97195.0047',
  end_price_at: '2026-11-27T20:59:00.000Z',
  outcome: 'win',
  payout: '18.00000000',
  profit: '8.00000000',
});
/** Lost by 0.0023: start and end read 97,250.12 both at BTC's 2 decimals. */
const lostBeyondDecimals = option(2, {
  start_price: '97250.1234',
  end_price: '97250.1211',
  end_price_at: '2026-11-27T20:59:00.000Z',
  outcome: 'loss',
  payout: '0.00000000',
  profit: '-10.00000000',
});
const pendingOrder = option(3, { status: 'holding', settled_at: null, remaining_seconds: 30 });

// A settled order's ticks come in a chunk of their own (React.lazy): loaded before, it renders within act.
beforeAll(() => import('../../src/features/options/SettlementTicks.tsx'));
beforeEach(() => {
  i18n.activate('en');
  prices.quotes = { BTC: coinQuote('BTC', '97195.40', '2026-11-27T20:58:30.000Z', { price_decimals: 2 }) };
  prices.codes = ['BTC'];
  configureApi({
    fetch: vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL((input as Request).url);
      const id = Number(url.searchParams.get('id'));
      if (url.pathname.endsWith('/coin/order/ticks'))
        return envelope(1, 'ok', {
          id,
          code: 'BTC',
          start: { deciding_at: null, ticks: [] },
          end: { deciding_at: null, ticks: [] },
        });
      const order = [won, lostBeyondDecimals, pendingOrder].find((known) => known.id === id);
      return order ? envelope(1, 'ok', order) : envelope(0, 'not served');
    }) as unknown as typeof globalThis.fetch,
    retryDelay: () => 0,
  });
});
afterEach(async () => {
  await act(async () => view.root.render(null));
  optionsState.tab = 'holding';
  optionsState.holding = { lists: [], next: null, total: 0, loaded: false, failure: null };
  optionsState.history = { lists: [], next: null, total: 0, loaded: false, failure: null };
  optionsState.details = {};
  prices.quotes = {};
  resetClientState();
});

/** Each figure of the order cards on screen, by its label: { 'Start price': '97,190.83', … }. */
function cards() {
  return [...view.container.querySelectorAll('.opt-order-grid')].map((grid) =>
    Object.fromEntries(
      [...grid.children].map((cell) => [cell.querySelector('.muted')?.textContent, cell.lastElementChild?.textContent]),
    ),
  );
}

it('the purchase record shows start and end prices with the pair’s decimals, every digit only where they decide', async () => {
  optionsState.tab = 'history';
  optionsState.history = { next: null, loaded: true, failure: null, total: 2, lists: [lostBeyondDecimals, won] };
  await renderInApp(view, <OrderTabs />);
  expect(cards()).toEqual([
    { Amount: '10.00', 'Start price': '97,250.1234', 'End price': '97,250.1211' },
    { Amount: '10.00', 'Start price': '97,190.83', 'End price': '97,195.00' },
  ]);
});

it('a pending order’s start price reads with the decimals of the live price beside it', async () => {
  optionsState.holding = { next: null, loaded: true, failure: null, total: 1, lists: [pendingOrder] };
  await renderInApp(view, <OrderTabs />);
  expect(cards()).toEqual([{ Amount: '10.00', 'Start price': '97,190.83', 'Current price': '97,195.40' }]);
});

/** The order's page for `order`, once its rows are on screen: each row's label and text, and the result card. */
async function orderPage(order: OptionOrder) {
  optionsState.details = { [order.id]: order };
  await renderInApp(view, <OrderRecordPage />, `/pages/Option/orderRecord/orderRecord?id=${order.id}`);
  await act(() =>
    vi.waitFor(() => {
      expect(view.container.querySelector('.opt-rows')).not.toBeNull();
      if (order.status === 'settled') expect(view.container.querySelector('[data-ticks]')).not.toBeNull();
    }),
  );
  const rows = Object.fromEntries(
    [...view.container.querySelectorAll('.opt-rows > div')].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('dd .opt-num')?.textContent ?? row.querySelector('dd')?.textContent,
    ]),
  );
  return { rows, result: view.container.querySelector('.opt-result')?.textContent ?? '' };
}

it('a settled order’s page shows its prices with the pair’s decimals', async () => {
  const { rows, result } = await orderPage(won);
  expect([rows['Start price'], rows['End price']]).toEqual(['97,190.83', '97,195.00']);
  expect(result).toBe('Won+8.00 USDT');
});

it('a loss decided beyond the pair’s decimals shows both prices exactly, and says why', async () => {
  const { rows, result } = await orderPage(lostBeyondDecimals);
  expect([rows['Start price'], rows['End price']]).toEqual(['97,250.1234', '97,250.1211']);
  expect(result).toContain('Lost-10.00 USDT');
  expect(result).toContain(
    'The start and end prices differ only beyond the usual decimals: both are shown to every recorded digit, as the result compares them.',
  );
});

it('a pending order’s page shows its start price with the live price’s decimals', async () => {
  const { rows, result } = await orderPage(pendingOrder);
  expect(rows['Start price']).toBe('97,190.83');
  expect(result).toContain('Current price 97,195.40');
});
