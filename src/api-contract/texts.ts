// Every text the server or the API contract can answer with: validation (ids v.) and errors and messages (e., r., m.),
// plus the few our server adds. Plain descriptors marked for Lingui extraction, so the server
// (no macro transform) and the PWA translate the same catalogs.
import type { MessageDescriptor } from '@lingui/core';

export const texts = {
  // Login and register
  enterUsernameAndPassword: /*i18n*/ {
    id: 'v.enterUsernameAndPassword',
    message: 'Please enter your username and password first!',
  },
  loginNameTooLong: /*i18n*/ {
    id: 'v.loginNameTooLong',
    message: 'The username, mobile number or e-mail address is too long!',
  },
  readAgreement: /*i18n*/ { id: 'v.readAgreement', message: 'Please make sure to read the agreement and try again!' },
  loginPasswordFormat: /*i18n*/ {
    id: 'v.loginPasswordFormat',
    message: 'The login password must be 6-12 letters or numbers!',
  },
  payPasswordFormat: /*i18n*/ { id: 'v.payPasswordFormat', message: 'Payment password must be 6 digits only!' },
  passwordsInconsistent: /*i18n*/ {
    id: 'v.passwordsInconsistent',
    message: 'The two passwords entered are inconsistent!',
  },
  enterPhone: /*i18n*/ { id: 'v.enterPhone', message: 'Please enter your mobile number!' },
  phoneFormat: /*i18n*/ { id: 'v.phoneFormat', message: 'Please enter a valid mobile number!' },
  enterEmail: /*i18n*/ { id: 'v.enterEmail', message: 'Please enter your e-mail address!' },
  emailFormat: /*i18n*/ { id: 'v.emailFormat', message: 'Please enter a valid e-mail address!' },
  enterCode: /*i18n*/ { id: 'v.enterCode', message: 'Please enter the verification code!' },
  codeFormat: /*i18n*/ { id: 'v.codeFormat', message: 'The verification code must be 6 digits!' },
  enterUsername: /*i18n*/ { id: 'v.enterUsername', message: 'Please enter a username!' },
  usernameFormat: /*i18n*/ {
    id: 'v.usernameFormat',
    message: 'The username must be 4-20 letters, numbers or underscores!',
  },
  chooseCurrency: /*i18n*/ { id: 'v.chooseCurrency', message: 'Please choose a currency!' },
  inviteCodeFormat: /*i18n*/ { id: 'v.inviteCodeFormat', message: 'The invitation code is not valid!' },
  enterOldPassword: /*i18n*/ { id: 'v.enterOldPassword', message: 'Please enter the old password!' },
  enterNickname: /*i18n*/ { id: 'v.enterNickname', message: 'Please enter a nickname of 1-20 characters!' },
  /** Names, labels, the anti-phishing code and chat (api-contract/visible-text.ts). */
  hiddenCharacters: /*i18n*/ {
    id: 'v.hiddenCharacters',
    message: 'Please remove invisible or direction-changing characters!',
  },
  /** The same fields: more than 30 combining marks in a row (api-contract/visible-text.ts, stackedMarks). */
  stackedMarks: /*i18n*/ {
    id: 'v.stackedMarks',
    message: 'Please remove the marks stacked on a letter: at most 30 in a row!',
  },
  /** The same fields: a private-use character, which each device draws as it likes (api-contract/visible-text.ts). */
  privateUseCharacters: /*i18n*/ {
    id: 'v.privateUseCharacters',
    message: 'Please remove the characters not every phone shows the same (private-use characters)!',
  },
  nameOnlyFillers: /*i18n*/ {
    id: 'v.nameOnlyFillers',
    message: 'Please enter a name that shows more than filler characters (such as ـ, ๆ or ー) and marks!',
  },
  fillInformation: /*i18n*/ { id: 'v.fillInformation', message: 'Please fill in the information and try again!' },
  invalidRequest: /*i18n*/ { id: 'v.invalidRequest', message: 'The request is not valid!' },
  unsupportedCharacters: /*i18n*/ {
    id: 'v.unsupportedCharacters',
    message: 'Please remove unsupported characters and try again!',
  },

  // Answers of the account calls
  codeSent: /*i18n*/ { id: 'e.codeSent', message: 'The verification code has been sent!' },
  getCodeFailed: /*i18n*/ { id: 'e.getCodeFailed', message: 'Failed to get the verification code!' },
  // Codes by e-mail and SMS (the message itself, and its fate)
  serverBusy: /*i18n*/ { id: 'e.serverBusy', message: 'The service is busy right now, please try again in a moment!' },
  tokenInvalid: /*i18n*/ { id: 'e.tokenInvalid', message: 'Your login has expired, please log in again!' },
  uploadFailed: /*i18n*/ { id: 'e.uploadFailed', message: 'Failed to upload picture, please try again later!' },
  uploadNotImage: /*i18n*/ { id: 'e.uploadNotImage', message: 'Please choose a JPEG, PNG, WebP or GIF picture!' },
  uploadTooLarge: /*i18n*/ { id: 'e.uploadTooLarge', message: 'The picture is too large (at most 5 MB)!' },
  uploadLimit: /*i18n*/ {
    id: 'e.uploadLimit',
    message:
      'You have reached the limit of pictures an account can keep ({0} pictures, {1} MB in all). Pictures you did not use are deleted {2} hours after upload: please try again later!',
  },
  pictureUnavailable: /*i18n*/ { id: 'e.pictureUnavailable', message: 'The picture could not be loaded.' },
  success: /*i18n*/ { id: 'e.success', message: 'Success' },
  saved: /*i18n*/ { id: 'e.saved', message: 'Saved successfully!' },

  // Markets, balances and options
  enterAmount: /*i18n*/ { id: 'v.enterAmount', message: 'Please enter the amount!' },
  amountFormat: /*i18n*/ { id: 'v.amountFormat', message: 'Please enter a valid amount!' },
  minimumOption: /*i18n*/ { id: 'v.minimumOption', message: 'The minimum purchase amount is: {0} USDT!' },
  chooseDirection: /*i18n*/ { id: 'v.chooseDirection', message: 'Please choose Buy up or Buy short!' },
  chooseProduct: /*i18n*/ { id: 'v.chooseProduct', message: 'Please choose an expiry time!' },
  chooseCoin: /*i18n*/ { id: 'v.chooseCoin', message: 'Please choose a coin!' },
  choosePeriod: /*i18n*/ { id: 'v.choosePeriod', message: 'Please choose a period!' },
  insufficientBalance: /*i18n*/ { id: 'e.insufficientBalance', message: 'Insufficient balance!' },
  productUnavailable: /*i18n*/ { id: 'e.productUnavailable', message: 'This product is not available!' },
  coinUnknown: /*i18n*/ { id: 'e.coinUnknown', message: 'This coin is not listed!' },
  priceUnavailable: /*i18n*/ {
    id: 'e.priceUnavailable',
    message: 'The price is not available right now, please try again later!',
  },
  pricesPaused: /*i18n*/ {
    id: 'e.pricesPaused',
    message: 'Prices for {0} are paused while the market data is unavailable. Please try again later!',
  },
  orderNotFound: /*i18n*/ { id: 'e.orderNotFound', message: 'The order does not exist!' },
  orderNotSettled: /*i18n*/ {
    id: 'e.orderNotSettled',
    message: 'The order is not settled yet: its ticks are shown once it is.',
  },
  receiptNotYet: /*i18n*/ {
    id: 'e.receiptNotYet',
    message: 'This order has no receipt yet: an option has one once settled, a contract order once filled.',
  },
  transactionSucceeded: /*i18n*/ { id: 'm.transactionSucceeded', message: 'Successful transaction!' },
  transactionFailed: /*i18n*/ { id: 'm.transactionFailed', message: 'Transaction failed!' },

  // Coin-to-coin contracts
  chooseSide: /*i18n*/ { id: 'v.chooseSide', message: 'Please choose Buy or Sell!' },
  chooseOrderType: /*i18n*/ { id: 'v.chooseOrderType', message: 'Please choose an order type!' },
  enterPrice: /*i18n*/ { id: 'v.enterPrice', message: 'Please enter the price!' },
  priceFormat: /*i18n*/ { id: 'v.priceFormat', message: 'Please enter a valid price!' },
  enterQuantity: /*i18n*/ { id: 'v.enterQuantity', message: 'Please enter the quantity!' },
  quantityFormat: /*i18n*/ { id: 'v.quantityFormat', message: 'Please enter a valid quantity!' },
  priceOffTick: /*i18n*/ { id: 'v.priceOffTick', message: 'The price must be a multiple of {0}!' },
  quantityOffStep: /*i18n*/ { id: 'v.quantityOffStep', message: 'The quantity must be a multiple of {0}!' },
  belowMinimumNotional: /*i18n*/ {
    id: 'v.belowMinimumNotional',
    message: 'The order must be worth at least {0} USDT!',
  },
  priceOutsideBand: /*i18n*/ {
    id: 'v.priceOutsideBand',
    message: 'The price is more than {0}% away from the market price!',
  },
  pairUnavailable: /*i18n*/ { id: 'e.pairUnavailable', message: 'This trading pair is not available!' },
  /** Converting small balances when no coin holds an available amount too small to sell (contracts.ts dustOf). */
  noSmallBalances: /*i18n*/ {
    id: 'e.noSmallBalances',
    message: 'You have no small balances to convert.',
  },
  /** Converting small balances that are no longer the ones the customer confirmed (a price or a balance moved). */
  smallBalancesChanged: /*i18n*/ {
    id: 'e.smallBalancesChanged',
    message: 'Your small balances changed since you looked. Check the list again before converting.',
  },
  cancellationFailed: /*i18n*/ { id: 'm.cancellationFailed', message: 'Cancellation failed, please try again!' },
  cancellationSucceeded: /*i18n*/ { id: 'm.cancellationSucceeded', message: 'Cancellation succeeded!' },

  // Earn: liquidity and lock-up mining
  chooseRedeemMode: /*i18n*/ { id: 'v.chooseRedeemMode', message: 'Please choose quick or standard redemption!' },
  quickRedeemLimit: /*i18n*/ {
    id: 'v.quickRedeemLimit',
    message:
      'Quick redemption is limited to {0} USDT a day; {1} USDT remain today. Please choose standard redemption for more!',
  },
  quotaExhausted: /*i18n*/ { id: 'e.quotaExhausted', message: 'Only {0} USDT of this product remain!' },

  // Money in and out, payout accounts, certification, VIP and points
  noBankCard: /*i18n*/ { id: 'v.noBankCard', message: 'You have not bound bank card, please bind bank card first!' },
  noWallet: /*i18n*/ { id: 'v.noWallet', message: 'You have not added a wallet yet, please add a wallet first!' },
  noPayPassword: /*i18n*/ {
    id: 'v.noPayPassword',
    message: 'You have not set a transaction password, please set a transaction password first!',
  },
  enterPayPassword: /*i18n*/ { id: 'v.enterPayPassword', message: 'Please enter the transaction password!' },
  hashFormat: /*i18n*/ { id: 'v.hashFormat', message: 'The transaction hash must be at least 60 letters and digits!' },
  uploadProof: /*i18n*/ { id: 'v.uploadProof', message: 'Please upload the transfer receipt!' },
  chooseChannel: /*i18n*/ { id: 'v.chooseChannel', message: 'Please choose a recharge method!' },
  choosePayee: /*i18n*/ { id: 'v.choosePayee', message: 'Please choose a bank card or wallet!' },
  minimumAmount: /*i18n*/ { id: 'v.minimumAmount', message: 'The minimum amount is: {0} {1}!' },
  maximumAmount: /*i18n*/ { id: 'v.maximumAmount', message: 'The maximum amount is: {0} {1}!' },
  realNameFormat: /*i18n*/ {
    id: 'v.realNameFormat',
    message:
      "Please enter a person's name: at most 60 letters of any script, with spaces and the marks names use (' - . ·)!",
  },
  ifscFormat: /*i18n*/ { id: 'v.ifscFormat', message: 'Please enter a valid IFSC code!' },
  bankNumberFormat: /*i18n*/ { id: 'v.bankNumberFormat', message: 'Please enter a valid bank account number!' },
  chooseBank: /*i18n*/ { id: 'v.chooseBank', message: 'Please choose a bank!' },
  walletAddressFormat: /*i18n*/ {
    id: 'v.walletAddressFormat',
    message: 'The address does not match the chosen chain!',
  },
  walletAddressInvalid: /*i18n*/ {
    id: 'v.walletAddressInvalid',
    message: 'This is not a valid address on the chosen chain. Please check it and try again!',
  },
  walletAddressChecksum: /*i18n*/ {
    id: 'v.walletAddressChecksum',
    message: 'The address has a mistyped or missing character (its checksum does not match). Please copy it again!',
  },
  walletAddressNetwork: /*i18n*/ {
    id: 'v.walletAddressNetwork',
    message: 'This address is for another network, such as a test network. Please use a main-network address!',
  },
  walletAddressUnspendable: /*i18n*/ {
    id: 'v.walletAddressUnspendable',
    message:
      'This is a zero address: nobody holds its key and anything sent to it is lost. Please use your own address!',
  },
  walletAddressTokenContract: /*i18n*/ {
    id: 'v.walletAddressTokenContract',
    message:
      "This is a token's contract address, not a wallet: anything sent to it is lost. Please use your own wallet's receiving address!",
  },
  walletAddressFutureVersion: /*i18n*/ {
    id: 'v.walletAddressFutureVersion',
    message:
      'No wallet can spend from this kind of Bitcoin address yet (segwit version 2 or later): anything sent to it would be lost. Please use an address starting with bc1q, bc1p, 1 or 3!',
  },
  walletAddressInvisible: /*i18n*/ {
    id: 'v.walletAddressInvisible',
    message: 'The address contains a space or an invisible character. Please paste or type it again!',
  },
  chooseChain: /*i18n*/ { id: 'v.chooseChain', message: 'Please choose a currency and chain!' },
  chooseDocument: /*i18n*/ { id: 'v.chooseDocument', message: 'Please choose the document type!' },
  uploadDocument: /*i18n*/ { id: 'v.uploadDocument', message: 'Please upload a photo of the document!' },
  primaryFirst: /*i18n*/ {
    id: 'v.primaryFirst',
    message: 'Please complete the primary certification before proceeding to the advanced certification!',
  },
  enterPoints: /*i18n*/ { id: 'v.enterPoints', message: 'Please enter the number of points!' },
  minimumPoints: /*i18n*/ { id: 'v.minimumPoints', message: 'At least {0} points can be redeemed at a time!' },
  channelUnavailable: /*i18n*/ { id: 'e.channelUnavailable', message: 'This recharge method is not available!' },
  depositAddressUnknown: /*i18n*/ {
    id: 'e.depositAddressUnknown',
    message: 'This is not a deposit address of this method for your account: open the recharge page again!',
  },
  payeeNotFound: /*i18n*/ { id: 'e.payeeNotFound', message: 'The bank card or wallet does not exist!' },
  bankCardLimit: /*i18n*/ { id: 'e.bankCardLimit', message: 'You can bind at most {0} bank cards!' },
  walletLimit: /*i18n*/ { id: 'e.walletLimit', message: 'You can add at most {0} wallets!' },
  payeeCooling: /*i18n*/ {
    id: 'e.payeeCooling',
    message:
      'For your safety, a newly added bank card or wallet can receive withdrawals {0} after it was added. Please try again later.',
  },
  // The withdrawal address lock and payee labels
  payeeLabelFormat: /*i18n*/ {
    id: 'v.payeeLabelFormat',
    message: 'A label is at most 30 characters, without < > or control characters!',
  },
  // Devices and sessions
  sessionNotFound: /*i18n*/ { id: 'e.sessionNotFound', message: 'This session does not exist or has already ended!' },
  notEnoughPoints: /*i18n*/ { id: 'e.notEnoughPoints', message: 'Not enough points!' },
  submitted: /*i18n*/ { id: 'e.submitted', message: 'Submitted successfully, please wait for the review!' },
  deleted: /*i18n*/ { id: 'e.deleted', message: 'Deleted successfully!' },

  // The request helper and HTTP statuses
  loading: /*i18n*/ { id: 'r.loading', message: 'Loading...' },
  tooManyRequests: /*i18n*/ { id: 'r.tooManyRequests', message: 'Too many requests!' },
  requestError: /*i18n*/ { id: 'r.requestError', message: 'An error occurred while sending the request' },
  noResponse: /*i18n*/ { id: 'r.noResponse', message: 'The server is not responding, please try again later' },
  requestCancelled: /*i18n*/ { id: 'r.requestCancelled', message: 'The request was cancelled.' },
  unknownError: /*i18n*/ { id: 'r.unknownError', message: 'Unknown error' },
  offline: /*i18n*/ { id: 'r.offline', message: 'You are offline. Please check your network and try again.' },
  http400: /*i18n*/ { id: 'r.http400', message: 'Bad request' },
  http401: /*i18n*/ { id: 'r.http401', message: 'Unauthorized, please log in again' },
  http402: /*i18n*/ { id: 'r.http402', message: 'Payment required' },
  http403: /*i18n*/ { id: 'r.http403', message: 'Access denied' },
  http404: /*i18n*/ { id: 'r.http404', message: 'The requested resource was not found' },
  http405: /*i18n*/ { id: 'r.http405', message: 'Request method not allowed' },
  http406: /*i18n*/ { id: 'r.http406', message: 'Not acceptable' },
  http408: /*i18n*/ { id: 'r.http408', message: 'Request timed out' },
  http500: /*i18n*/ { id: 'r.http500', message: 'Internal server error' },
  http501: /*i18n*/ { id: 'r.http501', message: 'Service not implemented' },
  http502: /*i18n*/ { id: 'r.http502', message: 'Bad gateway' },
  http503: /*i18n*/ { id: 'r.http503', message: 'Service unavailable' },
  http504: /*i18n*/ { id: 'r.http504', message: 'Gateway timeout' },

  // Other messages
  copySuccess: /*i18n*/ { id: 'm.copySuccess', message: 'Copied successfully!' },
  copyFailed: /*i18n*/ { id: 'm.copyFailed', message: 'Copy failed, please try again later!' },
  /** The device refused to keep what the app writes (its storage full): it stays only while the app is open. */
  deviceStorageFull: /*i18n*/ {
    id: 'm.deviceStorageFull',
    message:
      'This device’s storage is full: what waits to be sent is kept only while the app stays open. Free up space.',
  },
  downloadSuccess: /*i18n*/ { id: 'm.downloadSuccess', message: 'Downloaded successfully!' },
  readingError: /*i18n*/ { id: 'm.readingError', message: 'Reading error' },
  updateToLatest: /*i18n*/ { id: 'm.updateToLatest', message: 'Please update to the latest version!' },
  appCannotPerform: /*i18n*/ { id: 'm.appCannotPerform', message: "app can't perform this function!" },
  h5NotSupported: /*i18n*/ { id: 'm.h5NotSupported', message: "H5 doesn't support this feature yet!" },
  secureContextNeeded: /*i18n*/ {
    id: 'm.secureContextNeeded',
    message: 'Offline use and installing the app need a secure (https) connection.',
  },
  pageLoadFailed: /*i18n*/ {
    id: 'm.pageLoadFailed',
    message: 'The page failed to load. Please check your network and try again.',
  },

  // Share, service, company profile, web-view, maps
  inviteNotActivated: /*i18n*/ {
    id: 'e.inviteNotActivated',
    message: 'Your account has not yet activated the invitation permission!',
  },

  // Daily check-in and welfare

  // Blind box and activities
  choosePayment: /*i18n*/ { id: 'v.choosePayment', message: 'Please choose to pay with points or USDT!' },
  clientSeedFormat: /*i18n*/ {
    id: 'v.clientSeedFormat',
    message:
      'The client seed must be 1-64 Latin letters, digits or symbols (as on an English keyboard), without spaces!',
  },
  activityNotFound: /*i18n*/ { id: 'e.activityNotFound', message: 'The activity does not exist!' },

  // Two-factor authentication
  enterAuthenticatorCode: /*i18n*/ {
    id: 'v.enterAuthenticatorCode',
    message: 'Please enter the code from your authenticator app!',
  },
  authenticatorCodeFormat: /*i18n*/ {
    id: 'v.authenticatorCodeFormat',
    message: 'The authenticator code must be 6 digits!',
  },
  authenticatorCodeWrong: /*i18n*/ { id: 'e.authenticatorCodeWrong', message: 'The authenticator code is wrong!' },
  enterLoginPassword: /*i18n*/ { id: 'v.enterLoginPassword', message: 'Please enter your login password!' },

  // The anti-phishing code (api-contract/anti-phishing.ts)
  enterAntiPhishingCode: /*i18n*/ { id: 'v.enterAntiPhishingCode', message: 'Please enter an anti-phishing code!' },
  antiPhishingCodeFormat: /*i18n*/ {
    id: 'v.antiPhishingCodeFormat',
    message: 'The anti-phishing code must be 4-20 letters or digits, with single spaces between words!',
  },

  // Protection: the customer's own limits and time-out (api-contract/protection.ts)
  protectionOpenOptionsFormat: /*i18n*/ {
    id: 'v.protectionOpenOptionsFormat',
    message: 'The most open options must be a whole number from 1 to 1000!',
  },
  protectionReminderFormat: /*i18n*/ {
    id: 'v.protectionReminderFormat',
    message: 'The reminder must be a whole number of minutes from 5 to 1440!',
  },
  protectionTimeoutFormat: /*i18n*/ {
    id: 'v.protectionTimeoutFormat',
    message: 'Please choose when the time-out ends!',
  },
  protectionTimeoutTooShort: /*i18n*/ {
    id: 'v.protectionTimeoutTooShort',
    message: 'A time-out lasts at least 24 hours!',
  },
  protectionTimeoutTooLong: /*i18n*/ { id: 'v.protectionTimeoutTooLong', message: 'A time-out lasts at most 5 years!' },
  /** Names CALENDAR_FIRST_DAY and CALENDAR_LAST_DAY (api-contract/calendar.ts; a test checks they agree). */
  calendarDate: /*i18n*/ {
    id: 'v.calendarDate',
    message: 'Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!',
  },

  // The practice account (api-contract/practice.ts)
  practiceOptionsOpen: /*i18n*/ {
    id: 'e.practiceOptionsOpen',
    message: 'A practice option is still open: you can reset once it has settled!',
  },
  practiceOrderFilling: /*i18n*/ {
    id: 'e.practiceOrderFilling',
    message: 'A practice order is being filled: please try again in a few seconds!',
  },

  // Proof of liabilities (api-contract/liabilities.ts)
  noLiabilityProof: /*i18n*/ {
    id: 'e.noLiabilityProof',
    message:
      'No proof of liabilities includes your account yet. Each daily proof counts the balances held at 00:00 UTC and is published a few minutes later: the next one will include yours.',
  },

  // Passkeys
  passkeyFailed: /*i18n*/ { id: 'e.passkeyFailed', message: 'The passkey could not be checked, please try again!' },
  passkeyNotFound: /*i18n*/ {
    id: 'e.passkeyNotFound',
    message: 'This passkey does not exist or has already been removed!',
  },
  passkeyUnavailable: /*i18n*/ {
    id: 'e.passkeyUnavailable',
    message: 'Passkeys work only when the app is opened over HTTPS!',
  },

  // Price alerts (api-contract/price-alerts.ts)
  enterAlertPrice: /*i18n*/ { id: 'v.enterAlertPrice', message: 'Please enter a price above zero!' },
  enterAlertPercent: /*i18n*/ {
    id: 'v.enterAlertPercent',
    message: 'Please enter a move of 0.1 to 100 percent, with at most two decimals!',
  },
  alertOneTarget: /*i18n*/ {
    id: 'v.alertOneTarget',
    message: 'An alert on a price takes no percent, and an alert on a move takes no price!',
  },
  /** Names PRICE_ALERTS_MAX (a test checks they agree): the app shows it without values. */
  priceAlertsFull: /*i18n*/ {
    id: 'e.priceAlertsFull',
    message: 'You already have 50 price alerts waiting, the most allowed: delete one first!',
  },
  priceAlertNotFound: /*i18n*/ {
    id: 'e.priceAlertNotFound',
    message: 'This price alert does not exist or has already been deleted!',
  },
} as const satisfies Record<string, MessageDescriptor>;

export type TextKey = keyof typeof texts;

/** The descriptor behind a text id, so a validation issue carrying an id can be translated. */
export const textById: Record<string, MessageDescriptor> = Object.fromEntries(
  Object.values(texts).map((text) => [text.id, text]),
);

/** The text for a non-200 HTTP status: its own, 'Too many requests!' for 429, else server error or unknown error. */
export function httpStatusText(status: number): MessageDescriptor {
  const key = `http${status}` as TextKey;
  if (key in texts) return texts[key];
  if (status === 429) return texts.tooManyRequests;
  return status >= 500 ? texts.http500 : texts.unknownError;
}
