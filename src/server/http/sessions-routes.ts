// Devices and sessions: the caller's signed-in sessions, ending one or all the others.
// An ended session stops working at once on every server process: its row's change notice drops the
// kept copies everywhere, and this process keeps none until that notice has come (kept.sessions.hold).
import { endOtherSessions, endSession, signedInSessions } from '../../contract/sessions.ts';
import {
  DEFAULT_SESSION_LIMITS,
  endSession as endOneSession,
  listSessions,
  revokeAllSessions,
  type SessionLimits,
} from '../domain/sessions.ts';
import type { router } from './handle.ts';

export function sessionsRoutes(route: ReturnType<typeof router>, limits: SessionLimits = DEFAULT_SESSION_LIMITS) {
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
}
