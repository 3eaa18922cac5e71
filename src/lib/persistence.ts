// Storage that stays: once the user has logged in or installed the app, ask the browser to keep
// this origin's storage (the token, cached answers, the outbox) rather than evict it under pressure.
import { subscribeKey } from 'valtio/vanilla/utils';
import { session } from './session.ts';

let asked = false;

async function askPersistentStorage(): Promise<void> {
  if (asked || !navigator.storage?.persist) return;
  asked = true;
  try {
    if (!(await navigator.storage.persisted())) await navigator.storage.persist();
  } catch {
    // Refused or unavailable: the app works the same, the browser may only evict sooner.
  }
}

export function keepStorage(): void {
  if (session.token) void askPersistentStorage();
  subscribeKey(session, 'token', (token) => token && void askPersistentStorage());
  addEventListener('appinstalled', () => void askPersistentStorage());
}
