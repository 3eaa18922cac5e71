// What the service worker does with a push notification (sw/sw.ts): the notification a push
// message shows, and where a tap on it goes. Plain functions over the few worker APIs they need,
// so the routing is tested without a browser (tests/unit/notification-click.test.ts).

/** A push message's content (server/domain/notices.ts PushPayload). */
export interface PushNotice {
  title: string;
  body: string;
  /** The app's route, as a hash URL: '#/pages/Option/orderRecord/orderRecord?id=12'. */
  url: string;
  tag: string;
}

/** Only the app's own routes: a payload can never send a tap elsewhere. */
const APP_ROUTE = /^#\/pages\/[\w/-]+(\?[\w=&%.,-]*)?$/;

/** Reads a push message's data; what cannot be read still shows (a browser requires a notification for every push). */
export function readPushNotice(text: string | null | undefined): PushNotice {
  let data: Partial<Record<keyof PushNotice, unknown>> = {};
  try {
    data = JSON.parse(text ?? '') as typeof data;
  } catch {
    // shown with the app's name only
  }
  const field = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    title: field(data.title) || 'Coinvest',
    body: field(data.body),
    url: APP_ROUTE.test(field(data.url)) ? field(data.url) : '',
    tag: field(data.tag),
  };
}

/** The page a tap opens: the notice's route in the app at the worker's scope, or the app's start. */
export const notificationTarget = (data: unknown, scope: string): string => {
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  return typeof url === 'string' && APP_ROUTE.test(url) ? new URL(url, scope).href : scope;
};

interface AppWindow {
  readonly url: string;
  readonly focused: boolean;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

interface WindowClients {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly AppWindow[]>;
  openWindow(url: string): Promise<unknown>;
}

/** Brings an open window of the app forward and shows `target` in it (the focused one first); with none open, opens
 * one. */
export async function openNotificationTarget(clients: WindowClients, target: string, scope: string): Promise<void> {
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((window) =>
    window.url.startsWith(scope),
  );
  const chosen = windows.find((window) => window.focused) ?? windows[0];
  if (!chosen) {
    await clients.openWindow(target);
    return;
  }
  // A browser may refuse the focus (no tap behind it): the page is still shown.
  await chosen.focus().catch(() => undefined);
  // navigate() works on a window this worker controls; one it does not (opened before it was installed) gets a new
  // window instead.
  const navigated = await chosen.navigate(target).catch(() => null);
  if (!navigated) await clients.openWindow(target);
}
