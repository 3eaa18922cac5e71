// Web Push: the server's VAPID key pair, the browsers subscribed for a customer and the
// kinds of notification the customer turned off. Every read and write is scoped to one user.
import { and, eq, sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { Executor } from '../db/connection.ts';
import { notificationSettings, pushSubscriptions, serverKeys, users } from '../db/schema.ts';
import { NOTICE_KINDS, type NoticeKind } from '../../api-contract/notifications.ts';
import type { Locale } from '../../api-contract/constants.ts';
import { startWithin } from '../../api-contract/character-count.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const VAPID_KEY_NAME = 'vapid';
const kept = new WeakMap<object, Promise<VapidKeys>>();

/**
 * The VAPID key pair, made on the first start and kept in the database: the first process to write
 * one wins and every process reads that one back, so all sign with the key the browsers subscribed to.
 */
export function vapidKeys(db: Executor): Promise<VapidKeys> {
  let keys = kept.get(db);
  if (!keys) {
    keys = (async () => {
      await db
        .insert(serverKeys)
        .values({ name: VAPID_KEY_NAME, value: JSON.stringify(webpush.generateVAPIDKeys()) })
        .onConflictDoNothing();
      const [row] = await db
        .select({ value: serverKeys.value })
        .from(serverKeys)
        .where(eq(serverKeys.name, VAPID_KEY_NAME));
      return JSON.parse(row!.value) as VapidKeys;
    })();
    keys.catch(() => kept.delete(db));
    kept.set(db, keys);
  }
  return keys;
}

/**
 * The push services of the browsers people use: Chrome, Edge, Opera and Samsung Internet (Firebase
 * Cloud Messaging), Firefox (Mozilla's autopush), Safari (Apple), and Windows (WNS). A `*.` entry
 * stands for any subdomain. A subscription elsewhere is refused: the server would otherwise POST to
 * any address a customer names, internal ones included.
 */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

/**
 * True when `endpoint` is an https address of one of `hosts`, at the port the entry names: an entry without a port
 * (`fcm.googleapis.com`) stands for https's own, 443, alone; `host:port` for that port alone. An address carrying a
 * user name or password is refused (no push service's subscription has one). A push service answers on 443 only, so a
 * subscription naming another port of a known host is not one a browser made.
 */
export function knownPushService(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  const host = url.hostname.toLowerCase();
  // The URL standard writes https's default port as '' (":443" is dropped when the address is read).
  const { port } = url;
  return hosts.some((entry) => {
    const [, pattern = entry, entryPort] = /^(.*?)(?::(\d+))?$/.exec(entry) ?? [];
    const allowedPort = entryPort === undefined || Number(entryPort) === 443 ? '' : String(Number(entryPort));
    if (port !== allowedPort) return false;
    return pattern.startsWith('*.')
      ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1
      : host === pattern;
  });
}

/**
 * The most browsers a customer keeps subscribed: a phone, a tablet, computers, a few browsers on each. One event
 * queues a push to each of them, so without a bound a customer subscribing endless made-up addresses of a push service
 * would have every event of theirs queue that many pushes, and the outbox sends codes too.
 */
export const PUSH_SUBSCRIPTIONS_MAX = 10;

/** The longest device name kept with a subscription, in UTF-16 code units; a longer one keeps its first whole
 * characters (startWithin), never half an emoji. */
export const DEVICE_NAME_MAX = 200;

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  language: Locale;
  device: string;
}

/**
 * Subscribes a browser for `userId`; the same browser again (or after another account used it) becomes this user's,
 * with its new keys and language, and counts as subscribed now. The user keeps the PUSH_SUBSCRIPTIONS_MAX browsers
 * subscribed last: an older one beyond them is removed (a browser whose data was cleared never unsubscribed). The
 * user's row is locked first, so two subscribes at once count one after the other.
 */
export async function subscribe(db: Executor, userId: number, input: NewSubscription): Promise<void> {
  const values = {
    userId,
    endpoint: input.endpoint,
    p256dh: input.p256dh,
    auth: input.auth,
    language: input.language,
    device: startWithin(input.device, DEVICE_NAME_MAX),
  };
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId,
          p256dh: values.p256dh,
          auth: values.auth,
          language: values.language,
          device: values.device,
          createdAt: sql`now()`,
        },
      });
    await tx.execute(sql`
      delete from push_subscriptions where user_id = ${userId} and id not in (
        select id from push_subscriptions where user_id = ${userId}
        order by created_at desc, id desc limit ${PUSH_SUBSCRIPTIONS_MAX})`);
  });
}

/** Removes the caller's subscription of this browser; another user's is left alone. */
export async function unsubscribe(db: Executor, userId: number, endpoint: string): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** A subscription the push service says is gone (404, 410): never tried again. */
export async function forgetSubscription(db: Executor, id: number, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.endpoint, endpoint)));
}

/** The kinds `userId` turned off (none by default). */
export async function kindsOff(db: Executor, userId: number): Promise<NoticeKind[]> {
  const [row] = await db
    .select({ off: notificationSettings.off })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  return NOTICE_KINDS.filter((kind) => row?.off.includes(kind));
}

/** Sets the kinds `userId` turned off (unknown names are dropped). */
export async function setKindsOff(db: Executor, userId: number, off: readonly string[]): Promise<NoticeKind[]> {
  const kinds = NOTICE_KINDS.filter((kind) => off.includes(kind));
  await db
    .insert(notificationSettings)
    .values({ userId, off: kinds })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { off: kinds } });
  return kinds;
}
