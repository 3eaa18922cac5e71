// Daily check-in: the month shown, today's state, the streak and the ladder, and checking in.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  ladderReward,
  dailyCheckIn,
  checkInCalendar,
  type CheckInAnswer,
  type CheckInCalendar,
} from '../../api-contract/check-in.ts';
import { addDays } from '../../api-contract/earn.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { session } from '../../lib/session.ts';

export const checkInState = proxy({
  /** The server's answer for the month shown (its `month`); null before the first. */
  calendar: null as CheckInCalendar | null,
  failure: null as string | null,
});

let latest = 0;

/** Loads a month (default: this month); an answer that arrives after a newer request's is dropped. */
export async function loadCheckIn(month = ''): Promise<void> {
  const request = ++latest;
  try {
    const calendar = await api(checkInCalendar, { month }, { loading: !checkInState.calendar });
    if (request !== latest) return;
    Object.assign(checkInState, { calendar, failure: null });
  } catch (error) {
    if (request !== latest) return;
    checkInState.failure = errorText(error);
    throw error;
  }
}

/** The answer folded into a calendar: today checked in, the streak, the rewards and the balance. */
export function afterCheckIn(calendar: CheckInCalendar, answer: CheckInAnswer): CheckInCalendar {
  const shown = answer.day.startsWith(calendar.month);
  return {
    ...calendar,
    signed_days:
      shown && !calendar.signed_days.includes(answer.day)
        ? [...calendar.signed_days, answer.day].sort()
        : calendar.signed_days,
    today: answer.day,
    signed_today: true,
    streak: answer.streak,
    today_reward: answer.reward,
    next_reward: ladderReward(calendar.ladder, answer.streak + 1),
    balance: answer.balance,
  };
}

/** The fields of a calendar that say where today stands (a stored answer or its read-only snapshot). */
type CalendarDay = Pick<CheckInCalendar, 'today' | 'signed_today' | 'streak'> & { readonly ladder: readonly string[] };

/**
 * A calendar the server answered on an earlier day (a stored answer shown offline) brought to `day`, today in its
 * time zone: not checked in today, and the run the server would count — alive when the stored day was checked in and
 * was yesterday, else broken (0) — with what today and tomorrow pay from it. The days already checked in stay as
 * answered. A calendar of today, or of a later day (a device clock behind the server's), is returned as it is.
 */
export function calendarOn<C extends CalendarDay>(calendar: C, day: string): C {
  if (day <= calendar.today) return calendar;
  const streak = calendar.signed_today && addDays(calendar.today, 1) === day ? calendar.streak : 0;
  return {
    ...calendar,
    today: day,
    signed_today: false,
    streak,
    today_reward: ladderReward(calendar.ladder, streak + 1),
    next_reward: ladderReward(calendar.ladder, streak + 2),
  } as C;
}

/** Today in a calendar's time zone ("2026-11-24") at `now`; the calendar's own day when the zone is unknown here. */
export function todayIn(calendar: Pick<CheckInCalendar, 'today' | 'time_zone'>, now = new Date()): string {
  try {
    return interestDay(now, calendar.time_zone);
  } catch {
    return calendar.today;
  }
}

/** Checks in for today (fails at once offline, as every write); the page shows the answer at once, then the server's
 * month. */
export async function checkInToday(): Promise<CheckInAnswer> {
  const answer = await api(dailyCheckIn);
  latest += 1; // a month still loading must not undo this answer
  if (checkInState.calendar) checkInState.calendar = afterCheckIn(checkInState.calendar, answer);
  void refreshBalances().catch(() => undefined);
  void loadCheckIn(
    checkInState.calendar?.month === answer.day.slice(0, 7) ? '' : (checkInState.calendar?.month ?? ''),
  ).catch(() => undefined);
  return answer;
}

// Another session (logout, another user) must never see this one's calendar.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(checkInState, { calendar: null, failure: null });
});
