// After a step of ticks, one read says which of the step's jobs have work, and only those are poked: none on an idle
// market; the opening job while an option waits for its start tick, contract matching while an order waits for a tick,
// the price alerts while one waits to fire.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { addPriceAlert } from '../../src/api-contract/price-alerts.ts';
import { pokeWhatWaits } from '../../src/server/jobs/schedule.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

it('pokes only the jobs that have work after a step', async () => {
  const poked: string[] = [];
  const job = (name: string) => ({ poke: () => void poked.push(name) });
  const failures: unknown[] = [];
  const afterStep = pokeWhatWaits(
    h.database.db,
    { opening: job('opening'), matching: job('matching'), priceAlerts: job('priceAlerts') },
    (error) => failures.push(error),
  );
  const pokedAfterStep = async () => {
    poked.length = 0;
    await afterStep();
    return [...poked].sort();
  };

  await h.tick();
  expect(await pokedAfterStep()).toEqual([]);

  const { token } = await customer(h, '1000');
  await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '100000', volume: '1' }]);
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!;
  const option = { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) };
  expect(await h.call(placeOption, option, { token })).toMatchObject({ ret: 1 });
  expect(await pokedAfterStep()).toEqual(['opening']);

  const order = { code: 'BTC', side: 'buy', type: 'market', quantity: '0.0005' };
  expect(await h.call(placeContract, order, { token })).toMatchObject({ ret: 1 });
  expect(await pokedAfterStep()).toEqual(['matching', 'opening']);

  const alert = { code: 'BTC', kind: 'above', price: '10000000', percent: '' };
  expect(await h.call(addPriceAlert, alert, { token })).toMatchObject({ ret: 1 });
  expect(await pokedAfterStep()).toEqual(['matching', 'opening', 'priceAlerts']);
  expect(failures).toEqual([]);
});
