// A customer's own limits and time-out (the rules are described at the top of api-contract/protection.ts).
//
// Stored: protection_limits holds the settings in force, one row per customer who ever set one (null: none);
// protection_pending holds a loosening of one setting until its effective_at. A loosening whose time has come is in
// force from that moment: every read lays the due loosenings over the row (inForce), so nothing has to run at that
// moment; the next change of a setting writes them into the row.
//
// What the limits count, from option_orders (the server's clock; `now` − 24 hours, 7 days, 30 days, rolling):
// - staked: the stakes of the options accepted in the window (start_at), an order voided for want of a start price
//   excepted (its stake came back in full);
// - lost: what the options settled in the window (settled_at) took minus what they paid back, when above 0;
// - open: the options accepted and not settled yet (status 'opening' or 'holding'), and their stakes.
// Practice options (virtual money) count in none of them; the time-out holds for practice orders too.
// An option is accepted only if, with its stake, the staked sum of every window stays within its stake limit,
// the lost sum plus the open stakes of every window stays within its loss limit (an open option can still lose its
// whole stake), and the open options stay within the most open at once. Reaching a limit exactly is allowed.
//
// Concurrency: an order checks the limits inside its own transaction after locking the customer's row of
// protection_limits (FOR UPDATE), and a change of a setting takes the same lock. Orders of one customer with
// limits therefore pass one at a time, on any number of server processes sharing the database, and each reads
// the sums only after the previous one committed (READ COMMITTED: each statement sees what committed before it).
import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Executor, type Tx } from '../db/connection.ts';
import { protectionLimits, protectionPending } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { calendarMoment } from '../../api-contract/calendar.ts';
import {
  AMOUNT_SETTINGS,
  LOOSENING_DELAY_MS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  PROTECTION_SETTINGS,
  WINDOW_HOURS,
  type AmountSetting,
  type PendingLoosening,
  type Protection,
  type ProtectionLimits,
  type ProtectionSetting,
  type ProtectionUsed,
  settingValueText,
} from '../../api-contract/protection.ts';
import { Refusal } from './refusal.ts';

/** A customer's row of protection_limits: the settings in force before any due loosening is laid over it. */
export type LimitsRow = typeof protectionLimits.$inferSelect;
type PendingRow = typeof protectionPending.$inferSelect;
type Settings = ProtectionLimits;

/** The row's column of each setting. */
const COLUMN = {
  stake_day: 'stakeDay',
  stake_week: 'stakeWeek',
  stake_month: 'stakeMonth',
  loss_day: 'lossDay',
  loss_week: 'lossWeek',
  loss_month: 'lossMonth',
  max_open_options: 'maxOpenOptions',
  reminder_minutes: 'reminderMinutes',
  timeout_until: 'timeoutUntil',
} as const satisfies Record<ProtectionSetting, keyof LimitsRow>;

const NONE: Settings = {
  stake_day: '',
  stake_week: '',
  stake_month: '',
  loss_day: '',
  loss_week: '',
  loss_month: '',
  max_open_options: '',
  reminder_minutes: '',
  timeout_until: '',
};

const isAmount = (setting: ProtectionSetting): setting is AmountSetting =>
  (AMOUNT_SETTINGS as readonly string[]).includes(setting);
const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** One setting's value as the API contract writes it: amounts without trailing zeros, moments as ISO, '' for none. */
function written(setting: ProtectionSetting, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (setting === 'timeout_until') return asDate(value as Date | string).toISOString();
  if (isAmount(setting)) return new Big(String(value)).toFixed();
  return String(Number(value));
}

function settingsOfRow(row: LimitsRow | undefined): Settings {
  if (!row) return { ...NONE };
  return Object.fromEntries(
    PROTECTION_SETTINGS.map((setting) => [setting, written(setting, row[COLUMN[setting]])]),
  ) as Settings;
}

/** The row's values of `settings`, for an insert or update. */
function columnsOf(settings: Partial<Settings>): Partial<LimitsRow> {
  const columns: Record<string, unknown> = {};
  for (const [setting, value] of Object.entries(settings) as [ProtectionSetting, string][]) {
    const column = COLUMN[setting];
    if (value === '') columns[column] = null;
    else if (setting === 'timeout_until') columns[column] = new Date(value);
    else if (isAmount(setting)) columns[column] = new Big(value).toFixed(8);
    else columns[column] = Number(value);
  }
  return columns as Partial<LimitsRow>;
}

interface InForce {
  settings: Settings;
  /** The loosenings still waiting, by setting. */
  waiting: PendingRow[];
}

/** The settings in force at `now`: the row with every due loosening laid over it; an ended time-out is none. */
function inForce(row: LimitsRow | undefined, pending: PendingRow[], now: Date): InForce {
  const settings = settingsOfRow(row);
  const waiting: PendingRow[] = [];
  for (const loosening of pending) {
    const setting = loosening.setting as ProtectionSetting;
    if (!(PROTECTION_SETTINGS as readonly string[]).includes(setting)) continue;
    if (asDate(loosening.effectiveAt).getTime() <= now.getTime()) settings[setting] = loosening.value ?? '';
    else waiting.push(loosening);
  }
  if (settings.timeout_until !== '' && Date.parse(settings.timeout_until) <= now.getTime()) settings.timeout_until = '';
  return { settings, waiting };
}

/** The settings in force at `now` and the loosenings waiting, from the customer's row (FOR UPDATE when `lock`). */
async function readInForce(
  db: Executor,
  userId: number,
  now: Date,
  lock: boolean,
): Promise<InForce & { row?: LimitsRow }> {
  const query = db.select().from(protectionLimits).where(eq(protectionLimits.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return inForceOfRow(db, userId, now, row ?? null);
}

/**
 * The settings in force at `now` and the loosenings waiting, given the customer's row as read (null: none, and then
 * nothing is read): the loosenings are read only when there is a row.
 */
async function inForceOfRow(
  db: Executor,
  userId: number,
  now: Date,
  row: LimitsRow | null,
): Promise<InForce & { row?: LimitsRow }> {
  if (!row) return { settings: { ...NONE }, waiting: [] };
  const pending = await db.select().from(protectionPending).where(eq(protectionPending.userId, userId));
  return { ...inForce(row, pending, now), row };
}

/**
 * The lock an order of real money takes on the customer's row of protection_limits (if any) until its transaction
 * ends, as an SQL expression for holdCustomerRow: a change of a setting takes the same lock, so the order's check
 * (refuseBeyondProtection, given the row read in a later statement) and the change never interleave.
 */
export const limitsRowLock = (userId: number) =>
  sql`(select 1 from protection_limits where user_id = ${userId} for update)`;

const since = (now: Date, hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();

/** What the windows hold at `now` (see the top of this file). */
export async function usedOf(db: Executor, userId: number, now: Date): Promise<ProtectionUsed> {
  const day = since(now, WINDOW_HOURS.day);
  const week = since(now, WINDOW_HOURS.week);
  const month = since(now, WINDOW_HOURS.month);
  const staked = (from: string) =>
    sql`coalesce(sum(o.amount) filter (where o.start_at > ${from}::timestamptz and coalesce(o.outcome, '') <> 'void'), 0)::text`;
  const net = (from: string) =>
    sql`coalesce(sum(o.amount - o.payout) filter (where o.status = 'settled' and o.settled_at > ${from}::timestamptz), 0)::text`;
  const [row] = rowsOf<Record<string, string | number>>(
    await db.execute(sql`
      select ${staked(day)} as stake_day, ${staked(week)} as stake_week, ${staked(month)} as stake_month,
        ${net(day)} as net_day, ${net(week)} as net_week, ${net(month)} as net_month,
        coalesce(sum(o.amount) filter (where o.status in ('opening', 'holding')), 0)::text as open_stakes,
        count(*) filter (where o.status in ('opening', 'holding'))::int as open_options
      from option_orders o
      where o.user_id = ${userId} and not o.practice
        and (o.status in ('opening', 'holding') or o.start_at > ${month}::timestamptz or o.settled_at > ${month}::timestamptz)`),
  );
  const amount = (value: unknown) => new Big(String(value ?? 0)).toFixed();
  const loss = (value: unknown) => (new Big(String(value ?? 0)).gt(0) ? amount(value) : '0');
  return {
    stake_day: amount(row?.stake_day),
    stake_week: amount(row?.stake_week),
    stake_month: amount(row?.stake_month),
    loss_day: loss(row?.net_day),
    loss_week: loss(row?.net_week),
    loss_month: loss(row?.net_month),
    open_stakes: amount(row?.open_stakes),
    open_options: Number(row?.open_options ?? 0),
  };
}

/** What may still be staked or put at risk under an amount limit (never below 0), '' when there is none. */
function leftUnder(setting: AmountSetting, limit: string, used: ProtectionUsed): string {
  if (limit === '') return '';
  const taken = setting.startsWith('stake_') ? new Big(used[setting]) : new Big(used[setting]).plus(used.open_stakes);
  const left = new Big(limit).minus(taken);
  return left.gt(0) ? left.toFixed() : '0';
}

const secondsUntil = (at: Date, now: Date) => Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));

function toPending(row: PendingRow, now: Date): PendingLoosening {
  const setting = row.setting as ProtectionSetting;
  return {
    setting,
    value: written(setting, row.value),
    requested_at: asDate(row.requestedAt).toISOString(),
    effective_at: asDate(row.effectiveAt).toISOString(),
    seconds_left: secondsUntil(asDate(row.effectiveAt), now),
  };
}

/** The customer's protection as the API contract answers it. */
export async function protectionOf(db: Executor, userId: number, now: Date): Promise<Protection> {
  const { settings, waiting } = await readInForce(db, userId, now, false);
  const used = await usedOf(db, userId, now);
  const left = Object.fromEntries(
    AMOUNT_SETTINGS.map((setting) => [setting, leftUnder(setting, settings[setting], used)]),
  );
  const openLeft =
    settings.max_open_options === '' ? '' : String(Math.max(0, Number(settings.max_open_options) - used.open_options));
  return {
    limits: settings,
    pending: waiting
      .map((row) => toPending(row, now))
      .sort((a, b) => PROTECTION_SETTINGS.indexOf(a.setting) - PROTECTION_SETTINGS.indexOf(b.setting)),
    used,
    left: { ...(left as Record<AmountSetting, string>), open_options: openLeft },
    timeout_seconds_left: settings.timeout_until === '' ? 0 : secondsUntil(new Date(settings.timeout_until), now),
    now: now.toISOString(),
  };
}

/**
 * How `next` compares with `current` for `setting`: -1 tighter, 0 the same, 1 looser. No limit is the loosest; a
 * later end of the time-out is tighter. The reminder protects no money: any change of it counts as tighter.
 */
export function strictness(setting: ProtectionSetting, current: string, next: string): -1 | 0 | 1 {
  if (current === next) return 0;
  if (setting === 'reminder_minutes') return -1;
  if (current === '') return -1;
  if (next === '') return 1;
  if (setting === 'timeout_until')
    return Date.parse(next) > Date.parse(current) ? -1 : Date.parse(next) < Date.parse(current) ? 1 : 0;
  const order = new Big(next).cmp(new Big(current));
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}

/** The customer's row locked for the rest of `tx` (created empty if none), with every due loosening written into it. */
async function lockAndSettle(tx: Tx, userId: number, now: Date): Promise<InForce> {
  await tx.insert(protectionLimits).values({ userId, updatedAt: now }).onConflictDoNothing();
  const { settings, waiting, row } = await readInForce(tx, userId, now, true);
  const stored = settingsOfRow(row);
  const changed = PROTECTION_SETTINGS.filter(
    (setting) => setting !== 'timeout_until' && stored[setting] !== settings[setting],
  );
  const due = await tx
    .delete(protectionPending)
    .where(
      and(
        eq(protectionPending.userId, userId),
        sql`${protectionPending.effectiveAt} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ setting: protectionPending.setting });
  const dueTimeout = due.some((row) => row.setting === 'timeout_until');
  if (changed.length || dueTimeout) {
    const update: Partial<Settings> = Object.fromEntries(changed.map((setting) => [setting, settings[setting]]));
    if (dueTimeout) update.timeout_until = settings.timeout_until;
    await tx
      .update(protectionLimits)
      .set({ ...columnsOf(update), updatedAt: now })
      .where(eq(protectionLimits.userId, userId));
  }
  return { settings, waiting };
}

/**
 * Changes one setting, in `tx`: a tightening (or a value equal to the one in force) at once, dropping a loosening of
 * it that waited; a loosening waits LOOSENING_DELAY_MS. A new loosening no looser than the one already waiting keeps
 * that one's time (it gives no more, no sooner); any other starts the wait anew. `value` is already checked for form
 * by the API contract; a time-out must end between 24 hours and about five years from now.
 */
export async function changeProtection(
  tx: Tx,
  userId: number,
  setting: ProtectionSetting,
  value: string,
  now: Date,
): Promise<void> {
  // The API contract's calendar rule again, for every entry point: a moment JavaScript would roll over is no moment.
  if (setting === 'timeout_until' && value !== '' && calendarMoment(value) === null)
    throw new Refusal(settingValueText(setting, value).id);
  const next = value === '' ? '' : written(setting, value);
  if (setting === 'timeout_until' && next !== '') {
    const ends = Date.parse(next) - now.getTime();
    if (ends < MIN_TIMEOUT_MS) throw new Refusal(texts.protectionTimeoutTooShort.id);
    if (ends > MAX_TIMEOUT_MS) throw new Refusal(texts.protectionTimeoutTooLong.id);
  }
  const { settings, waiting } = await lockAndSettle(tx, userId, now);
  const dropWaiting = () =>
    tx
      .delete(protectionPending)
      .where(and(eq(protectionPending.userId, userId), eq(protectionPending.setting, setting)));
  if (strictness(setting, settings[setting], next) <= 0) {
    await dropWaiting();
    if (settings[setting] !== next)
      await tx
        .update(protectionLimits)
        .set({ ...columnsOf({ [setting]: next }), updatedAt: now })
        .where(eq(protectionLimits.userId, userId));
    return;
  }
  const before = waiting.find((row) => row.setting === setting);
  const keepsTime = before !== undefined && strictness(setting, written(setting, before.value), next) <= 0;
  const requestedAt = keepsTime ? asDate(before.requestedAt) : now;
  const effectiveAt = keepsTime ? asDate(before.effectiveAt) : new Date(now.getTime() + LOOSENING_DELAY_MS);
  await tx
    .insert(protectionPending)
    .values({ userId, setting, value: next === '' ? null : next, requestedAt, effectiveAt })
    .onConflictDoUpdate({
      target: [protectionPending.userId, protectionPending.setting],
      set: { value: next === '' ? null : next, requestedAt, effectiveAt },
    });
}

/** Drops the loosening of `setting` still waiting; refused when none waits (one whose time has come is in force). */
export async function cancelLoosening(tx: Tx, userId: number, setting: ProtectionSetting, now: Date): Promise<void> {
  const { waiting } = await lockAndSettle(tx, userId, now);
  if (!waiting.some((row) => row.setting === setting)) throw new Refusal(serverTexts.protectionNothingPending.id);
  await tx
    .delete(protectionPending)
    .where(and(eq(protectionPending.userId, userId), eq(protectionPending.setting, setting)));
}

/** A moment as the time-out refusal says it: "2026-11-28 09:30 UTC". */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function refuseDuring(settings: Settings): void {
  if (settings.timeout_until !== '')
    throw new Refusal(serverTexts.protectionTimeout.id, { 0: utcMinute(settings.timeout_until) });
}

/**
 * The one check of every paid play while the customer's time-out lasts: a contract, lock-up or liquidity order, a
 * practice option, a blind box draw (a real option checks it inside refuseBeyondProtection). In the play's
 * transaction, before any money moves, given the customer's row of protection_limits (null: none) as read in it;
 * refuses with the time-out's end. Called by refusePreTrade (domain/pre-trade-checks.ts).
 */
export async function refuseDuringTimeout(tx: Tx, userId: number, now: Date, row: LimitsRow | null): Promise<void> {
  const { settings } = await inForceOfRow(tx, userId, now, row);
  refuseDuring(settings);
}

const LIMIT_TEXT: Record<AmountSetting, keyof typeof serverTexts> = {
  stake_day: 'protectionStakeDay',
  stake_week: 'protectionStakeWeek',
  stake_month: 'protectionStakeMonth',
  loss_day: 'protectionLossDay',
  loss_week: 'protectionLossWeek',
  loss_month: 'protectionLossMonth',
};

/**
 * Refuses an option of `stake` USDT that the customer's time-out or limits do not allow, in the placing transaction
 * before any money moves, given the customer's row of protection_limits (null: none) read after it was locked
 * (limitsRowLock, taken by refusePreTrade): the row stays locked until `tx` ends (see the top of this file). With no
 * row (no setting ever made) nothing is locked or counted.
 */
export async function refuseBeyondProtection(
  tx: Tx,
  userId: number,
  stake: string,
  now: Date,
  limits: LimitsRow | null,
): Promise<void> {
  const { settings, row } = await inForceOfRow(tx, userId, now, limits);
  if (!row) return;
  refuseDuring(settings);
  const limited = AMOUNT_SETTINGS.filter((setting) => settings[setting] !== '');
  if (!limited.length && settings.max_open_options === '') return;
  const used = await usedOf(tx, userId, now);
  if (settings.max_open_options !== '' && used.open_options + 1 > Number(settings.max_open_options))
    throw new Refusal(serverTexts.protectionOpenOptions.id, { 0: new Big(settings.max_open_options) });
  for (const setting of limited) {
    const left = leftUnder(setting, settings[setting], used);
    if (new Big(stake).gt(left))
      throw new Refusal(serverTexts[LIMIT_TEXT[setting]].id, { 0: new Big(settings[setting]), 1: new Big(left) });
  }
}

/** Every customer's settings in force and loosenings waiting, for the console's read-only view. */
export async function protectionForConsole(db: Executor, userId: number, now: Date) {
  const { settings, waiting } = await readInForce(db, userId, now, false);
  return { limits: settings, pending: waiting.map((row) => toPending(row, now)) };
}
