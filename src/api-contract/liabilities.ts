// Proof of liabilities: the published roots of the Merkle sum tree over every customer's real balances (public, for
// anyone to check a proof against) and the caller's own proof, which the app verifies on the device with the
// stand-alone verifier (liabilities-verify.ts). The format: src/server/domain/LIABILITIES.md.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { hex64, isoDay, isoTime, shape, whole } from './answers.ts';

/**
 * The tree's column for what open options owe: the USDT each real-money option accepted by the cut-off and not
 * settled by it pays back if it wins (its stake × (1 + its yield rate), cut to 8 decimals as settlement pays it). The
 * stake left the customer's USDT when the option was bought, so without it the tree would leave out what the platform
 * may owe them; it counts the most an open option can pay, as a liability is counted at the most it can be.
 */
export const OPEN_OPTIONS_ASSET = 'USDT_IN_OPTIONS';

/**
 * The tree's column for the interest lock-ups have earned and not paid yet, in USDT. A customer holding a lock-up is
 * owed its principal (the REGULAR column) and, by the product's rule, its daily income (principal × daily rate, cut to
 * 8 decimals) for each interest day of its period once that day has ended (interest days in the earn time zone, whole
 * days: nothing accrues within a day, and the principal cannot leave early). The day-end job pays a day's income into
 * USDT some time after the day ended, so at a cut-off an ended day's income may be owed and in no balance yet: this
 * column counts, per customer, the income of every day of their lock-ups ended by the cut-off that the tree does not
 * hold as paid USDT. The income of days not ended by the cut-off is promised, not yet earned, and is not counted.
 */
export const LOCKUP_INTEREST_ASSET = 'USDT_LOCKUP_INTEREST';

/**
 * The tree's column for the interest liquidity has earned and not credited yet, in USDT. A liquidity holder earns each
 * interest day's interest on that day's eligible principal at the day's published ladder (interest days in the earn
 * time zone, whole days: nothing accrues within a day), credited to the liquidity balance (YUEBAO) by the day-end job
 * some time after the day ended, so at a cut-off an ended day's interest may be owed and in no balance yet: this column
 * counts, per customer, the interest of every day ended by the cut-off that the tree does not hold in the liquidity
 * balance, 0 once the job's credit is in the tree. The interest of the day not ended is not earned yet.
 */
export const LIQUIDITY_INTEREST_ASSET = 'USDT_LIQUIDITY_INTEREST';

/**
 * Where the server serves the stand-alone verifier (liabilities-verify.ts with its types stripped, so any Node.js from
 * 20.16 runs it as `node liabilities-verify.mjs proof.json <published root hash | roots.json>`, roots.json the list
 * saved from GET /api/liabilities/roots), for anyone, from any origin.
 */
export const LIABILITIES_VERIFIER_PATH = '/.well-known/liabilities-verify.mjs';

/** A whole number of minor units as a decimal string ("150000000" is 1.5 with 8 decimals). */
const units = v.pipe(v.string(), v.regex(/^(0|[1-9][0-9]*)$/), v.examples(['150000000']));

/** A published tree as the public list shows it. */
export const PublishedTree = shape({
  id: whole,
  /** The UTC day of a daily tree (its cut-off is that day's start); null for one an operator built on demand. */
  day: v.nullable(isoDay),
  /** Entries created up to this instant are in the tree. */
  cutoff: isoTime,
  root: hex64,
  /** The assets, in the order of every node's sums. */
  assets: v.array(v.string()),
  /** The sum of every customer's balance of each asset, in minor units. */
  totals: v.array(units),
  /** Decimal places of the minor unit (8). */
  decimals: whole,
  /** How many customers (leaves) the tree holds. */
  leaves: whole,
  built_at: isoTime,
});
export type PublishedTree = v.InferOutput<typeof PublishedTree>;

/** A customer's proof: the format of liabilities-verify.ts's LiabilityProof. */
export const Proof = shape({
  format: v.string(),
  tree: whole,
  cutoff: isoTime,
  assets: v.array(v.string()),
  decimals: whole,
  account: v.string(),
  salt: hex64,
  leaf: shape({ id: hex64, sums: v.array(units) }),
  path: v.array(shape({ side: v.picklist(['left', 'right']), hash: hex64, sums: v.array(units) })),
  root: shape({ hash: hex64, sums: v.array(units) }),
});

/** Our addition: the published roots of proof of liabilities, newest first (at most 60), for anyone. */
export const liabilityRoots = get('/liabilities/roots', NoInput, returns(shape({ lists: v.array(PublishedTree) })), {
  cache: 'public',
  auth: false,
});

/**
 * Our addition: the caller's own proof in the newest tree (their salt, leaf and path) with the tree as published;
 * refused with `noLiabilityProof` while no tree holds the caller. Only ever the caller's leaf.
 */
export const myLiabilityProof = get(
  '/users/liabilities/proof',
  NoInput,
  returns(shape({ tree: PublishedTree, proof: Proof })),
  { cache: 'user' },
);

/** A decimal string from whole minor units (the stand-alone verifier's, which prints them too). */
export { unitsToDecimal } from './liabilities-verify.ts';
