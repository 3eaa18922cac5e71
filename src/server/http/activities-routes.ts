// Activities and the win notice (§7 /content/sale, /content/sale/info, /content/winnotice): public.
import { activityInfo, activityList, winNotice } from '../../contract/activities.ts';
import { activityDetails, listActivities, recentWins } from '../domain/activities.ts';
import type { router } from './handle.ts';

export function activitiesRoutes(route: ReturnType<typeof router>) {
  route(activityList, (_input, { db, clock }) => listActivities(db, clock.now()));
  route(activityInfo, (input, { db, clock }) => activityDetails(db, Number(input.id), clock.now()));
  route(winNotice, (_input, { db }) => recentWins(db));
}
