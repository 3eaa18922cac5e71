// A customer's own protection: limits they set themselves and a time-out, as regulated option platforms offer.
//
// The rules, all enforced by the server on every order, whatever process takes it:
// - Every setting is optional ('' is none). Stake limits: the most staked on options in a rolling window
//   (the last 24 hours, 7 days, 30 days). Loss limits: the most lost on options in the same windows, where
//   "lost" is what the options settled in the window took minus what they paid back (0 when they paid back more);
//   a new option is accepted only while that loss, the stakes of the options still open and the new stake
//   together stay within the limit, so no outcome can carry the customer past it. The most open options at
//   once counts the customer's options not settled yet. Coin-to-coin contracts, lock-up and liquidity orders
//   are not stakes (nothing is wagered on an outcome): only the time-out applies to them.
// - A reminder after the chosen number of minutes in the app (the app keeps the time; the server keeps the choice).
// - A time-out until a chosen moment at least 24 hours ahead: no paid play (option, contract, lock-up or liquidity
//   order, blind box draw) is accepted before it ends. Withdrawals stay possible.
// - Tightening (a new limit, a lower one, a longer time-out, fewer open options) takes effect at once and drops a
//   loosening of the same setting that was waiting. Loosening (a higher limit, removing one, a shorter time-out
//   or ending it) waits 24 hours on the server's clock, shown with its countdown; it can be cancelled meanwhile.
//   Nothing lifts a time-out early: neither a call nor an operator. The reminder is no protection of money: any
//   change to it takes effect at once.
import * as v from 'valibot';
import { post, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { CALENDAR_MOMENT, calendarMoment, isCalendarDay } from './calendar.ts';
import { AMOUNT_SETTINGS, PROTECTION_SETTINGS, Protection, type ProtectionSetting } from './protection-read.ts';

// The settings' names, the answer and the call that reads it are in protection-read.ts (the order forms, which only
// read whether a time-out lasts, load none of the changes' checks); they are this module's too.
export {
  AMOUNT_SETTINGS,
  PROTECTION_SETTINGS,
  PendingLoosening,
  Protection,
  ProtectionLimits,
  ProtectionUsed,
  protection,
} from './protection-read.ts';
export type { AmountSetting, ProtectionSetting } from './protection-read.ts';

/** How long a loosening waits before it takes effect, and the least a time-out lasts. */
export const LOOSENING_DELAY_MS = 24 * 3_600_000;
export const MIN_TIMEOUT_MS = 24 * 3_600_000;
/** The longest a time-out can be set for (about five years). */
export const MAX_TIMEOUT_MS = 5 * 366 * 24 * 3_600_000;
/** The rolling window of each amount limit, in hours. */
export const WINDOW_HOURS: Record<'day' | 'week' | 'month', number> = { day: 24, week: 7 * 24, month: 30 * 24 };
/** An amount limit: a positive USDT amount with at most 8 decimals, at most 12 digits before the point. */
export const LIMIT_AMOUNT = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,8})?$/;
export const MAX_OPEN_OPTIONS = 1000;
export const REMINDER_MINUTES = { min: 5, max: 1440 } as const;

/** True when `value` is a valid value of `setting` (format only: the server checks the time-out against its clock). */
export function validSettingValue(setting: ProtectionSetting, value: string): boolean {
  if (value === '') return true;
  if ((AMOUNT_SETTINGS as readonly string[]).includes(setting))
    return LIMIT_AMOUNT.test(value) && !/^0(?:\.0+)?$/.test(value);
  if (setting === 'max_open_options') return /^\d{1,4}$/.test(value) && +value >= 1 && +value <= MAX_OPEN_OPTIONS;
  if (setting === 'reminder_minutes')
    return /^\d{1,4}$/.test(value) && +value >= REMINDER_MINUTES.min && +value <= REMINDER_MINUTES.max;
  // A moment on the calendar (api-contract/calendar.ts): "2027-02-30T10:00Z" is refused, not read as 2 March.
  return calendarMoment(value) !== null;
}

/** The text refusing a value of `setting` that is not valid (`value`: a moment written right on a day that is not on
 * the calendar has its own). */
export function settingValueText(setting: ProtectionSetting, value = '') {
  if (setting === 'max_open_options') return texts.protectionOpenOptionsFormat;
  if (setting === 'reminder_minutes') return texts.protectionReminderFormat;
  if (setting === 'timeout_until')
    return CALENDAR_MOMENT.test(value) && !isCalendarDay(value.slice(0, 10))
      ? texts.calendarDate
      : texts.protectionTimeoutFormat;
  return texts.amountFormat;
}

export const ProtectionInput = v.pipe(
  v.object({
    setting: v.picklist(PROTECTION_SETTINGS, texts.invalidRequest.id),
    /** '' removes the limit (or the reminder, or asks to end the time-out). */
    value: v.pipe(
      v.optional(v.string(texts.invalidRequest.id), ''),
      v.trim(),
      v.maxLength(40, texts.invalidRequest.id),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && !validSettingValue(dataset.value.setting, dataset.value.value))
      addIssue({ message: settingValueText(dataset.value.setting, dataset.value.value).id });
  }),
);
/**
 * Changes one setting: a tightening at once, a loosening 24 hours later (pending). Answers the protection as then in
 * force, the loosening among `pending`.
 */
export const setProtection = post('/users/protection/set', ProtectionInput, returns(Protection));

/** Drops a loosening still waiting (the setting stays as it is in force). */
export const cancelProtectionLoosening = post(
  '/users/protection/cancel',
  v.object({ setting: v.picklist(PROTECTION_SETTINGS, texts.invalidRequest.id) }),
  returns(Protection),
);
