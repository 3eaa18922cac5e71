// Signed settlement receipts: every settled option and filled contract order has one, a statement of the order, the
// recorded ticks that decided it (with each exchange's price and trade id) and its outcome and payout, signed with an
// Ed25519 key of the platform. The public keys are published (GET /.well-known/receipt-keys.json, and the same list
// through the API for the app's offline cache); a receipt names the id of the key that signed it, so receipts signed
// before a key rotation still verify. The canonical bytes and the check are in receipt-signature.ts; the format is
// described for outside verifiers in src/server/domain/RECEIPTS.md.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { required } from './fields.ts';
import { texts } from './texts.ts';
import { decimal, isoTime, shape } from './answers.ts';
import type { OrderType } from './contracts.ts';
import type { OptionOutcome } from './options.ts';

// The options' outcomes and the contract orders' types as their own records name them, written out here (type imports
// only: importing the lists would pull the order calls' modules into every screen that shows a receipt link, past the
// Options route's size ceiling); `satisfies` keeps each list within its record's, and NamesEvery makes the compiler
// refuse a list that leaves one of the record's out (a new outcome or order type must be named here too).
const OUTCOMES = ['win', 'loss', 'tie', 'void'] as const satisfies readonly OptionOutcome[];
const TYPES = ['limit', 'market', 'stop_market', 'stop_limit'] as const satisfies readonly OrderType[];
/** `true` when the list `L` names every member of `T`; else the members it leaves out (which `true` cannot take). */
type NamesEvery<T, L extends readonly T[]> = [Exclude<T, L[number]>] extends [never] ? true : Exclude<T, L[number]>;
/** Compiles only with `true`. */
type Holds<Check extends true> = Check;
export type ReceiptListsComplete = Holds<NamesEvery<OptionOutcome, typeof OUTCOMES>> &
  Holds<NamesEvery<OrderType, typeof TYPES>>;

/** The format named in every receipt; a later format gets a new name beside this one. */
export const RECEIPT_FORMAT = 'coinvest-receipt-1';
/** Where the public keys are published, outside /api: a plain JSON document anyone may fetch and cache. */
export const RECEIPT_KEYS_PATH = '/.well-known/receipt-keys.json';

const keyId = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/), v.examples(['3f9a0c27d1e84b55']));
/** Standard base64 (RFC 4648 section 4, with padding). */
const base64 = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9+/]+={0,2}$/),
  v.examples(['MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=']),
);
/** A whole number as a decimal string: every value of a receipt is a string, so its canonical form is plain. */
const digits = v.pipe(v.string(), v.regex(/^\d+$/), v.examples(['42']));

/** An exchange's price in a recorded index tick: its time and, where the tick kept one, the exchange's trade id. */
export const ReceiptConstituent = shape({
  exchange: v.string(),
  price: decimal,
  at: isoTime,
  trade_id: v.optional(v.string()),
});

/** A recorded tick: its price and time, and the exchanges' prices it was made of (empty for a simulated price). */
export const ReceiptTick = shape({ price: decimal, at: isoTime, constituents: v.array(ReceiptConstituent) });
export type ReceiptTick = v.InferOutput<typeof ReceiptTick>;

/** What the option receipt says of the order as it was accepted. */
const OptionReceiptOrder = shape({
  id: digits,
  /** 'real' or 'practice' (virtual money). */
  account: v.picklist(['real', 'practice']),
  coin: v.string(),
  direction: v.picklist(['up', 'down']),
  /** The stake, USDT. */
  amount: decimal,
  minutes: digits,
  yield_rate: decimal,
  accepted_at: isoTime,
});

/** A settled option's receipt (the part that is signed). `start`/`end` are absent when no tick decided them (void). */
export const OptionReceipt = shape({
  format: v.literal(RECEIPT_FORMAT),
  kind: v.literal('option'),
  key_id: keyId,
  signed_at: isoTime,
  order: OptionReceiptOrder,
  start: v.optional(ReceiptTick),
  end: v.optional(ReceiptTick),
  /** As the option's own record says it (OPTION_OUTCOMES). */
  outcome: v.picklist(OUTCOMES),
  /** What was paid back, USDT (0 on a loss). */
  payout: decimal,
  settled_at: isoTime,
});
export type OptionReceipt = v.InferOutput<typeof OptionReceipt>;

const ContractReceiptOrder = shape({
  id: digits,
  account: v.picklist(['real', 'practice']),
  coin: v.string(),
  side: v.picklist(['buy', 'sell']),
  type: v.picklist(TYPES),
  /** A limit or stop-limit order's limit price; absent for a market or stop order. */
  price: v.optional(decimal),
  /** A conditional order's trigger (a stop, a stop-limit, a take-profit or stop-loss leg): the recorded price that
   * released it; absent for a plain order. */
  trigger_price: v.optional(decimal),
  quantity: decimal,
  fee_rate: decimal,
  placed_at: isoTime,
  /** "true" for a small balance's conversion to USDT (a market sell of an amount no order can sell, asked for as a
   * conversion); absent for an order the customer placed. */
  dust_conversion: v.optional(v.literal('true')),
});

/** A filled contract order's receipt (the part that is signed): the one tick it filled at, and what moved. */
export const ContractReceipt = shape({
  format: v.literal(RECEIPT_FORMAT),
  kind: v.literal('contract'),
  key_id: keyId,
  signed_at: isoTime,
  order: ContractReceiptOrder,
  tick: ReceiptTick,
  outcome: v.literal('filled'),
  unit_price: decimal,
  dealt_quantity: decimal,
  total: decimal,
  fee: decimal,
  fee_asset: v.string(),
  spent: decimal,
  spent_asset: v.string(),
  /** What arrived in the balance, in `payout_asset`. */
  payout: decimal,
  payout_asset: v.string(),
  filled_at: isoTime,
});
export type ContractReceipt = v.InferOutput<typeof ContractReceipt>;

/** A receipt and its signature: Ed25519 over the canonical JSON of `receipt`, in standard base64 (64 bytes). */
// Written out for each kind: the PWA's build empties shape()'s arguments, and a helper around it would keep them.
export const SignedOptionReceipt = shape({ receipt: OptionReceipt, signature: base64 });
export const SignedContractReceipt = shape({ receipt: ContractReceipt, signature: base64 });

/** A receipt as the app and an outside verifier handle it: either kind, the signature beside it. */
export interface SignedReceipt {
  receipt: OptionReceipt | ContractReceipt;
  signature: string;
}

/**
 * One published key: its id (the first 16 hex digits of the SHA-256 of the raw public key), the 32-byte raw public
 * key in base64, and the time from which it signs; `valid_until` is when the next key replaced it (null: current);
 * `revoked_at` is when the platform revoked it because it may have leaked (null: not revoked): every receipt it
 * signed, whatever its date, is then not to be relied on (a copy of the key could sign any date), and the platform
 * signs the order's receipt anew with its current key when asked. A list cached before the field existed lacks it.
 */
export const ReceiptKey = shape({
  id: keyId,
  algorithm: v.literal('Ed25519'),
  public_key: base64,
  valid_from: isoTime,
  valid_until: v.nullable(isoTime),
  revoked_at: v.nullable(isoTime),
});
export type ReceiptKey = v.InferOutput<typeof ReceiptKey>;
export const ReceiptKeys = shape({ keys: v.array(ReceiptKey) });
export type ReceiptKeys = v.InferOutput<typeof ReceiptKeys>;

/** Our addition: the caller's own settled option's signed receipt; a pending one is refused, another's not found. */
export const optionReceipt = get(
  '/receipts/option',
  v.object({ id: required(texts.orderNotFound) }),
  returns(SignedOptionReceipt),
  { cache: 'user' },
);

/** Our addition: the caller's own filled contract order's signed receipt; an order not filled is refused. */
export const contractReceipt = get(
  '/receipts/contract',
  v.object({ id: required(texts.orderNotFound) }),
  returns(SignedContractReceipt),
  { cache: 'user' },
);

/** Our addition: the receipt keys, as published at RECEIPT_KEYS_PATH (for the app, kept for offline checks). */
export const receiptKeys = get('/receipts/keys', NoInput, returns(ReceiptKeys), { cache: 'public', auth: false });
