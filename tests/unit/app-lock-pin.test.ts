// @vitest-environment jsdom
// The app PIN: stored only as a PBKDF2-SHA-256 hash (random 16-byte salt, 600,000 iterations), typed in any of the
// scripts the app reads; five wrong PINs in a row remove the lock and ask for the sign-out, and the count is kept in
// the device's storage (a reload does not reset it). When the app must open locked.
import { beforeEach, describe, expect, it } from 'vitest';
import { lockDue, rawLockRecord, saveLockRecord, type AppLockRecord } from '../../src/lib/app-lock.ts';
import { PIN_ITERATIONS, PIN_MAX_FAILURES, hashPin, pinMatches, pinOf, tryPin } from '../../src/lib/app-lock-pin.ts';

const USER = 7;
/** A few iterations keep the attempt-counting tests fast; the stored count says how many to use. */
const FAST = 1_000;

beforeEach(() => localStorage.clear());

describe('the PIN', () => {
  it('reads 6 digits of every script the app accepts, and nothing else', () => {
    expect(pinOf('123456')).toBe('123456');
    expect(pinOf('๑๒๓๔๕๖')).toBe('123456'); // Thai
    expect(pinOf('١٢٣٤٥٦')).toBe('123456'); // Arabic-Indic
    expect(pinOf('۱۲۳۴۵۶')).toBe('123456'); // Extended Arabic-Indic
    expect(pinOf('१२३४५६')).toBe('123456'); // Devanagari
    expect(pinOf('１２３４５６')).toBe('123456'); // full-width
    for (const wrong of ['12345', '1234567', '12a456', '', '12345x']) expect(pinOf(wrong)).toBeNull();
  });

  it('is kept as a 600,000-iteration PBKDF2-SHA-256 hash with a fresh 16-byte salt, never as typed', async () => {
    const stored = await hashPin('123456');
    expect(stored.iterations).toBe(PIN_ITERATIONS);
    expect(PIN_ITERATIONS).toBe(600_000);
    expect(atob(stored.salt)).toHaveLength(16);
    expect(atob(stored.hash)).toHaveLength(32);
    expect(JSON.stringify(stored)).not.toContain('123456');
    // The same derivation by hand.
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('123456'), 'PBKDF2', false, [
      'deriveBits',
    ]);
    const salt = Uint8Array.from(atob(stored.salt), (c) => c.charCodeAt(0));
    const bits = new Uint8Array(
      await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 600_000 }, key, 256),
    );
    expect(btoa(String.fromCharCode(...bits))).toBe(stored.hash);
    expect(await pinMatches('123456', stored)).toBe(true);
    expect(await pinMatches('123457', stored)).toBe(false);
    // Another salt each time: the same PIN never stores the same.
    expect((await hashPin('123456', FAST)).salt).not.toBe((await hashPin('123456', FAST)).salt);
  });
});

describe('wrong PINs', () => {
  const lockWith = async (pin: string): Promise<AppLockRecord> => {
    const record: AppLockRecord = { minutes: 5, pin: await hashPin(pin, FAST), passkey: null, failures: 0 };
    saveLockRecord(USER, record);
    return record;
  };

  it('are counted in storage; the right one starts the count again', async () => {
    await lockWith('246810');
    expect(await tryPin(USER, '000000')).toEqual({ kind: 'wrong', left: 4 });
    expect(await tryPin(USER, '12')).toEqual({ kind: 'wrong', left: 3 });
    expect(rawLockRecord(USER).failures).toBe(2);
    expect(await tryPin(USER, '٢٤٦٨١٠')).toEqual({ kind: 'open' });
    expect(rawLockRecord(USER).failures).toBe(0);
  });

  it('five in a row remove the lock and sign out, the count surviving a reload', async () => {
    await lockWith('246810');
    for (let i = 1; i < PIN_MAX_FAILURES; i++) {
      expect(await tryPin(USER, '111111')).toEqual({ kind: 'wrong', left: PIN_MAX_FAILURES - i });
    }
    // A reload: only what is in localStorage is left.
    expect(JSON.parse(localStorage.getItem(`coinvest.app-lock.${USER}`)!).failures).toBe(4);
    expect(await tryPin(USER, '111111')).toEqual({ kind: 'signOut' });
    expect(localStorage.getItem(`coinvest.app-lock.${USER}`)).toBeNull();
    // Even the right PIN opens nothing now.
    expect(await tryPin(USER, '246810')).toEqual({ kind: 'signOut' });
  });

  it("are one account's only", async () => {
    await lockWith('246810');
    saveLockRecord(USER + 1, { minutes: 1, pin: await hashPin('135790', FAST), passkey: null, failures: 0 });
    await tryPin(USER, '999999');
    expect(rawLockRecord(USER + 1).failures).toBe(0);
    expect(await tryPin(USER + 1, '246810')).toEqual({ kind: 'wrong', left: 4 });
  });
});

describe('when the app opens locked', () => {
  const record: AppLockRecord = { minutes: 5, pin: { salt: '', hash: '', iterations: 1 }, passkey: null, failures: 0 };
  it('after the chosen time hidden, not before; a clock set back or no moment kept locks too; no lock, never', () => {
    const hidden = 1_000_000;
    expect(lockDue(record, hidden, hidden + 5 * 60_000 - 1)).toBe(false);
    expect(lockDue(record, hidden, hidden + 5 * 60_000)).toBe(true);
    expect(lockDue(record, hidden, hidden - 1)).toBe(true);
    expect(lockDue(record, null, hidden)).toBe(true);
    expect(lockDue(null, hidden, hidden + 3_600_000)).toBe(false);
  });
});
