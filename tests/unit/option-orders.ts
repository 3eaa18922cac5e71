// An option order as the server answers it, for the tests of the purchase record: settled, with no prices, outcome or
// profit unless the test gives them.
import type { OptionOrder } from '../../src/api-contract/options.ts';

/** Option order `id` (BTC, up, 10 USDT, one minute), settled; `fields` override any part. */
export const option = (id: number, fields: Partial<OptionOrder>): OptionOrder => ({
  id,
  code: 'BTC',
  direction: 'up',
  amount: '10.00000000',
  minutes: 1,
  yield_rate: '0.8',
  start_price: null,
  start_price_at: null,
  start_constituents: null,
  start_at: '2026-11-27T21:00:00.000Z',
  end_at: null,
  status: 'settled',
  end_price: null,
  end_price_at: null,
  end_constituents: null,
  outcome: null,
  payout: null,
  profit: null,
  settled_at: '2026-11-27T21:00:10.000Z',
  remaining_seconds: 0,
  simulated: false,
  seeded: false,
  exchanges: 3,
  practice: false,
  ...fields,
});
