// Web Push (RFC 8030, 8291, 8292) through the `web-push` library: a queued notification is
// encrypted for its subscription (aes128gcm) and posted to the browser's push service, signed with
// the server's VAPID key. A subscription the push service says is gone (404, 410) is removed.
import type { Agent } from 'node:https';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../db/connection.ts';
import { pushSubscriptions } from '../db/schema.ts';
import { forgetSubscription, vapidKeys } from '../domain/push-subscriptions.ts';
import type { Outcome, OutboxRow, Transport } from './transport.ts';

export interface PushOptions {
  /** VAPID `sub`: how a push service reaches the operator, a mailto: or https: address (VAPID_SUBJECT, RFC 8292). */
  subject: string;
  /** How long the push service keeps a notice for a browser that is offline. */
  ttlSeconds?: number;
  timeoutMs?: number;
  /** Tests: the agent that trusts the local push-service stand-in's certificate. */
  agent?: Agent;
}

/** A day: a notice older than that tells nothing the app does not show anyway. */
const DEFAULT_TTL_SECONDS = 24 * 3600;

export function pushTransport(
  db: Db,
  { subject, ttlSeconds = DEFAULT_TTL_SECONDS, timeoutMs = 15_000, agent }: PushOptions,
): Transport {
  return {
    async send(row: OutboxRow): Promise<Outcome> {
      const [subscription] = await db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.id, Number(row.target) || 0));
      // Unsubscribed since, or the browser is another account's now: this notice is not theirs to see.
      if (!subscription || subscription.userId !== row.userId)
        return { sent: false, retry: false, error: 'the subscription is gone' };
      const keys = await vapidKeys(db);
      try {
        await webpush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(row.payload ?? {}),
          {
            vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
            contentEncoding: 'aes128gcm',
            TTL: ttlSeconds,
            timeout: timeoutMs,
            ...(agent ? { agent } : {}),
          },
        );
        return { sent: true };
      } catch (error) {
        if (!(error instanceof webpush.WebPushError))
          return { sent: false, retry: true, error: error instanceof Error ? error.message : String(error) };
        const said = `push service answered ${error.statusCode}${error.body ? `: ${error.body.slice(0, 200)}` : ''}`;
        if (error.statusCode === 404 || error.statusCode === 410) {
          await forgetSubscription(db, subscription.id, subscription.endpoint);
          return { sent: false, retry: false, error: `${said} (subscription removed)` };
        }
        // Too many requests, or the push service failing: later. Anything else (a bad request, a key it refuses, too
        // large) will not change.
        return { sent: false, retry: error.statusCode === 429 || error.statusCode >= 500, error: said };
      }
    },
  };
}
