// Keeps the first screen's hint (first-screen-pick.ts) in step with the stores it summarises: the language, theme and
// price colour choices and whether a session is kept. The HTML's picking script reads it before IndexedDB can be.
// Beside it, the language the app starts in goes in a cookie (LOCALE_COOKIE): the server then sends a navigation that
// language's first screens alone (src/server/http/first-document.ts).
import { subscribe } from 'valtio/vanilla';
import { localeCookie } from '../api-contract/first-data.ts';
import { FIRST_SCREEN_HINT_KEY, type FirstScreenHint } from './first-screen-pick.ts';
import { localeChoice, pickLocale } from './i18n.ts';
import { session } from './session.ts';
import { themeChoice } from './theme.ts';
import { priceColorsChoice } from './price-colors.ts';

/** Writes the hint and the cookie now (the stores are loaded) and again when the language, theme or session changes. */
export function keepFirstScreenHint(
  storage: Pick<Storage, 'setItem'> = localStorage,
  setCookie: (cookie: string) => void = (cookie) => (document.cookie = cookie),
): void {
  const write = () => {
    const hint: FirstScreenHint = {
      locale: localeChoice.locale,
      signedIn: Boolean(session.token),
      theme: themeChoice.theme,
      ...(priceColorsChoice.colors ? { priceColors: priceColorsChoice.colors } : {}),
    };
    try {
      storage.setItem(FIRST_SCREEN_HINT_KEY, JSON.stringify(hint));
    } catch {
      // Storage full or refused: the next start shows the brand's shell instead of a screen.
    }
    setCookie(localeCookie(pickLocale(localeChoice.locale, navigator.languages), location.protocol === 'https:'));
  };
  write();
  subscribe(localeChoice, write);
  subscribe(session, write);
  subscribe(themeChoice, write);
  subscribe(priceColorsChoice, write);
}
