// @vitest-environment jsdom
// One device, two customers, as at a shop counter: the first places an option and signs out, the second signs in
// before it ends. The second's pending options are theirs alone: none of the first's shows among them.
import { afterEach, expect, it } from 'vitest';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import { session } from '../../src/lib/session.ts';
import { loadOrder, loadOrders, optionsState } from '../../src/features/options/options-store.ts';
import { customerInfo, envelope, resetClientState, stubFetch } from './helpers.ts';
import { option } from './option-orders.ts';

afterEach(() => resetClientState());

/** The first customer's option: five minutes, ending well after the second signs in. */
const theirs: OptionOrder = option(501, {
  minutes: 5,
  status: 'holding',
  start_price: '97190.83',
  start_price_at: new Date().toISOString(),
  start_at: new Date().toISOString(),
  end_at: new Date(Date.now() + 300_000).toISOString(),
  settled_at: null,
  remaining_seconds: 300,
});

it('a customer signing in after another sees none of the other’s pending options', async () => {
  session.token = 'token-a';
  session.user = customerInfo({ id: 1 });
  stubFetch(envelope(1, 'ok', theirs));
  await loadOrder(theirs.id);

  session.token = 'token-b';
  session.user = customerInfo({ id: 2, username: '0898765432' });
  stubFetch(envelope(1, 'ok', { lists: [], next: null, total: 0 }));
  await loadOrders('holding');
  expect(optionsState.holding.lists.map((order) => order.id)).toEqual([]);
  expect(optionsState.holding.total).toBe(0);
  expect(optionsState.details[theirs.id]).toBeUndefined();
});
