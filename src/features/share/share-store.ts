// The share page (the invitation link, gated by the invitation permission): the caller's invitation, the share text of
// `/other/config act=share`, what the page shows from them, and the friends who registered with the code (newest first,
// a page at a time, kept offline like other lists).
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { config } from '../../api-contract/content.ts';
import {
  inviteLink,
  inviteState,
  referredFriends,
  type InviteState,
  type ReferredFriend,
} from '../../api-contract/share.ts';
import { api, errorText } from '../../lib/api.ts';
import { cursorLoader, emptyCursorList } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';

export const shareState = proxy({
  invite: null as InviteState | null,
  /** Whose invitation it is: another account's (after a logout) is never shown. */
  owner: null as number | null,
  /** The config's share text; '' when there is none. */
  text: '',
  failure: null as string | null,
});

let latest = 0;

/** The invitation and the share text together; a failure is kept for the page and rethrown. */
export async function loadShare(owner: number): Promise<void> {
  const request = ++latest;
  const loading = shareState.owner !== owner;
  try {
    const [invite, share] = await Promise.all([
      api(inviteState, undefined, { loading }),
      api(config, { act: 'share' }, { loading }),
    ]);
    if (request !== latest) return;
    Object.assign(shareState, { invite, owner, text: share.text ?? '', failure: null });
  } catch (error) {
    if (request !== latest) return;
    shareState.failure = errorText(error);
    throw error;
  }
}

export type ShareView =
  /** The page is public (no login needed); a visitor is asked to log in for a link of their own. */
  | { kind: 'login' }
  | { kind: 'loading' }
  | { kind: 'failed'; failure: string }
  /** No link and no QR code until the invitation permission is active. */
  | { kind: 'gate'; invite: InviteState }
  | { kind: 'link'; invite: InviteState; link: string; text: string };

/** What the share page shows: decided here, so the permission gate is one rule with a test. */
export function shareView(
  user: number | null,
  state: { invite: InviteState | null; owner: number | null; text: string; failure: string | null },
  origin: string,
): ShareView {
  if (user === null) return { kind: 'login' };
  const invite = state.owner === user ? state.invite : null;
  if (!invite) return state.failure ? { kind: 'failed', failure: state.failure } : { kind: 'loading' };
  if (!invite.permission) return { kind: 'gate', invite };
  return { kind: 'link', invite, link: inviteLink(origin, invite.code), text: state.text };
}

/** The Web Share API's sheet where the browser has one (phones); false where it has none. */
export const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** Opens the system share sheet; a dismissed sheet is not an error. */
export async function shareInvitation(link: string, text: string): Promise<void> {
  try {
    await navigator.share({ text: text || undefined, url: link });
  } catch (error) {
    if ((error as { name?: string }).name !== 'AbortError') throw error;
  }
}

/** The app's own address (the link opens this app's register page). */
export const appOrigin = () =>
  `${location.origin}${location.pathname.replace(/\/index\.html$/, '').replace(/\/$/, '')}`;

/** The caller's invited friends, as the server masked them. */
export const friendsState = proxy(emptyCursorList<ReferredFriend>());

const friends = cursorLoader(
  () => friendsState,
  (cursor, loading) => api(referredFriends, { cursor }, { loading }),
);
/** Reads the head of the friend list (new friends on top); `{ more: true }` adds the next page. */
export const loadFriends = friends.load;

// Another session (logout, another user) must never see this list.
subscribeKey(session, 'token', () => {
  friends.cancel();
  Object.assign(friendsState, emptyCursorList<ReferredFriend>());
});
