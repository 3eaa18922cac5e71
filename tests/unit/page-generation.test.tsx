// @vitest-environment jsdom
// Lie-fi: the shell loads a page again when the network's late answer to a read it shows from the cache arrives,
// never under a customer who has acted on it (an open confirmation would vanish, a choice be undone).
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { usePageGeneration } from '../../src/app/use-page-generation.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { mountPoint } from './helpers.ts';

const mount = mountPoint();
const shown: number[] = [];

function Shell({ path }: { path: string }) {
  shown.push(usePageGeneration(path));
  return null;
}

// valtio tells its subscribers after the current task's microtasks: an async act waits for them and the render.
const lateAnswer = () =>
  act(async () => {
    offlineData.refreshes += 1;
    await Promise.resolve();
  });
const generation = () => shown.at(-1);

beforeEach(() => {
  shown.length = 0;
  act(() => mount.root.render(<Shell path="/pages/mine/setting/devices" />));
});

describe('usePageGeneration', () => {
  it('loads the page again when a late answer arrives and nobody has acted on it', async () => {
    expect(generation()).toBe(0);
    await lateAnswer();
    expect(generation()).toBe(1);
    await lateAnswer();
    expect(generation()).toBe(2);
  });

  it.each([
    ['a tap (pointerdown)', () => new PointerEvent('pointerdown', { bubbles: true })],
    ['a key', () => new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })],
    ['typing', () => new Event('input', { bubbles: true })],
  ])('keeps the page after %s on it', async (_name, event) => {
    act(() => void mount.container.dispatchEvent(event()));
    await lateAnswer();
    expect(generation()).toBe(0);
  });

  it('a page shown afresh (another path) may be loaded again until it is acted on', async () => {
    act(() => void mount.container.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
    act(() => mount.root.render(<Shell path="/pages/mine/setting" />));
    await lateAnswer();
    expect(generation()).toBe(1);
    act(() => void mount.container.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
    await lateAnswer();
    expect(generation()).toBe(1);
  });
});
