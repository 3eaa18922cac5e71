// Devices and sessions: the caller's signed-in sessions, ending one or all the others, and their idle limit.
// An ended session stops working at once on every server process: its row's change notice drops the
// cached copies everywhere, and this process caches none until that notice has come (cache.sessions.hold).
import {
  endOtherSessions,
  endSession,
  sessionIdleLimit,
  setSessionIdleLimit,
  signedInSessions,
  type SessionIdleMinutes,
} from '../../api-contract/sessions.ts';
import { chooseSessionIdleMinutes, idleLimitOf, sessionIdleMinutesOf } from '../domain/session-idle.ts';
import { endSession as endOneSession, listSessions, rememberedAnew, revokeAllSessions } from '../domain/sessions.ts';
import type { RouteModule } from './route-module.ts';
import { forgetRememberedDevices, secondFactorSince } from '../domain/two-factor.ts';
import { deviceNonceOf, rememberDevice } from '../domain/remembered-devices.ts';

export const sessionsRoutes: RouteModule = ({ route, services: { sessionLimits: limits } }) => {
  route(signedInSessions, async (_input, { db, caller, clock, t }) => {
    // Listed while they work, within the customer's own idle limit too; then the ended ones whose device is remembered.
    const limitsNow = { ...limits, idleMs: idleLimitOf(caller, limits) };
    const since = await secondFactorSince(db, caller.userId);
    const lists = await listSessions(db, caller, clock.now(), limitsNow, t, since);
    return { lists, page: 1, total: lists.length };
  });

  route(endSession, async (input, { db, caller, clock, cache }) => {
    await endOneSession(db, caller.userId, Number(input.id), clock.now(), caller.sessionId);
    cache.sessions.hold(caller.userId);
    return null;
  });

  route(sessionIdleLimit, async (_input, { db, caller }) => ({
    minutes: await sessionIdleMinutesOf(db, caller.userId),
  }));

  route(setSessionIdleLimit, async (input, { db, caller, cache }) => {
    const minutes = Number(input.minutes) as SessionIdleMinutes;
    await chooseSessionIdleMinutes(db, caller.userId, minutes);
    // The account's sessions are read again with the new limit, on this process at once, elsewhere at the row's notice.
    cache.sessions.hold(caller.userId);
    return { minutes };
  });

  route(endOtherSessions, async (_input, { db, caller, clock, cache, twoFactorKey }) => {
    const now = clock.now();
    await revokeAllSessions(db, caller.userId, now, caller.sessionId);
    cache.sessions.hold(caller.userId);
    // A device the customer lost, or one a thief signed in on, was remembered as having passed the second factor: with
    // the password alone it would sign in again. Ending the other sessions forgets them all; this device, whose session
    // stays, is remembered anew.
    const since = await forgetRememberedDevices(db, caller.userId, now);
    if (!since) return {};
    const device = rememberDevice(twoFactorKey, caller.userId, since);
    await rememberedAnew(db, caller.sessionId, deviceNonceOf(device));
    return { device };
  });
};
