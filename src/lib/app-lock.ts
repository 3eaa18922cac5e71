// The app lock's small part, loaded with the app: whether the app must show the lock screen now. The customer turns
// the lock on in Settings for their account on this device (after 1, 5, 15 or 60 minutes in the background); it is
// opened with a 6-digit app PIN or the device's passkey (app-lock-pin.ts, app-lock-passkey.ts and the lock screen are
// loaded only when needed). Kept in localStorage, not IndexedDB: it is read synchronously before the first render,
// so a fresh start of the app decides on the lock before any balance is drawn. Nothing of it is ever sent.
import { proxy } from 'valtio';
import { session } from './session.ts';

/** Minutes in the background after which the app locks; 0: the lock is off. */
export const APP_LOCK_CHOICES = [0, 1, 5, 15, 60] as const;
export type AppLockMinutes = (typeof APP_LOCK_CHOICES)[number];

/** The PIN as kept: a PBKDF2-SHA-256 hash of its 6 ASCII digits (base64 salt and hash, the iteration count). */
export interface StoredPin {
  salt: string;
  hash: string;
  iterations: number;
}

/** A device-only passkey made for the lock: its credential id and P-256 public key (base64url; the key as SPKI DER). */
export interface StoredPasskey {
  id: string;
  publicKey: string;
}

/** One account's lock on this device. `failures`: wrong PINs typed in a row (5 sign out). */
export interface AppLockRecord {
  minutes: AppLockMinutes;
  pin: StoredPin | null;
  passkey: StoredPasskey | null;
  failures: number;
}

const PREFIX = 'coinvest.app-lock.';
/** When the page was last hidden (ms since the epoch), for a fresh start after a long time away. */
const HIDDEN_AT = 'coinvest.app-lock.hidden-at';

export const appLock = proxy({
  /** The lock screen is shown instead of the pages. */
  locked: false,
});

const keyOf = (userId: number) => `${PREFIX}${userId}`;

/** The signed-in account's lock record, or null when the lock is off or nobody is signed in. */
export function lockRecord(userId = session.user?.id): AppLockRecord | null {
  if (userId === undefined || !session.token) return null;
  try {
    const record = JSON.parse(localStorage.getItem(keyOf(userId)) ?? 'null') as AppLockRecord | null;
    return record && record.minutes > 0 && (record.pin || record.passkey) ? record : null;
  } catch {
    return null;
  }
}

/** The stored record as is (an unfinished one too), for Settings. */
export function rawLockRecord(userId: number): AppLockRecord {
  try {
    const record = JSON.parse(localStorage.getItem(keyOf(userId)) ?? 'null') as AppLockRecord | null;
    if (record) return record;
  } catch {
    // A damaged record is no lock.
  }
  return { minutes: 0, pin: null, passkey: null, failures: 0 };
}

/** Keeps `record` for `userId` (null removes it). */
export function saveLockRecord(userId: number, record: AppLockRecord | null): void {
  if (record) localStorage.setItem(keyOf(userId), JSON.stringify(record));
  else localStorage.removeItem(keyOf(userId));
}

/** Whether a page hidden since `hiddenAt` (ms) must open locked at `now`: the lock is on and its time has passed. A
 * clock set back, or no record of the moment, locks too. */
export function lockDue(record: AppLockRecord | null, hiddenAt: number | null, now: number): boolean {
  if (!record) return false;
  if (hiddenAt === null || now < hiddenAt) return true;
  return now - hiddenAt >= record.minutes * 60_000;
}

const readHiddenAt = () => {
  const value = Number(localStorage.getItem(HIDDEN_AT));
  return localStorage.getItem(HIDDEN_AT) !== null && Number.isFinite(value) ? value : null;
};

/** Hides the whole page at once (the task switcher's picture is taken after the event), until `uncover`. */
function cover() {
  document.documentElement.dataset.covered = '';
}
/** Shows the page again: when the app is not locked, or once the lock screen is drawn. */
export function uncover() {
  delete document.documentElement.dataset.covered;
}

/**
 * Watches the page's visibility: hidden with the lock on, the page is covered and the moment kept; visible again after
 * the lock's time, the lock screen replaces the pages. A fresh start decides from the kept moment. Call once at start.
 * While the lock screen is up the kept moment is not moved (neither hiding nor closing the page moves it), so a reload
 * or a fresh start of a locked app opens locked again.
 */
export function watchAppLock(doc: Document = document, now: () => number = Date.now): void {
  appLock.locked = lockDue(lockRecord(), readHiddenAt(), now());
  const note = () => {
    if (doc.visibilityState === 'hidden') {
      // Locked, the lock screen shows nothing to cover, and the moment it locked from stays.
      if (!lockRecord() || appLock.locked) return;
      localStorage.setItem(HIDDEN_AT, String(now()));
      cover();
      return;
    }
    if (!appLock.locked) appLock.locked = lockDue(lockRecord(), readHiddenAt(), now());
    // The lock screen uncovers the page once it is drawn.
    if (!appLock.locked) uncover();
  };
  doc.addEventListener('visibilitychange', note);
  // A page closed while shown and open (a reload) counts from then; one closed in the background counts from when it
  // was hidden (the system may end it long after), and a locked one from before.
  addEventListener('pagehide', () => {
    if (doc.visibilityState === 'hidden' || appLock.locked || !lockRecord()) return;
    localStorage.setItem(HIDDEN_AT, String(now()));
  });
}
