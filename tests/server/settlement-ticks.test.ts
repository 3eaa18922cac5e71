// A settled option's ticks through the customer's call: the recorded ticks around its start and its end,
// each with its exchanges' prices, the deciding ones being exactly the ticks the order opened and settled
// from; a pending order and another customer's are refused with a translated text; another coin's ticks
// never appear.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { TICKS_AROUND, settlementTicks } from '../../src/api-contract/settlement-ticks.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const iso = (ms: number) => new Date(ms).toISOString();

/** An index tick of BTC at an exact time, made of two exchanges' prices either side of it. */
const btcAt = (atMs: number, price: number) =>
  h.market.record([
    {
      coin: 'BTC',
      at: new Date(atMs),
      price: String(price),
      volume: '1',
      constituents: [
        { exchange: 'binance', price: String(price - 1), at: new Date(atMs - 200), tradeId: `b${atMs}` },
        { exchange: 'okx', price: String(price + 1), at: new Date(atMs - 300), tradeId: `o${atMs}` },
      ],
    },
    // Another coin's tick at the same moment: never among BTC's.
    { coin: 'ETH', at: new Date(atMs), price: '3000', volume: '1' },
  ]);

const ticksOf = (token: string, id: number, lang?: string) =>
  h.call(settlementTicks, { id: String(id) }, { token, ...(lang ? { lang } : {}) });

it("answers the ticks around a settled option's start and end, the deciding ones being the order's", async () => {
  const buyer = await customer(h, '100');
  const other = await customer(h, '100');
  const accepted = h.clock.now().getTime();
  // Seven ticks before the order (one second apart, ending at its acceptance): only the last five are shown.
  for (let i = 6; i >= 0; i--) await btcAt(accepted - i * 1000, 100_000 + i);
  const products = (await h.call(optionProducts, { code: 'BTC' })).data.lists;
  const product = products.find((p) => p.minutes === 1)!;
  const placed = await h.call(
    placeOption,
    { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) },
    { token: buyer.token },
  );
  expect(placed.ret).toBe(1);
  const id = placed.data.id;

  // The start tick comes a quarter second into the next second (sub-second times are kept), then six more.
  const start = accepted + 1250;
  h.clock.set(new Date(start));
  await btcAt(start, 100_100);
  expect(await openAllPending(h.database.db, h.clock.now())).toBe(1);
  // Still pending: its ticks are not shown yet, with a text in the caller's language.
  expect(await ticksOf(buyer.token, id)).toEqual(
    refused('The order is not settled yet: its ticks are shown once it is.'),
  );
  expect((await ticksOf(buyer.token, id, 'zh')).msg).not.toBe(
    'The order is not settled yet: its ticks are shown once it is.',
  );
  for (let i = 1; i <= 7; i++) await btcAt(start + i * 1000, 100_100 + i);

  // Around the end: ticks up to half a second before it (the deciding one), and six after.
  const end = start + 60_000;
  for (let i = 6; i >= 1; i--) await btcAt(end - 500 - (i - 1) * 1000, 100_200 + i);
  for (let i = 1; i <= 6; i++) await btcAt(end + i * 1000, 100_300 + i);
  h.clock.set(new Date(end + 6000));
  expect(await settleAllDue(h.database.db, h.clock.now())).toBe(1);

  const order = (await h.call(optionOrder, { id: String(id) }, { token: buyer.token })).data;
  expect(order).toMatchObject({ status: 'settled', start_price_at: iso(start), end_price_at: iso(end - 500) });
  const answer = await ticksOf(buyer.token, id);
  expect(answer).toMatchObject({ ret: 1, data: { id, code: 'BTC' } });
  const { start: around, end: closing } = answer.data;

  // The deciding ticks are the order's own start and end ticks, with the same price and constituents.
  for (const [window, price, at, constituents] of [
    [around, order.start_price, order.start_price_at, order.start_constituents],
    [closing, order.end_price, order.end_price_at, order.end_constituents],
  ] as const) {
    expect(window.deciding_at).toBe(at);
    const deciding = window.ticks.filter((tick) => tick.deciding);
    expect(deciding).toEqual([{ price, at, constituents, deciding: true }]);
    expect(window.ticks).toHaveLength(2 * TICKS_AROUND + 1);
    expect(window.ticks[TICKS_AROUND]!.deciding).toBe(true);
    // Oldest first, BTC's only.
    const times = window.ticks.map((tick) => Date.parse(tick.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(window.ticks.every((tick) => tick.price !== '3000' && tick.constituents?.length === 2)).toBe(true);
  }
  // The five before the start tick: the last recorded before it (the one at acceptance included), none earlier.
  expect(around.ticks.slice(0, TICKS_AROUND).map((tick) => tick.at)).toEqual(
    [4, 3, 2, 1, 0].map((i) => iso(accepted - i * 1000)),
  );
  expect(around.ticks[TICKS_AROUND + 1]).toEqual({
    price: '100101',
    at: iso(start + 1000),
    constituents: [
      { exchange: 'binance', price: '100100', at: iso(start + 800), trade_id: `b${start + 1000}` },
      { exchange: 'okx', price: '100102', at: iso(start + 700), trade_id: `o${start + 1000}` },
    ],
    deciding: false,
  });
  // After the end: the ticks recorded later, which did not count.
  expect(closing.ticks.slice(TICKS_AROUND + 1).map((tick) => tick.at)).toEqual(
    [1, 2, 3, 4, 5].map((i) => iso(end + i * 1000)),
  );
  expect(closing.ticks[TICKS_AROUND]!.price).toBe('100201');

  // Another customer's order, an unknown one and a malformed id: not found, translated.
  expect(await ticksOf(other.token, id)).toEqual(refused('The order does not exist!'));
  const foreign = await ticksOf(other.token, id, 'zh');
  expect(foreign.ret).toBe(0);
  expect(foreign.msg).not.toBe('The order does not exist!');
  expect(await ticksOf(buyer.token, id + 1000)).toEqual(refused('The order does not exist!'));
  expect(await h.call(settlementTicks, { id: 'x' }, { token: buyer.token })).toEqual(
    refused('The order does not exist!'),
  );
  // Signed out: no ticks at all.
  expect((await h.call(settlementTicks, { id: String(id) })).ret).toBe(-1);
});

it('shows a void order the ticks around the moment it waited for, with none deciding', async () => {
  const buyer = await customer(h, '100');
  const accepted = h.clock.now().getTime() + 60_000;
  h.clock.set(new Date(accepted));
  await btcAt(accepted, 100_500);
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!;
  const placed = await h.call(
    placeOption,
    { code: 'BTC', direction: 'down', amount: '5', product_id: String(product.id) },
    { token: buyer.token },
  );
  // No tick within 10 s after acceptance: the order never opens and is refunded.
  h.clock.set(new Date(accepted + 11_000));
  expect(await openAllPending(h.database.db, h.clock.now())).toBe(1);
  await btcAt(accepted + 12_000, 100_600);
  const { data } = await ticksOf(buyer.token, placed.data.id);
  expect(data.start.deciding_at).toBeNull();
  expect(data.start.ticks.some((tick) => tick.deciding)).toBe(false);
  expect(data.start.ticks.at(-1)).toMatchObject({ at: iso(accepted + 12_000), price: '100600' });
  expect(data.start.ticks.at(-2)).toMatchObject({ at: iso(accepted), price: '100500' });
  expect(data.end).toEqual({ deciding_at: null, ticks: [] });
});
