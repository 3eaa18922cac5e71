// Daily sign-in: the month shown, today's state, the streak and the ladder, and signing in.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import {
  ladderReward,
  dailySignIn,
  signInCalendar,
  type SignInAnswer,
  type SignInCalendar,
} from '../../api-contract/signin.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { session } from '../../lib/session.ts';

export const signInState = proxy({
  /** The server's answer for the month shown (its `month`); null before the first. */
  calendar: null as SignInCalendar | null,
  failure: null as string | null,
});

let latest = 0;

/** Loads a month (default: this month); an answer that arrives after a newer request's is dropped. */
export async function loadSignIn(month = ''): Promise<void> {
  const request = ++latest;
  try {
    const calendar = await api(signInCalendar, { month }, { loading: !signInState.calendar });
    if (request !== latest) return;
    Object.assign(signInState, { calendar, failure: null });
  } catch (error) {
    if (request !== latest) return;
    signInState.failure = errorText(error);
    throw error;
  }
}

/** The answer folded into a calendar: today signed, the streak, the rewards and the balance. */
export function afterSignIn(calendar: SignInCalendar, answer: SignInAnswer): SignInCalendar {
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

/** Signs in for today (fails at once offline, as every write); the page shows the answer at once, then the server's
 * month. */
export async function signInToday(): Promise<SignInAnswer> {
  const answer = await api(dailySignIn);
  latest += 1; // a month still loading must not undo this answer
  if (signInState.calendar) signInState.calendar = afterSignIn(signInState.calendar, answer);
  void refreshBalances().catch(() => undefined);
  void loadSignIn(
    signInState.calendar?.month === answer.day.slice(0, 7) ? '' : (signInState.calendar?.month ?? ''),
  ).catch(() => undefined);
  return answer;
}

// Another session (logout, another user) must never see this one's calendar.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(signInState, { calendar: null, failure: null });
});
