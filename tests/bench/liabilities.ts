// `npm run bench -- liabilities [1000000]`: the proof of liabilities' tree (src/server/domain/liabilities-tree.ts) over
// N customers (1,000,000 by default) in one process: their leaf ids from fresh salts, the leaves in tree order, the
// root (one pass, one level held at a time, the nodes from level 10 up kept), one customer's path (their block of
// 1,024 leaves hashed again and the kept nodes above it, as a call answers it) and that path
// checked by the stand-alone verifier. Target: the tree of 1,000,000 customers in ≤ 30 s on this 2-core machine;
// the time of each step and the process's peak resident memory are printed, then the machine's calibration
// (tests/machine-calibration.ts) so a slow machine is told apart from slow code. Four assets per leaf, a quarter of
// them zero, like customers who hold some coins and not others. The database's part (reading the ledger, storing the
// leaves) is not in it: the 10,000-customer server test times that.
import { calibrationText } from '../machine-calibration.ts';
import { cpus, loadavg } from 'node:os';
import {
  BLOCK_LEVEL,
  byId,
  leafId,
  newSalts,
  nodeHash,
  sumTree,
  upperPath,
  type Leaf,
} from '../../src/server/domain/liabilities-tree.ts';
import { verifyProof, PROOF_FORMAT } from '../../src/api-contract/liabilities-verify.ts';

const TARGET_S = 30;
const ASSETS = ['BTC', 'ETH', 'POINT', 'USDT'];

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** Peak resident memory of this process so far (getrusage's ru_maxrss, in KB). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

export async function liabilitiesBench(count = 1_000_000) {
  console.log(`\nProof of liabilities: a tree of ${count.toLocaleString('en')} customers, ${ASSETS.length} assets`);
  const before = peakRss();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // A small deterministic generator: the same balances every run.
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const salts = newSalts(count);
  const leaves: Leaf[] = new Array<Leaf>(count);
  for (let at = 0; at < count; at += 1) {
    leaves[at] = {
      id: leafId(salts[at]!, String(at + 1)),
      sums: ASSETS.map(() => (next() % 4 === 0 ? 0n : BigInt(next()) * 1000n)),
    };
  }
  const t1 = performance.now();
  const ordered = [...leaves].sort(byId);
  const t2 = performance.now();
  const tree = sumTree(ordered, ASSETS.length, -1, BLOCK_LEVEL);
  const t3 = performance.now();
  const cpu3 = process.cpuUsage(cpu0);
  const position = Math.floor(count / 3);
  const mine = ordered[position]!;
  // As a call answers it: the customer's block of 1,024 leaves hashed again, the kept nodes above it.
  const first = position - (position % 2 ** BLOCK_LEVEL);
  const block = sumTree(ordered.slice(first, first + 2 ** BLOCK_LEVEL), ASSETS.length, position - first);
  const kept = new Map(tree.kept.map((node) => [`${node.level}:${node.position}`, node]));
  const upper = upperPath(count, position, BLOCK_LEVEL, (level, at) => kept.get(`${level}:${at}`)!);
  let root = { hash: block.root, sums: block.sums };
  for (const step of upper) {
    const sibling = step.sums.map(BigInt);
    root = {
      hash:
        step.side === 'left'
          ? nodeHash(step.hash, root.hash, sibling, root.sums)
          : nodeHash(root.hash, step.hash, root.sums, sibling),
      sums: root.sums.map((sum, asset) => sum + sibling[asset]!),
    };
  }
  const path = { path: [...block.path, ...upper], root: root.hash, sums: root.sums };
  const t4 = performance.now();
  const account = String(leaves.indexOf(mine) + 1);
  const verdict = await verifyProof(
    {
      format: PROOF_FORMAT,
      tree: 1,
      cutoff: new Date().toISOString(),
      assets: ASSETS,
      decimals: 8,
      account,
      salt: salts[Number(account) - 1]!,
      leaf: { id: mine.id, sums: mine.sums.map(String) },
      path: path.path,
      root: { hash: path.root, sums: path.sums.map(String) },
    },
    { hash: tree.root, totals: tree.sums.map(String) },
  );
  const t5 = performance.now();
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const buildMs = t3 - t0;
  console.log(`  salts and leaf ids (SHA-256 each):   ${s(t1 - t0)}`);
  console.log(`  leaves in tree order (by id):        ${s(t2 - t1)}`);
  console.log(`  root (one pass, ${count - 1} nodes hashed): ${s(t3 - t2)}`);
  console.log(
    `  tree built (the three above):        ${s(buildMs)}  target ≤ ${TARGET_S} s: ${buildMs / 1000 <= TARGET_S ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `  CPU time of the build:               ${s((cpu3.user + cpu3.system) / 1000)} (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores: wall time above includes waiting for a core)`,
  );
  console.log(`  one customer's path (block + kept):  ${s(t4 - t3)}  (${path.path.length} steps)`);
  console.log(
    `  that path verified (Web Crypto):     ${s(t5 - t4)}  ${verdict.ok ? 'verified' : `NOT verified: ${JSON.stringify(verdict)}`}`,
  );
  console.log(
    `  peak resident memory:                ${mb(peakRss())} (${mb(before)} before the leaves; heap now ${mb(process.memoryUsage().heapUsed)})`,
  );
  console.log(`  root ${tree.root}`);
  // Last: its fresh memory would count in the peak above.
  console.log(`  calibration, ${calibrationText()}`);
}
