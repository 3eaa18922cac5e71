// The ledger: the only way a balance changes. Each posting writes one entry and moves the
// balance by the same amount in the caller's transaction; a balance never goes below zero (the
// database checks it too) and one business event (kind + reference) can never post twice.
//
// Commit order. Every writer here moves (and so locks) the account's balance row — one row per
// (user, asset), both buckets — BEFORE it inserts the entry, and the entry's `seq` is drawn from one
// database sequence at that insert. A row lock is held until the transaction ends, so for one account
// the next writer can draw its seq only after the previous writer committed (or rolled back), and a
// sequence only grows, whichever connection or server process draws: for one account, seq order is
// commit order. Every entry of an account with a lower seq has therefore committed before one with a
// higher seq becomes visible, so a running balance summed in seq order is one the account really had
// (the `created_at` of an entry is when its request began, which a transaction that waited for the
// lock can carry past a later one's). PGlite runs one transaction at a time: the same order holds.
import Big from 'big.js';
import { and, eq, inArray, notLike, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../db/connection.ts';
import { balances, ledgerEntries } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { practiceAsset } from '../../api-contract/practice.ts';
import { LEDGER_KINDS, type LedgerKind } from '../../api-contract/ledger-kinds.ts';
import { Refusal } from './refusal.ts';

export type Bucket = 'available' | 'frozen';
export const USDT = 'USDT';

/** The ledger's asset of an order's plain asset: the practice account's own (practice:USDT) for a practice order. */
export const ledgerAsset = (asset: string, practice: boolean) => (practice ? practiceAsset(asset) : asset);
/** The ledger's assets of the practice account, as a LIKE pattern: never real money, never in a real balance. */
export const PRACTICE_ASSETS = practiceAsset('%');
/** `asset` (an SQL expression of a plain asset) as the ledger names it for an order of the `practice` column given. */
export const ledgerAssetSql = (asset: SQL, practice: SQL) =>
  sql`case when ${practice} then ${practiceAsset('')}::text || ${asset} else ${asset} end`;

export interface Posting {
  userId: number;
  asset: string;
  /** Signed decimal string: "+" credits, "-" debits. */
  amount: string;
  /** One of the declared kinds (api-contract/ledger-kinds.ts), so every movement has a name in the six languages. */
  kind: LedgerKind;
  reference: string;
  bucket?: Bucket;
}

/** The same event posted again: the caller's transaction must roll back. */
export class AlreadyPosted extends Error {}

/**
 * Runs a posting's one statement, `moves` being its CTEs `moved` (the balance row) and `entered` (the event's
 * `entries` entries); when it moved nothing, makes the account's balance row of `event.asset`, or finds it made
 * (waiting for a transaction that holds it: a revoke whose return frees the money commits first), and runs it once
 * more. Throws AlreadyPosted when the event (`kind` and `reference` of the account's asset, in `bucket` when given) is
 * already in the ledger, which is told first, else a Refusal (insufficient balance); the caller's transaction must
 * roll back.
 */
async function postOrTell(
  tx: Executor,
  event: { userId: number; asset: string; kind: LedgerKind; reference: string; bucket?: Bucket },
  moves: SQL,
  entries: number,
): Promise<void> {
  const attempt = async () => {
    const [row] = rowsOf<{ moved: number | string; entered: number | string }>(
      await tx.execute(sql`
        with ${moves}
        select (select count(*) from moved)::int as moved, (select count(*) from entered)::int as entered`),
    );
    return { moved: Number(row!.moved) > 0, complete: Number(row!.entered) === entries };
  };
  const { userId, asset, kind, reference, bucket } = event;
  let done = await attempt();
  if (!done.moved) {
    await tx.insert(balances).values({ userId, asset }).onConflictDoNothing();
    done = await attempt();
  }
  if (done.moved && done.complete) return;
  const [posted] = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, kind),
        eq(ledgerEntries.reference, reference),
        eq(ledgerEntries.userId, userId),
        eq(ledgerEntries.asset, asset),
        bucket ? eq(ledgerEntries.bucket, bucket) : undefined,
      ),
    )
    .limit(1);
  if (posted) throw new AlreadyPosted(`${kind} ${reference} is already in the ledger`);
  throw new Refusal(texts.insufficientBalance.id);
}

/**
 * Posts one entry and moves its balance in the caller's transaction, in one statement when the balance row exists:
 * the balance row first (locking the account, so the entry's seq is in commit order), then the entry. Throws
 * AlreadyPosted for an event already in the ledger and a Refusal (insufficient balance) for a move below zero, in that
 * order of precedence; either way the caller's transaction must roll back. A zero amount posts nothing.
 */
export async function post(tx: Executor, posting: Posting, now: Date): Promise<void> {
  const bucket = posting.bucket ?? 'available';
  const amount = new Big(posting.amount);
  if (amount.eq(0)) return;
  const { userId, asset, kind, reference } = posting;
  // One statement: the balance row is moved (and so locked) first, and the entry is inserted from the moved row, so
  // its seq is drawn only while the account is held; a move that would go below zero moves nothing and enters nothing.
  const moves = moveAndEnterCtes({ ...posting, bucket, reference: sql`${reference}` }, now);
  await postOrTell(tx, { userId, asset, kind, reference, bucket }, moves, 1);
}

/**
 * A posting's balance move and entry as the CTEs `moved` (the balance row, moved only if it stays at or above zero and
 * `gate` holds) and `entered` (the entry, from the moved row; nothing on a second posting of the same event): the one
 * statement of post() and postWithin(). `reference` is an SQL text expression; `gate`, an SQL boolean that does not
 * depend on the balance row, is evaluated once before the row is moved, so whatever CTE it reads runs first.
 */
function moveAndEnterCtes(
  posting: Omit<Posting, 'reference'> & { bucket: Bucket; reference: SQL; gate?: SQL },
  now: Date,
): SQL {
  const delta = sql`${new Big(posting.amount).toFixed(8)}::numeric`;
  const column = sql.raw(posting.bucket === 'available' ? 'available' : 'frozen');
  const gate = posting.gate ? sql` and ${posting.gate}` : sql``;
  return sql`moved as (
          update balances set ${column} = ${column} + ${delta}
          where user_id = ${posting.userId} and asset = ${posting.asset} and ${column} + ${delta} >= 0${gate}
          returning user_id
        ), entered as (
          insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
          select user_id, ${posting.asset}, ${posting.bucket}, ${delta}, ${posting.kind}, ${posting.reference},
            ${now.toISOString()}::timestamptz
          from moved
          on conflict do nothing
          returning id
        )`;
}

/** What a statement runs before a posting in it (postWithin). */
export interface Preceding {
  /** Its CTEs, `name as (…)` separated by commas: an order's insert, a row's lock. */
  with: SQL;
  /** An SQL boolean over those CTEs, true when the posting may be made; evaluated once, before the balance row is
   * moved, so the CTEs it reads run (and take their locks) first. */
  gate: SQL;
  /** The posting's reference, as an SQL text expression over those CTEs (`'option:' || id` of an inserted order). */
  reference: SQL;
  /** The answer's columns, `expression as name, …` over those CTEs (the row the statement answers is `from`). */
  select: SQL;
  /** The answer's source (`from placed`): one row. */
  from: SQL;
}

/**
 * The Preceding of an order inserted by the CTE `placed`, the last of `ctes`: the posting is made when the insert made
 * a row, under the reference `referencePrefix` followed by the row's id (`contract:42`); the statement answers the
 * row inserted (its database column names) and, when given, the `extra` columns (`expression as name`) over it as `o`.
 */
export function insertedRow(ctes: SQL, referencePrefix: string, extra?: SQL): Preceding {
  return {
    with: ctes,
    gate: sql`exists (select 1 from placed)`,
    reference: sql`(select ${referencePrefix}::text || id from placed)`,
    select: extra ? sql`o.*, ${extra}` : sql`o.*`,
    from: sql`from placed o`,
  };
}

/**
 * The statement of postWithin() and freezeWithin(): `preceding`'s CTEs, then the posting's `moves` (CTEs `moved` and
 * `entered`, the event's `entries` entries of `kind`), answering the row `preceding.select` reads. When it moved
 * nothing, `again` makes the posting alone under the reference the statement gave (which waits for a balance row
 * another writer holds, and throws its Refusal or AlreadyPosted); moved but not every entry entered is AlreadyPosted.
 */
async function postingWithin<Row extends Record<string, unknown>>(
  tx: Executor,
  preceding: Preceding,
  moves: SQL,
  event: { kind: LedgerKind; entries: number },
  again: (reference: string) => Promise<void>,
): Promise<Row> {
  const [row] = rowsOf<Row & { posting_reference: string; moved: number | string; entered: number | string }>(
    await tx.execute(sql`
      with ${preceding.with}, ${moves}
      select ${preceding.select}, ${preceding.reference}::text as posting_reference,
        (select count(*) from moved)::int as moved, (select count(*) from entered)::int as entered
      ${preceding.from}`),
  );
  if (!row) throw new Error(`${event.kind}: the work before the posting answered no row`);
  if (Number(row.moved) === 0) await again(row.posting_reference);
  else if (Number(row.entered) !== event.entries)
    throw new AlreadyPosted(`${event.kind} ${row.posting_reference} is already in the ledger`);
  return row;
}

/**
 * A debit (`posting.amount` below zero, USDT or another asset, 8 decimals) made in the same statement as the work
 * `preceding` describes, so the two take one round trip and their locks in the order the CTEs give them (the preceding
 * ones first, then the account's balance row). Answers the row `preceding.select` reads. When that statement moved
 * nothing (too little on hand as its snapshot saw the account, or no balance row), the posting is made as post() makes
 * it, under the reference the statement gave: the balance row is made or waited for (a writer holding it, a revoke
 * that frees the money, commits first) and the move tried once more. Throws what post() throws: a Refusal
 * (insufficient balance), or AlreadyPosted for an event already in the ledger; either way the caller's transaction
 * must roll back, with whatever the preceding CTEs wrote.
 */
export async function postWithin<Row extends Record<string, unknown>>(
  tx: Executor,
  posting: Omit<Posting, 'reference'>,
  preceding: Preceding,
  now: Date,
): Promise<Row> {
  if (!new Big(posting.amount).lt(0)) throw new Error(`postWithin debits: ${posting.amount} is no debit`);
  const moves = moveAndEnterCtes(
    { ...posting, bucket: posting.bucket ?? 'available', reference: preceding.reference, gate: preceding.gate },
    now,
  );
  return postingWithin<Row>(tx, preceding, moves, { kind: posting.kind, entries: 1 }, (reference) =>
    post(tx, { ...posting, reference }, now),
  );
}

/**
 * The ledger's one lock order for a writer that moves several balance rows in one transaction: (user, asset), as
 * PostgreSQL orders them. Two batches over the same accounts then never wait on each other in a cycle (a deadlock,
 * which PostgreSQL ends by failing one of them). The CTE `locked` (materialized): the balance rows of `accounts` (an
 * SQL query of columns user_id, asset; repeats allowed) locked FOR UPDATE in that order, answering their user_id and
 * asset. A statement reads it through `allLocked` before it moves any row, so no row is locked in its plan's order.
 */
function lockedInOrder(accounts: SQL): SQL {
  return sql`locked as materialized (
        select b.user_id, b.asset from balances b
        where (b.user_id, b.asset) in (select user_id, asset from (${accounts}) accounts)
        order by b.user_id, b.asset
        for update of b
      )`;
}

/** SQL boolean, always true, over lockedInOrder's CTE: a one-time filter, evaluated before a statement's first row,
 * so every balance row is locked (in the one order) before the statement moves one or draws an entry's seq. */
const allLocked = sql`(select count(*) from locked) >= 0`;

/**
 * Makes the missing balance rows of `accounts` (an SQL query of columns user_id, asset; repeats allowed), in
 * lockedInOrder's order, in a statement of its own: a later statement's snapshot must see them (one statement's CTEs
 * share one snapshot, so an update there would miss a row inserted beside it). A row another transaction is making
 * is waited for.
 */
async function makeBalanceRows(tx: Executor, accounts: SQL): Promise<void> {
  await tx.execute(sql`
    insert into balances (user_id, asset)
    select distinct user_id, asset from (${accounts}) accounts order by user_id, asset
    on conflict do nothing`);
}

/**
 * Many postings computed in code at once (a batch of contract fills): the missing balance rows made, then one update
 * of the balances they move, which first locks them all in the ledger's one order (lockedInOrder), so the entries'
 * seqs are in commit order and two batches never deadlock, then one insert of the entries. Same guarantees as post():
 * all or nothing, never twice, never below zero. Postings that SQL can select are better posted with postRows.
 */
export async function postMany(tx: Executor, postings: Posting[], now: Date): Promise<void> {
  const moving = postings.filter((posting) => !new Big(posting.amount).eq(0));
  if (!moving.length) return;
  const entries = moving.map((posting) => ({
    userId: posting.userId,
    asset: posting.asset,
    bucket: posting.bucket ?? 'available',
    amount: new Big(posting.amount).toFixed(8),
    kind: posting.kind,
    reference: posting.reference,
    createdAt: now,
  }));
  const totals = new Map<string, { userId: number; asset: string; available: Big; frozen: Big }>();
  for (const entry of entries) {
    const key = `${entry.userId}:${entry.asset}`;
    const total = totals.get(key) ?? {
      userId: entry.userId,
      asset: entry.asset,
      available: new Big(0),
      frozen: new Big(0),
    };
    total[entry.bucket] = total[entry.bucket].plus(entry.amount);
    totals.set(key, total);
  }
  const moves = [...totals.values()];
  const accounts = sql`select * from (values ${sql.join(
    moves.map((move) => sql`(${move.userId}::int, ${move.asset}::text)`),
    sql`, `,
  )}) as a(user_id, asset)`;
  await makeBalanceRows(tx, accounts);
  const values = sql.join(
    moves.map(
      (move) =>
        sql`(${move.userId}::int, ${move.asset}::text, ${move.available.toFixed(8)}::numeric, ${move.frozen.toFixed(8)}::numeric)`,
    ),
    sql`, `,
  );
  // Every row locked in the ledger's one order first (the update's own scan would lock them in the order its plan
  // reads them: a hash join reads the table as it lies on disk), then moved.
  const moved = await tx.execute(sql`
    with ${lockedInOrder(accounts)}
    update balances b set available = b.available + v.available, frozen = b.frozen + v.frozen
    from (values ${values}) as v(user_id, asset, available, frozen)
    where b.user_id = v.user_id and b.asset = v.asset and b.available + v.available >= 0 and b.frozen + v.frozen >= 0
      and ${allLocked}
    returning b.user_id`);
  // The balances are locked now: the entries' seqs are in each account's commit order. An event already posted is
  // told before too little on hand, as by post().
  const inserted = await tx
    .insert(ledgerEntries)
    .values(entries)
    .onConflictDoNothing()
    .returning({ id: ledgerEntries.id });
  if (inserted.length !== entries.length)
    throw new AlreadyPosted(
      `${entries.length - inserted.length} of ${entries.length} postings are already in the ledger`,
    );
  if (rowsOf(moved).length !== moves.length) throw new Refusal(texts.insufficientBalance.id);
}

/**
 * Posts the rows a query selects — columns user_id, asset, bucket ('available' | 'frozen'), amount
 * (numeric), kind (a declared LedgerKind: api-contract/ledger-kinds.ts), reference — in two statements
 * however many there are: the missing balance rows first (makeBalanceRows), then the balance rows
 * locked in the ledger's one order (lockedInOrder) so two batches never wait on each other in a
 * cycle, the entries with one INSERT … SELECT once all are locked (their seqs in commit order), and
 * the balances with one UPDATE … FROM their sums. Same guarantees as post(): all or nothing (the
 * caller's transaction rolls back on a throw), never twice, never below zero. Zero amounts post
 * nothing. A row of an undeclared kind throws (SQL is not typed:
 * checked here instead). Returns how many entries it wrote.
 */
export async function postRows(tx: Executor, rows: SQL, now: Date): Promise<number> {
  await makeBalanceRows(tx, sql`select user_id, asset from (${rows}) r where amount <> 0`);
  const [counts] = rowsOf<{
    wanted: number | string;
    posted: number | string;
    balances: number | string;
    moved: number | string;
    unnamed: number | string;
  }>(
    await tx.execute(sql`
      with wanted as materialized (
        select user_id, asset, bucket, amount, kind, reference from (${rows}) r where amount <> 0
      ), ${lockedInOrder(sql`select user_id, asset from wanted`)}, entries as (
        -- Gated on every balance row being locked (a one-time filter runs before the first row): each entry's seq is
        -- drawn while its account is held, so it is in the account's commit order.
        insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
        select user_id, asset, bucket, amount, kind, reference, ${now.toISOString()}::timestamptz from wanted
        where ${allLocked}
        on conflict do nothing
        returning user_id, asset, bucket, amount
      ), sums as (
        select user_id, asset,
          coalesce(sum(amount) filter (where bucket = 'available'), 0) as available,
          coalesce(sum(amount) filter (where bucket = 'frozen'), 0) as frozen
        from entries group by user_id, asset
      ), moved as (
        update balances b set available = b.available + s.available, frozen = b.frozen + s.frozen
        from sums s join locked l on l.user_id = s.user_id and l.asset = s.asset
        where b.user_id = s.user_id and b.asset = s.asset and b.available + s.available >= 0 and b.frozen + s.frozen >= 0
        returning b.user_id
      )
      select (select count(*) from wanted)::int as wanted, (select count(*) from entries)::int as posted,
        (select count(*) from sums)::int as balances, (select count(*) from moved)::int as moved,
        (select count(*) from wanted where kind <> all(${`{${LEDGER_KINDS.join(',')}}`}::text[]))::int as unnamed`),
  );
  if (Number(counts?.unnamed ?? 0) > 0) throw new Error('postRows: a row of a ledger kind that has no declared name');
  const wanted = Number(counts?.wanted ?? 0);
  const posted = Number(counts?.posted ?? 0);
  if (posted !== wanted) throw new AlreadyPosted(`${wanted - posted} of ${wanted} postings are already in the ledger`);
  if (Number(counts?.moved ?? 0) !== Number(counts?.balances ?? 0)) throw new Refusal(texts.insufficientBalance.id);
  return posted;
}

/**
 * A move between the two buckets of one balance row as the CTEs `moved` (the row, moved only if `from` stays at or
 * above zero and `gate` holds) and `entered` (the two entries, `from`'s debit first; nothing on a second posting of
 * the same event): the one statement of moveBetweenBuckets() and freezeWithin(). `amount` is above zero;
 * `reference` is an SQL text expression; `gate`, an SQL boolean that does not depend on the balance row.
 */
function bucketMoveCtes(
  move: { userId: number; asset: string; amount: string; from: Bucket; kind: LedgerKind; reference: SQL; gate?: SQL },
  now: Date,
): SQL {
  const to: Bucket = move.from === 'available' ? 'frozen' : 'available';
  const delta = sql`${new Big(move.amount).toFixed(8)}::numeric`;
  const fromColumn = sql.raw(move.from);
  const toColumn = sql.raw(to);
  const gate = move.gate ? sql` and ${move.gate}` : sql``;
  return sql`moved as (
        update balances set ${fromColumn} = ${fromColumn} - ${delta}, ${toColumn} = ${toColumn} + ${delta}
        where user_id = ${move.userId} and asset = ${move.asset} and ${fromColumn} - ${delta} >= 0${gate}
        returning user_id
      ), entered as (
        insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
        select m.user_id, ${move.asset}, leg.bucket, leg.amount, ${move.kind}, ${move.reference},
          ${now.toISOString()}::timestamptz
        from moved m cross join (values (1, ${move.from}::text, -${delta}), (2, ${to}::text, ${delta}))
          as leg(n, bucket, amount)
        order by leg.n
        on conflict do nothing
        returning id
      )`;
}

/**
 * Moves `amount` (a decimal string above zero, 8 decimals, in `asset`) of one account from bucket `from` to the other
 * in one statement: the balance row is moved (and so locked) first, only if `from` stays at or above zero, then the
 * two entries of `kind` and `reference` are inserted from it, `from`'s debit first (the lower seq), as two post()s one
 * after the other would write them. Throws AlreadyPosted for an event already in the ledger and a Refusal
 * (insufficient balance) when `from` holds too little or the account has no balance row for the asset, in that order
 * of precedence; either way the caller's transaction must roll back. A zero amount moves nothing. When the first try
 * moves nothing, the balance row is made or waited for and the move tried once more, as post() does: two statements
 * more (three in all) only where the money is short or held by another writer.
 */
async function moveBetweenBuckets(
  tx: Executor,
  move: { userId: number; asset: string; amount: string; from: Bucket; kind: LedgerKind; reference: string },
  now: Date,
): Promise<void> {
  const amount = new Big(move.amount);
  if (amount.eq(0)) return;
  if (amount.lt(0)) throw new Error(`moveBetweenBuckets: ${move.amount} is below zero`);
  const { userId, asset, kind, reference } = move;
  const moves = bucketMoveCtes({ ...move, reference: sql`${reference}` }, now);
  await postOrTell(tx, { userId, asset, kind, reference }, moves, 2);
}

/**
 * The two postings (for postMany) that move `amount` (a decimal string at or above zero) of `asset` out of the bucket
 * `from` into the other one, both of `kind` and `reference`, the one taken from first: what freeze and unfreeze post,
 * for a batch of such moves in one statement.
 */
export function bucketMovePostings(move: {
  userId: number;
  asset: string;
  amount: string;
  from: Bucket;
  kind: LedgerKind;
  reference: string;
}): Posting[] {
  const { from, amount, ...event } = move;
  const to: Bucket = from === 'frozen' ? 'available' : 'frozen';
  const value = new Big(amount);
  return [
    { ...event, amount: value.neg().toFixed(8), bucket: from },
    { ...event, amount: value.toFixed(8), bucket: to },
  ];
}

/**
 * Moves `amount` (a decimal string, 8 decimals) of `asset` from available to frozen (a withdrawal, an open order):
 * two entries of `kind` and `reference`, one statement (moveBetweenBuckets, whose errors it throws).
 */
export async function freeze(
  tx: Executor,
  userId: number,
  asset: string,
  amount: string,
  kind: LedgerKind,
  reference: string,
  now: Date,
) {
  await moveBetweenBuckets(tx, { userId, asset, amount, from: 'available', kind, reference }, now);
}

/**
 * A freeze (`amount` at or above zero, 8 decimals, of `asset`, from available to frozen; two entries of `kind`)
 * made in the same statement as the work `preceding` describes (an order's insert), after it, so the two take one
 * round trip: answers the row `preceding.select` reads. When that statement moved nothing (too little on hand as its
 * snapshot saw the account, or no balance row), the freeze is made as freeze() makes it, under the reference the
 * statement gave: the balance row is made or waited for and the move tried once more. Throws what freeze() throws: a
 * Refusal (insufficient balance) or AlreadyPosted; either way the caller's transaction must roll back, with whatever
 * the preceding CTEs wrote.
 */
export async function freezeWithin<Row extends Record<string, unknown>>(
  tx: Executor,
  move: { userId: number; asset: string; amount: string; kind: LedgerKind },
  preceding: Preceding,
  now: Date,
): Promise<Row> {
  const amount = new Big(move.amount);
  if (amount.lt(0)) throw new Error(`freezeWithin: ${move.amount} is below zero`);
  // A zero amount moves nothing (as in freeze()): the preceding work alone runs.
  const gate = amount.eq(0) ? sql`false` : preceding.gate;
  const moves = bucketMoveCtes({ ...move, from: 'available', reference: preceding.reference, gate }, now);
  return postingWithin<Row>(tx, preceding, moves, { kind: move.kind, entries: 2 }, (reference) =>
    freeze(tx, move.userId, move.asset, move.amount, move.kind, reference, now),
  );
}

/**
 * Moves `amount` back from frozen to available (a rejected withdrawal, a revoked order): two entries of `kind` and
 * `reference`, one statement (moveBetweenBuckets, whose errors it throws).
 */
export async function unfreeze(
  tx: Executor,
  userId: number,
  asset: string,
  amount: string,
  kind: LedgerKind,
  reference: string,
  now: Date,
) {
  await moveBetweenBuckets(tx, { userId, asset, amount, from: 'frozen', kind, reference }, now);
}

export interface BalanceRow {
  asset: string;
  available: string;
  frozen: string;
}

/** Some assets' balances of one user, in the order asked, as stored (decimal strings; zero for an asset the user never
 * held), read in one statement. */
export async function balancesIn(
  db: Executor,
  userId: number,
  assets: readonly string[],
): Promise<Omit<BalanceRow, 'asset'>[]> {
  const rows = await db
    .select({ asset: balances.asset, available: balances.available, frozen: balances.frozen })
    .from(balances)
    .where(and(eq(balances.userId, userId), inArray(balances.asset, [...assets])));
  return assets.map((asset) => {
    const row = rows.find((held) => held.asset === asset);
    return { available: row?.available ?? '0', frozen: row?.frozen ?? '0' };
  });
}

/** One asset's balance of one user, as stored (decimal strings); zero when the user never held it. */
export async function balanceOf(db: Executor, userId: number, asset: string): Promise<Omit<BalanceRow, 'asset'>> {
  const [held] = await balancesIn(db, userId, [asset]);
  return held!;
}

/** The user's real balances: the practice account's assets are not money and are never listed with them. */
export async function balancesOf(db: Executor, userId: number): Promise<BalanceRow[]> {
  return db
    .select({ asset: balances.asset, available: balances.available, frozen: balances.frozen })
    .from(balances)
    .where(and(eq(balances.userId, userId), notLike(balances.asset, PRACTICE_ASSETS)))
    .orderBy(balances.asset);
}

/** Balances that differ from the sum of their ledger entries (must always be empty). */
export async function ledgerMismatches(db: Executor): Promise<unknown[]> {
  const result = await db.execute(sql`
    select b.user_id, b.asset, b.available, b.frozen, coalesce(e.available, 0) as entries_available, coalesce(e.frozen, 0) as entries_frozen
    from balances b
    full join (
      select user_id, asset,
        sum(case when bucket = 'available' then amount else 0 end) as available,
        sum(case when bucket = 'frozen' then amount else 0 end) as frozen
      from ledger_entries group by user_id, asset
    ) e on e.user_id = b.user_id and e.asset = b.asset
    where coalesce(b.available, 0) <> coalesce(e.available, 0) or coalesce(b.frozen, 0) <> coalesce(e.frozen, 0)`);
  return rowsOf(result);
}
