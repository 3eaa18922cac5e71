// Push messages in headless Chromium, which has no push service: a subscription as a push service would hand one out
// (for the stand-in PushManager and the server's records), and DevTools delivering a payload to the app's service
// worker (ServiceWorker.deliverPushMessage), the notifications it shows, and a tap on one.
import { createECDH, randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

/** A subscription as a push service would hand one out: the browser's P-256 key and auth secret. */
export function subscriptionStub() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://push.example.invalid/send/${randomBytes(8).toString('hex')}`,
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };
}

/** A notification the service worker shows, as the page reads it. */
export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  icon: string;
  data: unknown;
}

/**
 * DevTools on the app's service worker in `page`: ready once the worker's registration is known and a version of it
 * is activated (the browser drops a push to a registration whose worker is not activated yet).
 */
export async function devtoolsPush(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const base = inject('baseUrl');
  const registered = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find(
        (registration) => !registration.isDeleted && registration.scopeURL.startsWith(base),
      );
      if (found) resolve(found.registrationId);
    }),
  );
  const activated = new Promise<void>((resolve) =>
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      if (versions.some((version) => version.status === 'activated' && version.scriptURL.startsWith(base))) resolve();
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const registrationId = await registered;
  await activated;

  const deliver = async (payload: unknown) => {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(base).origin,
      registrationId,
      data: JSON.stringify(payload),
    });
  };
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((notification): ShownNotification => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
        icon: notification.icon,
        data: notification.data as unknown,
      })),
    );

  return {
    shown,
    /**
     * Delivers `payload` and waits until one notification is shown. The browser starts the worker, runs its push
     * handler and loads the icon first: 0.4 s alone. On a machine running the whole of `npm test`, a first push twice
     * showed nothing within 10 and then 30 s while a second came at once: DevTools' delivery to a worker being woken
     * was lost, not the worker's handling. So one more delivery of the same message (its tag replaces, never adds)
     * after 15 s; the log says when it was needed (`what` names it). A worker that shows nothing still fails.
     */
    async deliverUntilShown(payload: unknown, what: string) {
      await deliver(payload);
      const arrived = await expect
        .poll(shown, { timeout: 15_000 })
        .toHaveLength(1)
        .then(() => true)
        .catch(() => false);
      if (arrived) return;
      console.log(`${what}: the first delivery showed nothing in 15 s; delivered again`);
      await deliver(payload);
      await expect.poll(shown, { timeout: 30_000 }).toHaveLength(1);
    },
    /** What the browser does when the notification is tapped: headless Chromium has no notification to tap. */
    async tap() {
      const [worker] = context.serviceWorkers();
      expect(worker, 'the app’s service worker').toBeDefined();
      await worker!.evaluate(async () => {
        // The worker's globals (the page's types do not name them).
        const scope = self as unknown as {
          registration: ServiceWorkerRegistration;
          dispatchEvent(event: Event): boolean;
          NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
        };
        const [notification] = await scope.registration.getNotifications();
        try {
          scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
        } catch {
          // waitUntil() refuses an event the browser did not make; the handler's work has started already.
        }
      });
    },
  };
}
