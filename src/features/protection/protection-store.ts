// The limits and time-out page's state: the protection as the server last answered it (the settings in force, what
// each window holds and leaves, the loosenings waiting), a change of one setting, and the cancel of a waiting
// loosening. A waiting loosening counts down on this device's clock from the seconds the answer said were left. Each
// answer also tells the order forms (lib/time-out.ts) and the reminder (reminder.ts).
import { i18n } from '@lingui/core';
import Big from 'big.js';
import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  cancelProtectionLoosening,
  protection,
  setProtection,
  settingValueText,
  validSettingValue,
  type Protection,
  type ProtectionSetting,
} from '../../api-contract/protection.ts';
import { texts } from '../../api-contract/texts.ts';
import { isCalendarDay } from '../../api-contract/calendar.ts';
import { api } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { noteTimeOut, receivedAt } from '../../ui/TimeoutGate.tsx';
import { reminderChosen } from './reminder.ts';

export const protectionState = proxy({
  answer: null as Protection | null,
  /** When each waiting loosening takes effect on this device's clock (ms since the epoch), by setting. */
  dueAt: {} as Partial<Record<ProtectionSetting, number>>,
  /** Why the last read failed, while nothing is shown. */
  failure: '',
});

function take(answer: Protection, at: number): void {
  protectionState.answer = answer;
  protectionState.dueAt = Object.fromEntries(
    answer.pending.map((item) => [item.setting, at + item.seconds_left * 1000]),
  );
  protectionState.failure = '';
  noteTimeOut(answer, at);
  reminderChosen(answer.limits.reminder_minutes);
}

/** Reads the protection (the mask the first time); an answer for an earlier session is dropped. */
export async function loadProtection(): Promise<void> {
  const token = session.token;
  const answer = await api(protection, undefined, { loading: !protectionState.answer });
  if (token === session.token) take(answer, receivedAt(protection.path));
}

/** What the page says of a change: in force at once, or after its 24 hours. */
export type Outcome = 'now' | 'later';

/** Changes one setting ('' for none); resolves with when it takes effect. */
export async function changeSetting(setting: ProtectionSetting, value: string): Promise<Outcome> {
  const answer = await api(setProtection, { setting, value });
  take(answer, Date.now());
  return answer.pending.some((item) => item.setting === setting) ? 'later' : 'now';
}

/** Drops the loosening of `setting` still waiting. */
export async function cancelChange(setting: ProtectionSetting): Promise<void> {
  take(await api(cancelProtectionLoosening, { setting }), Date.now());
}

/** The first rule a typed value of `setting` breaks ('' is always fine: none), else null. */
export function settingProblem(setting: ProtectionSetting, value: string): string | null {
  if (value !== '' && !validSettingValue(setting, value)) return i18n._(settingValueText(setting, value));
  return null;
}

/** A typed amount as the API contract writes it: '010.50' → '10.5'; anything else as typed. */
export function cleanLimit(typed: string): string {
  const value = typed.trim();
  try {
    return /^\d+(?:\.\d*)?$/.test(value) ? new Big(value).toFixed() : value;
  } catch {
    return value;
  }
}

/**
 * A `datetime-local` value (the device's wall clock) as an ISO moment, or '' when it is not one: its day must exist on
 * the calendar (isCalendarDay), its clock be 00:00–23:59. A time skipped by a clock change moves forward by the gap.
 */
export function localMoment(typed: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(typed);
  if (!match || !isCalendarDay(match[1]!) || +match[2]! > 23 || +match[3]! > 59) return '';
  const [year, month, day] = match[1]!.split('-').map(Number) as [number, number, number];
  const moment = new Date(year, month - 1, day, +match[2]!, +match[3]!);
  return Number.isFinite(moment.getTime()) ? moment.toISOString() : '';
}

/** A moment as a `datetime-local` value on the device's wall clock. */
export function localInput(at: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

const QUARTER_MS = 15 * 60_000;

/** `days` days from `now`, rounded up to the next quarter hour: a time-out that lasts at least that long. */
export function daysAhead(days: number, now = Date.now()): Date {
  return new Date(Math.ceil((now + days * 86_400_000 + 60_000) / QUARTER_MS) * QUARTER_MS);
}

/** The earliest end the page offers: 24 hours and a quarter from now (the server's clock may be a little ahead). */
export const earliestEnd = (now = Date.now()) => new Date(now + MIN_TIMEOUT_MS + QUARTER_MS);

/** A typed end of a time-out (`iso` as localMoment read `typed`): null when fine, else why not. */
export function timeoutProblem(iso: string, now = Date.now(), typed = ''): string | null {
  // Not read: the API contract's text, which names a day that is not on the calendar.
  if (!iso) return i18n._(settingValueText('timeout_until', `${typed}Z`));
  if (Date.parse(iso) - now < MIN_TIMEOUT_MS) return i18n._(texts.protectionTimeoutTooShort);
  if (Date.parse(iso) - now > MAX_TIMEOUT_MS) return i18n._(texts.protectionTimeoutTooLong);
  return null;
}

// Another session starts from nothing.
subscribeKey(session, 'token', () => Object.assign(protectionState, { answer: null, dueAt: {}, failure: '' }));
