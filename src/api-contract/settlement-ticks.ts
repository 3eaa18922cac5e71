// A settled option's ticks: the index ticks recorded around its start and around its end, each with
// the exchanges' prices it was made of, the deciding one marked, so a customer sees exactly which
// recorded tick gave the start price and which the end price. Settled data never changes, so the
// answer is kept for offline reading like the customer's other reads.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { required } from './fields.ts';
import { texts } from './texts.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';
import { Constituents } from './markets.ts';

/** How many recorded ticks are shown before and after each deciding tick (or moment, for a void order). */
export const TICKS_AROUND = 5;

export const SettlementTick = shape({
  price: decimal,
  at: isoTime,
  constituents: Constituents,
  /** The tick that gave the order its start (or end) price. */
  deciding: v.boolean(),
});
export type SettlementTick = v.InferOutput<typeof SettlementTick>;

export const TickWindow = shape({
  /** The deciding tick's time; null when there was none (a void order): the ticks are then around the moment. */
  deciding_at: v.nullable(isoTime),
  /** Oldest first: up to TICKS_AROUND before the deciding tick, the tick itself, up to TICKS_AROUND after. */
  ticks: v.array(SettlementTick),
});
export type TickWindow = v.InferOutput<typeof TickWindow>;

export const SettlementTicks = shape({
  id: whole,
  code: v.string(),
  start: TickWindow,
  end: TickWindow,
});
export type SettlementTicks = v.InferOutput<typeof SettlementTicks>;

/** Our addition: the caller's own settled option's ticks around its start and its end. */
export const settlementTicks = get(
  '/coin/order/ticks',
  v.object({ id: required(texts.orderNotFound) }),
  returns(SettlementTicks),
  { cache: 'user' },
);
