// Push notifications: the server's VAPID key, subscribing this browser and the kinds the
// caller turned off. Every call changes the caller's own subscriptions and settings only.
import { serverTexts } from '../../api-contract/server-texts.ts';
import {
  noticeSettings,
  pushKey,
  setNoticeSettings,
  subscribePush,
  unsubscribePush,
} from '../../api-contract/notifications.ts';
import { deviceOf } from '../domain/devices.ts';
import {
  kindsOff,
  knownPushService,
  setKindsOff,
  subscribe,
  unsubscribe,
  vapidKeys,
} from '../domain/push-subscriptions.ts';
import { Refusal } from '../domain/refusal.ts';
import type { RouteModule } from './route-module.ts';

/** A subscription may point only to the push services of PUSH_SERVICE_HOSTS (settings.pushServiceHosts). */
export const notificationsRoutes: RouteModule = ({ route, settings: { pushServiceHosts } }) => {
  route(pushKey, async (_input, { db }) => ({ public_key: (await vapidKeys(db)).publicKey }));

  route(subscribePush, async (input, { db, caller, request }) => {
    if (!knownPushService(input.endpoint, pushServiceHosts)) throw new Refusal(serverTexts.pushServiceUnknown.id);
    const userAgent = request.headers['user-agent'];
    await subscribe(db, caller.userId, { ...input, device: deviceOf(typeof userAgent === 'string' ? userAgent : '') });
    return null;
  });

  route(unsubscribePush, async (input, { db, caller }) => {
    await unsubscribe(db, caller.userId, input.endpoint);
    return null;
  });

  route(noticeSettings, async (_input, { db, caller }) => ({ off: await kindsOff(db, caller.userId) }));

  route(setNoticeSettings, async (input, { db, caller }) => ({
    off: await setKindsOff(db, caller.userId, input.off.split(',')),
  }));
};
