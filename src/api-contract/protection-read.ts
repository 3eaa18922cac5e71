// The read side of a customer's own protection (the rules are at the top of protection.ts, which exports all of this
// too): the settings' names, the answer and the call that reads it. A module of its own so that the order forms,
// which only read whether a time-out lasts, load none of the checks of a change.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';

/** The settings, named as the columns of protection_limits and the `setting` of protection_pending. */
export const AMOUNT_SETTINGS = [
  'stake_day',
  'stake_week',
  'stake_month',
  'loss_day',
  'loss_week',
  'loss_month',
] as const;
export const PROTECTION_SETTINGS = [
  ...AMOUNT_SETTINGS,
  'max_open_options',
  'reminder_minutes',
  'timeout_until',
] as const;
export type AmountSetting = (typeof AMOUNT_SETTINGS)[number];
export type ProtectionSetting = (typeof PROTECTION_SETTINGS)[number];

// Builders rather than schemas shared at the top: the PWA's build drops the answers, and with them these.
/** A count or a number of minutes as a setting's text, or '' for none. */
const wholeOrNone = () => v.union([v.literal(''), v.pipe(v.string(), v.regex(/^\d+$/), v.examples(['5']))]);
/** A setting's value on the wire: '' for none (no limit, no reminder, no time-out). */
const settingValue = () => v.pipe(v.string(), v.examples(['100']));

/** Every setting as now in force; '' is none. The time-out is an ISO moment (still '' once it has ended). */
export const ProtectionLimits = shape({
  stake_day: v.union([v.literal(''), decimal]),
  stake_week: v.union([v.literal(''), decimal]),
  stake_month: v.union([v.literal(''), decimal]),
  loss_day: v.union([v.literal(''), decimal]),
  loss_week: v.union([v.literal(''), decimal]),
  loss_month: v.union([v.literal(''), decimal]),
  max_open_options: wholeOrNone(),
  reminder_minutes: wholeOrNone(),
  timeout_until: v.union([v.literal(''), isoTime]),
});
export type ProtectionLimits = v.InferOutput<typeof ProtectionLimits>;

/** A loosening asked for and not in force yet. */
export const PendingLoosening = shape({
  setting: v.picklist(PROTECTION_SETTINGS),
  /** The value it will take ('' removes the limit, or ends the time-out). */
  value: settingValue(),
  requested_at: isoTime,
  effective_at: isoTime,
  /** Seconds until then when answered, rounded up: a device counts down from its own clock. */
  seconds_left: whole,
});
export type PendingLoosening = v.InferOutput<typeof PendingLoosening>;

/** What the windows hold now: staked and lost on options in each, and the options open. */
export const ProtectionUsed = shape({
  stake_day: decimal,
  stake_week: decimal,
  stake_month: decimal,
  loss_day: decimal,
  loss_week: decimal,
  loss_month: decimal,
  /** Stakes of the options not settled yet: counted against every loss limit until they are. */
  open_stakes: decimal,
  open_options: whole,
});
export type ProtectionUsed = v.InferOutput<typeof ProtectionUsed>;

export const Protection = shape({
  limits: ProtectionLimits,
  pending: v.array(PendingLoosening),
  used: ProtectionUsed,
  /** Per amount limit in force: what may still be staked (stake limits) or put at risk (loss limits); '' when none. */
  left: shape({
    stake_day: v.union([v.literal(''), decimal]),
    stake_week: v.union([v.literal(''), decimal]),
    stake_month: v.union([v.literal(''), decimal]),
    loss_day: v.union([v.literal(''), decimal]),
    loss_week: v.union([v.literal(''), decimal]),
    loss_month: v.union([v.literal(''), decimal]),
    open_options: wholeOrNone(),
  }),
  /** Seconds until the time-out ends, rounded up; 0 when there is none. */
  timeout_seconds_left: whole,
  /** The server's time of the answer. */
  now: isoTime,
});
export type Protection = v.InferOutput<typeof Protection>;

/** The customer's protection as now in force (a loosening whose 24 hours have passed is in force). */
export const protection = get('/users/protection', NoInput, returns(Protection), { cache: 'user' });
