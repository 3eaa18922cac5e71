// Devices and sessions: the caller's signed-in sessions, ending one or all the others.
// An ended session stops working at once on every server process: its row's change notice drops the
// kept copies everywhere, and this process keeps none until that notice has come (kept.sessions.hold).
import { endOtherSessions, endSession, signedInSessions } from '../../api-contract/sessions.ts';
import { endSession as endOneSession, listSessions, revokeAllSessions } from '../domain/sessions.ts';
import type { RouteModule } from './route-module.ts';

export const sessionsRoutes: RouteModule = ({ route, services: { sessionLimits: limits } }) => {
  route(signedInSessions, async (_input, { db, caller, clock, t }) => {
    const lists = await listSessions(db, caller, clock.now(), limits, t);
    return { lists, page: 1, total: lists.length };
  });

  route(endSession, async (input, { db, caller, clock, kept }) => {
    await endOneSession(db, caller.userId, Number(input.id), clock.now());
    kept.sessions.hold(caller.userId);
    return null;
  });

  route(endOtherSessions, async (_input, { db, caller, clock, kept }) => {
    await revokeAllSessions(db, caller.userId, clock.now(), caller.sessionId);
    kept.sessions.hold(caller.userId);
    return null;
  });
};
