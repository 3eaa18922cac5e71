// Push notifications: the kinds a customer can turn off one by one, the calls that
// subscribe a browser (Web Push, VAPID) and keep those choices, and the texts the server writes the
// notifications in. Every call reads or changes the caller's own subscriptions and settings only.
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { NoInput, get, post, returns } from './endpoint.ts';
import { LOCALES } from './constants.ts';
import { texts } from './texts.ts';
import { nothing, shape } from './answers.ts';

/** What a notification can be about; Settings has a switch for each. */
export const NOTICE_KINDS = [
  'option_settled',
  'contract_filled',
  'recharge_reviewed',
  'withdraw_reviewed',
  'certification_reviewed',
  'station_message',
  'service_reply',
  'price_alert',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The push service's address a browser hands out: https only (the server posts to it). */
const PUSH_ENDPOINT = /^https:\/\/[^\s/?#]+\/\S{1,1900}$/;
/** A subscription's keys, base64url: the browser's P-256 public key (65 bytes) and its 16-byte auth secret. */
const P256DH = /^[A-Za-z0-9_-]{86,87}={0,1}$/;
const AUTH_SECRET = /^[A-Za-z0-9_-]{22}(==)?$/;

const field = (pattern: RegExp) =>
  v.pipe(v.string(texts.invalidRequest.id), v.trim(), v.regex(pattern, texts.invalidRequest.id));

/** The server's VAPID public key (base64url), made on its first start: the browser subscribes with it. */
export const pushKey = get(
  '/users/push/key',
  NoInput,
  returns(shape({ public_key: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/)) })),
);

/** Subscribes this browser for the caller (again: its keys and language are updated; a browser another account used is
 * the caller's now). */
export const subscribePush = post(
  '/users/push/subscribe',
  v.object({
    endpoint: field(PUSH_ENDPOINT),
    p256dh: field(P256DH),
    auth: field(AUTH_SECRET),
    /** The app's language: the notifications are written in it. */
    language: v.picklist(LOCALES, texts.invalidRequest.id),
  }),
  returns(nothing),
);

/** Stops notifications to this browser (the caller's subscription only; an unknown one is no error). */
export const unsubscribePush = post(
  '/users/push/unsubscribe',
  v.object({ endpoint: field(PUSH_ENDPOINT) }),
  returns(nothing),
);

const NoticeSettings = shape({
  /** The kinds turned off. */
  off: v.array(v.picklist(NOTICE_KINDS)),
});

/** The kinds the caller turned off. */
export const noticeSettings = get('/users/notifications', NoInput, returns(NoticeSettings));

/** Sets the kinds turned off: `off` lists them, comma-separated ('' turns every kind on). */
export const setNoticeSettings = post(
  '/users/notifications/set',
  v.object({
    off: v.pipe(
      v.string(texts.invalidRequest.id),
      v.regex(new RegExp(`^((${NOTICE_KINDS.join('|')})(,|$))*$`), texts.invalidRequest.id),
    ),
  }),
  returns(NoticeSettings),
);

/**
 * What the server writes a notification in, translated into the subscription's language. Server only
 * (server/i18n.ts loads them with the API contract's texts); the PWA names the kinds in its own words.
 */
export const noticeTexts = {
  optionSettledTitle: /*i18n*/ { id: 'n.optionSettledTitle', message: '{0} option settled' },
  practiceOptionSettledTitle: /*i18n*/ { id: 'n.practiceOptionSettledTitle', message: 'Practice: {0} option settled' },
  optionWon: /*i18n*/ { id: 'n.optionWon', message: 'You won: +{0} USDT' },
  optionLost: /*i18n*/ { id: 'n.optionLost', message: 'You lost: -{0} USDT' },
  optionTie: /*i18n*/ { id: 'n.optionTie', message: 'A tie: your {0} USDT are back' },
  optionVoid: /*i18n*/ { id: 'n.optionVoid', message: 'No price was recorded at expiry: your {0} USDT are refunded' },
  optionVoidAtStart: /*i18n*/ {
    id: 'n.optionVoidAtStart',
    message: 'No price was recorded after your order: it did not open and your {0} USDT are refunded',
  },
  contractFilledTitle: /*i18n*/ { id: 'n.contractFilledTitle', message: 'Contract order filled' },
  practiceContractFilledTitle: /*i18n*/ {
    id: 'n.practiceContractFilledTitle',
    message: 'Practice: contract order filled',
  },
  contractBought: /*i18n*/ { id: 'n.contractBought', message: 'Bought {0} {1} at {2} USDT' },
  contractSold: /*i18n*/ { id: 'n.contractSold', message: 'Sold {0} {1} at {2} USDT' },
  rechargeCreditedTitle: /*i18n*/ { id: 'n.rechargeCreditedTitle', message: 'Recharge credited' },
  rechargeCredited: /*i18n*/ { id: 'n.rechargeCredited', message: '{0} {1} were added to your balance' },
  rechargeRejectedTitle: /*i18n*/ { id: 'n.rechargeRejectedTitle', message: 'Recharge rejected' },
  withdrawPaidTitle: /*i18n*/ { id: 'n.withdrawPaidTitle', message: 'Withdrawal paid' },
  withdrawPaid: /*i18n*/ { id: 'n.withdrawPaid', message: '{0} {1} were paid out' },
  withdrawRejectedTitle: /*i18n*/ { id: 'n.withdrawRejectedTitle', message: 'Withdrawal rejected' },
  /** A rejection: the amount, then the reason the operator gave. */
  rejectedBecause: /*i18n*/ { id: 'n.rejectedBecause', message: '{0} {1} · Reason: {2}' },
  certificationApprovedTitle: /*i18n*/ { id: 'n.certificationApprovedTitle', message: 'Verification approved' },
  certificationApproved: /*i18n*/ { id: 'n.certificationApproved', message: 'Your identity verification was approved' },
  certificationRejectedTitle: /*i18n*/ { id: 'n.certificationRejectedTitle', message: 'Verification rejected' },
  serviceReplyTitle: /*i18n*/ { id: 'n.serviceReplyTitle', message: 'Customer service replied' },
} as const satisfies Record<string, MessageDescriptor>;
