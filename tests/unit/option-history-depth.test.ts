// @vitest-environment jsdom
// The purchase record's history as a customer meets it: an option placed before newer ones settles after them (a
// longer expiry), so it joins the history below its head. Read again, the history shows it where it belongs, however
// many pages were shown, rather than only the pages kept as they were.
import { afterEach, expect, it } from 'vitest';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import { loadMore, loadOrders, optionsState } from '../../src/features/options/options-store.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';
import { option } from './option-orders.ts';

afterEach(() => {
  optionsState.history = { lists: [], next: null, total: 0, loaded: false, failure: null };
  resetClientState();
});

const settled = (id: number): OptionOrder =>
  option(id, {
    start_price: '97190.83',
    start_price_at: '2026-11-27T20:58:00.000Z',
    start_at: '2026-11-27T20:58:00.000Z',
    end_at: '2026-11-27T20:59:00.000Z',
    end_price: '97200.00',
    end_price_at: '2026-11-27T20:59:00.000Z',
    outcome: 'win',
    payout: '18.00000000',
    profit: '8.00000000',
  });

/** Orders `from` down to `to`, newest first. */
const orders = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, index) => settled(from - index));
const page = (lists: OptionOrder[], next: string | null, total: number) => envelope(1, 'ok', { lists, next, total });

it('an option placed earlier and settled after newer ones shows in the history read again', async () => {
  stubFetch(
    page(orders(40, 21), '21', 21),
    page([settled(19)], null, 21),
    // Order 20 (five minutes) settled meanwhile, after the one-minute orders placed after it.
    page(orders(40, 21), '21', 22),
    page(orders(20, 19), null, 22),
  );
  await loadOrders('history');
  await loadMore('history');
  expect(optionsState.history.lists.map((order) => order.id)).toEqual(
    [...orders(40, 21), settled(19)].map((o) => o.id),
  );

  await loadOrders('history');
  expect(optionsState.history.lists.map((order) => order.id)).toEqual(orders(40, 19).map((order) => order.id));
  expect(optionsState.history.next).toBeNull();
});
