// Which colour theme a page paints in: the device's (prefers-color-scheme) unless Settings holds a choice of
// Light or Dark. Apart from theme.ts so index.html's picking script (src/app/first-screen-boot.ts) can apply it
// before the first paint, from the first screen's hint in localStorage, long before the stores load.

/** What Settings offers: follow the device, or always one theme. */
export type ThemeChoice = 'system' | 'light' | 'dark';
/** The theme a page paints in; `<html data-theme>` holds it and the style sheets key on it. */
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
/** The IndexedDB key of the theme choice (storage.ts), beside the language choice's. */
export const THEME_KEY = 'theme';
/** The media query of a device set to dark. */
export const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The browser's bar (`<meta name="theme-color">`) per theme: the brand colour over a light page (as the app's bar),
 * the dark page's bar colour over a dark one. index.html's two media variants carry the same values.
 */
export const BAR_COLORS: Record<Theme, string> = { light: '#00bbfe', dark: '#161d26' };

/** The theme for a choice (anything else counts as System) on a device that does or does not prefer dark. */
export const resolveTheme = (choice: unknown, prefersDark: boolean): Theme =>
  choice === 'light' || choice === 'dark' ? choice : prefersDark ? 'dark' : 'light';

/**
 * Marks `<html>` with the theme and gives the browser's bar its colour. Both theme-color variants get the theme's
 * colour: with a choice of Light on a dark device, the dark variant is the one the browser uses.
 */
export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.dataset.theme = theme;
  for (const meta of root.ownerDocument.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]'))
    meta.content = BAR_COLORS[theme];
}
