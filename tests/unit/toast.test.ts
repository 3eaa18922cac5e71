// Toasts stay up long enough to be read: the product's 1.5 s for a short text, longer for a long one (the offline
// text was gone before a customer could read it), never longer than a toast should be.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import { TOAST_MS } from '../../src/api-contract/constants.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { TOAST_MAX_MS, toast, toastDuration, toasts } from '../../src/lib/toast.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  toasts.current = null;
});

/** How long `text` stayed up, to the 100 ms. */
function shownFor(text: string, ms?: number): number {
  toast(text, ms);
  let elapsed = 0;
  while (toasts.current?.text === text) {
    vi.advanceTimersByTime(100);
    elapsed += 100;
  }
  return elapsed;
}

it('keeps a short text up for the default 1.5 s', () => {
  expect(shownFor('Copied')).toBe(TOAST_MS);
  expect(shownFor('+5 points')).toBe(1600); // 1,540 ms: nine characters
});

it('keeps a longer text up as long as a slow reader needs: 1 s and 60 ms a character', () => {
  const offline = i18n._(texts.offline);
  expect(offline.length).toBeGreaterThan(30);
  expect(shownFor(offline)).toBe(Math.ceil((1000 + 60 * offline.length) / 100) * 100);
  expect(shownFor(offline)).toBeGreaterThan(3000);
  // A time asked for stays the least.
  expect(shownFor('Market order accepted', 4000)).toBe(4000);
  // At most 8 s, however long.
  expect(shownFor('x'.repeat(500))).toBe(TOAST_MAX_MS);
});

it('counts characters as a reader sees them: a Thai syllable or a Devanagari conjunct once', () => {
  expect(toastDuration('ที่'.repeat(20))).toBe(1000 + 60 * 20);
  expect(toastDuration('क्ष'.repeat(20))).toBe(1000 + 60 * 20);
});

it('a newer toast replaces the one showing, and the older one’s timer leaves it alone', () => {
  toast('A first text that is long enough to stay up a while');
  vi.advanceTimersByTime(1000);
  toast('Second');
  vi.advanceTimersByTime(1400);
  expect(toasts.current?.text).toBe('Second');
  vi.advanceTimersByTime(100);
  expect(toasts.current).toBeNull();
});
