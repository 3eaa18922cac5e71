// A route chunk missing after a deploy reloads the page into the new build once, never in a loop.
import { expect, it } from 'vitest';
import { reloadForMissingChunk, type ReloadPlace } from '../../src/lib/chunk-reload.ts';

function place(now: number, online = true, kept = new Map<string, string>()) {
  const reloads: number[] = [];
  const at: ReloadPlace = {
    storage: { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => void kept.set(key, value) },
    online,
    now,
    reload: () => reloads.push(now),
  };
  return { at, reloads, kept };
}

it('reloads once, and a second failure right after shows the error screen instead', () => {
  const first = place(1_000_000);
  expect(reloadForMissingChunk(first.at)).toBe(true);
  expect(first.reloads).toHaveLength(1);
  // After the reload (same tab, same session storage) the chunk fails again: no second reload.
  const second = place(1_005_000, true, first.kept);
  expect(reloadForMissingChunk(second.at)).toBe(false);
  expect(second.reloads).toHaveLength(0);
  // Much later (another deploy), a reload may help again.
  const later = place(1_000_000 + 61_000, true, first.kept);
  expect(reloadForMissingChunk(later.at)).toBe(true);
});

it('offline or without storage it never reloads (the new build cannot arrive; no loop)', () => {
  expect(reloadForMissingChunk(place(1, false).at)).toBe(false);
  const noStorage = { ...place(1).at, storage: null };
  expect(reloadForMissingChunk(noStorage)).toBe(false);
});
