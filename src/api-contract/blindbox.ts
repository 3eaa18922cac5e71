// The provably fair blind box: the calls, and the one implementation of the draw's
// mathematics that the server uses to draw and the browser uses to verify. Scheme:
//   server seed: 32 random bytes, hex; its SHA-256 (hex) is shown before any draw with it.
//   draw n:      HMAC-SHA256(key = server seed as UTF-8 text, message = `${clientSeed}:${n}`)
//   roll:        the first 52 bits of that digest (13 hex digits) × 1,000,000 >> 52 → [0, 1,000,000)
//   prize:       walk the table in its stored order adding weights (parts per million); the first
//                prize whose cumulative weight exceeds the roll is won.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { cursor, matching } from './fields.ts';
import { texts } from './texts.ts';
import { CursorPaged } from './envelope.ts';
import { decimal, hex64, isoTime, shape, whole } from './answers.ts';

/** Weights are parts per million: the active prizes' weights sum to exactly this. */
export const WEIGHT_TOTAL = 1_000_000;
export const PAY_WITH = ['points', 'usdt'] as const;
export type PayWith = (typeof PAY_WITH)[number];
/** The ledger asset a draw is paid with. */
export const PAY_ASSET: Record<PayWith, string> = { points: 'POINT', usdt: 'USDT' };
/** The most characters a client seed may have (the seed field counts up to it, the server refuses a longer one). */
export const CLIENT_SEED_MAX_LENGTH = 64;
/** 1 to CLIENT_SEED_MAX_LENGTH printable ASCII characters without spaces, so the message `${clientSeed}:${nonce}`
 * reads the same everywhere. */
export const CLIENT_SEED = new RegExp(`^[\\x21-\\x7e]{1,${CLIENT_SEED_MAX_LENGTH}}$`);
export const DRAWS_PAGE_SIZE = 20;

// ---- The draw's mathematics (pure; Web Crypto: Node 20 and browsers' secure contexts) ----------

/** An entry of the prize table a roll is mapped onto, in its stored order. */
export const TableEntry = shape({ id: whole, weight: whole });
export type TableEntry = v.InferOutput<typeof TableEntry>;

/** Web Crypto, or null where the browser withholds it (plain http other than localhost). */
export function subtleCrypto(): SubtleCrypto | null {
  return globalThis.crypto?.subtle ?? null;
}

function needSubtle(): SubtleCrypto {
  const subtle = subtleCrypto();
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available: a secure (https) connection is needed');
  return subtle;
}

const toHex = (buffer: ArrayBuffer) =>
  [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string) => new TextEncoder().encode(text);

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await needSubtle().digest('SHA-256', utf8(text)));
}

export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const subtle = needSubtle();
  const imported = await subtle.importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await subtle.sign('HMAC', imported, utf8(message)));
}

/** A digest's first 52 bits scaled to [0, 1,000,000) in integers: no float rounding anywhere. */
export function rollFromHex(digestHex: string): number {
  const bits = BigInt(`0x${digestHex.slice(0, 13)}`);
  return Number((bits * BigInt(WEIGHT_TOTAL)) >> 52n);
}

/** The roll of draw `nonce` with this seed pair, in [0, 1,000,000). */
export async function drawRoll(serverSeed: string, clientSeed: string, nonce: number): Promise<number> {
  return rollFromHex(await hmacSha256Hex(serverSeed, `${clientSeed}:${nonce}`));
}

/** The table entry a roll lands on: cumulative weights in table order. Null if the table sums to less. */
export function prizeFor<T extends TableEntry>(roll: number, table: readonly T[]): T | null {
  let cumulative = 0;
  for (const entry of table) {
    cumulative += entry.weight;
    if (roll < cumulative) return entry;
  }
  return null;
}

export const tableTotal = (table: readonly TableEntry[]) => table.reduce((sum, entry) => sum + entry.weight, 0);

/** "12.5%" from parts per million, exact (4 decimals at most). */
export const oddsPercent = (weight: number) => `${new Big(weight).div(10_000).toFixed()}%`;

/** The expected prize value per draw in one asset: Σ weight × amount / 1,000,000. */
export function expectedValue(
  prizes: readonly { weight: number; asset: string; amount: string }[],
  asset: string,
): string {
  const total = prizes
    .filter((prize) => prize.asset === asset)
    .reduce((sum, prize) => sum.plus(new Big(prize.amount).times(prize.weight)), new Big(0));
  return total.div(WEIGHT_TOTAL).round(8, Big.roundDown).toFixed();
}

/** An amount in USDT: USDT as it is, points at the redemption rate; null for any other asset. */
export function usdtValue(amount: string, asset: string, usdtPerPoint: string | null): Big | null {
  if (asset === PAY_ASSET.usdt) return new Big(amount);
  if (asset === PAY_ASSET.points && usdtPerPoint !== null) return new Big(amount).times(usdtPerPoint);
  return null;
}

/**
 * The expected value of a draw against its costs, all in USDT (points at the redemption rate), so
 * the page can say plainly whether a draw returns less than it costs. Null when a prize or a cost
 * is in an asset without a USDT value.
 */
export function valueAgainstCost(info: {
  expected: Readonly<Record<string, string>>;
  costs: readonly Readonly<BoxCost>[];
  usdt_per_point: string | null;
}): { expected: string; below: boolean; above: boolean } | null {
  let expected = new Big(0);
  for (const [asset, value] of Object.entries(info.expected)) {
    const usdt = usdtValue(value, asset, info.usdt_per_point);
    if (!usdt) return null;
    expected = expected.plus(usdt);
  }
  const costs = info.costs.map((cost) => usdtValue(cost.amount, cost.asset, info.usdt_per_point));
  if (!costs.length || costs.some((cost) => cost === null)) return null;
  return {
    expected: expected.round(8, Big.roundDown).toFixed(),
    below: costs.every((cost) => expected.lt(cost!)),
    above: costs.every((cost) => expected.gte(cost!)),
  };
}

// ---- The calls ----------------------------------------------------------------------------

export const BoxPrize = shape({
  id: whole,
  name: v.string(),
  asset: v.string(),
  /** "0": thanks for playing. */
  amount: decimal,
  weight: whole,
  /** "12.5%" */
  odds: v.pipe(v.string(), v.regex(/^\d+(?:\.\d+)?%$/)),
  /** null: unlimited. */
  stock: v.nullable(whole),
});
export type BoxPrize = v.InferOutput<typeof BoxPrize>;

export const BoxCost = shape({
  pay: v.picklist(PAY_WITH),
  asset: v.string(),
  amount: decimal,
});
export type BoxCost = v.InferOutput<typeof BoxCost>;

export const SeedState = shape({
  seed_id: whole,
  server_hash: hex64,
  client_seed: v.string(),
  next_nonce: whole,
});
export type SeedState = v.InferOutput<typeof SeedState>;

export const BlindBoxInfo = shape({
  /** The prizes of the caller's seed's table, with their odds and today's stock. */
  prizes: v.array(BoxPrize),
  /**
   * False when no draw is possible: that table does not sum to 100 % (rotate the seed), there is no cost, or a prize of
   * it is sold out (the box is closed until it is restocked).
   */
  available: v.boolean(),
  costs: v.array(BoxCost),
  /** Expected prize value per draw, by asset of the prizes: { USDT: "0.42", POINT: "30" }; {} while not `available`. */
  expected: v.record(v.string(), decimal),
  /** USDT paid for one point when redeemed (the points rule); null when there is none. */
  usdt_per_point: v.nullable(decimal),
  seed: SeedState,
  /**
   * Whether the caller's seed uses the table published now. A seed keeps the table it was committed
   * with (so no table can be arranged around a known next roll); rotating it brings the new one.
   */
  table_current: v.boolean(),
});
export type BlindBoxInfo = v.InferOutput<typeof BlindBoxInfo>;
export const blindBoxInfo = get('/blindbox/info', NoInput, returns(BlindBoxInfo), { cache: 'user' });

export const BoxDraw = shape({
  id: whole,
  seed_id: whole,
  nonce: whole,
  client_seed: v.string(),
  roll: whole,
  prize_id: whole,
  prize_name: v.string(),
  prize_asset: v.string(),
  prize_amount: decimal,
  cost_asset: v.string(),
  cost: decimal,
  /** The table the roll was mapped onto, in order. */
  prize_table: v.array(TableEntry),
  server_hash: hex64,
  /** Shown once the seed is rotated; null before. */
  server_seed: v.nullable(hex64),
  created_at: isoTime,
});
export type BoxDraw = v.InferOutput<typeof BoxDraw>;

export const drawBlindBox = post(
  '/blindbox/draw',
  v.object({
    pay: v.picklist(PAY_WITH, texts.choosePayment.id),
    /**
     * Our addition: the cost of one draw the customer was shown and confirmed for this way of paying (its `amount` in
     * `costs`). When sent, a draw whose cost is another one now (an operator changed it meanwhile) is refused rather
     * than charged at a cost the customer never saw; without it the draw takes the cost of the moment.
     */
    cost: v.optional(matching(/^\d{1,12}(?:\.\d{1,8})?$/, texts.invalidRequest)),
  }),
  returns(shape({ draw: BoxDraw, seed: SeedState })),
);

export const SeedRotation = shape({
  /** The seed just revealed: its SHA-256 is the hash shown before its draws. */
  revealed: shape({ seed_id: whole, server_seed: hex64, server_hash: hex64 }),
  seed: SeedState,
});
export type SeedRotation = v.InferOutput<typeof SeedRotation>;
export const setClientSeed = post(
  '/blindbox/seed',
  v.object({ client_seed: matching(CLIENT_SEED, texts.clientSeedFormat) }),
  returns(SeedRotation),
);
export const rotateSeed = post('/blindbox/rotate', NoInput, returns(SeedRotation));

export const blindBoxDraws = get(
  '/blindbox/draws',
  v.object({ cursor }),
  returns(CursorPaged(BoxDraw, shape({ total: whole }))),
  {
    cache: 'user',
  },
);

// ---- Verification (the browser's check of a past draw) ---------------------------------------

export type DrawCheck = 'verified' | 'mismatch' | 'unrevealed';

/** Re-derives a draw from its revealed seed: the hash commits to the seed, the roll and prize follow. */
export async function verifyDraw(
  draw: Pick<BoxDraw, 'server_seed' | 'server_hash' | 'client_seed' | 'nonce' | 'roll' | 'prize_id'> & {
    prize_table: readonly Readonly<TableEntry>[];
  },
): Promise<DrawCheck> {
  if (!draw.server_seed) return 'unrevealed';
  if ((await sha256Hex(draw.server_seed)) !== draw.server_hash) return 'mismatch';
  const roll = await drawRoll(draw.server_seed, draw.client_seed, draw.nonce);
  if (roll !== draw.roll) return 'mismatch';
  return prizeFor(roll, draw.prize_table)?.id === draw.prize_id ? 'verified' : 'mismatch';
}
