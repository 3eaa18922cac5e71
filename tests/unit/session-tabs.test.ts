// @vitest-environment jsdom
// Logging out (or the server's ret -1) in one tab ends the session in every tab of the app at once: no name or
// balance stays on another tab's screen until its next navigation. Told over a BroadcastChannel, naming the session
// that ended, so a newer session of another tab is left alone.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { subscribe } from 'valtio/vanilla';
import type { UserInfo } from '../../src/api-contract/account.ts';
import { SESSION_CHANNEL, clearSession, endIfThisSession, heldWrites, session } from '../../src/lib/session.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { api } from '../../src/lib/api.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';

const signedIn = (token: string) => {
  session.token = token;
  session.user = { id: 7, username: 'somchai', nickname: 'Somchai' } as UserInfo;
  userBalances.lists = [{ asset: 'USDT', available: '1500', frozen: '0' }] as typeof userBalances.lists;
};
/** Resolves when this tab's session is gone. */
const signedOut = () =>
  new Promise<void>((resolve) => {
    if (!session.token) return resolve();
    const stop = subscribe(session, () => {
      if (session.token) return;
      stop();
      resolve();
    });
  });

let otherTab: BroadcastChannel;
beforeEach(() => {
  resetClientState();
  otherTab = new BroadcastChannel(SESSION_CHANNEL);
});
afterEach(() => {
  otherTab.close();
  resetClientState();
});

it('another tab logging out of this session ends it here: name and balance gone', async () => {
  signedIn('token-a');
  const gone = signedOut();
  otherTab.postMessage({ ended: 'token-a' });
  await gone;
  expect(session.user).toBeNull();
  expect(userBalances.lists).toEqual([]);
});

it('logging out here tells the other tabs which session ended', async () => {
  signedIn('token-b');
  const told = new Promise<unknown>((resolve) => otherTab.addEventListener('message', (event) => resolve(event.data)));
  await clearSession();
  expect(await told).toEqual({ ended: 'token-b' });
  expect(session.token).toBeNull();
});

it('a message about another session (an older one, or garbage) leaves this one', async () => {
  signedIn('token-new');
  for (const message of [{ ended: 'token-old' }, { ended: '' }, null, 'token-new', { ended: 42 }])
    await endIfThisSession(message);
  expect(session.token).toBe('token-new');
  expect(session.user?.username).toBe('somchai');
  await endIfThisSession({ ended: 'token-new' });
  expect(session.token).toBeNull();
});

it('the server saying the token is invalid (ret -1) ends the session in the other tabs too', async () => {
  signedIn('token-c');
  stubFetch(envelope(-1, 'Your login has expired, please log in again!'));
  const told = new Promise<unknown>((resolve) => otherTab.addEventListener('message', (event) => resolve(event.data)));
  await api(userInfo).catch(() => undefined);
  // With whose writes the device holds for their next sign-in: a sign-in in another tab must know it too.
  expect(await told).toEqual({ ended: 'token-c', heldFor: 7 });
  heldWrites.userId = null;
  signedIn('token-d');
  await endIfThisSession({ ended: 'token-d', heldFor: 7 });
  expect(heldWrites.userId).toBe(7);
  heldWrites.userId = null;
});
