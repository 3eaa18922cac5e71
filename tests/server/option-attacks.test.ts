// Options attacked by what a customer, an operator or the jobs can do: a coin whose opening or settlement run fails
// (a bad row, a constraint, a bug) beside coins whose runs do not; an operator changing a product's yield while a
// customer confirms a buy at the yield shown. Each ends with what the customers then hold, and the ledger summing to
// every balance where money moved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, moneyState, refused } from './helpers.ts';
import { balances } from '../../src/api-contract/markets.ts';
import { optionOrder, optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const iso = (ms: number) => new Date(ms).toISOString();
/** One recorded tick of each coin named, at an exact time, as one step of the feed would record them. */
const step = (atMs: number, prices: Record<string, string>) =>
  h.market.record(Object.entries(prices).map(([coin, price]) => ({ coin, at: new Date(atMs), price, volume: '1' })));
const open = () => openAllPending(h.database.db, h.clock.now());
const settle = () => settleAllDue(h.database.db, h.clock.now());
const orderOf = async (token: string, id: number) => (await h.call(optionOrder, { id: String(id) }, { token })).data;

/** A one-minute option of `amount` USDT on `code`, bought up (the call must succeed); answers its id. */
async function buyUp(token: string, code: string, amount: string): Promise<number> {
  const product = (await h.call(optionProducts, { code })).data.lists.find((p) => p.minutes === 1)!;
  const placed = await h.call(
    placeOption,
    { code, direction: 'up', amount, product_id: String(product.id) },
    { token },
  );
  expect(placed, JSON.stringify(placed)).toMatchObject({ ret: 1, data: { status: 'opening' } });
  return placed.data.id;
}

async function usdtOf(token: string) {
  const res = await h.call(balances, {}, { token });
  return res.data.lists.find((b) => b.asset === 'USDT')?.available ?? null;
}

/**
 * Runs `body` while every write of option_orders that `when` (SQL over `new`) picks fails, as any failure of one coin's
 * rows would (a bad row, a constraint, a bug); the trigger is gone again afterwards, whatever happened.
 */
async function whileRowsFail(when: string, body: () => Promise<void>) {
  await h.database.db.execute(
    sql.raw(`
      create function refuse_option_rows() returns trigger language plpgsql as $$
        begin raise exception 'option % of % cannot be written', new.id, new.coin; end $$;
      create trigger refuse_option_rows before update on option_orders for each row
        when (${when}) execute function refuse_option_rows()`),
  );
  try {
    await body();
  } finally {
    await h.database.db.execute(
      sql`drop trigger refuse_option_rows on option_orders; drop function refuse_option_rows()`,
    );
  }
}

describe('a coin whose option run fails', () => {
  it('holds back only its own settlement: the other coins’ orders settle and pay, and the failure names it', async () => {
    const ada = await customer(h, '100');
    const eth = await customer(h, '100');
    const t = h.clock.now().getTime();
    await step(t, { ADA: '0.9800', ETH: '3000.00' });
    const adaOrder = await buyUp(ada.token, 'ADA', '10');
    const ethOrder = await buyUp(eth.token, 'ETH', '10');
    h.clock.set(new Date(t + 1000));
    await step(t + 1000, { ADA: '0.9800', ETH: '3000.00' });
    expect(await open()).toBe(2);
    // Both end at the same second, ADA's first in the settlement's order (the lower id), and both win.
    const end = t + 61_000;
    h.clock.set(new Date(end));
    await step(end, { ADA: '0.9900', ETH: '3010.00' });

    await whileRowsFail(`new.coin = 'ADA' and new.status = 'settled'`, async () => {
      await expect(settle()).rejects.toThrow(/ADA/);
      expect(await orderOf(eth.token, ethOrder)).toMatchObject({
        status: 'settled',
        outcome: 'win',
        payout: '18.00000000',
      });
      expect(await usdtOf(eth.token)).toBe('108.00000000');
      expect(await orderOf(ada.token, adaOrder)).toMatchObject({ status: 'holding', end_at: iso(end) });
      expect(await usdtOf(ada.token)).toBe('90.00000000');
    });
    // Once it can be written, it settles at the tick of its end, as it would have.
    h.clock.advance(5000);
    expect(await settle()).toBe(1);
    expect(await orderOf(ada.token, adaOrder)).toMatchObject({
      status: 'settled',
      end_price: '0.99',
      end_price_at: iso(end),
      outcome: 'win',
      payout: '18.00000000',
    });
    expect(await usdtOf(ada.token)).toBe('108.00000000');
    await expectLedgerBalanced(h);
  });

  it('holds back only its own opening: the other coins’ orders open at their first tick, and the failure names it', async () => {
    const ada = await customer(h, '100');
    const eth = await customer(h, '100');
    const t = h.clock.now().getTime() + 1000;
    h.clock.set(new Date(t));
    await step(t, { ADA: '0.9800', ETH: '3000.00' });
    const adaOrder = await buyUp(ada.token, 'ADA', '10');
    const ethOrder = await buyUp(eth.token, 'ETH', '10');
    h.clock.set(new Date(t + 1000));
    await step(t + 1000, { ADA: '0.9810', ETH: '3001.00' });

    await whileRowsFail(`new.coin = 'ADA' and old.status = 'opening'`, async () => {
      await expect(open()).rejects.toThrow(/ADA/);
      expect(await orderOf(eth.token, ethOrder)).toMatchObject({
        status: 'holding',
        start_price: '3001',
        start_price_at: iso(t + 1000),
      });
      expect(await orderOf(ada.token, adaOrder)).toMatchObject({ status: 'opening', start_price: null });
    });
    // Once it can be written, it opens at the first tick after it was accepted, as it would have.
    h.clock.advance(2000);
    expect(await open()).toBe(1);
    expect(await orderOf(ada.token, adaOrder)).toMatchObject({
      status: 'holding',
      start_price: '0.981',
      start_price_at: iso(t + 1000),
      end_at: iso(t + 61_000),
    });
    await expectLedgerBalanced(h);
  });
});

describe('an order whose option run fails alone', () => {
  it('holds back no other order of its coin: they settle and pay, later runs leave it out, and it settles once mended', async () => {
    const [bad, good, later] = [await customer(h, '100'), await customer(h, '100'), await customer(h, '100')];
    const t = h.clock.now().getTime() + 1000;
    h.clock.set(new Date(t));
    await step(t, { ADA: '0.9800' });
    const badOrder = await buyUp(bad.token, 'ADA', '10');
    const goodOrder = await buyUp(good.token, 'ADA', '10');
    h.clock.set(new Date(t + 1000));
    await step(t + 1000, { ADA: '0.9800' });
    expect(await open()).toBe(2);
    // Both end at the same second, the bad one first in the settlement's order (the lower id), and both win.
    const end = t + 61_000;
    h.clock.set(new Date(end));
    await step(end, { ADA: '0.9900' });
    const kept = new Map<string, Set<number>>(); // what the job keeps between its runs
    const settleKept = () => settleAllDue(h.database.db, h.clock.now(), undefined, kept);

    await whileRowsFail(`new.id = ${badOrder} and new.status = 'settled'`, async () => {
      await expect(settleKept()).rejects.toThrow(new RegExp(`ADA.*row ${badOrder}`));
      expect(await orderOf(good.token, goodOrder)).toMatchObject({ status: 'settled', payout: '18.00000000' });
      expect(await usdtOf(good.token)).toBe('108.00000000');
      expect(await orderOf(bad.token, badOrder)).toMatchObject({ status: 'holding', end_at: iso(end) });
      expect(await usdtOf(bad.token)).toBe('90.00000000');
      // A later order of the coin settles in the next run's batch (the bad one left out, tried alone again).
      const laterOrder = await buyUp(later.token, 'ADA', '10');
      h.clock.advance(1000);
      await step(h.clock.now().getTime(), { ADA: '0.9900' });
      expect(await open()).toBe(1);
      h.clock.advance(60_000);
      await step(h.clock.now().getTime(), { ADA: '0.9700' });
      await expect(settleKept()).rejects.toThrow(new RegExp(`row ${badOrder}`));
      expect(await orderOf(later.token, laterOrder)).toMatchObject({ status: 'settled', outcome: 'loss' });
      expect([...kept.get('ADA')!]).toEqual([badOrder]);
    });
    // Once it can be written, it settles at the tick of its end, as it would have, and is forgotten.
    expect(await settleKept()).toBe(1);
    expect(await orderOf(bad.token, badOrder)).toMatchObject({
      status: 'settled',
      end_price: '0.99',
      end_price_at: iso(end),
      outcome: 'win',
      payout: '18.00000000',
    });
    expect(await usdtOf(bad.token)).toBe('108.00000000');
    expect([...kept.get('ADA')!]).toEqual([]);
    await expectLedgerBalanced(h);
  });

  it('holds back no other order of its coin from opening at its first tick; it opens at its own once mended', async () => {
    const [bad, good] = [await customer(h, '100'), await customer(h, '100')];
    const t = h.clock.now().getTime() + 1000;
    h.clock.set(new Date(t));
    await step(t, { ADA: '0.9800' });
    const badOrder = await buyUp(bad.token, 'ADA', '10');
    const goodOrder = await buyUp(good.token, 'ADA', '10');
    h.clock.set(new Date(t + 1000));
    await step(t + 1000, { ADA: '0.9810' });

    await whileRowsFail(`new.id = ${badOrder} and old.status = 'opening'`, async () => {
      await expect(open()).rejects.toThrow(new RegExp(`ADA.*row ${badOrder}`));
      expect(await orderOf(good.token, goodOrder)).toMatchObject({
        status: 'holding',
        start_price: '0.981',
        start_price_at: iso(t + 1000),
      });
      expect(await orderOf(bad.token, badOrder)).toMatchObject({ status: 'opening', start_price: null });
    });
    h.clock.advance(2000);
    expect(await open()).toBe(1);
    expect(await orderOf(bad.token, badOrder)).toMatchObject({
      status: 'holding',
      start_price: '0.981',
      start_price_at: iso(t + 1000),
      end_at: iso(t + 61_000),
    });
    await expectLedgerBalanced(h);
  });
});

describe('a product whose yield the operator changes', () => {
  it('refuses a buy confirmed at the yield shown before the change, moving nothing; one at the yield now is accepted', async () => {
    const user = await customer(h, '100');
    h.clock.advance(1000);
    await step(h.clock.now().getTime(), { LTC: '100.00' });
    // What the customer's screen shows: the 3-minute product at its yield, a win of 10 paying 10 × (1 + yield).
    const shown = (await h.call(optionProducts, { code: 'LTC' })).data.lists.find((p) => p.minutes === 3)!;
    expect(shown.yield_rate).not.toBe('0.5');
    const changed = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
      'product',
      String(shown.id),
      'yield=0.5',
    ]);
    expect(changed, changed.output).toMatchObject({ ok: true });
    const buy = (yieldRate: string, lang = 'en') =>
      h.call(
        placeOption,
        { code: 'LTC', direction: 'up', amount: '10', product_id: String(shown.id), yield_rate: yieldRate },
        { token: user.token, lang },
      );
    const before = await moneyState(h, user.id);
    expect(await buy(shown.yield_rate)).toEqual(
      refused('The yield of this expiry is now 50%: check what a win pays and buy again!'),
    );
    expect(await buy(shown.yield_rate, 'th')).toEqual(
      refused('อัตราผลตอบแทนของเวลาหมดอายุนี้เปลี่ยนเป็น 50% แล้ว โปรดตรวจสอบเงินที่ได้รับหากชนะแล้วซื้ออีกครั้ง'),
    );
    expect(await moneyState(h, user.id)).toEqual(before);
    expect(await buy('0.5')).toMatchObject({ ret: 1, data: { yield_rate: '0.5', status: 'opening' } });
    expect(await buy('0.50')).toMatchObject({ ret: 1, data: { yield_rate: '0.5' } });
    expect(await usdtOf(user.token)).toBe('80.00000000');
    await expectLedgerBalanced(h);
  });
});
