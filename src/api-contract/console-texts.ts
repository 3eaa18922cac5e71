// The operator console's texts: the answers of the console's calls, in the operator's
// language (English, Chinese, Thai; all six catalogs are filled). Kept apart from api-contract/texts.ts,
// which the customer app carries: none of the console's words weigh on its start.
import type { MessageDescriptor } from '@lingui/core';

export const consoleTexts = {
  consoleSignInWrong: /*i18n*/ { id: 'e.consoleSignInWrong', message: 'The operator name or the password is wrong!' },
  consoleOperatorDisabled: /*i18n*/ { id: 'e.consoleOperatorDisabled', message: 'This operator account is disabled!' },
  consoleChangePasswordFirst: /*i18n*/ {
    id: 'e.consoleChangePasswordFirst',
    message: 'Please change your first password before anything else!',
  },
  consoleRoleRefused: /*i18n*/ { id: 'e.consoleRoleRefused', message: 'Your role does not allow this!' },
  consolePasswordFormat: /*i18n*/ {
    id: 'v.consolePasswordFormat',
    message: 'The new password must be 12 to 128 characters!',
  },
  consolePasswordSame: /*i18n*/ {
    id: 'e.consolePasswordSame',
    message: 'The new password must differ from the current one!',
  },
  consoleEnterReason: /*i18n*/ {
    id: 'v.consoleEnterReason',
    message: 'A rejection needs a reason the customer will see!',
  },
  consoleReasonTooLong: /*i18n*/ { id: 'v.consoleReasonTooLong', message: 'Keep the reason under 500 characters.' },
  consolePayoutHashFormat: /*i18n*/ {
    id: 'v.consolePayoutHashFormat',
    message: 'The payout’s transaction hash or transfer reference is 4 to 128 letters, digits or dashes.',
  },
  consoleBlockHeightFormat: /*i18n*/ {
    id: 'v.consoleBlockHeightFormat',
    message: 'The block height is a whole number: digits only, or leave it empty.',
  },
  consoleOperatorNameFormat: /*i18n*/ {
    id: 'v.consoleOperatorNameFormat',
    message:
      'An operator name is 2-32 lower-case letters, digits, dots, dashes or underscores, starting with a letter!',
  },
  consoleOperatorRole: /*i18n*/ {
    id: 'v.consoleOperatorRole',
    message: 'The role must be reviewer, content or admin!',
  },
  consoleOperatorTaken: /*i18n*/ { id: 'e.consoleOperatorTaken', message: 'An operator of this name already exists!' },
  consoleOperatorNotFound: /*i18n*/ {
    id: 'e.consoleOperatorNotFound',
    message: 'There is no active operator of this name!',
  },
  consoleDisableSelf: /*i18n*/ { id: 'e.consoleDisableSelf', message: 'You cannot disable your own account!' },
  consoleRecordNotFound: /*i18n*/ { id: 'e.consoleRecordNotFound', message: 'This record does not exist!' },
  consoleEnterSearch: /*i18n*/ {
    id: 'v.consoleEnterSearch',
    message: 'Enter a username, a mobile number or an e-mail address!',
  },
  consoleDateFormat: /*i18n*/ { id: 'v.consoleDateFormat', message: 'Write dates as YYYY-MM-DD!' },
  consoleSecondApproverNeeded: /*i18n*/ {
    id: 'e.consoleSecondApproverNeeded',
    message: 'You already approved this withdrawal: a second approval must come from another reviewer!',
  },
  consolePayoutHashBeforeLast: /*i18n*/ {
    id: 'e.consolePayoutHashBeforeLast',
    message: 'The first of two approvals pays nothing out: send the payout after the second and record its hash then.',
  },
  consoleSecondRechargeApproverNeeded: /*i18n*/ {
    id: 'e.consoleSecondRechargeApproverNeeded',
    message: 'You already approved this recharge: a second approval must come from another reviewer!',
  },
  consoleRechargeDetailsBeforeLast: /*i18n*/ {
    id: 'e.consoleRechargeDetailsBeforeLast',
    message: 'The first of two approvals credits nothing: give the block height and remark with the second.',
  },
  consoleRechargeIsPayout: /*i18n*/ {
    id: 'e.consoleRechargeIsPayout',
    message: 'This recharge’s transaction is a withdrawal the platform paid out: reject it.',
  },
  consolePayoutIsRecharge: /*i18n*/ {
    id: 'e.consolePayoutIsRecharge',
    message: 'This transaction is a recharge credited to a customer, not a payout: check the hash.',
  },
  consolePayoutHashUsed: /*i18n*/ {
    id: 'e.consolePayoutHashUsed',
    message:
      'This transaction is already recorded as the payout of withdrawal {0}: one transaction pays one withdrawal. Check the hash.',
  },
  consoleContentIncomplete: /*i18n*/ {
    id: 'v.consoleContentIncomplete',
    message: 'Write every field this item shows: its title, its text, or both!',
  },
  consolePrizeNameMarks: /*i18n*/ {
    id: 'v.consolePrizeNameMarks',
    message: 'A prize’s English name cannot hold ":" or ";": they separate the fields and prizes of a prize table.',
  },
  // The terms of option products and pairs (server/domain/settings.ts), for the console and `npm run ops` alike.
  consoleTermRefused: /*i18n*/ { id: 'v.consoleTermRefused', message: 'Cannot apply "{change}": use {help}.' },
  consoleNothingToChange: /*i18n*/ { id: 'v.consoleNothingToChange', message: 'Nothing to change.' },
  consoleProductNotFound: /*i18n*/ { id: 'e.consoleProductNotFound', message: 'No product {id}.' },
  consolePairNotFound: /*i18n*/ { id: 'e.consolePairNotFound', message: 'No pair {coin}/USDT.' },
  // A recharge channel's extended public key (server/domain/channel-keys.ts).
  consoleChannelNotCrypto: /*i18n*/ {
    id: 'e.consoleChannelNotCrypto',
    message: 'Channel {name} is not a crypto channel: it keeps no extended public key.',
  },
  consoleChannelKeyPrivate: /*i18n*/ {
    id: 'e.consoleChannelKeyPrivate',
    message: 'This is a private key: the server must never hold one. Paste the account’s extended public key (xpub…).',
  },
  consoleChannelKeyVersion: /*i18n*/ {
    id: 'e.consoleChannelKeyVersion',
    message: 'Only the xpub form is read (not zpub, ypub or tpub): export the account’s key as xpub from the wallet.',
  },
  consoleChannelKeyNotAccount: /*i18n*/ {
    id: 'e.consoleChannelKeyNotAccount',
    message:
      'Not an account’s key: paste the key of m/purpose’/coin_type’/account’ (e.g. m/44’/195’/0’), not a master key.',
  },
  consoleChannelKeyChanged: /*i18n*/ {
    id: 'e.consoleChannelKeyChanged',
    message: 'Another admin changed the key of {name} meanwhile: nothing was saved. Check the key now in force.',
  },
  consoleChannelKeyInvalid: /*i18n*/ {
    id: 'e.consoleChannelKeyInvalid',
    message: 'This is not an extended public key: check it was copied whole (xpub…, 111 characters).',
  },
  // The check-in ladder, welfare tasks and the blind box's prizes (server/domain/check-in.ts, welfare.ts, blindbox.ts),
  // for the console and `npm run ops` alike.
  consoleLadderFormat: /*i18n*/ {
    id: 'v.consoleLadderFormat',
    message: 'A ladder is 1 to 31 whole numbers of points from 1 to 1000000, separated by commas: 5,5,10,10,15,20,30.',
  },
  consoleWelfareTaskNotFound: /*i18n*/ { id: 'e.consoleWelfareTaskNotFound', message: 'No welfare task {code}.' },
  // Points are whole numbers everywhere they are shown (balances, history, redemption): a reward in points is one.
  // The most a reward set by an operator may pay one customer (server/domain/reward-caps.ts).
  consoleRewardAboveCap: /*i18n*/ {
    id: 'v.consoleRewardAboveCap',
    message: '"{field}" is {amount} {asset}: a reward pays one customer at most {cap} {asset} ({setting}).',
  },
  consoleWelfarePoints: /*i18n*/ {
    id: 'v.consoleWelfarePoints',
    message: 'Welfare task {code}: "{reward}" is not a whole number of points.',
  },
  consolePrizeTableEmpty: /*i18n*/ { id: 'v.consolePrizeTableEmpty', message: 'A prize table has at least one prize.' },
  consolePrizeUnreadable: /*i18n*/ {
    id: 'v.consolePrizeUnreadable',
    message:
      'Prize {n} cannot be read ("{prize}"): a prize is a name, an asset, an amount, a weight and an optional stock, and its name holds no ":" or ";".',
  },
  consolePrizeAsset: /*i18n*/ {
    id: 'v.consolePrizeAsset',
    message: 'Prize {n}: "{asset}" is not an asset code (USDT, POINT, BTC…).',
  },
  consolePrizeAmount: /*i18n*/ {
    id: 'v.consolePrizeAmount',
    message: 'Prize {n}: "{amount}" is not an amount (0 or more, up to 8 decimals).',
  },
  consolePrizePoints: /*i18n*/ {
    id: 'v.consolePrizePoints',
    message: 'Prize {n}: "{amount}" is not a whole number of points.',
  },
  consolePrizeWeight: /*i18n*/ {
    id: 'v.consolePrizeWeight',
    message: 'Prize {n}: the weight "{weight}" must be a whole number of parts per million, at least 1.',
  },
  consolePrizeStock: /*i18n*/ {
    id: 'v.consolePrizeStock',
    message: 'Prize {n}: the stock "{stock}" must be a whole number (leave it out for unlimited).',
  },
  consolePrizeWeightsSum: /*i18n*/ {
    id: 'v.consolePrizeWeightsSum',
    message: 'The weights sum to {total}, not {full} (100 %): nothing changed.',
  },
  consolePrizeNotFound: /*i18n*/ { id: 'e.consolePrizeNotFound', message: 'No prize {id} in the table in force.' },
  consoleRestockFormat: /*i18n*/ {
    id: 'v.consoleRestockFormat',
    message: 'A stock is a whole number from 0, or "unlimited".',
  },
  // Customer service (api-contract/console-service.ts)
  consoleEnterReply: /*i18n*/ { id: 'v.consoleEnterReply', message: 'Write an answer first!' },
  consoleReplyTooLong: /*i18n*/ { id: 'v.consoleReplyTooLong', message: 'Keep the answer under 2,000 characters!' },
  consoleEnterTitle: /*i18n*/ { id: 'v.consoleEnterTitle', message: 'Give the canned reply a short title!' },
  consoleTitleTooLong: /*i18n*/ { id: 'v.consoleTitleTooLong', message: 'Keep the title under 60 characters!' },
  consoleNotReviewer: /*i18n*/ {
    id: 'e.consoleNotReviewer',
    message: 'Conversations go to active reviewers only: {0} is not one!',
  },
  consoleEnterNote: /*i18n*/ { id: 'v.consoleEnterNote', message: 'Write the note first!' },
  consoleNoteTooLong: /*i18n*/ { id: 'v.consoleNoteTooLong', message: 'Keep the note under 2,000 characters!' },
  // A review of an item that does not exist or no longer waits (server/domain/reviews.ts), for the console and `npm run
  // ops` alike.
  consoleRechargeNotFound: /*i18n*/ { id: 'e.consoleRechargeNotFound', message: 'No recharge {id}.' },
  consoleRechargeReviewed: /*i18n*/ {
    id: 'e.consoleRechargeReviewed',
    message: 'Recharge {id} was already reviewed ({status}).',
  },
  consoleWithdrawalNotFound: /*i18n*/ { id: 'e.consoleWithdrawalNotFound', message: 'No withdrawal {id}.' },
  consoleWithdrawalReviewed: /*i18n*/ {
    id: 'e.consoleWithdrawalReviewed',
    message: 'Withdrawal {id} was already reviewed ({status}).',
  },
  // A decided item's status in those refusals, in the words of the console's status badge.
  consoleStatusApproved: /*i18n*/ { id: 'e.consoleStatusApproved', message: 'Approved' },
  consoleStatusRejected: /*i18n*/ { id: 'e.consoleStatusRejected', message: 'Rejected' },
  consoleCertificationNotFound: /*i18n*/ { id: 'e.consoleCertificationNotFound', message: 'No certification {id}.' },
  consoleCertificationReviewed: /*i18n*/ {
    id: 'e.consoleCertificationReviewed',
    message: 'Certification {id} was already reviewed ({status}).',
  },
  consoleCertificationAccountClosed: /*i18n*/ {
    id: 'e.consoleCertificationAccountClosed',
    message:
      'Certification {id} belongs to a closed account: its closure ended the review, it can no longer be approved or rejected.',
  },
  // Terms, links, ladders and activities an operator sets (server/domain/settings.ts, service-link.ts, liquidity.ts,
  // activities.ts).
  consoleLockupNotFound: /*i18n*/ { id: 'e.consoleLockupNotFound', message: 'No lock-up product {id}.' },
  // {0} the minimum, {1} the maximum (USDT) a change would leave: no amount could be subscribed.
  consoleLockupRangeEmpty: /*i18n*/ {
    id: 'e.consoleLockupRangeEmpty',
    message:
      'The minimum {0} USDT would be above the maximum {1} USDT: no amount could be subscribed. Nothing changed.',
  },
  consoleServiceLinkFormat: /*i18n*/ {
    id: 'v.consoleServiceLinkFormat',
    message: 'The service link is an http(s) address, or none.',
  },
  consoleHostFormat: /*i18n*/ {
    id: 'v.consoleHostFormat',
    message: '"{host}" is not a host name: list names such as help.example.com, separated by commas.',
  },
  consoleLadderPast: /*i18n*/ {
    id: 'e.consoleLadderPast',
    message: 'The ladder of {day} can no longer change: publish one for a later day.',
  },
  consoleEndBeforeStart: /*i18n*/ { id: 'v.consoleEndBeforeStart', message: 'The end must be after the start.' },
  consoleActivityNotFound: /*i18n*/ { id: 'e.consoleActivityNotFound', message: 'No activity {id} (see: activities).' },
} as const satisfies Record<string, MessageDescriptor>;
