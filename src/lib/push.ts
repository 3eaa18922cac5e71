// Push notifications on this browser: whether it can show them, whether it is subscribed,
// and turning them on (the browser asks the customer first) or off. Loaded only by Settings and the
// offer after a first order, never at start.
import {
  noticeSettings,
  pushKey,
  setNoticeSettings,
  subscribePush,
  unsubscribePush,
  type NoticeKind,
} from '../api-contract/notifications.ts';
import { api } from './api.ts';
import { currentLocale, loadAreaMessages } from './i18n.ts';

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

/**
 * The ids of the push screens' texts (features/notifications/push-texts.ts, an area of their own):
 * shown with i18n._(id) once loadPushTexts() has brought the active language's part.
 */
export const PUSH_TEXT = {
  heading: 'push.heading',
  explain: 'push.explain',
  thisDevice: 'push.thisDevice',
  denied: 'push.denied',
  unsupported: 'push.unsupported',
  offerTitle: 'push.offerTitle',
  turnOn: 'push.turnOn',
  notNow: 'push.notNow',
} as const;
export const pushKindText = (kind: NoticeKind) => `push.kind.${kind}`;

export const loadPushTexts = () => loadAreaMessages('notifications');

/** Web Push needs a service worker (https, a build) and, on iPhone, the app added to the Home Screen. */
export const pushSupported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function registration(): Promise<ServiceWorkerRegistration | null> {
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This browser's subscription, if notifications are on here. */
async function currentSubscription(): Promise<PushSubscription | null> {
  return (await (await registration())?.pushManager.getSubscription()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported() || !(await registration())) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' && (await currentSubscription()) ? 'on' : 'off';
}

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));

/** Tells the server about this browser's subscription, in the app's current language (again after a language change).
 * */
async function sendSubscription(subscription: PushSubscription): Promise<void> {
  const { endpoint, keys } = subscription.toJSON();
  await api(subscribePush, {
    endpoint: endpoint ?? '',
    p256dh: keys?.p256dh ?? '',
    auth: keys?.auth ?? '',
    language: currentLocale(),
  });
}

/**
 * Turns notifications on here. Must be called from the customer's tap: the browser asks for
 * permission only then. Answers the state it ends in ('denied' when the customer said no).
 */
export async function turnOnPush(): Promise<PushState> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const worker = await navigator.serviceWorker.ready;
  const { public_key } = await api(pushKey);
  const key = fromBase64Url(public_key);
  let subscription = await worker.pushManager.getSubscription();
  // A subscription made for another key (the server's database was replaced) must be made again.
  const heldKey = subscription?.options.applicationServerKey;
  if (subscription && heldKey && new Uint8Array(heldKey).join() !== key.join()) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await sendSubscription(subscription);
  return 'on';
}

export async function turnOffPush(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    await api(unsubscribePush, { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  return 'off';
}

/** Settings opened with notifications on: the server gets this browser's subscription again (its language may have
 * changed). */
export async function refreshPushSubscription(): Promise<void> {
  const subscription = await currentSubscription();
  if (subscription && Notification.permission === 'granted') await sendSubscription(subscription);
}

/**
 * Read quietly, without the loading mask: Settings is already usable when its section asks (its code
 * comes after the page's), and a mask arriving then would take the tap meant for a row of the page.
 */
export const loadKindsOff = async (): Promise<NoticeKind[]> => [
  ...(await api(noticeSettings, undefined, { loading: false })).off,
];

export const saveKindsOff = async (off: readonly NoticeKind[]): Promise<NoticeKind[]> => [
  ...(await api(setNoticeSettings, { off: off.join(',') })).off,
];
