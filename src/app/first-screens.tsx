// The first screens as HTML, rendered at build time (src/build/first-screens.ts builds this module for
// Node and calls it once per language). Each is the app's own markup for that start: the shell's frame,
// the tab bar and the page itself, rendered with the page's real component while nothing is loaded yet
// (no prices, no balances), so the app's first render draws the same frame over it. Home's and Markets' screens are
// rendered again by the server for a browser's navigation, with the slides and coins it has then (renderDataScreens),
// so their largest paint comes with the HTML too; the app's first render shows the same data. The screens are
// inert: a tap or a typed letter before the app takes over would be lost, so none is taken; and hidden from
// assistive technology, which would otherwise announce a form that cannot be used yet.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { i18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { ROUTES } from '../api-contract/routes.ts';
import type { Locale } from '../api-contract/constants.ts';
import type { FirstData } from '../api-contract/first-data.ts';
import { session } from '../lib/session.ts';
import { prices } from '../lib/prices.ts';
import { FIRST_SCREENS, firstScreenId } from '../lib/first-screen-pick.ts';
import { home } from '../features/home/home-store.ts';
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
  return FIRST_SCREENS.map((_, index) => renderScreen(index));
}

/** The screens that show the server's data (Home's slides and coins, Markets' coins), by their index. */
const DATA_SCREENS = FIRST_SCREENS.flatMap(({ path }, index) =>
  path === ROUTES.home || path === ROUTES.coinList ? [index] : [],
);

/**
 * Home's and Markets' screens in `locale` with `data` in them, each with the id of the <template> it takes the place
 * of. The stores are put back as they were: a render leaves nothing behind for the next.
 */
export function renderDataScreens(locale: Locale, data: FirstData): { id: string; html: string }[] {
  activate(locale);
  const before = { codes: prices.codes, quotes: prices.quotes, slides: home.slides, lang: home.lang };
  prices.codes = data.coins.map((quote) => quote.code);
  prices.quotes = Object.fromEntries(data.coins.map((quote) => [quote.code, quote]));
  home.slides = data.slides[locale] ?? [];
  home.lang = locale;
  try {
    return DATA_SCREENS.map((index) => ({ id: firstScreenId(locale, index), html: renderScreen(index) }));
  } finally {
    Object.assign(prices, { codes: before.codes, quotes: before.quotes });
    Object.assign(home, { slides: before.slides, lang: before.lang });
  }
}

/** One screen of FIRST_SCREENS in the active language, with what the stores hold. */
function renderScreen(index: number): string {
  const { path, signedIn } = FIRST_SCREENS[index]!;
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
