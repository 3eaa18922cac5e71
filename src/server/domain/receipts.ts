// Signed settlement receipts, made from the order's own record: a settled option's start and end ticks (price, time,
// each exchange's price and trade id), its outcome and payout; a filled contract order's fill tick, unit price, fee
// and what moved. The order row keeps the deciding ticks with their constituents (the ticks around them are thinned
// after 48 h), so a receipt reads the same however late it is asked for. Signed when asked, by the key signing at
// that moment; the signature is Ed25519 over the canonical JSON (src/api-contract/receipt-signature.ts, RECEIPTS.md).
import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { contractOrders, type Constituent } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import {
  RECEIPT_FORMAT,
  type ContractReceipt,
  type OptionReceipt,
  type ReceiptKeys,
  type ReceiptTick,
} from '../../api-contract/receipts.ts';
import { Refusal } from './refusal.ts';
import { findOwnOrder } from './options.ts';
import type { ReceiptKeyRing } from './receipt-keys.ts';

/** A decimal as receipts write it: plain digits, no trailing zeros ("10.00000000" → "10"). */
const plain = (value: string) => new Big(value).toFixed();

/** A recorded tick as a receipt carries it; a simulated price has no constituents (an empty list). */
function tick(price: string, at: Date, constituents: readonly Constituent[] | null): ReceiptTick {
  return {
    price: plain(price),
    at: at.toISOString(),
    constituents: (constituents ?? []).map((c) => ({
      exchange: c.exchange,
      price: plain(c.price),
      at: c.at,
      ...(c.tradeId === undefined ? {} : { trade_id: c.tradeId }),
    })),
  };
}

/** `receipt` with the id of the key signing at `now` and the time, and its signature beside it. */
function signed<R extends OptionReceipt | ContractReceipt>(
  keys: ReceiptKeyRing,
  now: Date,
  body: Omit<R, 'format' | 'key_id' | 'signed_at'>,
): { receipt: R; signature: string } {
  const keyId = keys.signingKey(now).id;
  const receipt = { format: RECEIPT_FORMAT, key_id: keyId, signed_at: now.toISOString(), ...body } as R;
  return { receipt, signature: keys.sign(keyId, receipt) };
}

/**
 * The caller's own settled option's receipt, signed. Refuses one that is not settled yet (receiptNotYet); another
 * customer's order is not found (orderNotFound), exactly like one that does not exist.
 */
export async function optionReceiptOf(
  db: Executor,
  keys: ReceiptKeyRing,
  userId: number,
  id: number,
  now: Date,
): Promise<{ receipt: OptionReceipt; signature: string }> {
  const order = await findOwnOrder(db, userId, id);
  if (order.status !== 'settled' || !order.settledAt || order.payout === null || !order.outcome)
    throw new Refusal(texts.receiptNotYet.id);
  return signed<OptionReceipt>(keys, now, {
    kind: 'option',
    order: {
      id: String(order.id),
      account: order.practice ? 'practice' : 'real',
      coin: order.coin,
      direction: order.direction as OptionReceipt['order']['direction'],
      amount: plain(order.amount),
      minutes: String(order.minutes),
      yield_rate: plain(order.yieldRate),
      accepted_at: order.startAt.toISOString(),
    },
    // A void order may lack either tick: the receipt leaves out what never decided anything.
    ...(order.startPrice !== null && order.startPriceAt
      ? { start: tick(order.startPrice, order.startPriceAt, order.startConstituents) }
      : {}),
    ...(order.endPrice !== null && order.endPriceAt
      ? { end: tick(order.endPrice, order.endPriceAt, order.endConstituents) }
      : {}),
    outcome: order.outcome as OptionReceipt['outcome'],
    payout: plain(order.payout),
    settled_at: order.settledAt.toISOString(),
  });
}

/**
 * The caller's own filled contract order's receipt, signed. Refuses an order that is open, filling, cancelled or
 * void (receiptNotYet); another customer's order is not found (orderNotFound).
 */
export async function contractReceiptOf(
  db: Executor,
  keys: ReceiptKeyRing,
  userId: number,
  id: number,
  now: Date,
): Promise<{ receipt: ContractReceipt; signature: string }> {
  const [order] = await db
    .select()
    .from(contractOrders)
    .where(and(eq(contractOrders.id, id), eq(contractOrders.userId, userId)));
  if (!order) throw new Refusal(texts.orderNotFound.id);
  const { unitPrice, total, fee, feeAsset, spent, spentAsset, received, receivedAsset, tickPrice, tickAt, filledAt } =
    order;
  if (
    order.status !== 'filled' ||
    unitPrice === null ||
    total === null ||
    fee === null ||
    !feeAsset ||
    spent === null ||
    !spentAsset ||
    received === null ||
    !receivedAsset ||
    tickPrice === null ||
    !tickAt ||
    !filledAt
  )
    throw new Refusal(texts.receiptNotYet.id);
  return signed<ContractReceipt>(keys, now, {
    kind: 'contract',
    order: {
      id: String(order.id),
      account: order.practice ? 'practice' : 'real',
      coin: order.coin,
      side: order.side as ContractReceipt['order']['side'],
      type: order.type as ContractReceipt['order']['type'],
      ...(order.price === null ? {} : { price: plain(order.price) }),
      ...(order.triggerPrice === null ? {} : { trigger_price: plain(order.triggerPrice) }),
      quantity: plain(order.quantity),
      fee_rate: plain(order.feeRate),
      placed_at: order.createdAt.toISOString(),
      ...(order.dustConversion ? { dust_conversion: 'true' as const } : {}),
    },
    tick: tick(tickPrice, tickAt, order.tickConstituents),
    outcome: 'filled',
    unit_price: plain(unitPrice),
    dealt_quantity: plain(order.dealtQuantity),
    total: plain(total),
    fee: plain(fee),
    fee_asset: feeAsset,
    spent: plain(spent),
    spent_asset: spentAsset,
    payout: plain(received),
    payout_asset: receivedAsset,
    filled_at: filledAt.toISOString(),
  });
}

/** The published keys: what GET /.well-known/receipt-keys.json and the app's call answer. */
export const publishedReceiptKeys = (keys: ReceiptKeyRing): ReceiptKeys => ({ keys: keys.published() });
