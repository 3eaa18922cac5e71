// The admin's House page: the limits on what the house can lose on options (server/domain/house-limits.ts)
// and the house's result, read from the ledger (server/domain/house-result.ts). A change names only the
// caps it sets, each as the operator writes `cap=value`; which values a cap takes is decided once, on the
// server. Caps apply to orders to come: nothing here sets a price or an outcome, or touches a placed order.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { DIRECTIONS } from './options.ts';
import { decimal, isoDay, isoTime, shape, signedDecimal, whole } from './answers.ts';

/**
 * The caps, in USDT: `exposure`, what a win would pay on all open options of one coin and direction;
 * `per_order`, one order's stake; `per_minute`, one customer's stakes over the last 60 seconds.
 */
export const HOUSE_CAPS = ['exposure', 'per_order', 'per_minute'] as const;
export type HouseCap = (typeof HOUSE_CAPS)[number];

const admin = { console: 'admin' } as const;
/** A cap as written; the server's rule decides whether it applies. Left out: unchanged. */
const capValue = v.optional(
  v.pipe(v.string(texts.invalidRequest.id), v.trim(), v.maxLength(40, texts.invalidRequest.id)),
);

export const ConsoleHouseCaps = shape({ exposure: decimal, per_order: decimal, per_minute: decimal });
export type ConsoleHouseCaps = v.InferOutput<typeof ConsoleHouseCaps>;

/** One coin and direction: what a win of every open option would pay, against the cap. */
export const HouseExposure = shape({
  coin: v.string(),
  direction: v.picklist(DIRECTIONS),
  open_orders: whole,
  open_payout: decimal,
  cap: decimal,
  /** open_payout as a percentage of the cap, 2 decimals (above 100 after the cap was lowered). */
  used_percent: decimal,
});
export type HouseExposure = v.InferOutput<typeof HouseExposure>;

/** One option product (coin and period) over a period, from the ledger: stakes taken, payouts paid (wins, ties and
 * refunds), their difference. */
export const HouseResultRow = shape({
  coin: v.string(),
  minutes: whole,
  stakes: decimal,
  payouts: decimal,
  /** stakes − payouts: the house's gain (negative: its loss). */
  result: signedDecimal,
  /** What a win of the product's open options would pay now. */
  open_payout: decimal,
});
export type HouseResultRow = v.InferOutput<typeof HouseResultRow>;

export const HouseResultTotals = shape({
  stakes: decimal,
  payouts: decimal,
  result: signedDecimal,
  open_payout: decimal,
});
export const HousePeriod = shape({
  /** The first day of the period and the moment it starts (local midnight in `time_zone`). */
  from_day: isoDay,
  from: isoTime,
  rows: v.array(HouseResultRow),
  totals: HouseResultTotals,
});
export type HousePeriod = v.InferOutput<typeof HousePeriod>;

export const ConsoleHouse = shape({
  caps: ConsoleHouseCaps,
  exposure: v.array(HouseExposure),
  /** The zone whose midnight starts a day (the server's EARN_TIMEZONE). */
  time_zone: v.string(),
  as_of: isoTime,
  today: HousePeriod,
  /** Today and the 6 days before. */
  week: HousePeriod,
});
export type ConsoleHouse = v.InferOutput<typeof ConsoleHouse>;

/** The caps, the open exposure per coin and direction, and the house's result today and over 7 days. */
export const consoleHouse = get('/console/house', NoInput, returns(ConsoleHouse), admin);
/** Changes the caps sent (at least one); answers the caps as they now are. */
export const consoleChangeHouseCaps = post(
  '/console/house/caps',
  v.strictObject(
    Object.fromEntries(HOUSE_CAPS.map((cap) => [cap, capValue])) as Record<HouseCap, typeof capValue>,
    texts.invalidRequest.id,
  ),
  returns(ConsoleHouseCaps),
  admin,
);
