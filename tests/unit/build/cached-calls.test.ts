// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cachedCalls } from '../../../src/build/cached-calls.ts';
import { hook } from './helpers.ts';

describe('cachedCalls (src/build/cached-calls.ts)', () => {
  it("answers `virtual:cached-calls` with the two lists read from the API contract's endpoints", async () => {
    const plugin = cachedCalls();
    hook(plugin.configResolved)({ root: process.cwd() });
    const id = hook(plugin.resolveId)('virtual:cached-calls');
    expect(id).toBe('\0virtual:cached-calls');
    expect(hook(plugin.resolveId)('other')).toBeNull();
    const watched: string[] = [];
    const code: string = await hook(plugin.load).call({ addWatchFile: (file: string) => watched.push(file) }, id);
    const lists = Object.fromEntries(
      [...code.matchAll(/export const (\w+) = (.*);/g)].map(([, name, json]) => [name, JSON.parse(json!)]),
    );
    expect(Object.keys(lists)).toEqual(['PUBLIC_PATHS', 'USER_CALLS']);
    expect(lists.PUBLIC_PATHS.length).toBeGreaterThan(0);
    expect(lists.USER_CALLS.length).toBeGreaterThan(0);
    expect(watched.some((file) => file.endsWith('registry.ts'))).toBe(true);
  }, 60_000);
});
