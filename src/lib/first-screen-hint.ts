// Keeps the first screen's hint (first-screen-pick.ts) in step with the stores it summarises: the language
// choice and whether a session is kept. The HTML's picking script reads it before IndexedDB can be.
import { subscribe } from 'valtio/vanilla';
import { FIRST_SCREEN_HINT_KEY, type FirstScreenHint } from './first-screen-pick.ts';
import { localeChoice } from './i18n.ts';
import { session } from './session.ts';

/** Writes the hint now (the stores are loaded) and again whenever the language or the session changes. */
export function keepFirstScreenHint(storage: Pick<Storage, 'setItem'> = localStorage): void {
  const write = () => {
    const hint: FirstScreenHint = { locale: localeChoice.locale, signedIn: Boolean(session.token) };
    try {
      storage.setItem(FIRST_SCREEN_HINT_KEY, JSON.stringify(hint));
    } catch {
      // Storage full or refused: the next start shows the brand's shell instead of a screen.
    }
  };
  write();
  subscribe(localeChoice, write);
  subscribe(session, write);
}
