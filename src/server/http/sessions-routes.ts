// Devices and sessions: the caller's signed-in sessions, ending one or all the others.
// An ended session stops working at once on every server process: its row's change notice drops the
// cached copies everywhere, and this process caches none until that notice has come (cache.sessions.hold).
import { endOtherSessions, endSession, signedInSessions } from '../../api-contract/sessions.ts';
import { endSession as endOneSession, listSessions, revokeAllSessions } from '../domain/sessions.ts';
import type { RouteModule } from './route-module.ts';

export const sessionsRoutes: RouteModule = ({ route, services: { sessionLimits: limits } }) => {
  route(signedInSessions, async (_input, { db, caller, clock, t }) => {
    const lists = await listSessions(db, caller, clock.now(), limits, t);
    return { lists, page: 1, total: lists.length };
  });

  route(endSession, async (input, { db, caller, clock, cache }) => {
    await endOneSession(db, caller.userId, Number(input.id), clock.now());
    cache.sessions.hold(caller.userId);
    return null;
  });

  route(endOtherSessions, async (_input, { db, caller, clock, cache }) => {
    await revokeAllSessions(db, caller.userId, clock.now(), caller.sessionId);
    cache.sessions.hold(caller.userId);
    return null;
  });
};
