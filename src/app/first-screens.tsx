// The first screens as HTML, rendered at build time (src/build/first-screens.ts builds this module for
// Node and calls it once per language). Each is the app's own markup for that start: the shell's frame,
// the tab bar and the page itself, rendered with the page's real component while nothing is loaded yet
// (no prices, no balances), so the app's first render draws the same frame over it. The screens are
// inert: a tap or a typed letter before the app takes over would be lost, so none is taken; and hidden from
// assistive technology, which would otherwise announce a form that cannot be used yet.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { i18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { ROUTES } from '../contract/routes.ts';
import { session } from '../lib/session.ts';
import { FIRST_SCREENS } from '../lib/first-screen-pick.ts';
import { isTabPage } from './routes.ts';
import { TabBar } from './TabBar.tsx';
import { LoadFailed } from './LoadFailed.tsx';
import HomePage from '../features/home/HomePage.tsx';
import CoinListPage from '../features/markets/CoinListPage.tsx';
import OptionPage from '../features/options/OptionPage.tsx';
import LockupPage from '../features/lockup/LockupPage.tsx';
import MinePage from '../features/profile/MinePage.tsx';
import LoginPage from '../features/account/LoginPage.tsx';

/** Each screen's page, by route. */
const PAGES: Record<string, ComponentType> = {
  [ROUTES.home]: HomePage,
  [ROUTES.coinList]: CoinListPage,
  [ROUTES.option]: OptionPage,
  [ROUTES.lockUp]: LockupPage,
  [ROUTES.mine]: MinePage,
  [ROUTES.login]: LoginPage,
};

/** Activates `locale`'s catalog for the renders that follow. */
function activate(locale: string) {
  const catalog = catalogs[`../locales/${locale}/messages.po`];
  if (!catalog) throw new Error(`first screens: no catalog for ${locale}`);
  i18n.loadAndActivate({ locale, messages: catalog.messages });
}

const catalogs = import.meta.glob<{ messages: Messages }>('../locales/*/messages.po', { eager: true });

/** The HTML of every screen of FIRST_SCREENS in `locale`, in that order. */
export function renderFirstScreens(locale: string): string[] {
  activate(locale);
  return FIRST_SCREENS.map(({ path, signedIn }) => {
    const Page = PAGES[path];
    if (!Page) throw new Error(`first screens: no page for ${path}`);
    // A session with no user behind it: the page draws its signed-in frame, and no call is made while rendering.
    session.token = signedIn ? 'first-screen' : null;
    const withTabs = isTabPage(path);
    return renderToString(
      <I18nProvider i18n={i18n}>
        <Router hook={() => [path, () => {}]} searchHook={() => ''} hrefs={(href) => `#${href}`}>
          <div className="app" inert aria-hidden="true">
            <main className={withTabs ? 'app-main with-tabs' : 'app-main'}>
              <Page />
            </main>
            {withTabs && <TabBar current={path} />}
          </div>
        </Router>
      </I18nProvider>,
    );
  });
}

/** What a start whose code failed to arrive shows in `locale` (first-screen-boot.ts gives its button a click). */
export function renderStartFailed(locale: string): string {
  activate(locale);
  return renderToString(
    <I18nProvider i18n={i18n}>
      <div className="app">
        <main className="app-main">
          <LoadFailed />
        </main>
      </div>
    </I18nProvider>,
  );
}
