// The house's limits on options: what it can lose on one coin and direction, and how much one customer
// can stake in one order and in one minute. The caps are operator settings (config entries of the group
// `house`, changed from the console with an audit entry); an order beyond one is refused, before any
// money moves, with a text the customer reads. Placements that could pass a cap together wait for each other: on the
// customer's transaction-scoped advisory lock for the per-minute cap, on their side's row of house_exposure (kept by
// triggers, locked first in the order's statement: sideLockCte) for the exposure cap, so two orders at once cannot
// both take the last room.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { type Executor, type Tx } from '../db/connection.ts';
import { HOUSE_CAPS, type HouseCap } from '../../api-contract/console-house.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import type { Direction } from '../../api-contract/options.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { configEntriesOf, setConfigEntry } from './config-entries.ts';
import { Refusal } from './refusal.ts';
import { changesOf, type Term } from './settings.ts';
import { isPositiveAmount } from '../../api-contract/markets.ts';

export type HouseCaps = Record<HouseCap, string>;

/** Where the caps are kept: config entries of this group (never served: /config reads only system, share and about). */
export const HOUSE_CONFIG_ACT = 'house';

/**
 * The caps until an operator sets them, in USDT, sized from the exposure cap down: 1,000,000 of
 * potential payout per coin and direction bounds what the house pays out when one coin moves one way;
 * a stake of 50,000 (a win pays about 92,500 at the seeded yields of 0.80 to 0.90) lets no single
 * order take more than a tenth of that room; 100,000 a minute lets a customer place two orders at the
 * cap a minute, but not fill a direction alone in the seconds before a move.
 */
export const DEFAULT_HOUSE_CAPS: HouseCaps = { exposure: '1000000', per_order: '50000', per_minute: '100000' };

/** What a win of option `o` (an alias of option_orders) pays: winPayout in SQL, stake × (1 + yield) truncated to 8
 * decimals. Settlement pays it, and the house's exposure, its result and the proof of liabilities count it. */
export const openPayoutSql = sql`trunc(o.amount * (1 + o.yield_rate), 8)`;
/** An option of real money whose outcome is still to come, `o` an alias of option_orders: accepted and waiting for its
 * start tick, or running. A practice option is never the house's exposure: its win pays virtual money. */
export const openOptionSql = sql`o.status in ('opening', 'holding') and not o.practice`;

/** Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)): any constants no other lock uses. */
const CUSTOMER_LOCK = 0x68637573; // 'hcus': one customer, the second key is their id
const CAPS_LOCK = 0x68636170; // 'hcap': the caps themselves

const written = (value: string) => new Big(value).toFixed();

/** The caps in force: the stored ones, the default for any never set (or stored unreadable). */
export async function houseCaps(db: Executor): Promise<HouseCaps> {
  const rows = await configEntriesOf(db, HOUSE_CONFIG_ACT);
  const stored = (cap: HouseCap) => rows.find((row) => row.key === cap)?.value;
  return Object.fromEntries(
    HOUSE_CAPS.map((cap) => {
      const value = stored(cap);
      return [cap, written(value !== undefined && isPositiveAmount(value) ? value : DEFAULT_HOUSE_CAPS[cap])];
    }),
  ) as HouseCaps;
}

export interface PlacedOption {
  /** The stake, a decimal string (USDT). */
  amount: string;
  /**
   * Staked from the practice account: only the per-order cap applies (a rule of the order, not of the house's room).
   */
  practice?: boolean;
}

/**
 * The customer's stake lock, as an SQL expression taking it until the transaction ends: an option placement of real
 * money takes it (refusePreTrade, with the customer's row) before the statement that reads the customer's minute of
 * stakes (minuteStakesSql), so a concurrent placement of theirs reads that sum only after this one's order is
 * committed or rolled back (READ COMMITTED: each statement sees what committed before it began).
 */
export const customerStakeLock = (userId: number) => sql`pg_advisory_xact_lock(${CUSTOMER_LOCK}::int, ${userId}::int)`;

/**
 * The customer's stakes of real money accepted in the 60 seconds up to `now` (start_at: when an order was accepted and
 * its stake debited, the server's clock), as an SQL expression of a decimal text (USDT), read under customerStakeLock.
 */
export const minuteStakesSql = (userId: number, now: Date) =>
  sql`coalesce((select sum(o.amount) from option_orders o
    where o.user_id = ${userId} and o.start_at > ${new Date(now.getTime() - 60_000).toISOString()}::timestamptz
    and not o.practice), 0)::text`;

/**
 * Refuses an option order beyond a cap on the customer (`caps`: those in force, houseCaps), before its order is written
 * and its stake debited: its stake above the per-order cap; for real money, the customer's stakes of the last minute
 * (`minuteStaked`, USDT: minuteStakesSql as read under customerStakeLock) with it above the per-minute cap. Reaching a
 * cap exactly is allowed. A practice order meets the per-order cap only: practice money takes none of the house's
 * room.
 */
export function refuseBeyondHouseLimits(order: PlacedOption, caps: HouseCaps, minuteStaked: string | null): void {
  const stake = new Big(order.amount);
  if (stake.gt(caps.per_order)) throw new Refusal(serverTexts.houseOrderLimit.id, { 0: new Big(caps.per_order) });
  if (order.practice) return;
  if (minuteStaked === null) throw new Error("an option of real money is checked without its customer's minute");
  if (stake.plus(minuteStaked).gt(caps.per_minute))
    throw new Refusal(serverTexts.houseMinuteLimit.id, { 0: new Big(caps.per_minute) });
}

/**
 * The CTE `side` of an option order's statement: the side's (coin and direction) row of house_exposure, locked
 * (FOR UPDATE, which waits for an order of the same side in flight and then reads what it committed), answering its
 * `open_payout` before the order; no row while the side has never had an order. It comes first in the order's statement
 * (placeOptionOrder), before the customer's balance row, the order every writer of this row keeps (settlement and
 * opening move it, then pay), so two orders of one side cannot both take the last room. The insert's trigger then adds
 * the order's win to the row this transaction holds (or makes the row, and so holds it).
 */
export const sideLockCte = (coin: string, direction: Direction) =>
  sql`side as (
          select open_payout from house_exposure where coin = ${coin} and direction = ${direction} for update
        )`;

/**
 * The side's open payout with the order `o` (an option_orders row of the same statement), as SQL text: what `side`
 * held before it plus the order's win (openPayoutSql), the figure refuseBeyondExposure weighs; null when the side had
 * no row (read it then with sideExposureSql, after the statement that made it).
 */
export const sideWithOrderSql = sql`(select s.open_payout + ${openPayoutSql} from side s)::text`;

/**
 * The side's open payout as its row holds it (SQL text), for a side's first order: its insert's trigger made the row
 * with this order's win and holds it until the commit, so what is read is exact.
 */
export const sideExposureSql = (coin: string, direction: Direction) =>
  sql`select open_payout::text as open_payout from house_exposure where coin = ${coin} and direction = ${direction}`;

/**
 * Refuses an option order of real money whose side would owe more than the exposure cap if every open order of that
 * side won, given `openPayout` (sideWithOrderSql, or sideExposureSql for a side's first order; under the side's lock).
 * Reaching the cap exactly is allowed; a refusal rolls the insert and the stake's debit back with the rest of the
 * transaction. A practice order takes none of the house's room: the caller does not ask.
 */
export function refuseBeyondExposure(openPayout: string | null, caps: HouseCaps): void {
  if (openPayout !== null && new Big(openPayout).gt(caps.exposure))
    throw new Refusal(serverTexts.houseExposureLimit.id);
}

const CAP_TERMS: Record<string, Term<HouseCaps>> = Object.fromEntries(
  HOUSE_CAPS.map((cap) => [
    cap,
    { takes: isPositiveAmount, set: (row: Partial<HouseCaps>, value: string) => (row[cap] = written(value)) },
  ]),
);

/**
 * Sets the caps named (`exposure=1000000`, `per_order=50000`, `per_minute=100000`: USDT above 0) with
 * its audit entry `house.caps` (the caps before and after), in the caller's transaction: every entry point's
 * way in. Orders placed from now on meet them; open orders stay as they are, even above a lowered cap.
 */
export async function setHouseCapsAs(tx: Tx, actor: Actor, changes: readonly string[], now: Date): Promise<HouseCaps> {
  const set = changesOf(changes, CAP_TERMS, 'exposure=1000000, per_order=50000 or per_minute=100000 (USDT, above 0)');
  // Two operators changing caps at once: the second waits here, and its "before" is the first one's "after".
  await tx.execute(sql`select pg_advisory_xact_lock(${CAPS_LOCK}::int, 0)`);
  const before = await houseCaps(tx);
  for (const cap of HOUSE_CAPS) if (set[cap] !== undefined) await setConfigEntry(tx, HOUSE_CONFIG_ACT, cap, set[cap]);
  const after = await houseCaps(tx);
  await appendAudit(tx, actor, 'house.caps', 'house:caps', { before, after }, now);
  return after;
}
