// Conditional contract orders: the rules of a trigger, once, for the form, the server's checks and the tests (the
// matcher's SQL states the same rules over recorded ticks). A stop (stop-market or stop-limit) buy waits for the price
// to rise to its trigger, a stop sell for it to fall; a stop-loss leg is a stop; a take-profit leg waits the other way
// (a sell takes its profit on a rise). Only a tick recorded after the order was accepted can trigger it.
import Big from 'big.js';
import type { MessageDescriptor } from '@lingui/core';

/**
 * The refusals of conditional orders, here and not in texts.ts (which every route carries at start): only the
 * contracts screens and the server name them.
 */
export const triggerTexts = {
  enterTriggerPrice: /*i18n*/ { id: 'v.enterTriggerPrice', message: 'Please enter the trigger price!' },
  triggerPriceFormat: /*i18n*/ { id: 'v.triggerPriceFormat', message: 'Please enter a valid trigger price!' },
  triggerOffTick: /*i18n*/ { id: 'v.triggerOffTick', message: 'The trigger price must be a multiple of {0}!' },
  triggerNotAbove: /*i18n*/ {
    id: 'v.triggerNotAbove',
    message: 'The trigger price must be above the latest price ({0})!',
  },
  triggerNotBelow: /*i18n*/ {
    id: 'v.triggerNotBelow',
    message: 'The trigger price must be below the latest price ({0})!',
  },
  takeProfitNotAbove: /*i18n*/ {
    id: 'v.takeProfitNotAbove',
    message: 'The take-profit price must be above {0}!',
  },
  stopLossNotBelow: /*i18n*/ { id: 'v.stopLossNotBelow', message: 'The stop-loss price must be below {0}!' },
  enterTakeProfitOrStopLoss: /*i18n*/ {
    id: 'v.enterTakeProfitOrStopLoss',
    message: 'Please enter a take-profit or a stop-loss price!',
  },
  takeProfitStopLossBuyOnly: /*i18n*/ {
    id: 'v.takeProfitStopLossBuyOnly',
    message: 'Take-profit and stop-loss can be attached to a buy order only!',
  },
  orderTakesNoLegs: /*i18n*/ {
    id: 'e.orderTakesNoLegs',
    message: 'This order is no longer open, or already has a take-profit or stop-loss!',
  },
} as const satisfies Record<string, MessageDescriptor>;

/** The two legs of a take-profit / stop-loss pair. */
export const TRIGGER_LEGS = ['take_profit', 'stop_loss'] as const;
export type TriggerLeg = (typeof TRIGGER_LEGS)[number];

/** The side of a conditional order, as the API contract's OrderSide. */
type Side = 'buy' | 'sell';

/** A conditional order never waits for ever: one not triggered within 30 days of its acceptance expires (ms). */
export const TRIGGER_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Whether an order waits for the price to rise to its trigger (true: a tick at or above releases it) or to fall to it
 * (false: at or below). A stop or stop-loss buy rises, a stop or stop-loss sell falls; a take-profit the other way.
 */
export const triggersAbove = (side: Side, leg: TriggerLeg | null): boolean =>
  leg === 'take_profit' ? side === 'sell' : side === 'buy';

/** Whether a recorded price `tick` reaches a trigger waiting above (at or above it) or below (at or below it). */
export const reaches = (above: boolean, trigger: string, tick: string): boolean =>
  above ? new Big(tick).gte(trigger) : new Big(tick).lte(trigger);

/**
 * Whether a trigger is on its side of the latest recorded price: strictly above it for one waiting above, strictly
 * below for one waiting below. One the latest price already reaches would be a market order under another name.
 */
export const onItsSide = (above: boolean, trigger: string, latest: string): boolean =>
  above ? new Big(trigger).gt(latest) : new Big(trigger).lt(latest);

/** A recorded tick: its time and price (a decimal string). */
export interface RecordedTick {
  at: Date;
  price: string;
}

/** A waiting trigger: which way it waits, its price, and the time after which a tick may release it. */
export interface WaitingTrigger {
  above: boolean;
  trigger: string;
  eligibleAfter: Date;
}

/** The first tick (of `ticks`, in time order) recorded strictly after `eligibleAfter` that reaches the trigger, or
 * null. */
export function firstReaching(order: WaitingTrigger, ticks: readonly RecordedTick[]): RecordedTick | null {
  return ticks.find((tick) => tick.at > order.eligibleAfter && reaches(order.above, order.trigger, tick.price)) ?? null;
}

/**
 * The OCO rule: of two legs waiting together, the one whose first reaching tick comes first triggers (and fills), the
 * other is cancelled; when one tick reaches both (a gap through both legs), the stop-loss triggers, the safer reading.
 * Answers the leg that triggers and its tick, or null while neither is reached.
 */
export function ocoTrigger<L extends WaitingTrigger & { leg: TriggerLeg }>(
  legs: readonly L[],
  ticks: readonly RecordedTick[],
): { leg: L; tick: RecordedTick } | null {
  let best: { leg: L; tick: RecordedTick } | null = null;
  for (const leg of legs) {
    const tick = firstReaching(leg, ticks);
    if (!tick) continue;
    const earlier = !best || tick.at < best.tick.at;
    const tieToStopLoss = best !== null && tick.at.getTime() === best.tick.at.getTime() && leg.leg === 'stop_loss';
    if (earlier || tieToStopLoss) best = { leg, tick };
  }
  return best;
}

/**
 * What a stop-market order reserves while it waits: a sell its quantity of the coin; a buy what a market buy would
 * reserve at the moment it triggers, its trigger price standing for the latest price — quantity × trigger × (1 + the
 * pair's price band), rounded up to 8 decimals. A fill tick beyond that voids it and releases the reserve, as a market
 * order's does.
 */
export function stopMarketReserve(
  side: Side,
  code: string,
  trigger: string,
  quantity: string,
  band: string,
): { asset: string; amount: string } {
  if (side === 'sell') return { asset: code, amount: new Big(quantity).toFixed(8) };
  return {
    asset: 'USDT',
    amount: new Big(trigger).times(quantity).times(new Big(1).plus(band)).round(8, Big.roundUp).toFixed(8),
  };
}
