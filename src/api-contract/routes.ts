// Every hash route of the app, once. Pages import these to link; app/routes.ts maps them to pages.
export const ROUTES = {
  home: '/pages/index/index',
  /** The daily check-in; the path keeps the product's published spelling. */
  checkIn: '/pages/index/singin',
  companyProfile: '/pages/index/companyProfile',
  welfare: '/pages/index/welfare',
  welfareDetails: '/pages/index/welfareDetails',
  messages: '/pages/index/msgList',
  share: '/pages/index/share',
  webView: '/pages/index/web-view',
  option: '/pages/Option/Option',
  optionOld: '/pages/Option/Option_old',
  optionRecord: '/pages/Option/orderRecord/orderRecord',
  optionRule: '/pages/optionRule/index',
  coinList: '/pages/coinList/index',
  /** Our addition: one coin's K-line chart (`?code=BTC`). */
  coinDetail: '/pages/coinList/detail',
  blindBox: '/pages/blindbox/index',
  /** Our addition: the user's draws verified in the browser. */
  blindBoxVerify: '/pages/blindbox/verify',
  /** Our addition: a settled option's (`?option=12`) or filled contract order's (`?contract=7`) signed receipt,
   * checked on the device; opened from the order's details. */
  receipt: '/pages/receipt',
  /** Our addition: anyone checks a receipt shared with them (pasted), without an account; opened from a receipt. */
  receiptCheck: '/pages/receipt/check',
  lockUp: '/pages/Lock-up/Lock-up',
  lockUpDetails: '/pages/Lock-up/productDetails/productDetails',
  lockUpRecord: '/pages/Lock-up/record/record',
  login: '/pages/login/login',
  register: '/pages/login/regist',
  forgotPassword: '/pages/login/forgetPwd',
  mine: '/pages/mine/mine',
  settings: '/pages/mine/setting',
  avatar: '/pages/mine/setting/avatar',
  nickname: '/pages/mine/setting/nickname',
  phone: '/pages/mine/setting/phone',
  bankCard: '/pages/mine/setting/tradeAccount',
  password: '/pages/mine/setting/password',
  tradePassword: '/pages/mine/setting/tradePwd',
  payPassword: '/pages/mine/setting/paypass',
  currency: '/pages/mine/setting/chooseMoneyType',
  /** Our addition: the signed-in devices and sessions, opened from Settings. */
  devices: '/pages/mine/setting/devices',
  /** Our addition: "Verify my balance", the proof of liabilities checked on the device, opened from Settings. */
  liabilities: '/pages/mine/setting/liabilities',
  /** Our addition: two-factor authentication (an authenticator app), opened from Settings. */
  twoFactor: '/pages/mine/setting/twoFactor',
  /** Our addition: passkeys, opened from Settings. */
  passkeys: '/pages/mine/setting/passkeys',
  /** Our addition: the anti-phishing code every e-mail and security notice shows, opened from Settings. */
  antiPhishing: '/pages/mine/setting/antiPhishing',
  /** Our addition: the customer's own limits and time-out, opened from Settings and from the time-out panel. */
  protection: '/pages/mine/setting/protection',
  /** Our addition: price alerts (`?code=BTC` chooses the coin of the form), opened from Mine and a coin's chart. */
  priceAlerts: '/pages/mine/priceAlerts',
  certificationPrimary: '/pages/mine/Certification/primary',
  certificationAdvanced: '/pages/mine/Certification/advanced',
  addWallet: '/pages/mine/addWallet',
  walletList: '/pages/mine/walletList',
  vipLevel: '/pages/mine/vipLevel',
  pointRecord: '/pages/mine/pointRecord',
  recharge: '/pages/Recharge/Recharge',
  rechargeRecord: '/pages/Recharge/record',
  rechargeQr: '/pages/Recharge/qrpay',
  rechargeBank: '/pages/Recharge/bankpay',
  rechargeDetails: '/pages/Recharge/orderDetails',
  withdraw: '/pages/Withdraw/Withdraw',
  withdrawRecord: '/pages/Withdraw/record',
  withdrawDetails: '/pages/Withdraw/orderDetails',
  accountDetails: '/pages/accountDetails/accountDetails',
  liquidity: '/pages/Liquidity/Liquidity',
  liquidityBuy: '/pages/Liquidity/buy',
  liquiditySell: '/pages/Liquidity/sell',
  liquidityBuyConfirm: '/pages/Liquidity/buyConfirm',
  liquiditySellConfirm: '/pages/Liquidity/sellConfirm',
  liquidityRecord: '/pages/Liquidity/record',
  /** Our addition: the liquidity rules (/yuebao/rule). */
  liquidityRule: '/pages/Liquidity/rule',
  contracts: '/pages/contracts/contracts',
  contractOrders: '/pages/contracts/orderList',
  /** Our addition: every fill with its realised profit and loss (FIFO) and a CSV download, opened from the contract
   * orders. */
  trades: '/pages/contracts/trades',
  service: '/pages/service/index',
  /** Ours: the conversation with customer service. */
  serviceChat: '/pages/service/chat',
  intro: '/pages/intro/intro',
  activities: '/pages/activeList/index',
  activityDetails: '/pages/activeList/activeDetails',
  chooseLocation: '/pages/map/chooseLocation',
  openLocation: '/pages/map/openLocation',
  /** Our addition: what the app keeps and does offline, for QA; opened from the version line. */
  diagnostics: '/pages/mine/diagnostics',
} as const;

export type RoutePath = (typeof ROUTES)[keyof typeof ROUTES];

/** Pages open without a login: Lock-up, Mine and Share (plus the login pages themselves); all others need one. */
export const PUBLIC_ROUTES: readonly string[] = [
  ROUTES.login,
  ROUTES.register,
  ROUTES.forgotPassword,
  ROUTES.lockUp,
  // Our addition: a lock-up product and its calculator can be read before logging in; subscribing asks for it.
  ROUTES.lockUpDetails,
  ROUTES.mine,
  ROUTES.share,
  // Our addition: QA opens the diagnostics on a logged-out device too (it shows no account data).
  ROUTES.diagnostics,
  // Our addition: a receipt shared with someone can be checked by them without an account.
  ROUTES.receiptCheck,
];

/** Login, register and password reset live under this prefix. */
export const AUTH_ROUTE_PREFIX = '/pages/login/';

/** The login route that brings the user back to `from` afterwards. */
export const loginRoute = (from?: string) =>
  `${ROUTES.login}${from && !from.startsWith(AUTH_ROUTE_PREFIX) ? `?from=${encodeURIComponent(from)}` : ''}`;
