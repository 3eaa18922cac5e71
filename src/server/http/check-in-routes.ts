// Daily check-in (our addition beside /task/level) — the caller's own only. Days are local
// days of the server's configured timezone (EARN_TIMEZONE), as interest days are.
import { dailyCheckIn, checkInCalendar } from '../../api-contract/check-in.ts';
import { calendarOf, checkInOnce } from '../domain/check-in.ts';
import type { RouteModule } from './route-module.ts';

export const checkInRoutes: RouteModule = ({ route }) => {
  route(checkInCalendar, (input, { db, caller, clock, earnTimeZone }) =>
    calendarOf(db, caller.userId, clock.now(), earnTimeZone, input.month),
  );
  route(dailyCheckIn, (_input, { db, caller, clock, earnTimeZone }) =>
    checkInOnce(db, caller.userId, clock.now(), earnTimeZone),
  );
};
