// The texts of the push notification screens: Settings → Notifications and the offer
// after a first order. An area of their own, so no start chunk and no tab page's texts carry them:
// lib/push.ts loads them (loadPushTexts) when either shows, and both name them by these ids
// (lib/push.ts PUSH_TEXT; tests/unit/push-texts.test.ts keeps the two in step).
import { msg } from '@lingui/core/macro';

export const PUSH_TEXTS = {
  heading: msg({ id: 'push.heading', message: 'Notifications' }),
  explain: msg({
    id: 'push.explain',
    message:
      'Know at once when an option settles, an order fills, money arrives or is paid out, your verification is checked or a message comes — even with the app closed.',
  }),
  thisDevice: msg({ id: 'push.thisDevice', message: 'Notifications on this device' }),
  denied: msg({
    id: 'push.denied',
    message: "Notifications are blocked for this app. Allow them in the browser's site settings, then try again.",
  }),
  unsupported: msg({
    id: 'push.unsupported',
    message: 'This browser cannot show notifications from the app. On an iPhone, add the app to the Home Screen first.',
  }),
  offerTitle: msg({ id: 'push.offerTitle', message: 'Get notified?' }),
  turnOn: msg({ id: 'push.turnOn', message: 'Turn on' }),
  notNow: msg({ id: 'push.notNow', message: 'Not now' }),
  option_settled: msg({ id: 'push.kind.option_settled', message: 'Option settled, with the result' }),
  contract_filled: msg({ id: 'push.kind.contract_filled', message: 'Contract order filled' }),
  recharge_reviewed: msg({ id: 'push.kind.recharge_reviewed', message: 'Recharge credited or rejected' }),
  withdraw_reviewed: msg({ id: 'push.kind.withdraw_reviewed', message: 'Withdrawal paid or rejected' }),
  certification_reviewed: msg({ id: 'push.kind.certification_reviewed', message: 'Verification result' }),
  station_message: msg({ id: 'push.kind.station_message', message: 'New message' }),
  service_reply: msg({ id: 'push.kind.service_reply', message: 'An answer from customer service' }),
  price_alert: msg({ id: 'push.kind.price_alert', message: 'Price alert reached' }),
};
