// The first screens the build writes into the HTML (src/build/first-screen.ts): the shell and a start page as the
// app's first render shows them before any answer has come — the page's frame, with its placeholders where data goes,
// the header and the tab bar, or the login form. The same components, rendered by React's server renderer in the
// build's Node process (a DOM stand-in in place of the browser's); the app never imports this file.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { Locale } from '../contract/constants.ts';
import { activateLocale } from '../lib/i18n.ts';
import { session } from '../lib/session.ts';
import { App } from './App.tsx';
import { PAGES } from './routes.ts';

/** A token that is never sent: a signed-in first screen only needs to know that there is one. */
const SIGNED_IN = 'first-screen';

/** The markup the app renders into #root at `path` in `locale`, signed in or not, with no data yet. */
export async function renderFirstScreen(locale: Locale, path: string, signedIn: boolean): Promise<string> {
  const page = PAGES[path];
  if (!page) throw new Error(`No page at ${path}`);
  location.hash = `#${path}`;
  await activateLocale(locale);
  await page.load();
  session.token = signedIn ? SIGNED_IN : null;
  return renderToString(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
