// Realised profit and loss of contract fills by FIFO cost basis ("first in, first out": each sale disposes of the
// oldest units still held, as tax authorities that allow or require FIFO define it — the cost of the units disposed of
// is the cost of the earliest acquisitions not yet disposed of). Pure: fills in, disposals and lots out, decimals
// (big.js) only, no database, no clock.
import Big from 'big.js';
import type { OrderSide } from '../../api-contract/contracts.ts';

/**
 * One fill as FIFO reads it, of one customer. Amounts are decimal strings of what the ledger moved:
 * - a buy: `spent` USDT left the balance (price × quantity, plus the fee when paid in USDT), `received` coin arrived
 *   (less the fee when paid in the coin) — the lot holds `received` and costs `spent`, so its fee is in its cost;
 * - a sell: `spent` coin left, `received` USDT arrived (price × quantity less the fee) — the proceeds, so its fee
 *   reduces them.
 */
export interface FifoFill {
  id: number;
  /** The coin of the pair: lots are kept per pair. */
  code: string;
  side: OrderSide;
  /** When it filled: fills are taken in (at, id) order. */
  at: Date;
  spent: string;
  received: string;
}

/** Units of one buy still held: `quantity` of the coin that cost `cost` USDT. */
export interface Lot {
  fillId: number;
  quantity: Big;
  cost: Big;
}

/** What one sell realised: its proceeds, the cost of the lots it consumed (oldest first), and the difference. */
export interface Disposal {
  fillId: number;
  code: string;
  at: Date;
  /** Coin sold. */
  quantity: Big;
  /** USDT received, after the sell's fee. */
  proceeds: Big;
  /** USDT the consumed units cost, their buys' fees included. */
  cost: Big;
  /** proceeds − cost. */
  realised: Big;
  /** Coin sold with no lot left to consume (it came from outside trading): its cost is taken as 0. */
  unmatched: Big;
}

export interface FifoResult {
  /** One per sell, in the order taken. */
  disposals: Disposal[];
  /** The lots left per pair, oldest first (a pair sold down to nothing keeps an empty list). */
  lots: Map<string, Lot[]>;
}

const byTimeThenId = (a: FifoFill, b: FifoFill) => a.at.getTime() - b.at.getTime() || a.id - b.id;

/**
 * Applies `fills` (any order: they are taken by fill time, then id) by FIFO per pair: a buy adds a lot; a sell
 * consumes the oldest lots first, a lot partly consumed giving up its cost pro rata (rounded half up to 8 decimals)
 * and the part consumed last taking what is left of its cost, so the costs of a lot's parts always sum to its cost
 * exactly. Realised = proceeds − cost of the units consumed. A sell larger than the lots held consumes them all; the
 * rest is `unmatched`, at cost 0.
 */
export function applyFifo(fills: readonly FifoFill[]): FifoResult {
  const lots = new Map<string, Lot[]>();
  const disposals: Disposal[] = [];
  for (const fill of [...fills].sort(byTimeThenId)) {
    const held = lots.get(fill.code) ?? [];
    lots.set(fill.code, held);
    if (fill.side === 'buy') {
      held.push({ fillId: fill.id, quantity: new Big(fill.received), cost: new Big(fill.spent) });
      continue;
    }
    let left = new Big(fill.spent);
    let cost = new Big(0);
    while (left.gt(0) && held.length > 0) {
      const lot = held[0]!;
      if (lot.quantity.lte(left)) {
        cost = cost.plus(lot.cost);
        left = left.minus(lot.quantity);
        held.shift();
        continue;
      }
      const share = lot.cost.times(left).div(lot.quantity).round(8, Big.roundHalfUp);
      cost = cost.plus(share);
      lot.cost = lot.cost.minus(share);
      lot.quantity = lot.quantity.minus(left);
      left = new Big(0);
    }
    const proceeds = new Big(fill.received);
    disposals.push({
      fillId: fill.id,
      code: fill.code,
      at: fill.at,
      quantity: new Big(fill.spent),
      proceeds,
      cost,
      realised: proceeds.minus(cost),
      unmatched: left,
    });
  }
  return { disposals, lots };
}
