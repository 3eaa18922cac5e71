// The Merkle sum tree of the proof of liabilities, computed in memory (node:crypto, synchronous): the same hashes as
// the stand-alone verifier (src/api-contract/liabilities-verify.ts), which the tests hold it to. Format and reasons:
// LIABILITIES.md beside this file.
import { hash, randomBytes } from 'node:crypto';
import type { ProofStep } from '../../api-contract/liabilities-verify.ts';

/** A leaf: its id (hex SHA-256 of salt || account id) and its sums, one per asset, in whole minor units ≥ 0. */
export interface Leaf {
  id: string;
  sums: bigint[];
}

/** What a pass over the leaves answers: the root and, when a leaf was tracked, the path from it to the root. */
export interface TreeResult {
  root: string;
  sums: bigint[];
  /** The siblings from the tracked leaf up (empty when none was tracked or the tree is one leaf). */
  path: ProofStep[];
  /** The nodes of every level from `keepFrom` up (the root's included), when asked for. */
  kept: KeptNode[];
}

/** A node kept at build time: its level (leaves are level 0), its position in the level, its hash and sums. */
export interface KeptNode {
  level: number;
  position: number;
  hash: string;
  sums: bigint[];
}

/**
 * Leaves per block: the nodes of level 10 and above are kept with a tree, so a customer's path is their block's
 * 1,024 leaves hashed again plus at most ~10 stored siblings above it, however large the tree.
 */
export const BLOCK_LEVEL = 10;

/** How many nodes level `level` of a tree of `leaves` leaves holds. */
export const levelCount = (leaves: number, level: number) => Math.ceil(leaves / 2 ** level);

/**
 * The steps above a block: the siblings of the leaf at `position`'s ancestors from level `from` up to the root's
 * children, read through `node(level, position)` (the stored nodes).
 */
export function upperPath(
  leaves: number,
  position: number,
  from: number,
  node: (level: number, position: number) => { hash: string; sums: readonly (bigint | string)[] },
): ProofStep[] {
  const path: ProofStep[] = [];
  for (let level = from; levelCount(leaves, level) > 1; level += 1) {
    const at = Math.floor(position / 2 ** level);
    const sibling = at ^ 1;
    if (sibling >= levelCount(leaves, level)) continue;
    const found = node(level, sibling);
    path.push({ side: sibling < at ? 'left' : 'right', hash: found.hash, sums: found.sums.map(String) });
  }
  return path;
}

// crypto.hash (one call, no Hash object) is about 2.5 times as fast as createHash for these short inputs.
const sha = (text: string) => hash('sha256', text, 'hex');

/** `count` random salts from one draw of the system's random source (a first tree salts every customer at once). */
export function newSalts(count: number): string[] {
  const bytes = randomBytes(32 * count);
  return Array.from({ length: count }, (_, at) => bytes.toString('hex', at * 32, at * 32 + 32));
}

/** hex(SHA-256(salt bytes || UTF-8 of the account id)), as the verifier computes it. */
export const leafId = (salt: string, account: string) =>
  hash('sha256', Buffer.concat([Buffer.from(salt, 'hex'), Buffer.from(account, 'utf8')]), 'hex');

/** The leaf's hash: SHA-256 of "leaf:" + id + ":" + sums joined by ",". */
export const leafHash = (id: string, sums: readonly bigint[]) => sha(`leaf:${id}:${sums.join(',')}`);

/** A node's hash from its children: SHA-256 of "node:" + left + ":" + right + ":" + left sums + ":" + right sums. */
export const nodeHash = (left: string, right: string, leftSums: readonly bigint[], rightSums: readonly bigint[]) =>
  sha(`node:${left}:${right}:${leftSums.join(',')}:${rightSums.join(',')}`);

/** The leaves' order in the tree: by id, which is random, so a position says nothing of the account. */
export const byId = (a: Leaf, b: Leaf) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * One pass up the tree over `leaves` (already in tree order; `assets` sums each): level by level, each pair hashed
 * into its parent and its sums added; a level with an odd count carries its last node up unchanged. Only one level is
 * held at a time, so memory is about the leaves. With `track` (a leaf's position) the siblings on its way up are kept:
 * the path of its proof. Refuses (throws) a negative sum: a balance is never below zero. No leaf: an empty tree, the
 * hash of "empty" and zero sums. With `keepFrom`, every node of that level and above is answered too (`kept`).
 */
export function sumTree(leaves: readonly Leaf[], assets: number, track = -1, keepFrom = Infinity): TreeResult {
  if (!leaves.length) return { root: sha('empty'), sums: Array<bigint>(assets).fill(0n), path: [], kept: [] };
  const kept: KeptNode[] = [];
  let level = 0;
  let hashes: string[] = new Array<string>(leaves.length);
  let sums: bigint[][] = new Array<bigint[]>(leaves.length);
  // Each node's sums as the text its parent hashes ("1,0,25"), made once.
  let texts: string[] = new Array<string>(leaves.length);
  for (let at = 0; at < leaves.length; at += 1) {
    const leaf = leaves[at]!;
    if (leaf.sums.length !== assets) throw new Error(`leaf ${leaf.id} has ${leaf.sums.length} sums, not ${assets}`);
    if (leaf.sums.some((sum) => sum < 0n)) throw new Error(`leaf ${leaf.id} has a negative sum`);
    texts[at] = leaf.sums.join(',');
    hashes[at] = sha(`leaf:${leaf.id}:${texts[at]}`);
    sums[at] = leaf.sums;
  }
  const path: ProofStep[] = [];
  let tracked = track;
  while (hashes.length > 1) {
    const count = hashes.length;
    const up = Math.ceil(count / 2);
    const upHashes = new Array<string>(up);
    const upSums = new Array<bigint[]>(up);
    const upTexts = new Array<string>(up);
    if (tracked >= 0) {
      const sibling = tracked ^ 1;
      if (sibling < count)
        path.push({
          side: sibling < tracked ? 'left' : 'right',
          hash: hashes[sibling]!,
          sums: sums[sibling]!.map(String),
        });
      tracked >>= 1;
    }
    for (let at = 0; at + 1 < count; at += 2) {
      const left = sums[at]!;
      const right = sums[at + 1]!;
      const parent = left.map((sum, asset) => sum + right[asset]!);
      upHashes[at >> 1] = sha(`node:${hashes[at]}:${hashes[at + 1]}:${texts[at]}:${texts[at + 1]}`);
      upSums[at >> 1] = parent;
      upTexts[at >> 1] = parent.join(',');
    }
    if (count % 2) {
      upHashes[count >> 1] = hashes[count - 1]!;
      upSums[count >> 1] = sums[count - 1]!;
      upTexts[count >> 1] = texts[count - 1]!;
    }
    hashes = upHashes;
    sums = upSums;
    texts = upTexts;
    level += 1;
    if (level >= keepFrom)
      for (let at = 0; at < up; at += 1) kept.push({ level, position: at, hash: upHashes[at]!, sums: upSums[at]! });
  }
  return { root: hashes[0]!, sums: sums[0]!, path, kept };
}

/** Every level of a tree, the leaves' first: each node's hash and sums. */
export type Levels = { hashes: string[]; sums: bigint[][] }[];

/**
 * The whole tree kept in memory, level by level (the same hashes as `sumTree`), for answering many paths at once: an
 * audit of every leaf. Memory grows with about twice the leaves; `sumTree` is the pass for one path.
 */
export function treeLevels(leaves: readonly Leaf[]): Levels {
  const levels: Levels = [
    { hashes: leaves.map((leaf) => leafHash(leaf.id, leaf.sums)), sums: leaves.map((leaf) => leaf.sums) },
  ];
  for (let level = levels[0]!; level.hashes.length > 1; level = levels.at(-1)!) {
    const up: Levels[number] = { hashes: [], sums: [] };
    for (let at = 0; at < level.hashes.length; at += 2) {
      if (at + 1 === level.hashes.length) {
        up.hashes.push(level.hashes[at]!);
        up.sums.push(level.sums[at]!);
        continue;
      }
      const left = level.sums[at]!;
      const right = level.sums[at + 1]!;
      up.hashes.push(nodeHash(level.hashes[at]!, level.hashes[at + 1]!, left, right));
      up.sums.push(left.map((sum, asset) => sum + right[asset]!));
    }
    levels.push(up);
  }
  return levels;
}

/** The path of the leaf at `position` in `levels`: its siblings from the bottom up (as `sumTree` tracks it). */
export function pathIn(levels: Levels, position: number): ProofStep[] {
  const path: ProofStep[] = [];
  let at = position;
  for (const level of levels.slice(0, -1)) {
    const sibling = at ^ 1;
    if (sibling < level.hashes.length)
      path.push({
        side: sibling < at ? 'left' : 'right',
        hash: level.hashes[sibling]!,
        sums: level.sums[sibling]!.map(String),
      });
    at >>= 1;
  }
  return path;
}

/** Minor units (a whole number) from a decimal string with at most `decimals` places: "1.5", 8 → 150000000n. */
export function minorUnits(amount: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error(`not a non-negative decimal: ${amount}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`${amount} has more than ${decimals} decimals`);
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}
