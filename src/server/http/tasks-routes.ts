// Daily sign-in and welfare (§1; our additions beside §7 /task/level) — the caller's own only.
// Days are local days of the server's configured timezone (EARN_TIMEZONE), as interest days are.
import { dailySignIn, signInCalendar } from '../../contract/signin.ts';
import { claimWelfare, welfareTask, welfareTasks } from '../../contract/welfare.ts';
import { DEFAULT_EARN_TIMEZONE } from '../../contract/earn-days.ts';
import { calendarOf, signInOnce } from '../domain/signin.ts';
import { claimOnce, welfareTaskOf, welfareTasksOf } from '../domain/welfare.ts';
import type { router } from './handle.ts';

export function tasksRoutes(route: ReturnType<typeof router>) {
  route(signInCalendar, (input, { db, caller, clock, earnTimeZone }) => calendarOf(db, caller.userId, clock.now(), earnTimeZone ?? DEFAULT_EARN_TIMEZONE, input.month));
  route(dailySignIn, (_input, { db, caller, clock, earnTimeZone }) => signInOnce(db, caller.userId, clock.now(), earnTimeZone ?? DEFAULT_EARN_TIMEZONE));

  route(welfareTasks, async (_input, { db, caller }) => ({ lists: await welfareTasksOf(db, caller.userId) }));
  route(welfareTask, (input, { db, caller }) => welfareTaskOf(db, caller.userId, input.code));
  route(claimWelfare, (input, { db, caller, clock }) => claimOnce(db, caller.userId, input.code, clock.now()));
}
