// Activities and the win notice (/content/sale, /content/sale/info, /content/winnotice): public;
// an activity in the request's language, else English.
import { activityInfo, activityList, winNotice } from '../../api-contract/activities.ts';
import { activityDetails, listActivities, recentWins } from '../domain/activities.ts';
import type { RouteModule } from './route-module.ts';

export const activitiesRoutes: RouteModule = ({ route }) => {
  route(activityList, (_input, { db, clock, locale }) => listActivities(db, clock.now(), locale));
  route(activityInfo, (input, { db, clock, locale }) => activityDetails(db, Number(input.id), clock.now(), locale));
  route(winNotice, (_input, { db }) => recentWins(db));
};
