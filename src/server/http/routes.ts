// Every route module of the app, in the order app.ts registers them: the API contract's endpoints by area, then the
// routes that are no contract endpoint, and last the built app at `/`. A new route file is one line here.
import { accountRoutes } from './account-routes.ts';
import { activitiesRoutes } from './activities-routes.ts';
import { accountFreezeRoutes } from './account-freeze-routes.ts';
import { addressLockRoutes } from './address-lock-routes.ts';
import { antiPhishingRoutes } from './anti-phishing-routes.ts';
import { blindBoxRoutes } from './blindbox-routes.ts';
import { builtAppRoutes } from './built-app.ts';
import { certificationRoutes } from './certification-routes.ts';
import { consoleChannelRoutes } from './console-channel-routes.ts';
import { consoleContentRoutes } from './console-content-routes.ts';
import { consoleHouseRoutes } from './console-house-routes.ts';
import { consoleProductRoutes } from './console-product-routes.ts';
import { consoleRewardRoutes } from './console-reward-routes.ts';
import { consoleRoutes } from './console-routes.ts';
import { consoleServiceRoutes } from './console-service-routes.ts';
import { consoleSystemRoutes } from './console-system-routes.ts';
import { contentRoutes } from './content-routes.ts';
import { contractsRoutes } from './contracts-routes.ts';
import { earnRoutes } from './earn-routes.ts';
import { fundsRoutes } from './funds-routes.ts';
import { liquidityRoutes } from './liquidity-routes.ts';
import { lockupRoutes } from './lockup-routes.ts';
import { marketsRoutes } from './markets-routes.ts';
import { messagesRoutes } from './messages-routes.ts';
import { notificationsRoutes } from './notifications-routes.ts';
import { openApiRoute } from './openapi.ts';
import { optionsRoutes } from './options-routes.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import { payoutsRoutes } from './payouts-routes.ts';
import { practiceRoutes } from './practice-routes.ts';
import { priceAlertsRoutes } from './price-alerts-routes.ts';
import { priceStreamRoute } from './price-stream.ts';
import { receiptsRoutes } from './receipts-routes.ts';
import { protectionRoutes } from './protection-routes.ts';
import { rewardsRoutes } from './rewards-routes.ts';
import { riskRoutes } from './risk-routes.ts';
import { loginHistoryRoutes } from './login-history-routes.ts';
import { liabilitiesRoutes } from './liabilities-routes.ts';
import type { RouteModule } from './route-module.ts';
import { serviceChatRoutes } from './service-chat-routes.ts';
import { sessionsRoutes } from './sessions-routes.ts';
import { shareRoutes } from './share-routes.ts';
import { checkInRoutes } from './check-in-routes.ts';
import { closureRoutes } from './closure-routes.ts';
import { statementsRoutes } from './statements-routes.ts';
import { tradesRoutes } from './trades-routes.ts';
import { supportRoutes } from './support-routes.ts';
import { twoFactorRoutes } from './two-factor-routes.ts';
import { uploadRoutes } from './upload-routes.ts';
import { welfareRoutes } from './welfare-routes.ts';
import { writeOutcomeRoutes } from './write-outcome-routes.ts';
import { healthRoutes } from './health-routes.ts';
import { metricsRoute } from '../observability/http-metrics.ts';

/** The app's routes, registered in this order (each awaited before the next). */
export const ROUTE_MODULES: readonly RouteModule[] = [
  accountRoutes,
  contentRoutes,
  uploadRoutes,
  marketsRoutes,
  optionsRoutes,
  riskRoutes,
  loginHistoryRoutes,
  liabilitiesRoutes,
  receiptsRoutes,
  priceStreamRoute,
  messagesRoutes,
  fundsRoutes,
  statementsRoutes,
  tradesRoutes,
  payoutsRoutes,
  protectionRoutes,
  addressLockRoutes,
  accountFreezeRoutes,
  priceAlertsRoutes,
  twoFactorRoutes,
  antiPhishingRoutes,
  certificationRoutes,
  rewardsRoutes,
  contractsRoutes,
  practiceRoutes,
  earnRoutes,
  liquidityRoutes,
  lockupRoutes,
  checkInRoutes,
  sessionsRoutes,
  closureRoutes,
  notificationsRoutes,
  passkeyRoutes,
  welfareRoutes,
  blindBoxRoutes,
  activitiesRoutes,
  shareRoutes,
  supportRoutes,
  writeOutcomeRoutes,
  consoleRoutes,
  consoleContentRoutes,
  serviceChatRoutes,
  consoleServiceRoutes,
  consoleProductRoutes,
  consoleHouseRoutes,
  consoleChannelRoutes,
  consoleRewardRoutes,
  consoleSystemRoutes,
  openApiRoute,
  healthRoutes,
  metricsRoute,
  builtAppRoutes,
];
