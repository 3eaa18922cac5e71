// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { BAR_COLORS, applyTheme, resolveTheme } from '../../src/lib/theme-pick.ts';
import { appearance, chooseTheme, keepTheme, themeChoice } from '../../src/lib/theme.ts';

/** A device preference that the test turns, as a phone's settings would. */
function fakeDevice(dark: boolean) {
  const listeners: (() => void)[] = [];
  return {
    matches: dark,
    addEventListener: (_type: string, listener: () => void) => void listeners.push(listener),
    turn(next: boolean) {
      this.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

function addBarMetas() {
  document.head.innerHTML = `
    <meta name="theme-color" content="${BAR_COLORS.light}" media="(prefers-color-scheme: light)">
    <meta name="theme-color" content="${BAR_COLORS.dark}" media="(prefers-color-scheme: dark)">`;
}
const barColors = () =>
  [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content);

describe('the theme a page paints in (resolveTheme, applyTheme)', () => {
  it('follows the device unless Light or Dark was chosen; anything unknown counts as System', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    for (const unknown of [undefined, null, 'sepia', 7])
      expect(resolveTheme(unknown, true), String(unknown)).toBe('dark');
  });

  it('marks <html> and gives both variants of the browser bar the painted theme’s colour', () => {
    addBarMetas();
    applyTheme(document.documentElement, 'dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(barColors()).toEqual([BAR_COLORS.dark, BAR_COLORS.dark]);
    applyTheme(document.documentElement, 'light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(barColors()).toEqual([BAR_COLORS.light, BAR_COLORS.light]);
  });
});

describe('keeping the theme applied (keepTheme, chooseTheme)', () => {
  it('follows the device while the choice is System, holds a chosen theme, and follows again on System', async () => {
    addBarMetas();
    themeChoice.theme = 'system';
    const device = fakeDevice(false);
    keepTheme(device);
    expect(document.documentElement.dataset.theme).toBe('light');
    device.turn(true);
    expect(appearance.theme).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(barColors()).toEqual([BAR_COLORS.dark, BAR_COLORS.dark]);

    chooseTheme('light');
    await expect.poll(() => document.documentElement.dataset.theme).toBe('light');
    // A chosen theme stays whatever the device does.
    device.turn(false);
    device.turn(true);
    expect(appearance.theme).toBe('light');
    chooseTheme('system');
    await expect.poll(() => appearance.theme).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});
