// Proof of liabilities (LIABILITIES.md beside this file): a Merkle sum tree over every customer's real balances per
// asset, read from the ledger as of a cut-off time, its root and totals published and kept; each customer is answered
// their own leaf and path, which the app checks on the device with the stand-alone verifier
// (src/api-contract/liabilities-verify.ts). A day's tree is built once, by whichever process comes first (an advisory
// lock and the day's unique row); an operator may build one at any time (`npm run ops -- liabilities build`).
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { PROOF_FORMAT, type LiabilityProof } from '../../api-contract/liabilities-verify.ts';
import {
  LIQUIDITY_INTEREST_ASSET,
  LOCKUP_INTEREST_ASSET,
  OPEN_OPTIONS_ASSET,
  type PublishedTree,
} from '../../api-contract/liabilities.ts';
import { DEFAULT_EARN_TIMEZONE, interestDay } from '../../api-contract/earn-days.ts';
import { addDays } from '../../api-contract/earn.ts';
import { LOCKUP_ENTRY } from './lockup.ts';
import { LIQUIDITY_ENTRY, uncreditedInterestSql } from './liquidity.ts';
import { BLIND_BOX_KIND, PRIZE_REFERENCE_END } from './blindbox.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { openPayoutSql } from './house-limits.ts';
import {
  BLOCK_LEVEL,
  byId,
  leafId,
  newSalts,
  nodeHash,
  pathIn,
  sumTree,
  treeLevels,
  upperPath,
  type Leaf,
} from './liabilities-tree.ts';

/** Builds of any process wait for each other on this advisory lock (a constant every process agrees on). */
const LIABILITIES_LOCK = 0x6c696162;
/** Ledger amounts have 8 decimals (numeric(36, 8)): a sum's minor unit is 10⁻⁸ of the asset. */
export const LIABILITY_DECIMALS = 8;
/**
 * A day's tree is built this long after the UTC day began, from the entries created before it: a posting that began
 * just before midnight has committed by then. Until then the day before is the latest day.
 */
export const LIABILITIES_GRACE_MS = 60_000;
/** The public list answers at most this many roots, newest first. */
export const ROOTS_LISTED = 60;
/**
 * The newest trees whose leaves and nodes are kept, so their customers can fetch a proof (the app asks for the newest);
 * an older tree keeps its published root and totals only. A daily tree of 1,000,000 customers stores about 200 MB of
 * leaves: kept for every day, storage would grow without end. 31: a month of daily trees, operators' builds counted.
 */
export const PROOFS_KEPT = 31;
const BATCH = 5000;

/** The UTC day whose tree is the latest daily one at `now`. */
export const liabilitiesDayAt = (now: Date): string =>
  new Date(now.getTime() - LIABILITIES_GRACE_MS).toISOString().slice(0, 10);

/** Gives every customer created by `cutoff` who has none yet a salt (32 random bytes, hex), in batches. */
async function ensureSalts(tx: Executor, cutoff: Date): Promise<void> {
  for (;;) {
    const missing = rowsOf<{ id: number }>(
      await tx.execute(sql`
        select u.id from users u
        where u.created_at <= ${cutoff.toISOString()}::timestamptz
          and not exists (select 1 from liability_salts s where s.user_id = u.id)
        limit ${BATCH}`),
    );
    if (!missing.length) return;
    const salts = newSalts(missing.length);
    const rows = missing.map((row, at) => ({ user_id: Number(row.id), salt: salts[at]! }));
    await tx.execute(sql`
      insert into liability_salts (user_id, salt)
      select user_id, salt from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(user_id int, salt text)
      on conflict (user_id) do nothing`);
  }
}

interface BalanceRow {
  user_id: number;
  salt: string;
  asset: string | null;
  units: string | null;
  through: string | number | null;
}

/** A tree built and stored: its row's id and what the public list shows of it. */
export type BuiltTree = PublishedTree;

/**
 * Reads every real balance (available + frozen, practice assets excluded) of every customer created by `cutoff`, and
 * what their open options may pay (OPEN_OPTIONS_ASSET), in one statement, builds the tree and stores its root and
 * leaves. An account's balance is the sum of its entries before its first one created after `cutoff`, in seq order (its
 * commit order): an entry stamped by `cutoff` (its request began then) that committed after a later-stamped one took
 * effect after it, so it belongs to the next tree, and each balance is one the account really had. A movement between
 * two assets of one account (one event: a lock-up's or liquidity's USDT out and its REGULAR or YUEBAO in, a blind box
 * draw's cost and prize) is counted whole or not at all: when one of its entries is left out so, each other asset's
 * balance stops before its entry too (and so on, for what that leaves out), so its amount is counted once, in this tree
 * or the next. So an option
 * settled by `cutoff` whose payout entry is left out that way was still open in that order: it counts among the open
 * options, or its payout would be in neither column. The lock-ups' income of their interest days (in `timeZone`)
 * ended by `cutoff` that the tree does not hold as paid USDT is a column of its own (LOCKUP_INTEREST_ASSET), and so
 * is the liquidity interest of those days that the tree does not hold in the liquidity balance
 * (LIQUIDITY_INTEREST_ASSET: credited after `cutoff`, or not yet). A customer with no entry is a leaf of zeros, so
 * every customer can check their leaf.
 */
async function buildAndStore(
  tx: Executor,
  cutoff: Date,
  day: string | null,
  now: Date,
  builtBy: string,
  timeZone: string,
) {
  await ensureSalts(tx, cutoff);
  // The last interest day (in the earn time zone) ended by the cut-off: the lock-ups' income and the liquidity interest
  // are owed up to it.
  const lastEnded = addDays(interestDay(cutoff, timeZone), -1);
  const uncredited = await uncreditedInterestSql(tx, lastEnded);
  const rows = rowsOf<BalanceRow>(
    await tx.execute(sql`
      with recursive first_late as (
        select user_id, asset, min(seq) as bound
        from ledger_entries
        where created_at > ${cutoff.toISOString()}::timestamptz and asset not like 'practice:%'
        group by user_id, asset
      ), left_out(user_id, asset, seq) as (
        -- Where each balance stops: its first entry stamped after the cut-off, or, earlier, the entry of a movement
        -- (one event, kind and reference, of one account) whose entry in another asset of the account is left out.
        select user_id, asset, bound from first_late
        union
        select o.user_id, o.asset, o.seq
        from left_out l
        join ledger_entries e on e.user_id = l.user_id and e.asset = l.asset and e.seq >= l.seq
        join ledger_entries o on o.kind = e.kind and o.user_id = e.user_id
          and (o.reference = e.reference
            -- A blind box draw is one movement under two references: its cost's, and its prize's with an ending.
            or e.kind = ${BLIND_BOX_KIND} and o.reference in (e.reference || ${PRIZE_REFERENCE_END},
              case when right(e.reference, length(${PRIZE_REFERENCE_END})) = ${PRIZE_REFERENCE_END}
                then left(e.reference, -length(${PRIZE_REFERENCE_END})) end))
          and o.asset <> e.asset and o.asset not like 'practice:%'
        left join first_late f on f.user_id = o.user_id and f.asset = o.asset
        where f.bound is null or o.seq < f.bound
      ), bounds as (
        select user_id, asset, min(seq) as bound from left_out group by user_id, asset
      ), late_payouts as (
        select e.reference from ledger_entries e join bounds b on b.user_id = e.user_id and b.asset = e.asset
        where e.kind = 'option_payout' and e.seq >= b.bound
      ), late_earn as (
        -- An earn entry the tree leaves out: a lock-up's subscription or income, a liquidity interest credit (its
        -- principal or interest is not in the tree).
        select e.user_id, e.kind, e.reference, e.amount
        from ledger_entries e join bounds b on b.user_id = e.user_id and b.asset = e.asset
        where e.kind in (${LOCKUP_ENTRY.subscribe}, ${LOCKUP_ENTRY.income}, ${LIQUIDITY_ENTRY.interest}) and e.seq >= b.bound
      ), lockup_interest as (
        -- Each lock-up's income of its days ended by the cut-off, less what of it the tree holds paid (its orders'
        -- earned as read here, less the income entries left out): owed, whether the day-end job paid it after the
        -- cut-off or not yet.
        select o.user_id, greatest(0, least(o.end_day::date, ${lastEnded}::date) - o.start_day::date + 1) * o.daily_income
          - (o.earned - coalesce((select sum(l.amount) from late_earn l where l.kind = ${LOCKUP_ENTRY.income}
            and l.reference like 'lockup-income:%:' || o.id), 0)) as owed
        from lockup_orders o
        where o.start_day <= ${lastEnded}
          and 'lockup:' || o.id not in (select reference from late_earn where kind = ${LOCKUP_ENTRY.subscribe})
      ), liquidity_interest as (
        -- Each liquidity holder's interest of the days ended by the cut-off that the tree does not hold in the liquidity
        -- balance: credited after the cut-off (its entry, referenced by its day, left out) or not credited yet.
        select user_id, amount as owed from late_earn
        where kind = ${LIQUIDITY_ENTRY.interest} and split_part(reference, ':', 2) <= ${lastEnded}
        ${uncredited ? sql`union all select user_id, interest from (${uncredited}) u` : sql``}
      ), sums as (
        select e.user_id, e.asset, sum(e.amount) as total, max(e.seq) as through
        from ledger_entries e
        left join bounds b on b.user_id = e.user_id and b.asset = e.asset
        where e.asset not like 'practice:%' and (b.bound is null or e.seq < b.bound)
        group by e.user_id, e.asset
        union all
        select o.user_id, ${OPEN_OPTIONS_ASSET}::text, sum(${openPayoutSql}), 0::bigint
        from option_orders o
        where not o.practice and o.start_at <= ${cutoff.toISOString()}::timestamptz
          and (o.settled_at is null or o.settled_at > ${cutoff.toISOString()}::timestamptz
            or 'option:' || o.id in (select reference from late_payouts))
        group by o.user_id
        union all
        select user_id, ${LOCKUP_INTEREST_ASSET}::text, sum(owed), 0::bigint
        from lockup_interest where owed > 0
        group by user_id
        union all
        select user_id, ${LIQUIDITY_INTEREST_ASSET}::text, sum(owed), 0::bigint
        from liquidity_interest where owed > 0
        group by user_id
      )
      select u.id as user_id, s.salt, e.asset, (e.total * 100000000)::numeric(60, 0)::text as units, e.through
      from users u
      join liability_salts s on s.user_id = u.id
      left join sums e on e.user_id = u.id
      where u.created_at <= ${cutoff.toISOString()}::timestamptz`),
  );
  const assets = [...new Set(rows.flatMap((row) => (row.asset ? [row.asset] : [])))].sort();
  const column = new Map(assets.map((asset, at) => [asset, at]));
  const byUser = new Map<number, { leaf: Leaf; userId: number }>();
  let throughSeq = 0;
  for (const row of rows) {
    const userId = Number(row.user_id);
    let entry = byUser.get(userId);
    if (!entry) {
      entry = { userId, leaf: { id: leafId(row.salt, String(userId)), sums: Array<bigint>(assets.length).fill(0n) } };
      byUser.set(userId, entry);
    }
    if (row.asset === null) continue;
    const units = BigInt(row.units!);
    // A balance is never below zero (the ledger and the database refuse it): a negative sum is a broken ledger, and
    // the tree is not published over it.
    if (units < 0n) throw new Error(`customer ${userId} has a negative ${row.asset} balance in the ledger`);
    entry.leaf.sums[column.get(row.asset)!] = units;
    throughSeq = Math.max(throughSeq, Number(row.through));
  }
  const ordered = [...byUser.values()].sort((a, b) => byId(a.leaf, b.leaf));
  const tree = sumTree(
    ordered.map((entry) => entry.leaf),
    assets.length,
    -1,
    BLOCK_LEVEL,
  );
  const totals = tree.sums.map(String);
  const [stored] = rowsOf<{ id: number }>(
    await tx.execute(sql`
      insert into liability_roots (day, cutoff_at, through_seq, root_hash, assets, totals, decimals, leaves, built_at, built_by)
      values (${day}, ${cutoff.toISOString()}::timestamptz, ${throughSeq}, ${tree.root}, ${JSON.stringify(assets)}::jsonb,
        ${JSON.stringify(totals)}::jsonb, ${LIABILITY_DECIMALS}, ${ordered.length}, ${now.toISOString()}::timestamptz,
        ${builtBy})
      returning id`),
  );
  const rootId = Number(stored!.id);
  for (let from = 0; from < ordered.length; from += BATCH) {
    const batch = ordered.slice(from, from + BATCH).map((entry, at) => ({
      position: from + at,
      user_id: entry.userId,
      leaf_id: entry.leaf.id,
      sums: entry.leaf.sums.map(String),
    }));
    await tx.execute(sql`
      insert into liability_leaves (root_id, position, user_id, leaf_id, sums)
      select ${rootId}, position, user_id, leaf_id, sums
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(position int, user_id int, leaf_id text, sums jsonb)`);
  }
  for (let from = 0; from < tree.kept.length; from += BATCH) {
    const batch = tree.kept.slice(from, from + BATCH).map((node) => ({ ...node, sums: node.sums.map(String) }));
    await tx.execute(sql`
      insert into liability_nodes (root_id, level, position, hash, sums)
      select ${rootId}, level, position, hash, sums
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(level int, position int, hash text, sums jsonb)`);
  }
  // In the same transaction: a tree leaves the kept ones only once a newer one is stored.
  for (const table of [sql`liability_leaves`, sql`liability_nodes`])
    await tx.execute(sql`
      delete from ${table} where root_id in (select id from liability_roots order by id desc offset ${PROOFS_KEPT})`);
  return {
    id: rootId,
    day,
    cutoff: cutoff.toISOString(),
    root: tree.root,
    assets,
    totals,
    decimals: LIABILITY_DECIMALS,
    leaves: ordered.length,
    built_at: now.toISOString(),
  } satisfies BuiltTree;
}

/**
 * Builds `day`'s tree (cut-off: the day's start, UTC) unless one is stored already; the tree when this call built it,
 * null when another call had. Any number of processes may call it at once: one builds (an advisory lock, then the
 * day's row looked for again; the unique day refuses a second row). `timeZone` is the earn time zone (EARN_TIMEZONE),
 * where the earn products' interest days end.
 */
export async function buildDailyLiabilities(
  db: Db,
  day: string,
  now: Date,
  builtBy: string,
  timeZone = DEFAULT_EARN_TIMEZONE,
): Promise<BuiltTree | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LIABILITIES_LOCK})`);
    const [found] = rowsOf(await tx.execute(sql`select id from liability_roots where day = ${day}`));
    if (found) return null;
    return buildAndStore(tx, new Date(`${day}T00:00:00.000Z`), day, now, builtBy, timeZone);
  });
}

/** The job's run: builds the latest day's tree if no process has yet; true when this call built it. `timeZone`: the
 * earn time zone (EARN_TIMEZONE), where the earn products' interest days end. */
export async function ensureDailyLiabilities(
  db: Db,
  now: Date,
  builtBy: string,
  timeZone = DEFAULT_EARN_TIMEZONE,
): Promise<boolean> {
  const day = liabilitiesDayAt(now);
  const [found] = rowsOf(await db.execute(sql`select id from liability_roots where day = ${day}`));
  if (found) return false;
  return (await buildDailyLiabilities(db, day, now, builtBy, timeZone)) !== null;
}

/**
 * An operator's build on demand: a tree as of `now`, with no day, published like a daily one, and one audit entry
 * (`liabilities.build`, the published tree as its after) in the same transaction. `timeZone`: the earn time zone
 * (EARN_TIMEZONE), where the earn products' interest days end.
 */
export async function buildLiabilitiesNow(
  db: Db,
  now: Date,
  actor: Actor,
  timeZone = DEFAULT_EARN_TIMEZONE,
): Promise<BuiltTree> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LIABILITIES_LOCK})`);
    const tree = await buildAndStore(tx, now, null, now, actor.name, timeZone);
    await appendAudit(tx, actor, 'liabilities.build', `liabilities:${tree.id}`, { before: null, after: tree }, now);
    return tree;
  });
}

interface RootRow {
  id: number;
  day: string | null;
  cutoff_at: Date | string;
  root_hash: string;
  assets: string[] | string;
  totals: string[] | string;
  decimals: number;
  leaves: number;
  built_at: Date | string;
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
const iso = (value: Date | string) => new Date(value).toISOString();

const published = (row: RootRow): PublishedTree => ({
  id: Number(row.id),
  day: row.day,
  cutoff: iso(row.cutoff_at),
  root: row.root_hash,
  assets: json<string[]>(row.assets),
  totals: json<string[]>(row.totals),
  decimals: Number(row.decimals),
  leaves: Number(row.leaves),
  built_at: iso(row.built_at),
});

const ROOT_COLUMNS = sql`id, day, cutoff_at, root_hash, assets, totals, decimals, leaves, built_at`;

/** The published roots, newest first (at most ROOTS_LISTED): what anyone may check a proof against. */
export async function publishedRoots(db: Executor): Promise<PublishedTree[]> {
  return rowsOf<RootRow>(
    await db.execute(sql`select ${ROOT_COLUMNS} from liability_roots order by id desc limit ${ROOTS_LISTED}`),
  ).map(published);
}

/**
 * The caller's proof in the newest tree (or in tree `treeId`): their salt and account id, their leaf, the path from
 * it to the root, and the tree as published. The path inside the caller's block of 1,024 leaves is rebuilt from the
 * stored leaves each time, the steps above it read from the stored nodes, so a leaf changed after publication yields
 * a path that no longer leads to the published root. Refuses a tree the caller is not in
 * (not built yet, or built before they registered) with `noLiabilityProof`; never answers another customer's leaf.
 */
export async function liabilityProofOf(
  db: Executor,
  userId: number,
  treeId?: number,
): Promise<{ tree: PublishedTree; proof: LiabilityProof }> {
  const [row] = rowsOf<RootRow>(
    await db.execute(
      treeId === undefined
        ? sql`select ${ROOT_COLUMNS} from liability_roots order by id desc limit 1`
        : sql`select ${ROOT_COLUMNS} from liability_roots where id = ${treeId}`,
    ),
  );
  if (!row) throw new Refusal(texts.noLiabilityProof.id);
  const tree = published(row);
  const [mine] = rowsOf<{ position: number; salt: string }>(
    await db.execute(sql`
      select l.position, s.salt from liability_leaves l join liability_salts s on s.user_id = l.user_id
      where l.root_id = ${tree.id} and l.user_id = ${userId}`),
  );
  if (!mine) throw new Refusal(texts.noLiabilityProof.id);
  // The caller's block of leaves (1,024), hashed again: the path inside it and the block's own node; then the stored
  // siblings above it. A stored leaf changed after publication changes the block's node, so the fold no longer meets
  // the published root.
  const position = Number(mine.position);
  const first = position - (position % 2 ** BLOCK_LEVEL);
  const leaves = rowsOf<{ leaf_id: string; sums: string[] | string }>(
    await db.execute(sql`
      select leaf_id, sums from liability_leaves
      where root_id = ${tree.id} and position >= ${first} and position < ${first + 2 ** BLOCK_LEVEL}
      order by position`),
  ).map((leaf) => ({ id: leaf.leaf_id, sums: json<string[]>(leaf.sums).map((sum) => BigInt(sum)) }));
  const block = sumTree(leaves, tree.assets.length, position - first);
  const nodes = new Map(
    rowsOf<{ level: number; position: number; hash: string; sums: string[] | string }>(
      await db.execute(sql`select level, position, hash, sums from liability_nodes where root_id = ${tree.id}
        and level >= ${BLOCK_LEVEL} and (level, position) in (select l, ((${position}::bigint >> l) # 1)::int
          from generate_series(${BLOCK_LEVEL}, 62) l)`),
    ).map((node) => [`${node.level}:${node.position}`, { hash: node.hash, sums: json<string[]>(node.sums) }]),
  );
  const upper = upperPath(tree.leaves, position, BLOCK_LEVEL, (level, at) => {
    const node = nodes.get(`${level}:${at}`);
    if (!node) throw new Error(`tree ${tree.id} lacks its node ${level}:${at}`);
    return node;
  });
  let root = { hash: block.root, sums: block.sums };
  for (const step of upper) {
    const sibling = step.sums.map((sum) => BigInt(sum));
    root = {
      hash:
        step.side === 'left'
          ? nodeHash(step.hash, root.hash, sibling, root.sums)
          : nodeHash(root.hash, step.hash, root.sums, sibling),
      sums: root.sums.map((sum, asset) => sum + sibling[asset]!),
    };
  }
  const leaf = leaves[position - first]!;
  return {
    tree,
    proof: {
      format: PROOF_FORMAT,
      tree: tree.id,
      cutoff: tree.cutoff,
      assets: tree.assets,
      decimals: tree.decimals,
      account: String(userId),
      salt: mine.salt,
      leaf: { id: leaf.id, sums: leaf.sums.map(String) },
      path: [...block.path, ...upper],
      root: { hash: root.hash, sums: root.sums.map(String) },
    },
  };
}

/**
 * Every customer's proof in tree `treeId`, in tree order, built from the stored leaves in one pass (the whole tree in
 * memory: an audit of every leaf, not a call's answer). Refuses an unknown tree with `noLiabilityProof`.
 */
export async function everyLiabilityProof(db: Executor, treeId: number): Promise<LiabilityProof[]> {
  const [row] = rowsOf<RootRow>(
    await db.execute(sql`select ${ROOT_COLUMNS} from liability_roots where id = ${treeId}`),
  );
  if (!row) throw new Refusal(texts.noLiabilityProof.id);
  const tree = published(row);
  const stored = rowsOf<{ user_id: number; salt: string; leaf_id: string; sums: string[] | string }>(
    await db.execute(sql`
      select l.user_id, s.salt, l.leaf_id, l.sums from liability_leaves l join liability_salts s on s.user_id = l.user_id
      where l.root_id = ${tree.id} order by l.position`),
  );
  const leaves = stored.map((leaf) => ({
    id: leaf.leaf_id,
    sums: json<string[]>(leaf.sums).map((sum) => BigInt(sum)),
  }));
  const levels = treeLevels(leaves);
  const top = levels.at(-1)!;
  const root = { hash: top.hashes[0] ?? '', sums: (top.sums[0] ?? []).map(String) };
  return stored.map((leaf, position) => ({
    format: PROOF_FORMAT,
    tree: tree.id,
    cutoff: tree.cutoff,
    assets: tree.assets,
    decimals: tree.decimals,
    account: String(leaf.user_id),
    salt: leaf.salt,
    leaf: { id: leaf.leaf_id, sums: leaves[position]!.sums.map(String) },
    path: pathIn(levels, position),
    root,
  }));
}
