// Proof of liabilities (src/server/domain/LIABILITIES.md) on both databases: a tree of 10,000 customers built from
// the ledger as of a cut-off, its totals equal to the ledger's sums, and every customer's proof accepted by the
// stand-alone verifier (src/api-contract/liabilities-verify.ts); the verifier refuses a changed balance, a changed
// path, a negative sum node and a leaf missing from the tree; a balance changed by the operator after publication is
// caught by that customer's check through the calls; the calls answer the caller's leaf only; the day's tree is built
// once however many builds race; and the verifier's command line says "verified" or why not.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/connection.ts';
import { liabilityRoots, myLiabilityProof, OPEN_OPTIONS_ASSET } from '../../src/api-contract/liabilities.ts';
import { verifyProof, type LiabilityProof } from '../../src/api-contract/liabilities-verify.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { COMMAND_LINE } from '../../src/server/domain/audit-log.ts';
import {
  buildDailyLiabilities,
  buildLiabilitiesNow,
  ensureDailyLiabilities,
  everyLiabilityProof,
  liabilityProofOf,
} from '../../src/server/domain/liabilities.ts';
import { post } from '../../src/server/domain/ledger.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, grant, refused } from './helpers.ts';
import { opsOk } from './funds-helpers.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { desc } from 'drizzle-orm';

let h: Harness;
let folder: string;
beforeAll(async () => {
  h = await startHarness();
  folder = mkdtempSync(join(tmpdir(), 'coinvest-liabilities-'));
}, 240_000);
afterAll(async () => {
  await h.close();
  rmSync(folder, { recursive: true, force: true });
});

const BULK = 9_998;
const before = '2026-11-22T07:00:00.000Z';

/**
 * BULK customers written straight into the tables (registering 10,000 through the calls would take minutes): each
 * with USDT in both buckets, every third with BTC, every fifth with practice USDT (left out of the tree), every
 * seventh with nothing at all. Entries created before the cut-off; the balances rows are not what the tree reads.
 */
async function bulkCustomers() {
  const db = h.database.db;
  await db.execute(sql`
    insert into users (username, password_hash, invite_code, created_at)
    select 'bulk' || n, 'x', 'B' || n, ${before}::timestamptz from generate_series(1, ${BULK}) n`);
  await db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
    select u.id, e.asset, e.bucket, e.amount, 'test_credit', 'bulk:' || u.id || ':' || e.asset || ':' || e.bucket,
      ${before}::timestamptz
    from users u
    cross join lateral (values
      ('USDT', 'available', (u.id % 997) + 0.12345678),
      ('USDT', 'frozen', (u.id % 13)::numeric),
      ('BTC', 'available', case when u.id % 3 = 0 then 0.00000001 * u.id else 0 end),
      ('practice:USDT', 'available', case when u.id % 5 = 0 then 10000 else 0 end)
    ) as e(asset, bucket, amount)
    where u.username like 'bulk%' and u.id % 7 <> 0 and e.amount <> 0`);
}

/** The ledger's own sums per real asset as of `cutoff`, in minor units. */
async function ledgerTotals(cutoff: string): Promise<Record<string, string>> {
  const rows = rowsOf<{ asset: string; units: string }>(
    await h.database.db.execute(sql`
      select asset, (sum(amount) * 100000000)::numeric(60, 0)::text as units from ledger_entries
      where created_at <= ${cutoff}::timestamptz and asset not like 'practice:%' group by asset`),
  );
  return Object.fromEntries(rows.map((row) => [row.asset, row.units]));
}

let holder: { token: string; id: number };
let other: { token: string; id: number };
let treeId = 0;

it('builds a tree of 10,000 customers whose every proof the stand-alone verifier accepts', async () => {
  await bulkCustomers();
  holder = await customer(h, '250.5');
  other = await customer(h, '40');
  await grant(h, holder.id, '0.015', 'BTC');
  // A practice balance is no liability: left out.
  await grant(h, holder.id, '10000', 'practice:USDT');
  const { count } = rowsOf<{ count: number }>(
    await h.database.db.execute(sql`select count(*)::int as count from users`),
  )[0]!;
  expect(count).toBe(10_000);

  h.clock.advance(1000);
  const tree = await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE);
  treeId = tree.id;
  expect(tree.leaves).toBe(count);
  expect(tree.assets).not.toContain('practice:USDT');
  const totals = await ledgerTotals(tree.cutoff);
  expect(Object.fromEntries(tree.assets.map((asset, at) => [asset, tree.totals[at]]))).toEqual(totals);

  const proofs = await everyLiabilityProof(h.database.db, tree.id);
  expect(proofs).toHaveLength(count);
  expect(new Set(proofs.map((proof) => proof.account)).size).toBe(count);
  let verified = 0;
  for (const proof of proofs) {
    const verdict = await verifyProof(proof, { hash: tree.root, assets: tree.assets, totals: tree.totals });
    if (!verdict.ok) throw new Error(`account ${proof.account}: ${JSON.stringify(verdict)}`);
    verified += 1;
  }
  expect(verified).toBe(count);
  // A call's proof (its block of 1,024 leaves hashed again, the stored nodes above) is the same as the whole tree's:
  // at either end of a block, of the tree, and in the last, shorter block.
  for (const position of [0, 1, 1023, 1024, 2047, 5000, 9215, 9216, 9998, 9999]) {
    const whole = proofs[position]!;
    expect((await liabilityProofOf(h.database.db, Number(whole.account))).proof).toEqual(whole);
  }
  // A customer with no entry is a leaf of zeros; one with entries carries their real balances, practice excluded.
  const usdt = tree.assets.indexOf('USDT');
  const btc = tree.assets.indexOf('BTC');
  const holderProof = proofs.find((proof) => proof.account === String(holder.id))!;
  expect(holderProof.leaf.sums[usdt]).toBe('25050000000');
  expect(holderProof.leaf.sums[btc]).toBe('1500000');
  const idle = proofs.find((proof) => Number(proof.account) % 7 === 0 && proof.account !== String(holder.id))!;
  expect(idle.leaf.sums.every((sum) => sum === '0')).toBe(true);
}, 480_000);

it('refuses a changed balance, a changed path, a negative sum node and a leaf missing from the tree', async () => {
  const [proof] = (await everyLiabilityProof(h.database.db, treeId)).filter((one) => one.account === String(other.id));
  const root = (await h.call(liabilityRoots)).data.lists[0]!;
  expect(root.id).toBe(treeId);
  const copy = (): LiabilityProof => structuredClone(proof!);
  expect(await verifyProof(copy(), root.root)).toEqual({ ok: true, root: root.root });

  const moreMoney = copy();
  moreMoney.leaf.sums = moreMoney.leaf.sums.map((sum) => (BigInt(sum) + 1n).toString());
  expect(await verifyProof(moreMoney, root.root)).toMatchObject({ ok: false, reason: 'root' });

  const otherPath = copy();
  otherPath.path[3]!.hash = otherPath.path[3]!.hash.replace(/^./, (digit) => (digit === '0' ? '1' : '0'));
  expect(await verifyProof(otherPath, root.root)).toMatchObject({ ok: false, reason: 'root' });
  const otherSide = copy();
  otherSide.path[0]!.side = otherSide.path[0]!.side === 'left' ? 'right' : 'left';
  expect(await verifyProof(otherSide, root.root)).toMatchObject({ ok: false, reason: 'root' });

  // A sibling whose sum is negative could cancel the customer's balance out of the total: refused as such.
  const negative = copy();
  negative.path[0]!.sums = negative.path[0]!.sums.map((sum) => `-${sum === '0' ? '1' : sum}`);
  expect(await verifyProof(negative, root.root)).toMatchObject({ ok: false, reason: 'negative' });

  // A leaf that is not in the tree (an account the operator left out), given a real leaf's path: it leads elsewhere.
  const missing = copy();
  missing.account = '999999';
  missing.leaf.id = (await import('../../src/server/domain/liabilities-tree.ts')).leafId(missing.salt, '999999');
  expect(await verifyProof(missing, root.root)).toMatchObject({ ok: false, reason: 'root' });
  // Nor is a leaf id another account's salt would not make.
  const notMine = copy();
  notMine.account = String(holder.id);
  expect(await verifyProof(notMine, root.root)).toMatchObject({ ok: false, reason: 'id' });
  // Totals other than the published ones.
  expect(await verifyProof(copy(), { hash: root.root, totals: root.totals.map((total) => `${total}0`) })).toMatchObject(
    { ok: false, reason: 'totals' },
  );
});

it('answers the caller their own leaf only, which verifies against the public root', async () => {
  const roots = await h.call(liabilityRoots);
  const published = roots.data.lists[0]!;
  for (const who of [holder, other]) {
    const answer = await h.call(myLiabilityProof, {}, { token: who.token });
    expect(answer.ret).toBe(1);
    expect(answer.data.proof.account).toBe(String(who.id));
    expect(answer.data.tree).toEqual(published);
    expect(await verifyProof(answer.data.proof, published.root)).toMatchObject({ ok: true });
  }
  const mine = await h.call(myLiabilityProof, {}, { token: holder.token });
  const theirs = await h.call(myLiabilityProof, {}, { token: other.token });
  expect(mine.data.proof.leaf.id).not.toBe(theirs.data.proof.leaf.id);
  expect(mine.data.proof.salt).not.toBe(theirs.data.proof.salt);
  // No session: no proof.
  expect((await h.call(myLiabilityProof)).ret).not.toBe(1);
  // A customer who registered after the cut-off is in no tree yet.
  const late = await customer(h, '5');
  expect(await h.call(myLiabilityProof, {}, { token: late.token })).toEqual(refused(texts.noLiabilityProof.message));
});

it("catches a balance the operator changes after publication in that customer's check", async () => {
  const published = (await h.call(liabilityRoots)).data.lists[0]!;
  const db = h.database.db;
  const usdt = published.assets.indexOf('USDT');
  const honest = await h.call(myLiabilityProof, {}, { token: holder.token });
  expect(await verifyProof(honest.data.proof, published.root)).toMatchObject({ ok: true });
  // The stored leaf says 1 USDT less than the ledger did at the cut-off.
  const sums = [...honest.data.proof.leaf.sums];
  sums[usdt] = (BigInt(sums[usdt]!) - 100000000n).toString();
  await db.execute(sql`
    update liability_leaves set sums = ${JSON.stringify(sums)}::jsonb
    where root_id = ${published.id} and user_id = ${holder.id}`);
  const changed = await h.call(myLiabilityProof, {}, { token: holder.token });
  expect(changed.data.proof.leaf.sums[usdt]).toBe(sums[usdt]);
  expect(await verifyProof(changed.data.proof, published.root)).toMatchObject({ ok: false, reason: 'root' });
  // The published root and totals stay as they were: the change shows only against them.
  expect((await h.call(liabilityRoots)).data.lists[0]!.totals).toEqual(published.totals);
  await db.execute(sql`
    update liability_leaves set sums = ${JSON.stringify(honest.data.proof.leaf.sums)}::jsonb
    where root_id = ${published.id} and user_id = ${holder.id}`);
  expect(
    await verifyProof((await h.call(myLiabilityProof, {}, { token: holder.token })).data.proof, published.root),
  ).toMatchObject({ ok: true });
});

it('builds the day’s tree once however many builds race, from the entries before the day began', async () => {
  h.clock.set(new Date('2026-11-23T00:02:00Z'));
  // After midnight: not in the day's tree.
  await h.database.db.transaction((tx) =>
    post(
      tx,
      { userId: other.id, asset: 'USDT', amount: '7', kind: 'test_credit', reference: 'after-midnight' },
      h.clock.now(),
    ),
  );
  const runs = await Promise.all([1, 2, 3].map(() => ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')));
  expect(runs.filter(Boolean)).toHaveLength(1);
  expect(await buildDailyLiabilities(h.database.db, '2026-11-23', h.clock.now(), 'test')).toBeNull();
  const days = rowsOf<{ day: string; cutoff_at: Date | string }>(
    await h.database.db.execute(sql`select day, cutoff_at from liability_roots where day is not null`),
  );
  expect(days.map((row) => [row.day, new Date(row.cutoff_at).toISOString()])).toEqual([
    ['2026-11-23', '2026-11-23T00:00:00.000Z'],
  ]);
  const { data } = await h.call(myLiabilityProof, {}, { token: other.token });
  expect(data.tree.day).toBe('2026-11-23');
  expect(data.proof.leaf.sums[data.tree.assets.indexOf('USDT')]).toBe('4000000000');
  expect(await verifyProof(data.proof, { hash: data.tree.root, totals: data.tree.totals })).toMatchObject({ ok: true });
  // The first minute after midnight still belongs to the day before.
  h.clock.set(new Date('2026-11-24T00:00:30Z'));
  expect(await ensureDailyLiabilities(h.database.db, h.clock.now(), 'test')).toBe(false);
}, 180_000);

it('runs from the command line: verified for a real proof, the reason for a changed one', async () => {
  const { data } = await h.call(myLiabilityProof, {}, { token: other.token });
  const real = join(folder, 'proof.json');
  const changed = join(folder, 'changed.json');
  writeFileSync(real, JSON.stringify(data.proof));
  const forged = structuredClone(data.proof);
  forged.leaf.sums = forged.leaf.sums.map((sum) => (BigInt(sum) * 2n).toString());
  writeFileSync(changed, JSON.stringify(forged));
  const run = promisify(execFile);
  const verifier = 'src/api-contract/liabilities-verify.ts';
  const ok = await run(process.execPath, [verifier, real, data.tree.root]);
  expect(ok.stdout.split('\n')[0]).toBe('verified');
  await expect(run(process.execPath, [verifier, changed, data.tree.root])).rejects.toMatchObject({
    code: 1,
    stdout: expect.stringContaining('NOT verified (root)'),
  });
}, 180_000);

it('builds one on demand from the operator command, audited, and lists the published roots', async () => {
  const printed = await opsOk(h, 'liabilities', 'build');
  const [, id, root] = /^Tree (\d+) as of \S+: 10001 customers, root ([0-9a-f]{64})/.exec(printed) ?? [];
  expect(root).toBeDefined();
  const [entry] = await h.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  expect(entry).toMatchObject({
    operator: 'ops',
    address: 'local',
    action: 'liabilities.build',
    target: `liabilities:${id}`,
  });
  const listed = await opsOk(h, 'liabilities');
  expect(
    listed
      .split('\n')
      .slice(2)
      .map((line) => line.split(/\s+/)[0]),
  ).toEqual([id, String(treeId + 1), String(treeId)]);
  expect(listed).toContain(root);
  expect(listed).toContain('2026-11-23');
});

it('counts what an open option may pay in a column of its own, and nothing once it is settled or for practice', async () => {
  const db = h.database.db;
  const now = h.clock.now();
  const earlier = new Date(now.getTime() - 120_000).toISOString();
  const settled = new Date(now.getTime() - 60_000).toISOString();
  // Holder's: one open (100 USDT at 85 %: 185 if it wins), one settled before the cut-off, one of practice money.
  await db.execute(sql`
    insert into option_orders (user_id, coin, product_id, direction, amount, minutes, yield_rate, status, start_at,
      practice, settled_at)
    values (${holder.id}, 'BTC', 1, 'up', 100, 5, 0.85, 'holding', ${earlier}::timestamptz, false, null),
      (${holder.id}, 'BTC', 1, 'down', 40, 1, 0.85, 'settled', ${earlier}::timestamptz, false, ${settled}::timestamptz),
      (${holder.id}, 'BTC', 1, 'up', 500, 5, 0.85, 'holding', ${earlier}::timestamptz, true, null)`);
  await buildLiabilitiesNow(db, now, COMMAND_LINE);
  const column = async (who: { token: string }) => {
    const { proof } = (await h.call(myLiabilityProof, {}, { token: who.token })).data;
    return proof.leaf.sums[proof.assets.indexOf(OPEN_OPTIONS_ASSET)];
  };
  expect(await column(holder)).toBe('18500000000');
  expect(await column(other)).toBe('0');
  const answer = await h.call(myLiabilityProof, {}, { token: holder.token });
  expect(await verifyProof(answer.data.proof, answer.data.tree.root)).toMatchObject({ ok: true });
});
