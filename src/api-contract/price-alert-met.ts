// An above / below price alert the last recorded price already meets would go off at once: the page and the server
// refuse it with the price it is weighed against. In a file of its own so the app's start chunk, which carries the
// price alert calls (the outbox sends them), does not carry it.
import Big from 'big.js';
import type { MessageDescriptor } from '@lingui/core';
import type { PriceAlertKind } from './price-alerts.ts';

/** The price alerts' own refusals (kept out of the app's start; the server translates them too). */
export const alertTexts = {
  alertAlreadyAbove: /*i18n*/ {
    id: 'v.alertAlreadyAbove',
    message: '{0} is already at or above {1}: its last recorded price is {2}. Choose a higher price!',
  },
  alertAlreadyBelow: /*i18n*/ {
    id: 'v.alertAlreadyBelow',
    message: '{0} is already at or below {1}: its last recorded price is {2}. Choose a lower price!',
  },
} as const satisfies Record<string, MessageDescriptor>;

/**
 * Whether an above / below alert for `target` would go off at once, its coin `code` last recorded at `last` (an alert
 * fires on a tick at or above its price, or at or below it): the refusal saying so, with the coin, the target and the
 * last price as decimals for the reader, or null (a move, or a target the price has yet to reach).
 */
export function alertAlreadyMet(
  input: { code: string; kind: PriceAlertKind; price: string },
  last: string,
): MessageDescriptor | null {
  if (input.kind === 'move' || !input.price) return null;
  const target = new Big(input.price);
  const met = input.kind === 'above' ? target.lte(last) : target.gte(last);
  if (!met) return null;
  const text = input.kind === 'above' ? alertTexts.alertAlreadyAbove : alertTexts.alertAlreadyBelow;
  return { ...text, values: { 0: input.code, 1: target, 2: new Big(last) } };
}
