// Texts only the server writes: station messages, the code's e-mail and SMS, and refusals no screen
// of the app names (the app shows the server's translated `msg`). Kept apart from api-contract/texts.ts, which the app
// carries at
// start: the server translates them (server/i18n.ts) from the same catalogs.
import type { MessageDescriptor } from '@lingui/core';

export const serverTexts = {
  avatarIsDocument: /*i18n*/ {
    id: 'e.avatarIsDocument',
    message: 'A picture sent as a document or a receipt cannot be your avatar: please choose another picture!',
  },
  uploadTooManyPixels: /*i18n*/ {
    id: 'e.uploadTooManyPixels',
    message: 'The picture is too large (at most {0} megapixels)!',
  },
  passkeyNotRecognised: /*i18n*/ {
    id: 'e.passkeyNotRecognised',
    message: 'This passkey is not recognised here. Sign in with your password, then add it again in Settings!',
  },
  passkeyTimedOut: /*i18n*/ { id: 'e.passkeyTimedOut', message: 'The passkey request has expired, please try again!' },
  // Refusals only the server gives: the customer's own limits and time-out, the withdrawal address lock
  addressLocked: /*i18n*/ {
    id: 'e.addressLocked',
    message:
      'Your withdrawal address lock is on: withdrawals go only to a saved bank card or wallet {0} after it was added. Please try again later.',
  },
  addressLockNotOn: /*i18n*/ { id: 'e.addressLockNotOn', message: 'The withdrawal address lock is not on!' },
  protectionNothingPending: /*i18n*/ {
    id: 'e.protectionNothingPending',
    message: 'No change of this setting is waiting!',
  },
  protectionTimeout: /*i18n*/ {
    id: 'e.protectionTimeout',
    message:
      'You are taking a time-out until {0}: no option, contract, lock-up or liquidity order and no blind box draw is accepted until then. Withdrawals remain possible.',
  },
  protectionStakeDay: /*i18n*/ {
    id: 'e.protectionStakeDay',
    message: 'Your limit of {0} USDT staked in 24 hours leaves {1} USDT for now!',
  },
  protectionStakeWeek: /*i18n*/ {
    id: 'e.protectionStakeWeek',
    message: 'Your limit of {0} USDT staked in 7 days leaves {1} USDT for now!',
  },
  protectionStakeMonth: /*i18n*/ {
    id: 'e.protectionStakeMonth',
    message: 'Your limit of {0} USDT staked in 30 days leaves {1} USDT for now!',
  },
  protectionLossDay: /*i18n*/ {
    id: 'e.protectionLossDay',
    message: 'Your limit of {0} USDT lost in 24 hours leaves {1} USDT that may be put at risk for now!',
  },
  protectionLossWeek: /*i18n*/ {
    id: 'e.protectionLossWeek',
    message: 'Your limit of {0} USDT lost in 7 days leaves {1} USDT that may be put at risk for now!',
  },
  protectionLossMonth: /*i18n*/ {
    id: 'e.protectionLossMonth',
    message: 'Your limit of {0} USDT lost in 30 days leaves {1} USDT that may be put at risk for now!',
  },
  protectionOpenOptions: /*i18n*/ {
    id: 'e.protectionOpenOptions',
    message: 'You have reached your limit of {0} open options at once!',
  },
  // Statements (api-contract/statements.ts): the app checks the same period rules before it asks.
  statementPeriod: /*i18n*/ {
    id: 'e.statementPeriod',
    message: 'Please choose the first and the last day of the period!',
  },
  statementOrder: /*i18n*/ {
    id: 'e.statementOrder',
    message: 'The first day of the period must not be after the last day!',
  },
  statementTooLong: /*i18n*/ {
    id: 'e.statementTooLong',
    message: 'A statement covers at most {0} days: please choose a shorter period!',
  },
  statementTimeZone: /*i18n*/ {
    id: 'e.statementTimeZone',
    message: 'The time zone of this device is not known: please check its date and time settings!',
  },
  // Trade history (api-contract/trades.ts): the same period rules as a statement, its own longest period.
  tradesTooLong: /*i18n*/ {
    id: 'e.tradesTooLong',
    message: 'Trade history covers at most {0} days: please choose a shorter period!',
  },
  statementTooManyEntries: /*i18n*/ {
    id: 'e.statementTooManyEntries',
    message: 'This period has more than {0} entries: please choose a shorter period!',
  },
  passkeyLimit: /*i18n*/ {
    id: 'e.passkeyLimit',
    message: 'An account can have at most 10 passkeys: remove one first!',
  },
  passkeyAddedTitle: /*i18n*/ { id: 'e.passkeyAddedTitle', message: 'Passkey added' },
  passkeyAdded: /*i18n*/ {
    id: 'e.passkeyAdded',
    message:
      'A passkey made on {0} was added to your account at {1}. It signs in without your password. If this was not you, remove it in Settings → Passkeys and change your login password.',
  },
  passwordChangedTitle: /*i18n*/ { id: 'e.passwordChangedTitle', message: 'Login password changed' },
  passwordChanged: /*i18n*/ {
    id: 'e.passwordChanged',
    message:
      'The login password of your account was changed at {0}, and every device was signed out. If this was not you, reset your password at once and contact customer service.',
  },
  payPasswordSetTitle: /*i18n*/ { id: 'e.payPasswordSetTitle', message: 'Payment password set' },
  payPasswordSet: /*i18n*/ {
    id: 'e.payPasswordSet',
    message:
      'A payment password, which confirms withdrawals, was set on your account at {0}. If this was not you, change your login password at once and contact customer service.',
  },
  payPasswordChangedTitle: /*i18n*/ { id: 'e.payPasswordChangedTitle', message: 'Payment password changed' },
  payPasswordChanged: /*i18n*/ {
    id: 'e.payPasswordChanged',
    message:
      'The payment password of your account, which confirms withdrawals, was changed at {0}. If this was not you, change your login password at once and contact customer service.',
  },
  twoFactorOffTitle: /*i18n*/ { id: 'e.twoFactorOffTitle', message: 'Two-factor authentication turned off' },
  twoFactorOff: /*i18n*/ {
    id: 'e.twoFactorOff',
    message:
      'Two-factor authentication was turned off on your account at {0}. If this was not you, change your login password at once and contact customer service.',
  },
  addressLockOnTitle: /*i18n*/ { id: 'e.addressLockOnTitle', message: 'Withdrawal address lock turned on' },
  addressLockOn: /*i18n*/ {
    id: 'e.addressLockOn',
    message:
      'The withdrawal address lock was turned on at {0}: withdrawals now go only to your saved bank cards and wallets once they have waited out their cooling-off.',
  },
  addressLockOffAskedTitle: /*i18n*/ {
    id: 'e.addressLockOffAskedTitle',
    message: 'Turning off the withdrawal address lock was asked',
  },
  addressLockOffAsked: /*i18n*/ {
    id: 'e.addressLockOffAsked',
    message:
      'At {0} someone asked to turn off your withdrawal address lock. It turns off 24 hours later. If this was not you, cancel it in the app at once, change your passwords and contact customer service.',
  },
  addressLockOffTitle: /*i18n*/ { id: 'e.addressLockOffTitle', message: 'Withdrawal address lock turned off' },
  addressLockOff: /*i18n*/ {
    id: 'e.addressLockOff',
    message:
      'Your withdrawal address lock turned off at {0}, 24 hours after it was asked. If this was not you, contact customer service at once.',
  },
  twoFactorOnTitle: /*i18n*/ { id: 'e.twoFactorOnTitle', message: 'Two-factor authentication turned on' },
  twoFactorOn: /*i18n*/ {
    id: 'e.twoFactorOn',
    message:
      'Two-factor authentication was turned on for your account at {0}. Keep your recovery codes somewhere safe. If this was not you, contact customer service at once.',
  },
  recoveryCodesRenewedTitle: /*i18n*/ { id: 'e.recoveryCodesRenewedTitle', message: 'New recovery codes' },
  recoveryCodesRenewed: /*i18n*/ {
    id: 'e.recoveryCodesRenewed',
    message:
      'New recovery codes were made for your account at {0}; the old ones no longer work. If this was not you, change your login password at once and contact customer service.',
  },
  passkeyRemovedTitle: /*i18n*/ { id: 'e.passkeyRemovedTitle', message: 'Passkey removed' },
  passkeyRemoved: /*i18n*/ {
    id: 'e.passkeyRemoved',
    message:
      'A passkey was removed from your account at {0}. If this was not you, change your login password at once and contact customer service.',
  },
  contactChangedTitle: /*i18n*/ { id: 'e.contactChangedTitle', message: 'Contact details changed' },
  phoneChanged: /*i18n*/ {
    id: 'e.phoneChanged',
    message:
      'The mobile number of your account was changed at {0}. If this was not you, change your login password at once and contact customer service.',
  },
  emailChanged: /*i18n*/ {
    id: 'e.emailChanged',
    message:
      'The e-mail address of your account was changed at {0}. If this was not you, change your login password at once and contact customer service.',
  },
  pushServiceUnknown: /*i18n*/ {
    id: 'e.pushServiceUnknown',
    message: 'Notifications are not available in this browser!',
  },
  codeMessage: /*i18n*/ {
    id: 'e.codeMessage',
    message: 'Your {app} verification code is {code}. It expires in {minutes} minutes.',
  },
  codeMailSubject: /*i18n*/ { id: 'e.codeMailSubject', message: 'Your {app} verification code' },
  codeMailIgnore: /*i18n*/ {
    id: 'e.codeMailIgnore',
    message: 'If you did not ask for this code, ignore this message. Never tell anyone your code, not even our staff.',
  },
  wrongCredentials: /*i18n*/ { id: 'e.wrongCredentials', message: 'Wrong username or password!' },
  wrongOldPassword: /*i18n*/ { id: 'e.wrongOldPassword', message: 'The old password is wrong!' },
  wrongPayPassword: /*i18n*/ { id: 'e.wrongPayPassword', message: 'The payment password is wrong!' },
  phoneTaken: /*i18n*/ { id: 'e.phoneTaken', message: 'This mobile number is already registered!' },
  emailTaken: /*i18n*/ { id: 'e.emailTaken', message: 'This e-mail address is already registered!' },
  accountNotFound: /*i18n*/ {
    id: 'e.accountNotFound',
    message: 'No account uses this mobile number or e-mail address!',
  },
  inviteCodeUnknown: /*i18n*/ { id: 'e.inviteCodeUnknown', message: 'The invitation code does not exist!' },
  codeWrong: /*i18n*/ { id: 'e.codeWrong', message: 'The verification code is wrong or has expired!' },
  // A new code asked within 60 s of the last one to the same address: {0} the time left until one may be asked, a
  // Period in the reader's words, rounded up ("10 seconds").
  codeTooSoon: /*i18n*/ { id: 'e.codeTooSoon', message: 'Please wait {0} before requesting another code!' },
  codeNotSent: /*i18n*/ { id: 'e.codeNotSent', message: 'We could not send the code, please try again' },
  hashUsed: /*i18n*/ { id: 'e.hashUsed', message: 'This transaction hash has already been submitted!' },
  depositAddressOurs: /*i18n*/ {
    id: 'e.depositAddressOurs',
    message: 'This is a deposit address of the platform: a withdrawal must go to a wallet of your own!',
  },
  hashIsPayout: /*i18n*/ {
    id: 'e.hashIsPayout',
    message: 'This transaction is a withdrawal the platform paid out, not a recharge!',
  },
  orderNotOpen: /*i18n*/ { id: 'e.orderNotOpen', message: 'This order is no longer open and cannot be cancelled!' },
  proofUsed: /*i18n*/ { id: 'e.proofUsed', message: 'This transfer receipt has already been submitted!' },
  /** A form or JSON body over the server's limit (BODY_MAX_BYTES, in MB as {0}): HTTP 413, before it is read. */
  requestTooLarge: /*i18n*/ { id: 'e.requestTooLarge', message: 'What you sent is too large (at most {0} MB)!' },
  fiatDecimals: /*i18n*/ { id: 'e.fiatDecimals', message: 'An amount in {0} has at most {1} decimal places!' },
  tooManyPending: /*i18n*/ {
    id: 'e.tooManyPending',
    message: 'You have too many orders waiting for review, please wait for them to be processed!',
  },
  walletExists: /*i18n*/ { id: 'e.walletExists', message: 'This address has already been added!' },
  bankCardExists: /*i18n*/ { id: 'e.bankCardExists', message: 'This bank account has already been added!' },
  payeeAddedTitle: /*i18n*/ { id: 'e.payeeAddedTitle', message: 'New withdrawal address added' },
  payeeAddedCooling: /*i18n*/ {
    id: 'e.payeeAddedCooling',
    message:
      '{0} was added to your account. For your safety, withdrawals to it are possible {1} after it was added. If you did not add it, delete it at once and change your passwords.',
  },
  payeeAdded: /*i18n*/ {
    id: 'e.payeeAdded',
    message: '{0} was added to your account. If you did not add it, delete it at once and change your passwords.',
  },
  unknownDevice: /*i18n*/ { id: 'e.unknownDevice', message: 'Unknown device' },
  newSignInTitle: /*i18n*/ { id: 'e.newSignInTitle', message: 'New sign-in' },
  newSignIn: /*i18n*/ {
    id: 'e.newSignIn',
    message:
      'New sign-in on {0} from {1} at {2}. If it was not you, change your login password and end that session in Settings → Devices.',
  },
  failedSignInTitle: /*i18n*/ { id: 'e.failedSignInTitle', message: 'Failed sign-in attempt' },
  failedSignIn: /*i18n*/ {
    id: 'e.failedSignIn',
    message:
      'Someone tried to sign in to your account on {0} from {1} at {2}, a device your account never used, and was refused. If it was not you, nothing was opened; a strong, unique login password and two-factor authentication keep it so. Settings → Sign-in history shows every attempt.',
  },
  failedCodeSignIn: /*i18n*/ {
    id: 'e.failedCodeSignIn',
    message:
      'Someone gave your login password on {0} from {1} at {2}, a device your account never used, and was refused for a wrong authenticator code. If it was not you, your password is known: change it now. Settings → Sign-in history shows every attempt.',
  },
  certificationPending: /*i18n*/ {
    id: 'e.certificationPending',
    message: 'Your certification is under review, please wait!',
  },
  certificationDone: /*i18n*/ { id: 'e.certificationDone', message: 'This certification has already been verified!' },
  // The reason recorded on a certification still in review when its account closed (domain/closure.ts), in the
  // language the customer closed it in.
  certificationEndedByClosure: /*i18n*/ {
    id: 'e.certificationEndedByClosure',
    message: 'Your account was closed before this certification was reviewed.',
  },
  certificationSamePicture: /*i18n*/ {
    id: 'e.certificationSamePicture',
    message: 'Each photo must be a picture of its own: the front, the back and you holding the document!',
  },
  contentPageMissing: /*i18n*/ { id: 'e.contentPageMissing', message: 'This page has no content yet.' },
  alreadyCheckedIn: /*i18n*/ { id: 'e.alreadyCheckedIn', message: 'You have already checked in today!' },
  welfareNotYet: /*i18n*/ { id: 'e.welfareNotYet', message: 'This reward is not available yet!' },
  /** WELFARE_HOLDS' document_rewarded: the claim's refusal and the task's line. */
  welfareDocumentRewarded: /*i18n*/ {
    id: 'e.welfareDocumentRewarded',
    message: 'This reward is given once per person: your identity document was verified for another account first.',
  },
  welfareClaimed: /*i18n*/ { id: 'e.welfareClaimed', message: 'You have already claimed this reward!' },
  welfareNotOffered: /*i18n*/ { id: 'e.welfareNotOffered', message: 'This reward is not offered at the moment!' },
  blindBoxUnavailable: /*i18n*/ { id: 'e.blindBoxUnavailable', message: 'The blind box is not available!' },
  // A draw confirmed at a cost it no longer has (server/domain/blindbox.ts): {0} the cost now, {1} its asset.
  blindBoxCostChanged: /*i18n*/ {
    id: 'e.blindBoxCostChanged',
    message: 'A draw now costs {0} {1}: check the cost and draw again!',
  },
  prizeSoldOut: /*i18n*/ {
    id: 'e.prizeSoldOut',
    message: 'This prize is sold out, the blind box is closed until it is restocked!',
  },
  authenticatorCodeUsed: /*i18n*/ {
    id: 'e.authenticatorCodeUsed',
    message: 'This code has already been used, please wait for the next one!',
  },
  // A recovery code of the current set that was used before (a code of a set since replaced is wrong): each works once.
  recoveryCodeUsed: /*i18n*/ {
    id: 'e.recoveryCodeUsed',
    message: 'This recovery code has already been used: each recovery code works once. Please enter another one!',
  },
  // An attempt limit holds (wrong passwords or codes, codes asked for, calls a minute): {0} is the time left until it
  // lets the next attempt through, a Period in the reader's words, rounded up.
  tooManyAttemptsWait: /*i18n*/ {
    id: 'e.tooManyAttemptsWait',
    message: 'Too many attempts, please try again in {0}!',
  },
  twoFactorAlreadyOn: /*i18n*/ { id: 'e.twoFactorAlreadyOn', message: 'Two-factor authentication is already on!' },
  twoFactorNotOn: /*i18n*/ { id: 'e.twoFactorNotOn', message: 'Two-factor authentication is not on!' },
  twoFactorSetupFirst: /*i18n*/ {
    id: 'e.twoFactorSetupFirst',
    message: 'Please start the setup of two-factor authentication again!',
  },
  twoFactorSetupReplaced: /*i18n*/ {
    id: 'e.twoFactorSetupReplaced',
    message:
      'The setup of two-factor authentication was started again elsewhere: please scan the new QR code and enter its code!',
  },
  wrongLoginPassword: /*i18n*/ { id: 'e.wrongLoginPassword', message: 'The login password is wrong!' },
  // The anti-phishing code: its line in every e-mail and security notice, and the notices of its changes.
  antiPhishingLabel: /*i18n*/ { id: 'e.antiPhishingLabel', message: 'Your anti-phishing code' },
  antiPhishingNotSet: /*i18n*/ { id: 'e.antiPhishingNotSet', message: 'You have not set an anti-phishing code!' },
  antiPhishingSetTitle: /*i18n*/ { id: 'e.antiPhishingSetTitle', message: 'Anti-phishing code set' },
  antiPhishingSet: /*i18n*/ {
    id: 'e.antiPhishingSet',
    message:
      'A new anti-phishing code was set for your account at {0}. From now on every e-mail and security notice from us shows it at the top: a message without it, or with another code, is not from us. If this was not you, change your login password at once and contact customer service.',
  },
  antiPhishingRemovedTitle: /*i18n*/ { id: 'e.antiPhishingRemovedTitle', message: 'Anti-phishing code removed' },
  antiPhishingRemoved: /*i18n*/ {
    id: 'e.antiPhishingRemoved',
    message:
      'The anti-phishing code of your account was removed at {0}; our e-mails no longer show one. If this was not you, change your login password at once and contact customer service.',
  },
  idempotencyBusy: /*i18n*/ { id: 'e.idempotencyBusy', message: 'This request is still being processed, please wait!' },
  // An Idempotency-Key sent again with another request's fields: nothing is done (the key names one request).
  idempotencyKeyReused: /*i18n*/ {
    id: 'e.idempotencyKeyReused',
    message: 'This Idempotency-Key was already used for a different request: nothing was done. Send a new key.',
  },
  // A call with no practice mode (blind box, lock-up, liquidity…) asked for the practice account: refused, never real.
  practiceNotOffered: /*i18n*/ {
    id: 'e.practiceNotOffered',
    message: 'Practice is only for options and contracts: nothing was done here, as it would use your real money!',
  },
  // The house's limits on options (server/domain/house-limits.ts); the last names no figure: it is the other customers'
  // open stakes.
  houseOrderLimit: /*i18n*/ { id: 'e.houseOrderLimit', message: 'The maximum purchase amount is: {0} USDT!' },
  // A lock-up confirmed at terms its product no longer has (server/domain/lockup.ts): {0} the days now, {1} the daily
  // rate now, in %.
  lockupTermsChanged: /*i18n*/ {
    id: 'e.lockupTermsChanged',
    message: 'This product now locks up for {0} days at {1}% a day: check its terms and subscribe again!',
  },
  // A contract order confirmed at a fee rate its pair no longer has (server/domain/contracts.ts): {0} the rate now,
  // in %.
  contractFeeChanged: /*i18n*/ {
    id: 'e.contractFeeChanged',
    message: 'The fee of this pair is now {0}%: check what the order costs and place it again!',
  },
  // An option confirmed at a yield its product no longer has (server/domain/options.ts): {0} is the yield now, in %.
  optionYieldChanged: /*i18n*/ {
    id: 'e.optionYieldChanged',
    message: 'The yield of this expiry is now {0}%: check what a win pays and buy again!',
  },
  houseMinuteLimit: /*i18n*/ {
    id: 'e.houseMinuteLimit',
    message: 'You can buy at most {0} USDT per minute, please try again shortly!',
  },
  houseExposureLimit: /*i18n*/ {
    id: 'e.houseExposureLimit',
    message: 'This direction is at its limit for now, please try a smaller amount!',
  },
  // A fired price alert's station message and push (domain/price-alerts.ts): the coin, the condition, the recorded
  // tick's price and time (UTC).
  priceAlertTitle: /*i18n*/ { id: 'e.priceAlertTitle', message: 'Price alert: {0}' },
  priceAlertAbove: /*i18n*/ {
    id: 'e.priceAlertAbove',
    message: '{0} reached {1} USDT, recorded at {2}: at or above your alert price of {3} USDT.',
  },
  priceAlertBelow: /*i18n*/ {
    id: 'e.priceAlertBelow',
    message: '{0} fell to {1} USDT, recorded at {2}: at or below your alert price of {3} USDT.',
  },
  priceAlertMove: /*i18n*/ {
    id: 'e.priceAlertMove',
    message:
      '{0} moved {1} % in 24 hours: {2} USDT recorded at {3}, against {4} USDT recorded 24 hours before. Your alert: a move of {5} %.',
  },
  // Before the text above when the tick that fired the alert came from the simulated feed (no exchanges' prices), and
  // before a contract fill's notification when its tick did: at the start, so a notification cut to its first
  // characters still says it.
  simulatedPricesFirst: /*i18n*/ {
    id: 'e.simulatedPricesFirst',
    message: 'Simulated prices, not a real market: {0}',
  },
  closeBalanceLeft: /*i18n*/ {
    id: 'e.closeBalanceLeft',
    message:
      'Your account still holds {0}. Every balance, frozen ones included, must be zero before closing, apart from amounts too small to withdraw or sell.',
  },
  // {0} the coins (e.g. "SOL" or "SOL, XRP") that no withdrawal can take and no order can sell now: no open market
  // of theirs has a current price.
  closeBalanceUnmovable: /*i18n*/ {
    id: 'e.closeBalanceUnmovable',
    message:
      '{0} cannot be withdrawn, and cannot be sold while its market has no current price, so it holds the closure. Sell it once its market trades again, then close the account; customer service can tell you when.',
  },
  // The small amounts a closure would end with the account are not the ones the close request carries (shown on the
  // page): a balance, a price or a withdrawal rule moved since.
  closeEndingChanged: /*i18n*/ {
    id: 'e.closeEndingChanged',
    message:
      'The small amounts that would end with your account are not the ones you were shown: a balance or a price changed. Check the list again before closing.',
  },
  // {0} the points held, {1} the fewest a redemption takes (points below it end with the account instead).
  closePointsRedeemable: /*i18n*/ {
    id: 'e.closePointsRedeemable',
    message:
      'Your account still holds {0} points, enough to redeem (at least {1} at a time). Redeem them before closing.',
  },
  closeOptionOpen: /*i18n*/ {
    id: 'e.closeOptionOpen',
    message: 'An option is still open. Close the account once it has settled.',
  },
  closeContractOpen: /*i18n*/ {
    id: 'e.closeContractOpen',
    message: 'A contract order is still open. Revoke it, or close the account once it has filled.',
  },
  closeEarnOpen: /*i18n*/ {
    id: 'e.closeEarnOpen',
    message: 'A liquidity redemption or a lock-up is still running. Close the account once it has ended.',
  },
  closeWithdrawalOpen: /*i18n*/ {
    id: 'e.closeWithdrawalOpen',
    message: 'A withdrawal is still under review. Close the account once it has been reviewed.',
  },
  closeRechargeOpen: /*i18n*/ {
    id: 'e.closeRechargeOpen',
    message: 'A recharge is still under review. Close the account once it has been reviewed.',
  },
  contactResting: /*i18n*/ {
    id: 'e.contactResting',
    message:
      'This mobile number or e-mail address belonged to a closed account. It can register again {0} days after the closure.',
  },
  exportTooLarge: /*i18n*/ {
    id: 'e.exportTooLarge',
    message:
      'The archive would be larger than {0} MB. Take it without the document pictures, or ask customer service for it.',
  },
  exportRecordsTooLarge: /*i18n*/ {
    id: 'e.exportRecordsTooLarge',
    message: 'Your records make an archive larger than {0} MB. Please ask customer service for your archive.',
  },
  exportBusy: /*i18n*/ {
    id: 'e.exportBusy',
    message: 'Other archives are being made right now. Please try again in a minute.',
  },
  // The customer's own freeze of the account (api-contract/account-freeze.ts)
  accountFrozen: /*i18n*/ {
    id: 'e.accountFrozen',
    message:
      'Your account is frozen: no order, withdrawal or payee change is accepted until you unfreeze it in Settings.',
  },
  accountFrozenHeld: /*i18n*/ {
    id: 'e.accountFrozenHeld',
    message:
      'The customer froze the account: this withdrawal is held until they unfreeze it. It can be rejected (the funds return to their balance), not paid.',
  },
  accountNotFrozen: /*i18n*/ { id: 'e.accountNotFrozen', message: 'Your account is not frozen!' },
  accountFrozenTitle: /*i18n*/ { id: 'e.accountFrozenTitle', message: 'Account frozen' },
  accountFrozenNotice: /*i18n*/ {
    id: 'e.accountFrozenNotice',
    message:
      'Your account was frozen at {0}: every device was signed out, and no order, withdrawal or payee change is accepted; withdrawals in review are held. Unfreezing takes 24 hours. If this was not you, change your passwords and contact customer service.',
  },
  accountUnfreezeAskedTitle: /*i18n*/ {
    id: 'e.accountUnfreezeAskedTitle',
    message: 'Unfreezing your account was asked',
  },
  accountUnfreezeAsked: /*i18n*/ {
    id: 'e.accountUnfreezeAsked',
    message:
      'At {0} someone asked to unfreeze your account. It unfreezes 24 hours later. If this was not you, keep it frozen in the app at once, change your passwords and contact customer service.',
  },
  accountUnfrozenTitle: /*i18n*/ { id: 'e.accountUnfrozenTitle', message: 'Account unfrozen' },
  accountUnfrozen: /*i18n*/ {
    id: 'e.accountUnfrozen',
    message:
      'Your account was unfrozen at {0}, 24 hours after it was asked. If this was not you, contact customer service at once.',
  },
} as const satisfies Record<string, MessageDescriptor>;
