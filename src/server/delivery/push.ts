// Web Push (RFC 8030, 8291, 8292): a queued notification is encrypted for its subscription (aes128gcm) and signed with
// the server's VAPID key by the `web-push` library, and posted to the browser's push service by postPush below, which
// ends every try whatever the push service does. A subscription the push service says is gone (404, 410) is removed.
import { request as httpsRequest, type Agent } from 'node:https';
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
  /** Milliseconds a try may take in all, from connecting to the answer's end; then it is tried again later. */
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
      let answer: PushAnswer;
      try {
        const details = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify(row.payload ?? {}),
          {
            vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
            contentEncoding: 'aes128gcm',
            TTL: ttlSeconds,
          },
        );
        answer = await postPush(details, timeoutMs, agent);
      } catch (error) {
        return { sent: false, retry: true, error: error instanceof Error ? error.message : String(error) };
      }
      if (answer.status >= 200 && answer.status < 300) return { sent: true };
      const said = `push service answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`;
      if (answer.status === 404 || answer.status === 410) {
        await forgetSubscription(db, subscription.id, subscription.endpoint);
        return { sent: false, retry: false, error: `${said} (subscription removed)` };
      }
      // Too many requests, or the push service failing: later. Anything else (a bad request, a key it refuses, too
      // large) will not change.
      return { sent: false, retry: answer.status === 429 || answer.status >= 500, error: said };
    },
  };
}

/** A push service's answer: its status and the first BODY_KEPT characters of its body. */
interface PushAnswer {
  status: number;
  body: string;
}

/** What is kept of an answer's body (its start is what the outbox's error shows). */
const BODY_KEPT = 1000;

/**
 * Posts a request web-push prepared (encrypted, signed) and answers the push service's answer: a success at its status
 * line (the message is accepted then, whatever happens to the rest), anything else with its body. Rejects when there
 * is none: the connection refused or dropped, before the answer or in its middle (web-push's own send never ends then,
 * and the delivery job's run would wait for it for ever), or no whole answer within `timeoutMs` in all (a push service
 * that trickles its answer cannot hold the run either). The body is read up to BODY_KEPT characters.
 */
function postPush(details: webpush.RequestDetails, timeoutMs: number, agent?: Agent): Promise<PushAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      details.endpoint,
      {
        method: details.method,
        headers: details.headers,
        signal: AbortSignal.timeout(timeoutMs),
        ...(agent ? { agent } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // A success's status line is the push service's word that it holds the message (Web Push, RFC 8030: 201
        // Created); a connection dropped after it does not undo that, and sending again would show it twice.
        if (status >= 200 && status < 300) {
          response.resume();
          return resolve({ status, body: '' });
        }
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < BODY_KEPT) body += chunk.slice(0, BODY_KEPT - body.length);
        });
        response.on('end', () => resolve({ status, body }));
        response.on('error', reject);
        response.on('close', () => {
          if (!response.complete) reject(new Error('the push service dropped the connection mid-answer'));
        });
      },
    );
    request.on('error', reject);
    request.end(details.body ?? undefined);
  });
}
