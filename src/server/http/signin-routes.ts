// Daily sign-in (our addition beside /task/level) — the caller's own only. Days are local
// days of the server's configured timezone (EARN_TIMEZONE), as interest days are.
import { dailySignIn, signInCalendar } from '../../api-contract/signin.ts';
import { calendarOf, signInOnce } from '../domain/signin.ts';
import type { RouteModule } from './route-module.ts';

export const signInRoutes: RouteModule = ({ route }) => {
  route(signInCalendar, (input, { db, caller, clock, earnTimeZone }) =>
    calendarOf(db, caller.userId, clock.now(), earnTimeZone, input.month),
  );
  route(dailySignIn, (_input, { db, caller, clock, earnTimeZone }) =>
    signInOnce(db, caller.userId, clock.now(), earnTimeZone),
  );
};
