// A revoke racing the matcher over the same waiting stop, on PostgreSQL (row locks are the point): the matcher either
// releases it (the trigger) or expires it (its lifetime over), or the revoke cancels it — exactly one, never both,
// never neither — and the ledger holds exactly the entries of that one outcome and balances. Each round places the
// stops, records the tick that reaches (or outlives) them, then sends every revoke at once beside one matching run.
// A third kind of round records no tick after the stops (their coin's feed went quiet) and runs two matchers at once,
// as two server processes do: each stop is expired by one of them or revoked, its reserve returned once.
// Nothing here retries: the server has no deadlock retry, so a deadlock would surface as a thrown error and fail.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import { TRIGGER_LIFETIME_MS } from '../../src/api-contract/contract-triggers.ts';
import { EXPIRY_GRACE_MS } from '../../src/server/domain/contract-triggers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { contractOrders, ledgerEntries } from '../../src/server/db/schema.ts';
import { cancelContractOrder, placeContractOrder } from '../../src/server/domain/contracts.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';

const ROUNDS = 8;
const PER_ROUND = 24;

let h: Harness;
const users: { id: number; token: string }[] = [];
beforeAll(async () => {
  h = await startHarness();
  for (let i = 0; i < 6; i++) users.push(await customer(h, '1000000'));
}, 120_000);
afterAll(() => h.close());

async function tick(price: string, offsetMs = 1000) {
  h.clock.advance(offsetMs);
  await h.market.record([{ coin: 'BTC', at: h.clock.now(), price, volume: '1' }]);
}

/** PER_ROUND stop buys of 0.01 BTC at `trigger`, placed after a fresh tick; answers order → owner. */
async function placeStops(trigger: string) {
  await tick('50000.00');
  await matchAllPairs(h.database.db, h.clock.now());
  const placed = new Map<number, number>();
  for (let i = 0; i < PER_ROUND; i++) {
    const user = users[i % users.length]!;
    // Placed in the domain (the 30 days the expiry rounds skip outlive any session), as the call places it.
    const order = await h.database.db.transaction((tx) =>
      placeContractOrder(
        tx,
        user.id,
        {
          code: 'BTC',
          side: 'buy',
          type: 'stop_market',
          price: '',
          trigger_price: trigger,
          quantity: '0.01',
          total: '',
        },
        h.clock.now(),
      ),
    );
    expect(order.status).toBe('waiting');
    placed.set(order.id, user.id);
  }
  return placed;
}

/** Every revoke at once (the i-th after i round trips to the database) beside `matchers` matching runs (each as one
 * server process runs it: every process runs the matcher). */
async function race(placed: Map<number, number>, matchers = 1) {
  const now = h.clock.now();
  const db = h.database.db;
  // Spread over the matcher's run by database round trips (answers, not time): the i-th revoke starts after i
  // answered queries of its own, so the early ones beat the matcher to their rows and the late ones find them taken.
  const roundTrips = async (n: number) => {
    for (let k = 0; k < n; k++) await db.execute(sql`select 1`);
  };
  const revokes = [...placed].map(async ([id, userId], i) => {
    await roundTrips(i);
    try {
      await db.transaction((tx) => cancelContractOrder(tx, userId, id, now));
      return [id, 'revoked'] as const;
    } catch (error) {
      if (error instanceof Refusal && error.textId === serverTexts.orderNotOpen.id) return [id, 'refused'] as const;
      throw error;
    }
  });
  const runs = Array.from({ length: matchers }, () => matchAllPairs(db, now));
  const [answers] = await Promise.all([Promise.all(revokes), ...runs]);
  return new Map(answers);
}

/** How many ledger entries each of the orders has beyond its freeze's two (a revoke or an expiry posts two). */
async function entriesBeyondFreeze(ids: number[]) {
  const rows = rowsOf<{ reference: string; n: number }>(
    await h.database.db.execute(sql`
      select reference, count(*)::int as n from ledger_entries
      where reference in (${sql.join(
        ids.map((id) => sql`${`contract:${id}`}`),
        sql`, `,
      )}) and kind <> 'contract_freeze'
      group by reference`),
  );
  return new Map(ids.map((id) => [id, Number(rows.find((row) => row.reference === `contract:${id}`)?.n ?? 0)]));
}

/** Each order's status and its ledger kinds (beyond the freeze). */
async function outcomes(ids: number[]) {
  const db = h.database.db;
  const rows = await db
    .select({ id: contractOrders.id, status: contractOrders.status, triggerTickAt: contractOrders.triggerTickAt })
    .from(contractOrders)
    .where(inArray(contractOrders.id, ids));
  const entries = await db
    .select({ reference: ledgerEntries.reference, kind: ledgerEntries.kind })
    .from(ledgerEntries)
    .where(
      inArray(
        ledgerEntries.reference,
        ids.map((id) => `contract:${id}`),
      ),
    );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        status: row.status,
        triggered: row.triggerTickAt !== null,
        kinds: [
          ...new Set(
            entries
              .filter((entry) => entry.reference === `contract:${row.id}` && entry.kind !== 'contract_freeze')
              .map((entry) => entry.kind),
          ),
        ].sort(),
      },
    ]),
  );
}

it(`${ROUNDS * PER_ROUND} revokes racing the trigger of their stop: revoked or released, exactly one`, async () => {
  const tally = { revoked: 0, released: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const placed = await placeStops('51000.00');
    await tick('51000.00');
    const answers = await race(placed);
    // The released ones fill at the next tick.
    await tick('51000.50');
    await matchAllPairs(h.database.db, h.clock.now());
    const found = await outcomes([...placed.keys()]);
    for (const [id, answer] of answers) {
      const order = found.get(id)!;
      if (answer === 'revoked') {
        expect({ id, ...order }).toEqual({ id, status: 'cancelled', triggered: false, kinds: ['contract_cancel'] });
        tally.revoked++;
      } else {
        expect({ id, ...order }).toEqual({ id, status: 'filled', triggered: true, kinds: ['contract_trade'] });
        tally.released++;
      }
    }
    await expectLedgerBalanced(h);
  }
  console.log(`revoke vs trigger: ${tally.revoked} revoked, ${tally.released} released`);
  expect(tally.revoked + tally.released).toBe(ROUNDS * PER_ROUND);
}, 120_000);

it(`${ROUNDS * PER_ROUND} revokes racing the expiry of their stop: revoked or expired, exactly one`, async () => {
  const tally = { revoked: 0, expired: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const placed = await placeStops('90000.00');
    // The first tick after the lifetime: the run that checks it expires every stop not revoked first.
    await tick('50000.00', TRIGGER_LIFETIME_MS + 1000);
    const answers = await race(placed);
    const found = await outcomes([...placed.keys()]);
    for (const [id, answer] of answers) {
      const order = found.get(id)!;
      if (answer === 'revoked') {
        expect({ id, ...order }).toEqual({ id, status: 'cancelled', triggered: false, kinds: ['contract_cancel'] });
        tally.revoked++;
      } else {
        expect({ id, ...order }).toEqual({ id, status: 'expired', triggered: false, kinds: ['contract_expire'] });
        tally.expired++;
      }
    }
    await expectLedgerBalanced(h);
  }
  console.log(`revoke vs expiry: ${tally.revoked} revoked, ${tally.expired} expired`);
  expect(tally.revoked + tally.expired).toBe(ROUNDS * PER_ROUND);
}, 120_000);

it(`${ROUNDS * PER_ROUND} revokes racing two processes' matchers over the expiry of stops on a coin with no new tick: revoked or expired, once`, async () => {
  const tally = { revoked: 0, expired: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const placed = await placeStops('90000.00');
    // No tick after the stops: their coin's feed went quiet. Their lifetime, and the grace a late tick has, are over.
    h.clock.advance(TRIGGER_LIFETIME_MS + EXPIRY_GRACE_MS);
    const answers = await race(placed, 2);
    const ids = [...placed.keys()];
    const found = await outcomes(ids);
    const posted = await entriesBeyondFreeze(ids);
    for (const [id, answer] of answers) {
      const order = found.get(id)!;
      if (answer === 'revoked') {
        expect({ id, ...order }).toEqual({ id, status: 'cancelled', triggered: false, kinds: ['contract_cancel'] });
        tally.revoked++;
      } else {
        expect({ id, ...order }).toEqual({ id, status: 'expired', triggered: false, kinds: ['contract_expire'] });
        tally.expired++;
      }
      // The reserve came back once: one move from frozen to available.
      expect({ id, entries: posted.get(id) }).toEqual({ id, entries: 2 });
    }
    // Nothing of the round is held any more.
    const held = rowsOf<{ frozen: string }>(
      await h.database.db.execute(sql`
        select coalesce(sum(frozen), 0)::text as frozen from balances
        where asset = 'USDT' and user_id in (${sql.join(
          users.map((user) => sql`${user.id}::int`),
          sql`, `,
        )})`),
    );
    expect(Number(held[0]!.frozen)).toBe(0);
    await expectLedgerBalanced(h);
  }
  console.log(`revoke vs expiry without a tick: ${tally.revoked} revoked, ${tally.expired} expired`);
  expect(tally.revoked + tally.expired).toBe(ROUNDS * PER_ROUND);
  expect(tally.expired).toBeGreaterThan(0);
}, 120_000);
