// The records a customer keeps and the trust anyone can check, attacked where they could lie: the proof of liabilities
// around its cut-off when postings to one account commit in another order than their requests began; the data export
// while the account moves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { EXPORT_PATH } from '../../src/api-contract/closure.ts';
import { myLiabilityProof } from '../../src/api-contract/liabilities.ts';
import { verifyProof } from '../../src/api-contract/liabilities-verify.ts';
import { ensureDailyLiabilities } from '../../src/server/domain/liabilities.ts';
import { post } from '../../src/server/domain/ledger.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, waitersOnLocks } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 240_000);
afterAll(() => h.close());

it('puts in the day’s tree each balance the account had at midnight, whatever order its postings began in', async () => {
  h.clock.set(new Date('2026-11-22T12:00:00Z'));
  // Two customers holding 5 and 20 USDT before midnight.
  const short = await customer(h, '5');
  const rich = await customer(h, '20');
  // Just after midnight a credit of 10 commits first; a debit of 10 whose request began just before midnight waited for
  // the account and commits after it (its entry keeps the time its request began). In the order they took effect:
  // 5 → 15 → 5 and 20 → 30 → 20. At midnight each account held what it held before both: 5 and 20.
  const credit = new Date('2026-11-23T00:00:00.100Z');
  const debit = new Date('2026-11-22T23:59:59.900Z');
  for (const who of [short, rich]) {
    const moves = [
      { amount: '10', reference: `after-midnight:${who.id}`, at: credit },
      { amount: '-10', reference: `before-midnight:${who.id}`, at: debit },
    ];
    for (const move of moves)
      await h.database.db.transaction((tx) =>
        post(
          tx,
          { userId: who.id, asset: 'USDT', amount: move.amount, kind: 'test_credit', reference: move.reference },
          move.at,
        ),
      );
  }
  h.clock.set(new Date('2026-11-23T00:02:00Z'));
  // The day's tree is published (a sum of the entries stamped before midnight would be -5 USDT for the first, a
  // balance no account ever had, and the build would refuse it every minute of the day).
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(true);
  for (const [who, held] of [
    [short, '500000000'],
    [rich, '2000000000'],
  ] as const) {
    const { data } = await h.call(myLiabilityProof, {}, { token: who.token });
    expect(data.tree.day).toBe('2026-11-23');
    expect(data.proof.leaf.sums[data.tree.assets.indexOf('USDT')]).toBe(held);
    expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({
      ok: true,
    });
  }
}, 180_000);

it('exports balances that agree with the ledger beside them while a posting commits during the export', async () => {
  const user = await customer(h, '5');
  let locked!: () => void;
  let go!: () => void;
  const taken = new Promise<void>((resolve) => (locked = resolve));
  const holding = h.database.db.transaction(async (tx) => {
    // The ledger's table held: the export waits at its first read of it, having read the balances already.
    await tx.execute(sql`lock table ledger_entries in access exclusive mode`);
    locked();
    await new Promise<void>((resolve) => (go = resolve));
    // A credit commits while the export is under way (with the lock's release).
    await post(
      tx,
      { userId: user.id, asset: 'USDT', amount: '7', kind: 'test_credit', reference: `during-export:${user.id}` },
      h.clock.now(),
    );
  });
  await taken;
  const exported = h.app.inject({ url: EXPORT_PATH, headers: { lang: 'en', token: user.token } });
  await waitersOnLocks(h.database.db, 1);
  go();
  await holding;
  const files = unzipSync(new Uint8Array((await exported).rawPayload));
  const balances = JSON.parse(strFromU8(files['balances.json']!)) as { asset: string; available: string }[];
  const ledger = JSON.parse(strFromU8(files['ledger.json']!)) as { asset: string; amount: string }[];
  const held = balances.find((row) => row.asset === 'USDT')!.available;
  const summed = ledger
    .filter((entry) => entry.asset === 'USDT')
    .reduce((sum, entry) => sum.plus(entry.amount), new Big(0))
    .toFixed(8);
  // One moment of the account: the 5 USDT it held when the export began, in both files.
  expect({ held, summed }).toEqual({ held: '5.00000000', summed: '5.00000000' });
});
