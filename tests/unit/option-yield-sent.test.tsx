// @vitest-environment jsdom
// An option is bought at the yield the customer confirmed: the order form sends the yield it showed, so an operator's
// change meanwhile is refused by the server rather than paid at a yield the customer never saw; after the refusal
// the coin's products are read again, and the form shows the yield now.
import { act } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { optionsState } from '../../src/features/options/options-store.ts';
import { TradePanel } from '../../src/features/options/TradePanel.tsx';
import { userBalances } from '../../src/lib/balances.ts';
import { prices } from '../../src/lib/prices.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import { coinQuote, envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const AT = '2026-12-05T08:00:00.000Z';
afterEach(() => resetClientState());

const none = { stake_day: '', stake_week: '', stake_month: '', loss_day: '', loss_week: '', loss_month: '' };
/** A customer who set no limit and is in no time-out: the form lets them buy. */
const NO_LIMITS = {
  limits: { ...none, max_open_options: '', reminder_minutes: '', timeout_until: '' },
  pending: [],
  used: { ...none, open_stakes: '0', open_options: 0 },
  left: { ...none, open_options: '' },
  timeout_seconds_left: 0,
  now: AT,
};

const click = (element: Element | null | undefined) => act(async () => (element as HTMLElement).click());

it('sends the yield shown with the order; a refusal of it is told, and the expiries show the yield now', async () => {
  session.token = 'token-1';
  userBalances.lists = [{ asset: 'USDT', available: '80.00000000', frozen: '0' }];
  userBalances.updatedAt = AT;
  optionsState.products = { BTC: [{ id: 1, code: 'BTC', minutes: 1, yield_rate: '0.9', min_amount: '10' }] };
  prices.quotes = { BTC: coinQuote('BTC', '97280.39', AT) };
  // Not a first order (its confirmation would wait for the risk figure).
  optionsState.totals = {
    holding_count: 0,
    holding_amount: '0',
    settled_count: 3,
    wins: 1,
    losses: 2,
    ties: 0,
    total_profit: '-2',
  };
  const REFUSED = 'The yield of this expiry is now 50%: check what a win pays and buy again!';
  const products = {
    lists: [{ id: 1, code: 'BTC', minutes: 1, yield_rate: '0.5', min_amount: '10' }],
    page: 1,
    total: 1,
  };
  // The server as it answers after the operator's change; the other calls of the page are not what is tested here.
  const answer = () => {
    const path = new URL(calls.at(-1)!.request.url).pathname;
    if (path === '/api/coin/order/add') return envelope(0, REFUSED, null);
    if (path === '/api/coin/option/products') return envelope(1, '', products);
    if (path === '/api/users/protection') return envelope(1, '', NO_LIMITS);
    // The risk figure beside the buy buttons, answered at once so its read ends inside this test (a read still
    // retrying when the file ended once met a document already gone on a busy machine).
    if (path === '/api/options/risk')
      return envelope(1, '', { day: '2026-12-03', traders: 14, losers: 9, percent: '64.3' });
    return new TypeError('Failed to fetch');
  };
  const { calls } = stubFetch(answer);
  const to = (path: string) => calls.filter((call) => new URL(call.request.url).pathname === path);
  await renderInApp(view, <TradePanel code="BTC" onPlaced={() => undefined} />);
  await act(async () => {
    const input = view.container.querySelector<HTMLInputElement>('.opt-trade input')!;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '10');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await click(view.container.querySelector('.opt-buy.up'));
  await click(
    [...document.querySelectorAll<HTMLButtonElement>('[role="alertdialog"] button')].find(
      (button) => button.textContent === 'Confirm',
    ),
  );
  await act(async () => undefined);
  const [sent] = to('/api/coin/order/add');
  expect(Object.fromEntries(new URLSearchParams(sent!.body))).toMatchObject({
    code: 'BTC',
    direction: 'up',
    product_id: '1',
    amount: '10',
    yield_rate: '0.9',
  });
  expect(toasts.current?.text).toBe(REFUSED);
  await act(async () => undefined);
  expect(to('/api/coin/option/products')).toHaveLength(1);
  expect(view.container.querySelector('.opt-expiry')?.textContent).toContain('50%');
  await vi.waitFor(() => expect(view.container.querySelector('.opt-risk')?.textContent).toContain('64.3'));
});
