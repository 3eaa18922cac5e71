// @vitest-environment jsdom
// The blind box's prize table: while a prize is sold out the box is closed (every draw is refused until it is
// restocked), so the table says so and offers no expected value per draw, which counted the sold-out prize as if a draw
// could still win it; with every prize in stock it shows the expected value against the cost.
import { act } from 'react';
import { afterEach, expect, it } from 'vitest';
import type { BlindBoxInfo, BoxPrize } from '../../src/api-contract/blindbox.ts';
import { PrizeTable } from '../../src/features/blindbox/BlindBoxParts.tsx';
import { renderInApp } from './render-in-app.tsx';
import { mountPoint, resetClientState } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
afterEach(() => act(async () => resetClientState()));

const jackpot = (stock: number): BoxPrize => ({
  id: 1,
  name: 'Jackpot',
  asset: 'USDT',
  amount: '100',
  weight: 100_000,
  odds: '10%',
  stock,
});
const nothing: BoxPrize = {
  id: 2,
  name: 'Nothing',
  asset: 'POINT',
  amount: '0',
  weight: 900_000,
  odds: '90%',
  stock: null,
};
/** The box as the server answers it with the jackpot's stock at `stock`. */
const infoWith = (stock: number, answered: Pick<BlindBoxInfo, 'available' | 'expected'>): BlindBoxInfo => ({
  prizes: [jackpot(stock), nothing],
  costs: [{ pay: 'usdt', asset: 'USDT', amount: '1' }],
  usdt_per_point: '0.01',
  seed: { seed_id: 1, server_hash: 'cd'.repeat(32), client_seed: 'client', next_nonce: 0 },
  table_current: true,
  ...answered,
});
const said = () => view.container.querySelector('.box-expected')?.textContent;

it('a prize sold out: the box is said closed until it is restocked, and no expected value is offered', async () => {
  await renderInApp(view, <PrizeTable info={infoWith(0, { available: false, expected: {} })} />);
  expect(view.container.querySelector('tbody tr td:last-child')?.textContent).toBe('Sold out');
  expect(said()).toBe('A prize is sold out: the blind box is closed until it is restocked.');
  expect(view.container.textContent).not.toContain('Expected value');
});

it('every prize in stock: the expected value per draw, against the cost', async () => {
  await renderInApp(view, <PrizeTable info={infoWith(3, { available: true, expected: { USDT: '10' } })} />);
  expect(said()).toBe(
    'Expected value per draw: 10 USDT. A draw costs 1 USDT. Valued at 1 point = 0.01 USDT, a draw returns 10 USDT on ' +
      'average: at least what it costs.',
  );
});
