// Which first screen the HTML shows before any of the app's code has arrived. The build renders the
// tab pages' and the login page's first screens in every language into index.html (src/build/first-screens.ts);
// a small script inside the page picks one from the route in the hash, the language the app would start in,
// and whether this device is signed in, then puts it in #root. The app replaces it with the same frame
// when it renders. This module is that script's whole logic: it runs before the stores (IndexedDB, read
// asynchronously) are loaded, so the app keeps a synchronous hint of them in localStorage.
import type { Locale } from '../api-contract/constants.ts';
import { PUBLIC_ROUTES, ROUTES } from '../api-contract/routes.ts';
import { pickLocale } from './locale-pick.ts';
import type { ThemeChoice } from './theme-pick.ts';
import type { PriceColors } from './price-colors-pick.ts';

/** The localStorage key of the hint: the stored language and theme choices and whether a session is kept. */
export const FIRST_SCREEN_HINT_KEY = 'coinvest.first-screen';

export interface FirstScreenHint {
  locale: Locale | null;
  signedIn: boolean;
  /** The theme choice (absent in a hint from a build before themes: System). */
  theme?: ThemeChoice;
  /** The price colours chosen in Settings (absent until the customer chooses: the language's convention). */
  priceColors?: PriceColors;
}

/**
 * The screens in the HTML: each tab page as a signed-in device opens it, the public ones also signed out, and login.
 */
export const FIRST_SCREENS = [
  { path: ROUTES.home, signedIn: true },
  { path: ROUTES.coinList, signedIn: true },
  { path: ROUTES.option, signedIn: true },
  { path: ROUTES.lockUp, signedIn: true },
  { path: ROUTES.lockUp, signedIn: false },
  { path: ROUTES.mine, signedIn: true },
  { path: ROUTES.mine, signedIn: false },
  { path: ROUTES.login, signedIn: false },
] as const;

// The templates' ids are shared with the server, which sends a navigation one language's templates (first-data.ts).
export { firstScreenId, startFailedId } from '../api-contract/first-data.ts';

/**
 * What index.html's boot script marks on <html> (as `data-start-failed`) and sends to `document` as an event when the
 * app's entry failed to load or to run: the picking script then reloads once, or shows the start-failed template.
 */
export const START_FAILED = 'start-failed';

/**
 * How long a start waits for the app's code before it says the page could not load, with a button to try again:
 * a request that neither arrives nor fails (a link that went silent) would otherwise leave the inert screen for good.
 * The load goes on meanwhile, and the app takes the screen over if its code still arrives. On the slow 4G profile the
 * code arrives in about 2 s; 30 s is well past any link that still moves.
 */
export const START_WAIT_MS = 30_000;

/**
 * The screen for this start, or null for the brand's static shell. With no hint, a page no service worker
 * controls is a first visit (signed out); a controlled one is a device whose app kept no hint yet (a build
 * from before the hint): whether it is signed in is unknown, so it shows no screen rather than a wrong one.
 */
export function pickFirstScreen(
  hash: string,
  hint: FirstScreenHint | null,
  browserLanguages: readonly string[],
  controlled: boolean,
): { locale: Locale; index: number } | null {
  if (!hint && controlled) return null;
  const path = hash.replace(/^#\/?/, '/').split('?')[0];
  const page = path === '/' || path === '' ? ROUTES.home : path;
  const signedIn = hint?.signedIn ?? false;
  // A page behind the login opens the login page on a device that is signed out (an unknown route, not found).
  const known = (Object.values(ROUTES) as string[]).includes(page);
  const shown = known && !signedIn && !PUBLIC_ROUTES.includes(page) ? ROUTES.login : page;
  const index = FIRST_SCREENS.findIndex(
    (screen) => screen.path === shown && (screen.path === ROUTES.login || screen.signedIn === signedIn),
  );
  return index < 0 ? null : { locale: pickLocale(hint?.locale ?? null, browserLanguages), index };
}

/** Reads the hint; anything unreadable counts as none. */
export function readFirstScreenHint(storage: Pick<Storage, 'getItem'>): FirstScreenHint | null {
  try {
    const hint = JSON.parse(storage.getItem(FIRST_SCREEN_HINT_KEY) ?? 'null') as FirstScreenHint | null;
    return hint && typeof hint === 'object' ? hint : null;
  } catch {
    return null;
  }
}
