// How many station messages the signed-in user has not read, and the oldest of them (the
// startup dialog shows it). Shared: the tab bar, the home bell and the messages page read it.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import type { StationMessage } from '../api-contract/messages.ts';
import { unreadMessages } from '../api-contract/unread.ts';
import { FRESH_READ_MS, api } from './api.ts';
import { pendingReads } from './outbox-store.ts';
import { session } from './session.ts';

export const unread = proxy({
  count: 0,
  first: null as StationMessage | null,
  /** Customer service's answers not seen yet (the chat's count; Home's service entry shows a dot). */
  service: 0,
  /** The server has answered for this session at least once. */
  loaded: false,
});

let latestRequest = 0;
/** When this session's count was last asked for (Date.now()), answered or not yet. */
let lastAskedAt = Number.NEGATIVE_INFINITY;

/**
 * Asks the server again and resolves with what it said (null when the session changed meanwhile);
 * the shared count takes an answer only if no newer request (or read) came after it.
 */
export async function refreshUnread(): Promise<{ count: number; first: StationMessage | null } | null> {
  if (!session.token) return null;
  const request = ++latestRequest;
  const token = session.token;
  lastAskedAt = Date.now();
  const answer = await api(unreadMessages, undefined, { loading: false });
  if (token !== session.token) return null;
  // Messages read on this device while offline stay read until the server hears of them.
  const pending = pendingReads();
  const shown =
    pending === 'all'
      ? { count: 0, first: null }
      : answer.first && pending.has(answer.first.id)
        ? { count: answer.count - pending.size, first: null }
        : { count: answer.count, first: answer.first };
  if (request === latestRequest) setUnread(shown.count, shown.first);
  unread.service = answer.service;
  return shown;
}

/** For screens that only decorate with the count: a failure (offline, say) keeps the last one. */
export function refreshUnreadQuietly(): void {
  refreshUnread().catch(() => undefined);
}

/**
 * The same, unless the count was asked for less than FRESH_READ_MS ago: at an app start on Home,
 * the startup message's check has just asked, and Home's bell takes that answer.
 */
export function refreshUnreadUnlessFresh(): void {
  if (Date.now() - lastAskedAt >= FRESH_READ_MS) refreshUnreadQuietly();
}

/** What the server said after a read (`readMessages` answers the count left); `readIds` are now read. */
export function noteRead(count: number, readIds: readonly number[] | 'all'): void {
  // An answer to an older unread request must not bring back what was just read.
  latestRequest += 1;
  const firstRead = unread.first !== null && (readIds === 'all' || readIds.includes(unread.first.id));
  setUnread(count, count === 0 || firstRead ? null : unread.first);
  if (firstRead && count > 0) refreshUnreadQuietly();
}

function setUnread(count: number, first: StationMessage | null): void {
  unread.count = Math.max(0, count);
  unread.first = first;
  unread.loaded = true;
}

/** Keeps the count fresh while the app is used: again each time it comes back to the foreground. */
export function watchUnread(): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') refreshUnreadQuietly();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => document.removeEventListener('visibilitychange', onVisible);
}

/** The session the startup check ran for in this app start: a remount or a re-render asks no more. */
let startupCheckedFor: string | null = null;
/** The check started at boot (startStartupCheck), before the dialog's place has rendered. */
let earlyCheck: { token: string; first: Promise<StationMessage | null> } | null = null;

/** Its own answer: the shared count may have taken a newer request's instead (Home asks too). */
async function askFirstUnread(token: string): Promise<StationMessage | null> {
  const first = (await refreshUnread())?.first;
  return first && session.token === token ? { ...first } : null;
}

/**
 * Starts the first-unread check as the app starts, so its answer is on the way while the first page loads;
 * `onAnswer` hears it first (to fetch the dialog's code), then the dialog's place takes it.
 */
export function startStartupCheck(token: string, onAnswer?: (first: StationMessage | null) => void): void {
  if (startupCheckedFor === token || earlyCheck?.token === token) return;
  const first = askFirstUnread(token);
  first.then(onAnswer, () => undefined); // whoever takes it hears of a failure
  earlyCheck = { token, first };
}

/** The message the startup dialog shows for this session, once per app start; null when there is none. */
export async function firstUnreadOnce(token: string): Promise<StationMessage | null> {
  if (startupCheckedFor === token) return null;
  startupCheckedFor = token;
  const early = earlyCheck?.token === token ? earlyCheck.first : null;
  earlyCheck = null;
  return early ?? askFirstUnread(token);
}

/** Tests start each case as a fresh app start. */
export function resetStartupCheck(): void {
  startupCheckedFor = null;
  earlyCheck = null;
}

/** "99+" above 99, so a badge keeps its size. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

// Another session (logout, another user) must never see this one's count or message.
subscribeKey(session, 'token', () => {
  lastAskedAt = Number.NEGATIVE_INFINITY;
  unread.count = 0;
  unread.first = null;
  unread.loaded = false;
});
