// The reminder of time spent in the app, at the number of minutes the customer chose (reminder_minutes): once the
// app has been in the foreground that long on this device since it was opened (lib/foreground.ts; time in the
// background does not count), a dialog says for how long, with "Keep going" (the next one at the next multiple of
// those minutes) and "Take a break" (the limits page). The choice is the server's (the protection call, which the
// service worker keeps for a start offline); the start loads this module four minutes in (main.tsx),
// and the limits page tells it at once of a change.
import { subscribeKey } from 'valtio/vanilla/utils';
import { protection } from '../../api-contract/protection-read.ts';
import { api } from '../../lib/api.ts';
import { inForeground, type ForegroundClock } from '../../lib/foreground.ts';
import { session } from '../../lib/session.ts';
import { noteTimeOut, receivedAt } from '../../ui/TimeoutGate.tsx';

const MINUTE_MS = 60_000;
/** A timer's longest delay: a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface Reminder {
  /** The chosen minutes ('' or 0: no reminder); the next one is due at the next multiple of them. */
  choose(minutes: number): void;
  /** The customer answered the dialog: the next one at the next multiple of the minutes. */
  answered(): void;
}

/**
 * Reminders on `clock`: `show` is called with the foreground time (ms) when one is due, and no other is due until
 * `answered`. A timer that fires early (the page was in the background meanwhile) waits for the time still missing.
 */
export function reminderOn(clock: ForegroundClock, show: (elapsed: number) => void): Reminder {
  let every = 0;
  let due = 0;
  let showing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (!every || showing) return;
    const wait = due - clock.elapsed();
    if (wait > 0) {
      timer = setTimeout(arm, Math.min(wait, LONGEST_TIMER_MS));
      return;
    }
    showing = true;
    show(clock.elapsed());
  };
  const next = () => {
    due = every ? (Math.floor(clock.elapsed() / every) + 1) * every : 0;
    arm();
  };
  return {
    choose(minutes) {
      const ms = minutes > 0 ? minutes * MINUTE_MS : 0;
      if (ms === every) return;
      every = ms;
      next();
    },
    answered() {
      showing = false;
      next();
    },
  };
}

let reminder: Reminder | null = null;

/** This app's reminder; its dialog's code and texts arrive when it first shows. */
function appReminder(): Reminder {
  reminder ??= reminderOn(inForeground, (elapsed) => {
    void import('./ReminderDialog.tsx').then(({ showReminderDialog }) =>
      showReminderDialog(elapsed, () => reminder?.answered()),
    );
  });
  return reminder;
}

/** The setting as the server answered it (the limits page calls this after each answer). */
export function reminderChosen(minutes: string): void {
  appReminder().choose(Number(minutes) || 0);
}

/** Reads the customer's choice quietly; signed out there is none. */
async function loadChoice(): Promise<void> {
  const token = session.token;
  if (!token) return reminderChosen('');
  const answer = await api(protection, undefined, { loading: false });
  if (token !== session.token) return;
  noteTimeOut(answer, receivedAt(protection.path));
  reminderChosen(answer.limits.reminder_minutes);
}

let started = false;

/** Starts the reminder for the session now signed in, and for each later one (login, another user). */
export function startReminder(): void {
  if (started) return;
  started = true;
  loadChoice().catch(() => undefined);
  subscribeKey(session, 'token', () => loadChoice().catch(() => undefined));
}
