// Liquidity mining (subscribe, and redeem quick or standard): USDT moves between the
// available balance and the liquidity balance (ledger asset YUEBAO) through the ledger; the daily
// job credits each holder's interest on the day's eligible principal with that day's published
// ladder. Rules chosen here (README.md here, "Earn"): money subscribed on a day earns from the next interest
// day; a quick redemption leaves at once and the redeemed part earns nothing that day (it comes out
// of the day's new money subscribed before it first); a standard redemption still earns on its day and
// is paid at the end of the next interest day.
import Big from 'big.js';
import { and, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { idKey, keysetQuery, type KeysetOrder } from './paged-query.ts';
import { rowsOf, tableRow, type Executor, type Tx } from '../db/connection.ts';
import { balances, liquidityAccounts, liquidityRates, liquidityRecords } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { QUICK_REDEMPTION_DAILY_MAX_USDT } from '../../api-contract/constants.ts';
import { EARN_PAGE_SIZE, LIQUIDITY_ASSET, addDays, type InterestDay } from '../../api-contract/earn.ts';
import {
  effectiveRate,
  type LadderTier,
  type LiquidityBalance,
  type LiquidityFilter,
  type LiquidityProduct,
  type LiquidityRecord,
  type RedeemMode,
} from '../../api-contract/liquidity.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { Refusal, refuseIfBroken } from './refusal.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { amountOutsideLimits } from '../../api-contract/amount-limits.ts';
import { USDT, balanceOf, freezeWithin, insertedRow, post, postRows, postWithin } from './ledger.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { refusePreTrade } from './pre-trade-checks.ts';
import type { Clock } from './clock.ts';

/** The least one subscription may be (USDT). */
export const LIQUIDITY_MIN_AMOUNT = '10';
/** A standard redemption is paid at the end of the interest day this many days after its own. */
export const STANDARD_PAYOUT_DAYS = 1;
export const LIQUIDITY_ENTRY = {
  in: 'yuebao_in',
  out: 'yuebao_out',
  interest: 'yuebao_interest',
  payout: 'yuebao_payout',
} as const;

type RecordRow = typeof liquidityRecords.$inferSelect;

/** The day-end job that credits the liquidity interest: its name in `daily_runs`, one row per interest day credited. */
export const LIQUIDITY_INTEREST_JOB = 'yuebao-interest';
/** The SQL of the first interest day liquidity has anything to do (its first record's day; null before any). */
export const LIQUIDITY_FIRST_DAY = sql`select min(day) as day from liquidity_records`;

/** The ladder in force on `day`: the one published for it, else the latest published before it. */
export async function ladderFor(
  db: Executor,
  day: InterestDay,
): Promise<{ day: InterestDay; ladder: LadderTier[] } | null> {
  const [row] = await db
    .select()
    .from(liquidityRates)
    .where(lte(liquidityRates.day, day))
    .orderBy(desc(liquidityRates.day))
    .limit(1);
  return row ? { day: row.day, ladder: row.ladder } : null;
}

export async function liquidityProductOf(db: Executor, now: Date, timeZone: string): Promise<LiquidityProduct> {
  const today = interestDay(now, timeZone);
  const current = await ladderFor(db, today);
  const [next] = await db
    .select()
    .from(liquidityRates)
    .where(eq(liquidityRates.day, addDays(today, 1)));
  return {
    min_amount: LIQUIDITY_MIN_AMOUNT,
    quick_daily_max: QUICK_REDEMPTION_DAILY_MAX_USDT,
    ladder: current?.ladder ?? [],
    ladder_day: current?.day ?? today,
    next_ladder: next?.ladder ?? null,
    today,
    timezone: timeZone,
    standard_payout_days: STANDARD_PAYOUT_DAYS,
  };
}

/** Locks the caller's liquidity balance row, made at zero if need be: one subscription or redemption of a user at a
 * time (the quick cap counts right). One statement: an insert that, on the row already there, sets a column to its own
 * value, which locks it (it was an insert and a SELECT … FOR UPDATE, one round trip more with the transaction open). */
async function lockHolder(tx: Tx, userId: number) {
  await tx
    .insert(balances)
    .values({ userId, asset: LIQUIDITY_ASSET })
    .onConflictDoUpdate({ target: [balances.userId, balances.asset], set: { available: sql`${balances.available}` } });
}

/**
 * Every liquidity subscription and redemption holds this advisory lock shared while it is made, and the day's interest
 * takes it alone before it reads the day's moves, as the day's payouts do before they move any balance (a constant
 * every process agrees on).
 */
const LIQUIDITY_DAY_LOCK = 0x79756562;

/**
 * When a subscription or redemption is accepted, in the caller's transaction `tx`: the time `clock` tells once the
 * lock of the liquidity days is held (shared). Its interest day is that time's, and the interest of a day waits for
 * every move holding the lock (creditDailyInterest), so a move accepted before its day ended is in that day's interest
 * however late it commits, and one accepted after waited for that day's interest and counts in the next day. Deciding
 * by the time the request began instead, a quick redemption begun just before midnight and committed after the day's
 * interest was counted without it earned that day on the money it took out.
 */
async function acceptedAt(tx: Tx, clock: Clock): Promise<Date> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${LIQUIDITY_DAY_LOCK})`);
  return clock.now();
}

/** How a liquidity record's postings are referenced in the ledger: `yuebao:` and the record's id. */
const LIQUIDITY_REFERENCE_PREFIX = 'yuebao:';

/**
 * A liquidity subscription of `amount` USDT (a decimal string) from the customer's available USDT, in the caller's
 * transaction, on the interest day (in `timeZone`) of the time it is accepted (acceptedAt, read from `clock`): it earns
 * from the next day. Refuses the pre-trade checks, an amount below the minimum, too little USDT.
 */
export async function subscribeLiquidity(
  tx: Tx,
  userId: number,
  amount: string,
  clock: Clock,
  timeZone: string,
): Promise<RecordRow> {
  const now = await acceptedAt(tx, clock);
  await refusePreTrade(tx, userId, now);
  refuseIfBroken(amountOutsideLimits(amount, { min: LIQUIDITY_MIN_AMOUNT }, USDT));
  await lockHolder(tx, userId);
  const value = new Big(amount).toFixed(8);
  const insert = tx
    .insert(liquidityRecords)
    .values({
      userId,
      kind: 'subscribe',
      amount: value,
      day: interestDay(now, timeZone),
      status: 'done',
      createdAt: now,
    })
    .returning();
  // The record and the USDT it takes in one statement (the USDT balance locked after the liquidity row, as before).
  const record = tableRow(
    liquidityRecords,
    await postWithin(
      tx,
      { userId, asset: USDT, amount: `-${value}`, kind: LIQUIDITY_ENTRY.in },
      insertedRow(sql`placed as (${insert.getSQL()})`, LIQUIDITY_REFERENCE_PREFIX),
      now,
    ),
  );
  const reference = `${LIQUIDITY_REFERENCE_PREFIX}${record.id}`;
  await post(tx, { userId, asset: LIQUIDITY_ASSET, amount: value, kind: LIQUIDITY_ENTRY.in, reference }, now);
  return record;
}

/** What quick redemption may still take today (the cap: 30,000,000 USDT per user and day). */
export async function quickRemaining(db: Executor, userId: number, day: InterestDay): Promise<string> {
  const [row] = rowsOf<{ used: string | null }>(
    await db.execute(
      sql`select sum(amount)::text as used from liquidity_records where user_id = ${userId} and day = ${day} and kind = 'redeem' and mode = 'quick'`,
    ),
  );
  const left = new Big(QUICK_REDEMPTION_DAILY_MAX_USDT).minus(row?.used ?? 0);
  return (left.lt(0) ? new Big(0) : left).toFixed(8);
}

/**
 * A liquidity redemption of `amount` USDT (a decimal string), quick (into available USDT at once) or standard (frozen,
 * paid at the end of the next interest day), in the caller's transaction, on the interest day (in `timeZone`) of the
 * time it is accepted (acceptedAt, read from `clock`): a quick one earns nothing that day on what it took. Refuses an
 * amount not above zero, a quick one past the day's cap, too little in the liquidity balance.
 */
export async function redeemLiquidity(
  tx: Tx,
  userId: number,
  amount: string,
  mode: RedeemMode,
  clock: Clock,
  timeZone: string,
): Promise<RecordRow> {
  const value = new Big(amount);
  if (value.lte(0)) throw new Refusal(texts.amountFormat.id);
  const now = await acceptedAt(tx, clock);
  await lockHolder(tx, userId);
  const day = interestDay(now, timeZone);
  if (mode === 'quick') {
    const left = await quickRemaining(tx, userId, day);
    if (value.gt(left))
      throw new Refusal(texts.quickRedeemLimit.id, { 0: new Big(QUICK_REDEMPTION_DAILY_MAX_USDT), 1: new Big(left) });
  }
  const standard = mode === 'standard';
  const insert = tx
    .insert(liquidityRecords)
    .values({
      userId,
      kind: 'redeem',
      mode,
      amount: value.toFixed(8),
      day,
      status: standard ? 'submitted' : 'done',
      payDay: standard ? addDays(day, STANDARD_PAYOUT_DAYS) : null,
      createdAt: now,
      paidAt: standard ? null : now,
    })
    .returning();
  const placed = insertedRow(sql`placed as (${insert.getSQL()})`, LIQUIDITY_REFERENCE_PREFIX);
  // Standard: frozen in the liquidity balance until the payout job. Quick: into available USDT at once. Either way the
  // record goes in the same statement as the move out of the liquidity balance.
  const move = { userId, asset: LIQUIDITY_ASSET, kind: LIQUIDITY_ENTRY.out };
  const record = tableRow(
    liquidityRecords,
    standard
      ? await freezeWithin(tx, { ...move, amount: value.toFixed(8) }, placed, now)
      : await postWithin(tx, { ...move, amount: `-${value.toFixed(8)}` }, placed, now),
  );
  if (!standard) {
    const reference = `${LIQUIDITY_REFERENCE_PREFIX}${record.id}`;
    await post(tx, { userId, asset: USDT, amount: value.toFixed(8), kind: LIQUIDITY_ENTRY.out, reference }, now);
  }
  return record;
}

/**
 * The SQL of each holder's figures for `day`, as of now: the closing balance of the day (the
 * liquidity balance minus what later days moved), the day's own moves, and the eligible principal:
 * the previous day's closing, less what quick redemptions took beyond the day's new money subscribed
 * before them. The moves count in the order they happened (their records' ids: one holder's moves are
 * one at a time, under the holder's lock): money quick-redeemed and subscribed back later the same day
 * was out, and earns nothing that day, as the rule page says.
 */
const holdersOf = (day: InterestDay, userId?: number) => sql`
  with later as (
    select user_id, sum(case when kind = 'subscribe' then amount else -amount end) as net
    from liquidity_records where day > ${day} and kind in ('subscribe', 'redeem') ${userId === undefined ? sql`` : sql`and user_id = ${userId}`}
    group by user_id
  ), ordered as (
    -- after each move of the day: what quick redemptions so far took beyond the subscriptions so far
    select user_id, kind, mode, amount,
      sum(case when kind = 'subscribe' then -amount when mode = 'quick' then amount else 0 end)
        over (partition by user_id order by id) as beyond_new
    from liquidity_records where day = ${day} and kind in ('subscribe', 'redeem') ${userId === undefined ? sql`` : sql`and user_id = ${userId}`}
  ), moves as (
    select user_id,
      coalesce(sum(amount) filter (where kind = 'subscribe'), 0) as sub,
      coalesce(sum(amount) filter (where kind = 'redeem' and mode = 'quick'), 0) as quick,
      coalesce(sum(amount) filter (where kind = 'redeem' and mode = 'standard'), 0) as std,
      greatest(0, max(beyond_new)) as drawn
    from ordered
    group by user_id
  ), holders as (
    select b.user_id, b.available - coalesce(l.net, 0) as closing, coalesce(m.sub, 0) as sub, coalesce(m.quick, 0) as quick,
      coalesce(m.std, 0) as std, coalesce(m.drawn, 0) as drawn
    from balances b left join later l on l.user_id = b.user_id left join moves m on m.user_id = b.user_id
    where b.asset = ${LIQUIDITY_ASSET} ${userId === undefined ? sql`` : sql`and b.user_id = ${userId}`}
  )
  select user_id, closing, sub, quick, std,
    -- prev = closing − sub + quick + std (the day before's closing), less what was drawn from it
    greatest(0, closing - sub + quick + std - drawn) as eligible
  from holders`;

/** Σ tier portion × tier rate / 365, truncated to 8 decimals, as SQL over `eligible`. */
function interestSql(ladder: LadderTier[]) {
  let from = '0';
  const parts = ladder.map((tier) => {
    const upper = tier.up_to === null ? sql`eligible` : sql`least(eligible, ${tier.up_to}::numeric)`;
    const part = sql`greatest(0, ${upper} - ${from}::numeric) * ${tier.rate}::numeric`;
    if (tier.up_to !== null) from = tier.up_to;
    return part;
  });
  // div() is the exact integer quotient: `/` would round at the scale PostgreSQL picks (12 decimals for large sums)
  // before any trunc.
  return parts.length ? sql`div((${sql.join(parts, sql` + `)}) * 100000000, 365) * 0.00000001` : sql`0::numeric`;
}

/**
 * The daily interest of `day` for every holder, in `tx` (the scheduler's transaction for this job
 * and day): a few set-based statements whatever the number of holders. Credits the liquidity
 * balance (it compounds) with one ledger entry per holder referenced `yuebao-interest:<day>:<user>`,
 * writes the interest records, keeps each holder's yesterday/total figures, and moves the day's
 * standard redemptions to 'waiting'. Waits first for every subscription and redemption being made (the lock of the
 * liquidity days, held alone until the interest commits). Returns how many holders earned.
 */
export async function creditDailyInterest(tx: Tx, day: InterestDay, now: Date): Promise<number> {
  // Every move accepted before the day ended has committed once this lock is held (each holds it shared); a move that
  // takes it later is accepted after the day ended, so it counts in a later day.
  await tx.execute(sql`select pg_advisory_xact_lock(${LIQUIDITY_DAY_LOCK})`);
  const rate = await ladderFor(tx, day);
  await tx.execute(sql`create temp table yuebao_day on commit drop as
    select user_id, closing, eligible, ${rate ? interestSql(rate.ladder) : sql`0::numeric`} as interest from (${holdersOf(day)}) h`);
  const at = now.toISOString();
  const credited = await postRows(
    tx,
    sql`select user_id, ${LIQUIDITY_ASSET}::text as asset, 'available'::text as bucket, interest as amount, ${LIQUIDITY_ENTRY.interest}::text as kind,
        'yuebao-interest:' || ${day} || ':' || user_id as reference
      from yuebao_day where interest > 0 order by user_id`,
    now,
  );
  await tx.execute(sql`
    insert into liquidity_records (user_id, kind, amount, day, status, created_at, paid_at)
    select user_id, 'interest', interest, ${day}, 'done', ${at}::timestamptz, ${at}::timestamptz from yuebao_day where interest > 0 order by user_id`);
  await tx.execute(sql`
    insert into liquidity_accounts (user_id, closed_day, closing, last_interest, total_interest)
    select user_id, ${day}, closing + interest, interest, interest from yuebao_day
    on conflict (user_id) do update set closed_day = excluded.closed_day, closing = excluded.closing,
      last_interest = excluded.last_interest, total_interest = liquidity_accounts.total_interest + excluded.last_interest`);
  await tx.execute(
    sql`update liquidity_records set status = 'waiting' where day = ${day} and kind = 'redeem' and status = 'submitted'`,
  );
  return credited;
}

/**
 * The SQL of the interest each holder has earned on the interest days through `through` that the day-end job has not
 * credited, as creditDailyInterest would credit it (the same figures and ladder): rows (user_id, interest), for the
 * proof of liabilities. The days are read first (after the last one credited, or from the first record); each counts
 * only where the statement it goes in finds no `daily_runs` row for it, so a day credited meanwhile is counted by its
 * ledger entry instead, never twice. A day's figures are read from the balances as they are: with two days or more not
 * credited, a later day's leaves out the interest on the earlier days' interest (what the job will compound). Null when
 * no day is left to credit.
 */
export async function uncreditedInterestSql(db: Executor, through: InterestDay): Promise<SQL | null> {
  const [found] = rowsOf<{ done: string | null; first: string | null }>(
    await db.execute(sql`select (select max(day) from daily_runs where job = ${LIQUIDITY_INTEREST_JOB}) as done,
      (${LIQUIDITY_FIRST_DAY}) as first`),
  );
  const days: SQL[] = [];
  for (let day = found?.done ? addDays(found.done, 1) : found?.first; day && day <= through; day = addDays(day, 1)) {
    const rate = await ladderFor(db, day);
    days.push(sql`select user_id, ${rate ? interestSql(rate.ladder) : sql`0::numeric`} as interest from (${holdersOf(day)}) h
      where not exists (select 1 from daily_runs where job = ${LIQUIDITY_INTEREST_JOB} and day = ${day})`);
  }
  return days.length ? sql.join(days, sql` union all `) : null;
}

/**
 * Pays the standard redemptions due at the end of `day`: frozen liquidity out, USDT in. Set-based. Holds the lock of
 * the liquidity days alone first: postRows locks each account's USDT before its liquidity balance (asset order), the
 * other way round from a subscription or redemption (lockHolder, then USDT), so a move of the same customer made
 * beside the payouts would deadlock with them; it waits for them instead, or they for it.
 */
export async function payStandardRedemptions(tx: Tx, day: InterestDay, now: Date): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LIQUIDITY_DAY_LOCK})`);
  const due = rowsOf<{ id: number }>(
    await tx.execute(sql`
      update liquidity_records set status = 'confirmed', paid_at = ${now.toISOString()}::timestamptz
      where pay_day <= ${day} and status in ('submitted', 'waiting') and kind = 'redeem'
      returning id`),
  );
  if (!due.length) return 0;
  const ids = sql`${`{${due.map(({ id }) => Number(id)).join(',')}}`}::int[]`;
  await postRows(
    tx,
    sql`
      select user_id, ${LIQUIDITY_ASSET}::text as asset, 'frozen'::text as bucket, -amount as amount, ${LIQUIDITY_ENTRY.payout}::text as kind, 'yuebao:' || id as reference
      from liquidity_records where id = any(${ids})
      union all
      select user_id, ${USDT}::text, 'available', amount, ${LIQUIDITY_ENTRY.payout}::text, 'yuebao:' || id from liquidity_records where id = any(${ids})`,
    now,
  );
  return due.length;
}

/** The caller's liquidity figures now. */
export async function liquidityBalanceOf(
  db: Executor,
  userId: number,
  now: Date,
  timeZone: string,
): Promise<LiquidityBalance> {
  const today = interestDay(now, timeZone);
  const held = await balanceOf(db, userId, LIQUIDITY_ASSET);
  const [account] = await db.select().from(liquidityAccounts).where(eq(liquidityAccounts.userId, userId));
  const [figures] = rowsOf<{ eligible: string }>(
    await db.execute(sql`select eligible::text as eligible from (${holdersOf(today, userId)}) h`),
  );
  const rate = await ladderFor(db, today);
  const earning = new Big(figures?.eligible ?? 0).toFixed(8);
  return {
    type: 'liquidity',
    principal: new Big(held.available).toFixed(8),
    earning_today: earning,
    redeeming: new Big(held.frozen).toFixed(8),
    yesterday_interest:
      account && account.closedDay === addDays(today, -1) ? new Big(account.lastInterest).toFixed(8) : '0.00000000',
    total_interest: new Big(account?.totalInterest ?? 0).toFixed(8),
    quick_remaining: await quickRemaining(db, userId, today),
    effective_rate: effectiveRate(earning, rate?.ladder ?? []),
    today,
  };
}

export function toLiquidityRecord(row: RecordRow): LiquidityRecord {
  return {
    id: row.id,
    kind: row.kind as LiquidityRecord['kind'],
    mode: (row.mode as RedeemMode | null) ?? null,
    amount: row.amount,
    day: row.day,
    status: row.status as LiquidityRecord['status'],
    pay_day: row.payDay,
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
  };
}

const NEWEST_RECORD_FIRST: KeysetOrder<typeof liquidityRecords.$inferSelect> = {
  keys: [idKey(liquidityRecords.id, (row) => row.id)],
  direction: 'desc',
};

/** The caller's liquidity record of one kind, newest first, by cursor (`cursor` '' for the head). */
export async function liquidityRecordsOf(
  db: Executor,
  userId: number,
  filter: LiquidityFilter,
  cursor: string,
): Promise<CursorPage<LiquidityRecord>> {
  const where = and(
    eq(liquidityRecords.userId, userId),
    filter === 'all' ? undefined : inArray(liquidityRecords.kind, [filter]),
  );
  const listed = await keysetQuery(
    (after) => db.select().from(liquidityRecords).where(and(where, after)).$dynamic(),
    NEWEST_RECORD_FIRST,
    { cursor },
    EARN_PAGE_SIZE,
  );
  return { ...listed, lists: listed.lists.map(toLiquidityRecord) };
}

/** The operator publishes a day's ladder (the next day's, usually); a day already past cannot change. */
export async function publishLadder(
  db: Executor,
  day: InterestDay,
  ladder: LadderTier[],
  now: Date,
  timeZone: string,
): Promise<void> {
  if (day <= interestDay(now, timeZone)) throw new Refusal(consoleTexts.consoleLadderPast.id, { day });
  await db
    .insert(liquidityRates)
    .values({ day, ladder, publishedAt: now })
    .onConflictDoUpdate({ target: liquidityRates.day, set: { ladder, publishedAt: now } });
}

/** The ladders published, newest day first (the operator's list). */
export const publishedLadders = (db: Executor, limit = 30) =>
  db.select().from(liquidityRates).orderBy(desc(liquidityRates.day)).limit(limit);
