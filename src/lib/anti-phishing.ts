// The signed-in customer's anti-phishing code as the server last said it: Settings shows whether one is
// set, its own page shows it and changes it. Asked for when either opens; held in memory only (never in
// the device's storage nor in the service worker's cache: the endpoint is not kept), and gone with the
// session.
import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/vanilla/utils';
import { antiPhishingStatus } from '../api-contract/anti-phishing.ts';
import { api, errorText } from './api.ts';
import { toast } from './toast.ts';
import { session } from './session.ts';

export const antiPhishing = proxy({
  /** The code, or null when none is set. */
  phrase: null as string | null,
  /** The server has answered for this session. */
  loaded: false,
});

/** Asks the server; an answer for an earlier session is dropped. */
export async function loadAntiPhishing(options: { loading?: boolean } = {}): Promise<void> {
  const token = session.token;
  if (!token) return;
  const { phrase } = await api(antiPhishingStatus, undefined, { loading: options.loading ?? false });
  if (token !== session.token) return;
  Object.assign(antiPhishing, { phrase, loaded: true });
}

/**
 * The code as last known, asked for again when the screen opens. A Settings row says nothing of a
 * failure (it leaves what is known); the code's own page (`page`) shows the loading mask the first time
 * and says why it failed.
 */
export function useAntiPhishing(page = false): { phrase: string | null; loaded: boolean } {
  const snapshot = useSnapshot(antiPhishing);
  useEffect(() => {
    loadAntiPhishing({ loading: page && !antiPhishing.loaded }).catch((error) => {
      if (page) toast(errorText(error));
    });
  }, [page]);
  return snapshot;
}

// Another session (logout, another user) starts unknown.
subscribeKey(session, 'token', () => {
  Object.assign(antiPhishing, { phrase: null, loaded: false });
});
