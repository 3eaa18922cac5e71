// @vitest-environment jsdom
// Live prices on screen: a burst of streamed steps writes each coin's quote once (newest price, high
// and low over every step), and what shows prices re-renders as a transition that yields to the
// browser, not in one blocking task; a change of a coin it does not show does not re-render it.
import { act } from 'react';
import { subscribe } from 'valtio/vanilla';
import { beforeEach, expect, it } from 'vitest';
import type { CoinQuote, TickEvent } from '../../src/api-contract/markets.ts';
import { useLiveSnapshot } from '../../src/lib/live-snapshot.ts';
import { applyTicks, prices } from '../../src/lib/prices.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const quote = (code: string, price: string): CoinQuote => ({
  code,
  name: code,
  price,
  at: '2026-11-26T00:00:00.000Z',
  change_24h: '0.00',
  open_24h: '100.00',
  high_24h: '110.00',
  low_24h: '90.00',
  volume_24h: '1000',
  price_decimals: 2,
  simulated: true,
  seeded: false,
  exchanges: 0,
  halted: false,
});
const tick = (code: string, price: string, second: number): TickEvent => ({
  code,
  price,
  at: `2026-11-26T00:00:${String(second).padStart(2, '0')}.000Z`,
});

const view = mountPoint();
beforeEach(() => {
  prices.quotes = { BTC: quote('BTC', '100.00'), ETH: quote('ETH', '50.00') };
  prices.codes = ['BTC', 'ETH'];
});

it('writes each coin once for a burst of steps: the newest price, the high and low over every step, older steps ignored', () => {
  let writes = 0;
  // Told at once of each write (valtio's sync notification: one call per property set).
  const stop = subscribe(prices.quotes, () => (writes += 1), true);
  applyTicks([
    tick('BTC', '120', 1),
    tick('BTC', '80', 2),
    tick('BTC', '105.5', 3),
    tick('BTC', '999', 2),
    tick('ETH', '40', 4),
  ]);
  stop();
  expect(prices.quotes.BTC).toMatchObject({
    price: '105.50',
    at: tick('BTC', '', 3).at,
    change_24h: '5.50',
    high_24h: '120.00',
    low_24h: '80.00',
  });
  expect(prices.quotes.ETH).toMatchObject({
    price: '40.00',
    change_24h: '-60.00',
    high_24h: '110.00',
    low_24h: '40.00',
  });
  // One write per field that changed: price, at, change, high and low of BTC; price, at, change and low of ETH.
  expect(writes).toBe(9);
  // A step not newer than the price shown changes nothing.
  applyTicks([tick('BTC', '1', 3)]);
  expect(prices.quotes.BTC!.price).toBe('105.50');
});

it('re-renders a price as a transition: not within the task that changed it, and not for a coin it does not show', async () => {
  const renders: string[] = [];
  function Price({ code }: { code: string }) {
    const price = useLiveSnapshot(prices).quotes[code]!.price;
    renders.push(`${code} ${price}`);
    return <span data-code={code}>{price}</span>;
  }
  await act(async () => view.root.render(<Price code="BTC" />));
  expect(renders).toEqual(['BTC 100.00']);

  await act(async () => {
    applyTicks([tick('BTC', '101', 5)]);
    // valtio tells its subscribers after the write's microtasks; a blocking render would be done by then.
    await Promise.resolve();
    await Promise.resolve();
    expect(view.container.textContent).toBe('100.00');
  });
  // The transition ran once act let the scheduler work.
  expect(view.container.textContent).toBe('101.00');
  expect(renders).toEqual(['BTC 100.00', 'BTC 101.00']);

  await act(async () => applyTicks([tick('ETH', '51', 6)]));
  expect(renders).toEqual(['BTC 100.00', 'BTC 101.00']);
});
