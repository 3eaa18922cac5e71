// Storage of the proof of liabilities: only the newest trees keep their leaves and nodes (PROOFS_KEPT); every tree
// keeps its published root and totals, and the newest tree's proofs still verify after the oldest were cleared.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/connection.ts';
import { myLiabilityProof } from '../../src/api-contract/liabilities.ts';
import { verifyProof } from '../../src/api-contract/liabilities-verify.ts';
import { COMMAND_LINE } from '../../src/server/domain/audit-log.ts';
import { PROOFS_KEPT, buildLiabilitiesNow } from '../../src/server/domain/liabilities.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const countsByTree = async () =>
  rowsOf<{ id: number; leaves: number; nodes: number }>(
    await h.database.db.execute(sql`
      select r.id,
        (select count(*) from liability_leaves l where l.root_id = r.id)::int as leaves,
        (select count(*) from liability_nodes n where n.root_id = r.id)::int as nodes
      from liability_roots r order by r.id`),
  );

it(`keeps the leaves of the newest ${PROOFS_KEPT} trees only, and every root`, async () => {
  const holder = await customer(h, '12.5');
  await customer(h, '3');
  const built: number[] = [];
  for (let n = 0; n < PROOFS_KEPT + 2; n++) {
    h.clock.advance(1000);
    built.push((await buildLiabilitiesNow(h.database.db, h.clock.now(), COMMAND_LINE)).id);
  }
  const trees = await countsByTree();
  expect(trees.map((tree) => tree.id)).toEqual(built);
  // The two oldest hold nothing any more; the newest PROOFS_KEPT hold a leaf per customer. (Nodes are stored from the
  // level of 1,024 leaves up, so a tree of two customers has none; the same statement clears both tables.)
  expect(trees.slice(0, 2).map(({ leaves, nodes }) => leaves + nodes)).toEqual([0, 0]);
  for (const tree of trees.slice(2)) expect(tree.leaves).toBeGreaterThanOrEqual(2);
  const answer = await h.call(myLiabilityProof, {}, { token: holder.token });
  expect(answer.ret).toBe(1);
  expect(answer.data.tree.id).toBe(built.at(-1));
  expect(await verifyProof(answer.data.proof, answer.data.tree.root)).toMatchObject({ ok: true });
});
