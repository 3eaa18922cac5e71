// The route table: which page each hash route opens, the tab bar, and which routes need a login.
// Paths are declared in api-contract/routes.ts; a page of a later area is added here when it exists.
import { createElement, lazy, useState, type ComponentType } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { PAGE_LOAD_TIMEOUT_MS } from '../api-contract/constants.ts';
import { browserReloadPlace, reloadForMissingChunk } from '../lib/chunk-reload.ts';
import { loadAreaMessages, startAreaMessages } from '../lib/i18n.ts';
import type { Locale } from '../api-contract/constants.ts';
import { prefetch } from '../lib/api.ts';
import { config, slides } from '../api-contract/content.ts';
import { PUBLIC_ROUTES, ROUTES } from '../api-contract/routes.ts';
import { whenCodeCanArrive } from '../lib/code-reach.ts';
import { HomeIcon, MarketsIcon, MineIcon, MiningIcon, OptionsIcon } from '../ui/tab-icons.tsx';

/** A page's module; `prepare` starts what its first render needs, when the app starts on it. */
type PageModule = { default: ComponentType; prepare?: () => void };
export type Page = ComponentType & {
  /** The product area: its folder in src/features, and its part of the texts. */
  area: string;
  loadCode: () => Promise<PageModule>;
  /** The code and the area's texts (the language must be active); `loaded` once both are in. */
  load: () => Promise<PageModule>;
  loaded: () => ComponentType | null;
};

/**
 * A page of a product area (its folder in src/features) arrives with the area's texts.
 * A page chunk that has not arrived after 120 s (PAGE_LOAD_TIMEOUT_MS) fails, and the error screen offers a retry. A
 * chunk that fails at once (gone after a deploy) first reloads the page into the new build, once.
 * `loadCode` starts the chunk's download before the page renders (startPage); the render then
 * waits for the same download. One that failed is asked for again. A page already loaded renders
 * as itself (`loaded`), without passing through the loading screen.
 * React keeps a lazy component's failure for good, so each showing of the page takes the lazy component of the moment,
 * and one that failed (a tab opened offline) is made anew for the next showing: back online, the tab opened again
 * shows its page, not the load-failed screen until the app is reloaded. A showing keeps its own, so a failure is shown
 * once, not asked for again and again while offline. Offline, code the service worker may not hold is not asked for
 * at all (whenCodeCanArrive): the browser would keep that failure for the document's life.
 */
const page = (area: string, loadModule: () => Promise<PageModule>): Page => {
  let code: Promise<PageModule> | null = null;
  let ready: ComponentType | null = null;
  const loadCode = () => {
    if (!code) (code = whenCodeCanArrive().then(loadModule)).catch(() => (code = null));
    return code;
  };
  const load = () =>
    Promise.all([loadCode(), whenCodeCanArrive().then(() => loadAreaMessages(area))]).then(([module]) => {
      ready = module.default;
      return module;
    });
  const lazyPage = () => {
    const made = lazy(() =>
      Promise.race([
        load().catch((error: unknown) => {
          if (reloadForMissingChunk(browserReloadPlace())) return new Promise<never>(() => {}); // the page is going away
          throw error;
        }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('page load timeout')), PAGE_LOAD_TIMEOUT_MS),
        ),
      ]).catch((error: unknown) => {
        if (current === made) current = lazyPage();
        throw error;
      }),
    );
    return made;
  };
  let current = lazyPage();
  function PageShowing() {
    const [Shown] = useState(() => current);
    return createElement(Shown);
  }
  return Object.assign(PageShowing, { area, loadCode, load, loaded: () => ready });
};

export const PAGES: Partial<Record<string, Page>> = {
  [ROUTES.home]: page('home', () => import('../features/home/HomePage.tsx')),
  [ROUTES.messages]: page('messages', () => import('../features/messages/MessagesPage.tsx')),
  [ROUTES.login]: page('account', () => import('../features/account/LoginPage.tsx')),
  [ROUTES.register]: page('account', () => import('../features/account/RegisterPage.tsx')),
  [ROUTES.forgotPassword]: page('account', () => import('../features/account/ForgotPasswordPage.tsx')),
  [ROUTES.coinList]: page('markets', () => import('../features/markets/CoinListPage.tsx')),
  [ROUTES.coinDetail]: page('markets', () => import('../features/markets/CoinDetailPage.tsx')),
  [ROUTES.option]: page('options', () => import('../features/options/OptionPage.tsx')),
  [ROUTES.optionRecord]: page('options', () => import('../features/options/OrderRecordPage.tsx')),
  [ROUTES.optionRule]: page('options', () => import('../features/options/OptionRulePage.tsx')),
  [ROUTES.mine]: page('profile', () => import('../features/profile/MinePage.tsx')),
  [ROUTES.settings]: page('profile', () => import('../features/profile/SettingsPage.tsx')),
  [ROUTES.devices]: page('sessions', () => import('../features/sessions/SessionsPage.tsx')),
  [ROUTES.liabilities]: page('liabilities', () => import('../features/liabilities/LiabilitiesPage.tsx')),
  [ROUTES.closeAccount]: page('closure', () => import('../features/closure/ClosurePage.tsx')),
  [ROUTES.twoFactor]: page('two-factor', () => import('../features/two-factor/TwoFactorPage.tsx')),
  [ROUTES.passkeys]: page('passkeys', () => import('../features/passkeys/PasskeysPage.tsx')),
  [ROUTES.antiPhishing]: page('anti-phishing', () => import('../features/anti-phishing/AntiPhishingPage.tsx')),
  [ROUTES.protection]: page('protection', () => import('../features/protection/ProtectionPage.tsx')),
  [ROUTES.priceAlerts]: page('price-alerts', () => import('../features/price-alerts/PriceAlertsPage.tsx')),
  [ROUTES.avatar]: page('profile', () => import('../features/profile/AvatarPage.tsx')),
  [ROUTES.nickname]: page('profile', () => import('../features/profile/NicknamePage.tsx')),
  [ROUTES.phone]: page('profile', () => import('../features/profile/PhonePage.tsx')),
  [ROUTES.password]: page('profile', () => import('../features/profile/PasswordPage.tsx')),
  [ROUTES.tradePassword]: page('profile', () => import('../features/profile/TradePasswordPage.tsx')),
  [ROUTES.payPassword]: page('profile', () => import('../features/profile/PayPasswordResetPage.tsx')),
  [ROUTES.currency]: page('profile', () => import('../features/profile/CurrencyPage.tsx')),
  [ROUTES.recharge]: page('funds', () => import('../features/funds/RechargePage.tsx')),
  [ROUTES.rechargeQr]: page('funds', () => import('../features/funds/RechargeQrPage.tsx')),
  [ROUTES.rechargeBank]: page('funds', () => import('../features/funds/RechargeBankPage.tsx')),
  [ROUTES.rechargeRecord]: page('funds', () => import('../features/funds/RechargeRecordPage.tsx')),
  [ROUTES.rechargeDetails]: page('funds', () => import('../features/funds/RechargeDetailsPage.tsx')),
  [ROUTES.withdraw]: page('funds', () => import('../features/funds/WithdrawPage.tsx')),
  [ROUTES.withdrawRecord]: page('funds', () => import('../features/funds/WithdrawRecordPage.tsx')),
  [ROUTES.withdrawDetails]: page('funds', () => import('../features/funds/WithdrawDetailsPage.tsx')),
  [ROUTES.accountDetails]: page('funds', () => import('../features/funds/AccountDetailsPage.tsx')),
  [ROUTES.bankCard]: page('payouts', () => import('../features/payouts/BankCardPage.tsx')),
  [ROUTES.walletList]: page('payouts', () => import('../features/payouts/WalletListPage.tsx')),
  [ROUTES.addWallet]: page('payouts', () => import('../features/payouts/AddWalletPage.tsx')),
  [ROUTES.certificationPrimary]: page(
    'certification',
    () => import('../features/certification/CertificationPrimaryPage.tsx'),
  ),
  [ROUTES.certificationAdvanced]: page(
    'certification',
    () => import('../features/certification/CertificationAdvancedPage.tsx'),
  ),
  [ROUTES.vipLevel]: page('rewards', () => import('../features/rewards/VipLevelPage.tsx')),
  [ROUTES.pointRecord]: page('rewards', () => import('../features/rewards/PointRecordPage.tsx')),
  [ROUTES.checkIn]: page('check-in', () => import('../features/check-in/CheckInPage.tsx')),
  [ROUTES.welfare]: page('welfare', () => import('../features/welfare/WelfarePage.tsx')),
  [ROUTES.welfareDetails]: page('welfare', () => import('../features/welfare/WelfareDetailsPage.tsx')),
  [ROUTES.contracts]: page('contracts', () => import('../features/contracts/ContractsPage.tsx')),
  [ROUTES.contractOrders]: page('contracts', () => import('../features/contracts/ContractOrdersPage.tsx')),
  [ROUTES.trades]: page('trades', () => import('../features/trades/TradesPage.tsx')),
  [ROUTES.liquidity]: page('liquidity', () => import('../features/liquidity/LiquidityPage.tsx')),
  [ROUTES.liquidityBuy]: page('liquidity', () => import('../features/liquidity/LiquidityBuyPage.tsx')),
  [ROUTES.liquidityBuyConfirm]: page('liquidity', () => import('../features/liquidity/LiquidityBuyConfirmPage.tsx')),
  [ROUTES.liquiditySell]: page('liquidity', () => import('../features/liquidity/LiquiditySellPage.tsx')),
  [ROUTES.liquiditySellConfirm]: page('liquidity', () => import('../features/liquidity/LiquiditySellConfirmPage.tsx')),
  [ROUTES.liquidityRecord]: page('liquidity', () => import('../features/liquidity/LiquidityRecordPage.tsx')),
  [ROUTES.liquidityRule]: page('liquidity', () => import('../features/liquidity/LiquidityRulePage.tsx')),
  [ROUTES.lockUp]: page('lockup', () => import('../features/lockup/LockupPage.tsx')),
  [ROUTES.lockUpDetails]: page('lockup', () => import('../features/lockup/LockupDetailsPage.tsx')),
  [ROUTES.lockUpRecord]: page('lockup', () => import('../features/lockup/LockupRecordPage.tsx')),
  [ROUTES.blindBox]: page('blindbox', () => import('../features/blindbox/BlindBoxPage.tsx')),
  [ROUTES.blindBoxVerify]: page('blindbox', () => import('../features/blindbox/BlindBoxVerifyPage.tsx')),
  // One module for both receipt routes (it picks the page by its path): one chunk, one import fewer in the start.
  [ROUTES.receipt]: page('receipts', () => import('../features/receipts/ReceiptPage.tsx')),
  [ROUTES.receiptCheck]: page('receipts', () => import('../features/receipts/ReceiptPage.tsx')),
  [ROUTES.activities]: page('activities', () => import('../features/activities/ActivityListPage.tsx')),
  [ROUTES.activityDetails]: page('activities', () => import('../features/activities/ActivityDetailsPage.tsx')),
  [ROUTES.share]: page('share', () => import('../features/share/SharePage.tsx')),
  [ROUTES.service]: page('support', () => import('../features/support/ServicePage.tsx')),
  [ROUTES.serviceChat]: page('support', () => import('../features/support/ChatPage.tsx')),
  [ROUTES.companyProfile]: page('support', () => import('../features/support/CompanyProfilePage.tsx')),
  [ROUTES.intro]: page('support', () => import('../features/support/IntroPage.tsx')),
  [ROUTES.webView]: page('support', () => import('../features/support/WebViewPage.tsx')),
  [ROUTES.optionOld]: page('options', () => import('../features/options/OptionOldPage.tsx')),
  [ROUTES.chooseLocation]: page('support', () => import('../features/support/ChooseLocationPage.tsx')),
  [ROUTES.openLocation]: page('support', () => import('../features/support/OpenLocationPage.tsx')),
  [ROUTES.diagnostics]: page('diagnostics', () => import('../features/diagnostics/DiagnosticsPage.tsx')),
};

export interface Tab {
  path: string;
  label: MessageDescriptor;
  Icon: ComponentType<{ className?: string }>;
}

/** The five tabs of the bar; a tab shows once its page exists. */
const TABS: Tab[] = [
  { path: ROUTES.home, label: msg`Home`, Icon: HomeIcon },
  { path: ROUTES.coinList, label: msg`Markets`, Icon: MarketsIcon },
  { path: ROUTES.option, label: msg`Options`, Icon: OptionsIcon },
  { path: ROUTES.lockUp, label: msg`Mining`, Icon: MiningIcon },
  { path: ROUTES.mine, label: msg`Mine`, Icon: MineIcon },
];
export const VISIBLE_TABS = TABS.filter((tab) => PAGES[tab.path]);
export const isTabPage = (path: string) => VISIBLE_TABS.some((tab) => tab.path === path);

/** Unknown paths are public too: their not-found page must show to anyone. */
export const needsLogin = (path: string) => !PUBLIC_ROUTES.includes(path) && PAGES[path] !== undefined;

/**
 * What a first page asks the server for as soon as it opens, asked at start instead, before its code
 * has arrived: the page's own call takes that answer (lib/api.ts prefetch).
 */
const FIRST_READS: Partial<Record<string, () => void>> = {
  // The slides are Home's largest picture; the notice comes with them.
  [ROUTES.home]: () => {
    prefetch(slides, { position: 'home' });
    prefetch(config, { act: 'system' });
  },
};

/**
 * At start, the first page's code downloads (and its first read is asked) while the language's
 * texts arrive, instead of after the first render asks for them; once the code is in, the page
 * prepares its first render (its data on the way). Resolves when the page is ready to render, its
 * area's texts included (never rejects: a failure shows when the page renders). For a visitor
 * who is not signed in, a page that needs a login stands for the login page.
 */
export function startPage(path: string, signedIn: boolean, locale: Locale, language: Promise<void>): Promise<void> {
  // Signed out, a page that needs a login sends the visitor to the login page: that one is first.
  const shown = needsLogin(path) && !signedIn ? ROUTES.login : path;
  const first = PAGES[shown];
  if (!first) return Promise.resolve();
  FIRST_READS[shown]?.();
  startAreaMessages(locale, first.area);
  first
    .loadCode()
    .then((module) => module.prepare?.())
    .catch(() => undefined);
  return language.then(first.load).then(
    () => undefined,
    () => undefined,
  );
}

/** `/` and an empty hash open home. */
export const resolvePath = (path: string) => (path === '/' || path === '' ? ROUTES.home : path);
