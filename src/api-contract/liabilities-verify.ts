// The stand-alone verifier of a proof of liabilities (the format: src/server/domain/LIABILITIES.md). It imports
// nothing, so it can be copied out of the repository and run on its own:
//
//   node src/api-contract/liabilities-verify.ts proof.json <published root hash | roots.json>
//
// (Node.js 22.18 or later runs TypeScript by stripping its types; with an older Node, `npx tsx` in place of `node`)
// prints "verified" and what was verified (exit 0) or the reason the proof fails (exit 1). roots.json is the published
// list saved from GET /api/liabilities/roots: then the proof's tree must be the newest listed, and its assets, totals,
// decimals and cut-off the listed ones. The app's "Verify my balance" screen and the server tests call `verifyProof`
// below; hashing is Web Crypto's SHA-256 (browsers' secure contexts, Node ≥ 20).
//
// The tree is a Merkle sum tree with a vector of sums (one per asset, integer minor units as decimal strings):
//   leaf id    = hex(SHA-256(salt bytes || UTF-8 of the account id)), the salt exactly 32 bytes (64 hex digits)
//   leaf hash  = hex(SHA-256(UTF-8 of "leaf:" + id + ":" + sums joined by ","))
//   node hash  = hex(SHA-256(UTF-8 of "node:" + left hash + ":" + right hash + ":" + left sums + ":" + right sums))
//   node sums  = left sums + right sums, asset by asset
// A level with an odd count carries its last node up unchanged. Every sum is a whole number ≥ 0: a negative one is a
// forged proof (it could hide a customer's balance by cancelling it).

/** One step from a node towards the root: its sibling, and on which side the sibling sits. */
export interface ProofStep {
  side: 'left' | 'right';
  hash: string;
  sums: string[];
}

/** A customer's proof of inclusion, as the server answers it and the customer downloads it. */
export interface LiabilityProof {
  /** Always 'coinvest-liabilities/1'. */
  format: string;
  /** The published tree's id and cut-off time (ISO 8601). */
  tree: number;
  cutoff: string;
  /** The assets the sums are of, in order (the same for every node of the tree). */
  assets: string[];
  /** Decimal places of the minor unit: a sum of 150000000 with 8 decimals is 1.5. */
  decimals: number;
  /** The account id and its salt (hex), which only the customer is given: they make the leaf id. */
  account: string;
  salt: string;
  leaf: { id: string; sums: string[] };
  /** From the leaf's sibling up to the root's children. */
  path: ProofStep[];
  root: { hash: string; sums: string[] };
}

/**
 * What a check found: `ok`, or the first reason it failed. `older` is found by the app and the command line below from
 * the published list, never by `verifyProof`: the proof is of a tree older than the newest one published.
 */
export type Verdict =
  | { ok: true; root: string }
  | {
      ok: false;
      reason: 'format' | 'account' | 'negative' | 'id' | 'root' | 'sums' | 'totals' | 'crypto' | 'older';
      detail: string;
    };

/**
 * What the operator published for a tree (the public list of roots). The proof's assets, decimals and cut-off are not
 * in any hash: a proof that named other ones would have the customer read their leaf as other amounts (a sum read
 * with 7 decimals is ten times the one the totals count at 8) or compare it with a balance of another time.
 */
export interface PublishedRoot {
  hash: string;
  assets?: string[];
  totals?: string[];
  /** Decimal places of the minor unit. */
  decimals?: number;
  /** The cut-off time, ISO 8601. */
  cutoff?: string;
}

export const PROOF_FORMAT = 'coinvest-liabilities/1';

const WHOLE = /^(0|[1-9][0-9]*)$/;
const HASH = /^[0-9a-f]{64}$/;

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let at = 0; at < bytes.length; at += 1) bytes[at] = parseInt(hex.slice(at * 2, at * 2 + 2), 16);
  return bytes;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available: a secure (https) connection is needed');
  return toHex(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** hex(SHA-256(salt bytes || UTF-8 of the account id)). */
export async function leafIdOf(salt: string, account: string): Promise<string> {
  const saltBytes = hexBytes(salt);
  const accountBytes = utf8(account);
  const both = new Uint8Array(saltBytes.length + accountBytes.length);
  both.set(saltBytes, 0);
  both.set(accountBytes, saltBytes.length);
  return sha256(both);
}

/** hex(SHA-256("leaf:" + id + ":" + sums joined by ",")). */
export const leafHashOf = (id: string, sums: readonly string[]) => sha256(utf8(`leaf:${id}:${sums.join(',')}`));

/** hex(SHA-256("node:" + left hash + ":" + right hash + ":" + left sums + ":" + right sums)). */
export const nodeHashOf = (left: string, right: string, leftSums: readonly string[], rightSums: readonly string[]) =>
  sha256(utf8(`node:${left}:${right}:${leftSums.join(',')}:${rightSums.join(',')}`));

const fail = (reason: Exclude<Verdict, { ok: true }>['reason'], detail: string): Verdict => ({
  ok: false,
  reason,
  detail,
});

/** The first sum that is not a whole number ≥ 0, as a verdict; null when all are. */
function badSums(sums: unknown, count: number, where: string): Verdict | null {
  if (!Array.isArray(sums) || sums.length !== count) return fail('format', `${where}: ${count} sums expected`);
  for (const sum of sums) {
    if (typeof sum !== 'string') return fail('format', `${where}: a sum is not a decimal string`);
    if (/^\s*-/.test(sum)) return fail('negative', `${where}: negative sum ${sum}`);
    if (!WHOLE.test(sum)) return fail('format', `${where}: ${sum} is not a whole number of minor units`);
  }
  return null;
}

/** A decimal string from whole minor units: ("150000000", 8) → "1.5"; ("0", 8) → "0". Exact (string digits only). */
export function unitsToDecimal(units: string, decimals: number): string {
  const digits = units.padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

const add = (left: readonly string[], right: readonly string[]) =>
  left.map((sum, at) => (BigInt(sum) + BigInt(right[at]!)).toString());

/**
 * Checks a proof against the root the operator published: the leaf id from the salt and account, every sum a whole
 * number ≥ 0, each step's hash and sums, the root's hash equal to the published one (and the proof's assets, root
 * sums, decimals and cut-off equal to the published ones when given). With `account` (the checking customer's own
 * account id, in decimal), the proof must be of that account: a proof of another customer's leaf with the same
 * balances would verify as well, and an operator could show it to both while keeping one leaf. Never throws on a bad
 * proof: it answers why it fails.
 */
export async function verifyProof(
  proof: LiabilityProof,
  published: PublishedRoot | string,
  account?: string,
): Promise<Verdict> {
  const expected = typeof published === 'string' ? { hash: published } : published;
  try {
    if (!proof || typeof proof !== 'object' || proof.format !== PROOF_FORMAT)
      return fail('format', `not a ${PROOF_FORMAT} proof`);
    if (account !== undefined && String(proof.account) !== account)
      return fail('account', `the proof is of account ${String(proof.account)}, not of ${account}`);
    const { assets, leaf, path, root } = proof;
    if (!Array.isArray(assets) || !assets.every((asset) => typeof asset === 'string')) return fail('format', 'assets');
    if (!leaf || !HASH.test(String(leaf.id))) return fail('format', 'leaf id');
    if (!root || !HASH.test(String(root.hash))) return fail('format', 'root hash');
    if (!Array.isArray(path)) return fail('format', 'path');
    const count = assets.length;
    const leafBad = badSums(leaf.sums, count, 'leaf');
    if (leafBad) return leafBad;
    // Exactly 32 bytes: with a salt of any length, salt ‖ "12" is also (salt ‖ "1") ‖ "2", and one leaf would pass
    // for accounts 12 and 2 alike.
    if (typeof proof.salt !== 'string' || !HASH.test(proof.salt)) return fail('format', 'salt: 64 hex digits expected');
    if ((await leafIdOf(proof.salt, String(proof.account))) !== leaf.id)
      return fail('id', 'the leaf id is not SHA-256(salt || account)');
    let hash = await leafHashOf(leaf.id, leaf.sums);
    let sums = leaf.sums;
    for (const [at, step] of path.entries()) {
      if (!step || (step.side !== 'left' && step.side !== 'right') || !HASH.test(String(step.hash)))
        return fail('format', `step ${at + 1}`);
      const stepBad = badSums(step.sums, count, `step ${at + 1}`);
      if (stepBad) return stepBad;
      hash =
        step.side === 'left'
          ? await nodeHashOf(step.hash, hash, step.sums, sums)
          : await nodeHashOf(hash, step.hash, sums, step.sums);
      sums = add(sums, step.sums);
    }
    const rootBad = badSums(root.sums, count, 'root');
    if (rootBad) return rootBad;
    if (hash !== root.hash || hash !== expected.hash)
      return fail('root', `the path leads to ${hash}, not to the published root ${expected.hash}`);
    if (sums.join(',') !== root.sums.join(',')) return fail('sums', 'the path does not add up to the root sums');
    if (expected.assets && expected.assets.join(',') !== assets.join(','))
      return fail('totals', 'the assets differ from the published ones');
    if (expected.totals && expected.totals.join(',') !== root.sums.join(','))
      return fail('totals', 'the root sums differ from the published totals');
    if (expected.decimals !== undefined && proof.decimals !== expected.decimals)
      return fail(
        'totals',
        `the proof reads its sums with ${proof.decimals} decimals, not the published ${expected.decimals}`,
      );
    if (expected.cutoff !== undefined && Date.parse(proof.cutoff) !== Date.parse(expected.cutoff))
      return fail('totals', `the proof's cut-off ${proof.cutoff} is not the published ${expected.cutoff}`);
    return { ok: true, root: hash };
  } catch (error) {
    return fail('crypto', error instanceof Error ? error.message : String(error));
  }
}

// ---- Command line: node liabilities-verify.ts proof.json <root hash | roots.json> ---------------------------------
// Reads through process.getBuiltinModule (Node ≥ 20.16), so the file imports nothing and a browser bundle of it
// carries no Node module.

/** A tree of the published list (GET /api/liabilities/roots), as far as a check reads it. */
interface ListedTree {
  id: number;
  cutoff: string;
  root: string;
  assets: string[];
  totals: string[];
  decimals: number;
}

/**
 * The command line's check of `proof` against `published`: a root hash, or the path of the published list saved from
 * GET /api/liabilities/roots (the API's answer as it is, or its `data`), newest first. With the list, the proof's tree
 * must be the newest (the server answers a customer no other; an older one could hold them while the newest leaves
 * them out) and its assets, totals, decimals and cut-off the listed ones, which no hash holds. Answers the lines to
 * print, "verified" then what was verified, or why not, and the exit code.
 */
export async function commandLineCheck(
  proof: LiabilityProof,
  published: string,
  read: (path: string) => string,
): Promise<{ lines: string[]; code: number }> {
  const refused = (reason: string, detail: string) => ({ lines: [`NOT verified (${reason}): ${detail}`], code: 1 });
  let expected: PublishedRoot = { hash: published };
  let which = '';
  if (!HASH.test(published)) {
    const answer = JSON.parse(read(published)) as { data?: { lists?: ListedTree[] }; lists?: ListedTree[] };
    const lists = answer.data?.lists ?? answer.lists ?? [];
    const tree = lists.find((listed) => listed.id === proof?.tree);
    if (!tree) return refused('root', `tree ${String(proof?.tree)} is not in the published list`);
    if (tree !== lists[0])
      return refused('older', `tree ${tree.id} is older than the newest published, ${lists[0]!.id}`);
    const { root: hash, assets, totals, decimals, cutoff } = tree;
    expected = { hash, assets, totals, decimals, cutoff };
    which = ' (the newest published)';
  }
  const verdict = await verifyProof(proof, expected);
  if (!verdict.ok) return refused(verdict.reason, verdict.detail);
  return {
    lines: [
      'verified',
      `account ${proof.account}, tree ${proof.tree}${which}, cut-off ${proof.cutoff}`,
      ...proof.assets.map((asset, at) => `  ${asset} ${unitsToDecimal(proof.leaf.sums[at]!, proof.decimals)}`),
      ...(which
        ? []
        : ['Checked against the root only: give the saved list of published roots in its place to check the rest.']),
    ],
    code: 0,
  };
}

interface NodeProcess {
  argv: string[];
  exitCode?: number;
  getBuiltinModule?: (name: string) => unknown;
}
const nodeProcess = (globalThis as { process?: NodeProcess }).process;
const script = nodeProcess?.argv?.[1];
// Run as the script (not imported): its file, saved under any name a browser gives it ("liabilities-verify (1).mjs"),
// in any folder, a space in its path included (which the file's URL writes as %20).
const runAsScript = (path: string) =>
  /liabilities-verify[^/\\]*\.[cm]?[jt]s$/.test(path) &&
  decodeURIComponent(new URL(import.meta.url).pathname).endsWith(path.replace(/\\/g, '/'));
if (script && runAsScript(script)) {
  const fs = nodeProcess!.getBuiltinModule!('node:fs') as { readFileSync(path: string, encoding: 'utf8'): string };
  const read = (path: string) => fs.readFileSync(path, 'utf8');
  const [file, published] = nodeProcess!.argv.slice(2);
  if (!file || !published) {
    console.error('usage: node liabilities-verify.ts proof.json <published root hash | roots.json>');
    nodeProcess!.exitCode = 2;
  } else {
    void commandLineCheck(JSON.parse(read(file)) as LiabilityProof, published, read).then(({ lines, code }) => {
      console.log(lines.join('\n'));
      nodeProcess!.exitCode = code;
    });
  }
}
