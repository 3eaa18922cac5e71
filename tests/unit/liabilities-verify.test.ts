// @vitest-environment node
// The stand-alone verifier of a proof of liabilities (src/api-contract/liabilities-verify.ts) against proofs a
// dishonest platform could hand out: one leaf shown to two customers as each one's own, and a proof whose figures are
// read with other decimals or another cut-off than the tree published.
import { expect, it } from 'vitest';
import {
  PROOF_FORMAT,
  leafHashOf,
  leafIdOf,
  verifyProof,
  type LiabilityProof,
} from '../../src/api-contract/liabilities-verify.ts';

const SALT = '5a'.repeat(32);
const CUTOFF = '2026-11-23T00:00:00.000Z';

/** A tree of one leaf, account `account` holding `sums` USDT minor units: its proof and what is published of it. */
async function oneLeafTree(account: string, sums: string[]) {
  const id = await leafIdOf(SALT, account);
  const hash = await leafHashOf(id, sums);
  const proof: LiabilityProof = {
    format: PROOF_FORMAT,
    tree: 4,
    cutoff: CUTOFF,
    assets: ['USDT'],
    decimals: 8,
    account,
    salt: SALT,
    leaf: { id, sums },
    path: [],
    root: { hash, sums },
  };
  return { proof, published: { hash, assets: ['USDT'], totals: sums } };
}

it('refuses a salt that is not 32 bytes: salt ‖ account would let one leaf pass for two accounts', async () => {
  // Customers 12 and 2 both hold 5 USDT; the platform publishes one leaf of 5 USDT, owing 10. Customer 12 is given
  // the real salt; customer 2 is given that salt with the byte "1" after it, so salt ‖ "2" is the same bytes as
  // salt ‖ "12": the same leaf id, the same leaf, and a proof of account 2 that leads to the published root.
  const { proof, published } = await oneLeafTree('12', ['500000000']);
  expect(await verifyProof(proof, published, '12')).toEqual({ ok: true, root: published.hash });
  const forged: LiabilityProof = { ...proof, account: '2', salt: `${SALT}31` };
  expect(forged.leaf.id).toBe(await leafIdOf(forged.salt, '2'));
  expect(await verifyProof(forged, published, '2')).toMatchObject({ ok: false, reason: 'format' });
});
