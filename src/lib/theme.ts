// The colour theme: Settings' choice (Light, Dark or System) kept on the device like the language choice, and the
// theme the page paints in now. A choice of System follows the device as it changes (a phone that turns dark at
// sunset). index.html's picking script applied it before the first paint; this keeps it applied.
import { proxy, subscribe } from 'valtio/vanilla';
import { persistedStore } from './storage.ts';
import { DARK_QUERY, THEME_KEY, applyTheme, resolveTheme, type Theme, type ThemeChoice } from './theme-pick.ts';

export type { Theme, ThemeChoice };

/** The stored choice; System until the user picks one. */
export const themeChoice = persistedStore(THEME_KEY, { theme: 'system' as ThemeChoice });

/** The theme painted now (canvas drawings, which no style sheet reaches, read it). */
export const appearance = proxy({ theme: 'light' as Theme });

/** What keepTheme reads of the device's preference: a MediaQueryList of DARK_QUERY. */
export interface DarkPreference {
  readonly matches: boolean;
  addEventListener(type: 'change', listener: () => void): void;
}

/** Applies the theme now (the stores are loaded) and again when the choice or the device's preference changes. */
export function keepTheme(media: DarkPreference = matchMedia(DARK_QUERY)): void {
  const apply = () => {
    appearance.theme = resolveTheme(themeChoice.theme, media.matches);
    applyTheme(document.documentElement, appearance.theme);
  };
  apply();
  subscribe(themeChoice, apply);
  media.addEventListener('change', apply);
}

/** Stores a choice; the page changes theme at once (no reload). */
export function chooseTheme(choice: ThemeChoice): void {
  themeChoice.theme = choice;
}
