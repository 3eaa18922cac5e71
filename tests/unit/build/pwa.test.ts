// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pwa } from '../../../src/build/pwa.ts';

describe('pwa (src/build/pwa.ts)', () => {
  it("is vite-plugin-pwa's plugins, the worker built from sw/sw.ts", () => {
    const names = pwa().map((plugin) => plugin.name);
    expect(names).toContain('vite-plugin-pwa');
    expect(names.every((name) => name.startsWith('vite-plugin-pwa'))).toBe(true);
  });
});
