// What the contract test files do again and again against a harness: record ticks, run the matcher, read the caller's
// amounts and orders, and read one order's ledger entries.
import { expect } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { Harness } from './harness.ts';
import { contractAmounts, contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import { ledgerEntries } from '../../src/server/db/schema.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';

/** The helpers over the harness `harness()` gives (a getter: files start theirs in `beforeAll`). */
export function contractKit(harness: () => Harness) {
  /** One recorded tick of a coin `offsetMs` after the harness clock, the clock moved there; answers its time (ISO). */
  async function tick(coin: string, price: string, offsetMs = 1000): Promise<string> {
    const h = harness();
    h.clock.advance(offsetMs);
    await h.market.record([{ coin, at: h.clock.now(), price, volume: '1' }]);
    return h.clock.now().toISOString();
  }

  /** Several ticks recorded at once (one matching window), a second apart; answers their times (ISO). */
  async function ticks(coin: string, prices: string[]): Promise<string[]> {
    const h = harness();
    const at = prices.map(() => (h.clock.advance(1000), h.clock.now()));
    await h.market.record(prices.map((price, i) => ({ coin, at: at[i]!, price, volume: '1' })));
    return at.map((time) => time.toISOString());
  }

  /** One run of the matcher at the harness clock's time; answers how many orders it filled. */
  const match = () => matchAllPairs(harness().database.db, harness().clock.now());

  /** The caller's available and frozen USDT and coin for pair `code` (the call must succeed). */
  async function amounts(token: string, code: string) {
    const res = await harness().call(contractAmounts, { code }, { token });
    expect(res.ret).toBe(1);
    return res.data;
  }

  /** One of the caller's orders as the lists show it (open and filling ones, or finished ones), with its list. */
  async function listed(token: string, id: number) {
    for (const status of ['open', 'history']) {
      const found = (await harness().call(contractOrders, { status }, { token })).data.lists.find(
        (order) => order.id === id,
      );
      if (found) return { list: status, ...found };
    }
    throw new Error(`order ${id} is in no list`);
  }

  /**
   * A limit buy of 0.01 BTC at 50,000.00 USDT with a take-profit at 55,000.00 and a stop-loss at 45,000.00 (`account`:
   * the practice account's); answers the call's answer (it must succeed).
   */
  async function bracketBuy(token: string, account?: 'practice') {
    const placed = await harness().call(
      placeContract,
      {
        code: 'BTC',
        side: 'buy',
        type: 'limit',
        price: '50000.00',
        quantity: '0.01',
        take_profit: '55000.00',
        stop_loss: '45000.00',
        ...(account && { account }),
      },
      { token },
    );
    expect(placed.ret).toBe(1);
    return placed;
  }

  /** The caller's open orders attached to order `parent` (its take-profit / stop-loss legs), oldest first. */
  const legsOf = async (token: string, parent: number) =>
    (await harness().call(contractOrders, { status: 'open' }, { token })).data.lists.filter(
      (order) => order.parent_id === parent,
    );

  /** The ledger entries of one order, in the order they were posted. */
  const entriesOf = (id: number) =>
    harness()
      .database.db.select({
        kind: ledgerEntries.kind,
        asset: ledgerEntries.asset,
        bucket: ledgerEntries.bucket,
        amount: ledgerEntries.amount,
      })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.reference, `contract:${id}`))
      .orderBy(asc(ledgerEntries.id));

  return { tick, ticks, match, amounts, listed, entriesOf, bracketBuy, legsOf };
}
