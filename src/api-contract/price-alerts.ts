// Our addition: price alerts. "Tell me when BTC goes above / below X" and "when BTC moves N % in 24 hours", weighed
// against recorded ticks only (never a price the feed did not record), each delivered once, by push where the
// customer allows it and always as a station message. At most PRICE_ALERTS_MAX per customer; created offline
// through the outbox like any other write.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching, optionalMatching } from './fields.ts';
import { texts } from './texts.ts';
import { decimal, isoTime, nothing, shape, whole } from './answers.ts';
import { AMOUNT, coinCode } from './markets.ts';

/** The most alerts a customer may have waiting at once (fired ones do not count). */
export const PRICE_ALERTS_MAX = 50;
export const PRICE_ALERT_KINDS = ['above', 'below', 'move'] as const;
export type PriceAlertKind = (typeof PRICE_ALERT_KINDS)[number];
/** A move is measured against the price recorded this long before the tick weighed (the last one at or before then,
 * recorded in the minute before; none there, no measure). */
export const PRICE_ALERT_MOVE_HOURS = 24;
/** A move of 0.1 % to 100 %, at most two decimals. */
export const ALERT_PERCENT = /^(?:100(?:\.0{1,2})?|[1-9]?\d(?:\.\d{1,2})?)$/;
/** What ALERT_PERCENT lets through below 0.1 (and an absent percent): 0, 0.0, 0.00 to 0.09. */
const BELOW_TENTH = /^(?:|0(?:\.0\d?)?)$/;

export const PriceAlert = shape({
  id: whole,
  code: v.string(),
  kind: v.picklist(PRICE_ALERT_KINDS),
  /** above / below: the price; null for a move. */
  price: v.nullable(decimal),
  /** move: the percent (5 = 5 %); null otherwise. */
  percent: v.nullable(decimal),
  created_at: isoTime,
  /** When it fired (null while waiting), with the recorded tick that fired it. */
  fired_at: v.nullable(isoTime),
  fired_price: v.nullable(decimal),
  fired_tick_at: v.nullable(isoTime),
  /** move: the recorded price 24 hours before the firing tick. */
  fired_from_price: v.nullable(decimal),
});
export type PriceAlert = v.InferOutput<typeof PriceAlert>;

/** The caller's alerts, waiting ones first (newest first), then the latest PRICE_ALERTS_MAX fired ones (last fired
 * first); `max` is the most that may wait at once. */
export const priceAlerts = get(
  '/users/price-alerts',
  NoInput,
  returns(shape({ lists: v.array(PriceAlert), max: whole })),
  { cache: 'user' },
);

export const AddPriceAlertInput = v.pipe(
  v.object({
    code: coinCode,
    kind: v.picklist(PRICE_ALERT_KINDS, texts.invalidRequest.id),
    /** above / below: the price. */
    price: optionalMatching(AMOUNT, texts.priceFormat),
    /** move: the percent. */
    percent: optionalMatching(ALERT_PERCENT, texts.enterAlertPercent),
  }),
  // Above / below: a price above zero (AMOUNT has no sign, so one digit other than 0 says it), and no percent.
  v.check((input) => input.kind === 'move' || /[1-9]/.test(input.price), texts.enterAlertPrice.id),
  // A move: a percent of at least 0.1 (ALERT_PERCENT caps it at 100), and no price.
  v.check((input) => input.kind !== 'move' || !BELOW_TENTH.test(input.percent), texts.enterAlertPercent.id),
  v.check((input) => (input.kind === 'move' ? input.price === '' : input.percent === ''), texts.alertOneTarget.id),
);
/** Makes an alert for a listed coin; refused (texts.priceAlertsFull) when the caller already has PRICE_ALERTS_MAX
 * waiting. */
export const addPriceAlert = post('/users/price-alerts/add', AddPriceAlertInput, returns(PriceAlert));

/** Deletes one of the caller's alerts, waiting or fired; another's or an unknown id is refused alike. */
export const deletePriceAlert = post(
  '/users/price-alerts/delete',
  v.object({ id: matching(/^\d{1,9}$/, texts.invalidRequest) }),
  returns(nothing),
);
