// The route table: which page each §2 path opens, the tab bar, and which routes need a login.
// Paths are declared in contract/routes.ts; a page of a later area is added here when it exists.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { PAGE_LOAD_TIMEOUT_MS } from '../contract/constants.ts';
import { browserReloadPlace, reloadForMissingChunk } from '../lib/chunk-reload.ts';
import { PUBLIC_ROUTES, ROUTES } from '../contract/routes.ts';
import { HomeIcon, MarketsIcon, MineIcon, MiningIcon, OptionsIcon } from '../ui/icons.tsx';

type Page = LazyExoticComponent<ComponentType>;

/**
 * §9: a page chunk that has not arrived after 120 s fails, and the error screen offers a retry. A
 * chunk that fails at once (gone after a deploy) first reloads the page into the new build, once.
 */
const page = (load: () => Promise<{ default: ComponentType }>): Page =>
  lazy(() =>
    Promise.race([
      load().catch((error: unknown) => {
        if (reloadForMissingChunk(browserReloadPlace())) return new Promise<never>(() => {}); // the page is going away
        throw error;
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('page load timeout')), PAGE_LOAD_TIMEOUT_MS)),
    ]),
  );

export const PAGES: Partial<Record<string, Page>> = {
  [ROUTES.home]: page(() => import('../features/home/HomePage.tsx')),
  [ROUTES.messages]: page(() => import('../features/messages/MessagesPage.tsx')),
  [ROUTES.login]: page(() => import('../features/auth/LoginPage.tsx')),
  [ROUTES.register]: page(() => import('../features/auth/RegisterPage.tsx')),
  [ROUTES.forgotPassword]: page(() => import('../features/auth/ForgotPasswordPage.tsx')),
  [ROUTES.coinList]: page(() => import('../features/market/CoinListPage.tsx')),
  [ROUTES.coinDetail]: page(() => import('../features/market/CoinDetailPage.tsx')),
  [ROUTES.option]: page(() => import('../features/options/OptionPage.tsx')),
  [ROUTES.optionRecord]: page(() => import('../features/options/OrderRecordPage.tsx')),
  [ROUTES.optionRule]: page(() => import('../features/options/OptionRulePage.tsx')),
  [ROUTES.mine]: page(() => import('../features/profile/MinePage.tsx')),
  [ROUTES.settings]: page(() => import('../features/profile/SettingsPage.tsx')),
  [ROUTES.avatar]: page(() => import('../features/profile/AvatarPage.tsx')),
  [ROUTES.nickname]: page(() => import('../features/profile/NicknamePage.tsx')),
  [ROUTES.phone]: page(() => import('../features/profile/PhonePage.tsx')),
  [ROUTES.password]: page(() => import('../features/profile/PasswordPage.tsx')),
  [ROUTES.tradePassword]: page(() => import('../features/profile/TradePasswordPage.tsx')),
  [ROUTES.payPassword]: page(() => import('../features/profile/PayPasswordResetPage.tsx')),
  [ROUTES.currency]: page(() => import('../features/profile/CurrencyPage.tsx')),
  [ROUTES.recharge]: page(() => import('../features/funds/RechargePage.tsx')),
  [ROUTES.rechargeQr]: page(() => import('../features/funds/RechargeQrPage.tsx')),
  [ROUTES.rechargeBank]: page(() => import('../features/funds/RechargeBankPage.tsx')),
  [ROUTES.rechargeRecord]: page(() => import('../features/funds/RechargeRecordPage.tsx')),
  [ROUTES.rechargeDetails]: page(() => import('../features/funds/RechargeDetailsPage.tsx')),
  [ROUTES.withdraw]: page(() => import('../features/funds/WithdrawPage.tsx')),
  [ROUTES.withdrawRecord]: page(() => import('../features/funds/WithdrawRecordPage.tsx')),
  [ROUTES.withdrawDetails]: page(() => import('../features/funds/WithdrawDetailsPage.tsx')),
  [ROUTES.accountDetails]: page(() => import('../features/funds/AccountDetailsPage.tsx')),
  [ROUTES.bankCard]: page(() => import('../features/profile/BankCardPage.tsx')),
  [ROUTES.walletList]: page(() => import('../features/profile/WalletListPage.tsx')),
  [ROUTES.addWallet]: page(() => import('../features/profile/AddWalletPage.tsx')),
  [ROUTES.certificationPrimary]: page(() => import('../features/profile/CertificationPrimaryPage.tsx')),
  [ROUTES.certificationAdvanced]: page(() => import('../features/profile/CertificationAdvancedPage.tsx')),
  [ROUTES.vipLevel]: page(() => import('../features/rewards/VipLevelPage.tsx')),
  [ROUTES.pointRecord]: page(() => import('../features/rewards/PointRecordPage.tsx')),
  [ROUTES.signIn]: page(() => import('../features/rewards/SignInPage.tsx')),
  [ROUTES.welfare]: page(() => import('../features/rewards/WelfarePage.tsx')),
  [ROUTES.welfareDetails]: page(() => import('../features/rewards/WelfareDetailsPage.tsx')),
  [ROUTES.contracts]: page(() => import('../features/contracts/ContractsPage.tsx')),
  [ROUTES.contractOrders]: page(() => import('../features/contracts/ContractOrdersPage.tsx')),
  [ROUTES.liquidity]: page(() => import('../features/liquidity/LiquidityPage.tsx')),
  [ROUTES.liquidityBuy]: page(() => import('../features/liquidity/LiquidityBuyPage.tsx')),
  [ROUTES.liquidityBuyConfirm]: page(() => import('../features/liquidity/LiquidityBuyConfirmPage.tsx')),
  [ROUTES.liquiditySell]: page(() => import('../features/liquidity/LiquiditySellPage.tsx')),
  [ROUTES.liquiditySellConfirm]: page(() => import('../features/liquidity/LiquiditySellConfirmPage.tsx')),
  [ROUTES.liquidityRecord]: page(() => import('../features/liquidity/LiquidityRecordPage.tsx')),
  [ROUTES.liquidityRule]: page(() => import('../features/liquidity/LiquidityRulePage.tsx')),
  [ROUTES.lockUp]: page(() => import('../features/lockup/LockupPage.tsx')),
  [ROUTES.lockUpDetails]: page(() => import('../features/lockup/LockupDetailsPage.tsx')),
  [ROUTES.lockUpRecord]: page(() => import('../features/lockup/LockupRecordPage.tsx')),
  [ROUTES.blindBox]: page(() => import('../features/blindbox/BlindBoxPage.tsx')),
  [ROUTES.blindBoxVerify]: page(() => import('../features/blindbox/BlindBoxVerifyPage.tsx')),
  [ROUTES.activities]: page(() => import('../features/activities/ActivityListPage.tsx')),
  [ROUTES.activityDetails]: page(() => import('../features/activities/ActivityDetailsPage.tsx')),
  [ROUTES.share]: page(() => import('../features/rewards/SharePage.tsx')),
  [ROUTES.service]: page(() => import('../features/support/ServicePage.tsx')),
  [ROUTES.companyProfile]: page(() => import('../features/support/CompanyProfilePage.tsx')),
  [ROUTES.intro]: page(() => import('../features/support/IntroPage.tsx')),
  [ROUTES.webView]: page(() => import('../features/support/WebViewPage.tsx')),
  [ROUTES.optionOld]: page(() => import('../features/options/OptionOldPage.tsx')),
  [ROUTES.chooseLocation]: page(() => import('../features/support/ChooseLocationPage.tsx')),
  [ROUTES.openLocation]: page(() => import('../features/support/OpenLocationPage.tsx')),
  [ROUTES.diagnostics]: page(() => import('../features/diagnostics/DiagnosticsPage.tsx')),
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

/** `/` and an empty hash open home. */
export const resolvePath = (path: string) => (path === '/' || path === '' ? ROUTES.home : path);
