// Signed settlement receipts through the customer's calls: a settled option's and a filled contract order's receipt
// verify with the key published at /.well-known/receipt-keys.json (by node:crypto as RECEIPTS.md shows, and by the
// app's Web Crypto check) and are refused after a one-byte change; after a rotation an old receipt still verifies by
// its key id and new ones name the new key; orders without a receipt yet are refused; the key file is made once,
// readable by its owner only, and no private key reaches what is published.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/http/app.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import {
  RECEIPT_KEYS_PATH,
  contractReceipt,
  optionReceipt,
  receiptKeys,
  type ReceiptKeys,
  type SignedReceipt,
} from '../../src/api-contract/receipts.ts';
import { canonicalJson, checkReceipt } from '../../src/api-contract/receipt-signature.ts';
import {
  loadReceiptKeys,
  parseReceiptKeys,
  receiptKeyRing,
  type ReceiptKeyEntry,
} from '../../src/server/domain/receipt-keys.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { matchAllPairs } from '../../src/server/jobs/matching.ts';

const KEY_A: ReceiptKeyEntry = { seed: Buffer.alloc(32, 0xa1), validFrom: new Date('2026-01-01T00:00:00Z') };
const KEY_B: ReceiptKeyEntry = { seed: Buffer.alloc(32, 0xb2), validFrom: new Date('2026-11-22T09:00:00Z') };

let h: Harness;
beforeAll(async () => void (h = await startHarness({ receiptKeys: receiptKeyRing([KEY_A]) })));
afterAll(() => h.close());

/** The published keys, as anyone fetches them: no session, plain JSON, cacheable, readable from any origin. */
async function wellKnownKeys(app = h.app): Promise<ReceiptKeys> {
  const response = await app.inject({ method: 'GET', url: RECEIPT_KEYS_PATH });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('public, max-age=300');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  return response.json();
}

/**
 * RECEIPTS.md's node:crypto example: the key named by id, Ed25519 over the canonical JSON of the receipt, and
 * `signed_at` within the key's period.
 */
function verifiedByNode(signed: SignedReceipt, keys: ReceiptKeys): boolean {
  const key = keys.keys.find((candidate) => candidate.id === signed.receipt.key_id);
  if (!key) return false;
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(key.public_key, 'base64')]);
  const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const at = Date.parse(signed.receipt.signed_at);
  const inPeriod = at >= Date.parse(key.valid_from) && (key.valid_until === null || at < Date.parse(key.valid_until));
  const bytes = Buffer.from(canonicalJson(signed.receipt));
  return !key.revoked_at && inPeriod && verify(null, bytes, publicKey, Buffer.from(signed.signature, 'base64'));
}

/** The same database served by a process given `ring` (a restart with other keys). */
const appWithKeys = (ring: ReturnType<typeof receiptKeyRing>) =>
  buildApp(
    testServices({
      db: h.database.db,
      clock: h.clock,
      market: h.market,
      sender: { send: async () => {} },
      receiptKeys: ring,
    }),
    testAppOptions({ addressRateLimitPerMinute: 100_000, accountRateLimitPerMinute: 100_000 }),
  );

/** The first settled option's receipt asked for again by its buyer from `app` (signed by the key signing there now). */
async function oldReceiptAgain(app: Awaited<ReturnType<typeof appWithKeys>>): Promise<SignedReceipt> {
  const again = await app.inject({
    method: 'GET',
    url: `/api${optionReceipt.path}?id=${oldReceipt.receipt.order.id}`,
    headers: { token: oldBuyerToken, lang: 'en' },
  });
  return again.json<{ data: SignedReceipt }>().data;
}

/** An index tick of BTC at an exact time, made of two exchanges' prices with their trade ids. */
const btcAt = (atMs: number, price: number) =>
  h.market.record([
    {
      coin: 'BTC',
      at: new Date(atMs),
      price: String(price),
      volume: '1',
      constituents: [
        { exchange: 'binance', price: String(price - 1), at: new Date(atMs - 200), tradeId: `b${atMs}` },
        { exchange: 'okx', price: String(price + 1), at: new Date(atMs - 300), tradeId: `o${atMs}` },
      ],
    },
  ]);

/** A settled option of 10 USDT on BTC while the price rose (up wins, down loses): its id. */
async function settledOption(token: string, direction: 'up' | 'down' = 'up'): Promise<number> {
  const accepted = h.clock.now().getTime();
  await btcAt(accepted, 100_000);
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!;
  const placed = await h.call(
    placeOption,
    { code: 'BTC', direction, amount: '10', product_id: String(product.id) },
    { token },
  );
  expect(placed.ret).toBe(1);
  h.clock.set(new Date(accepted + 1000));
  await btcAt(accepted + 1000, 100_100);
  expect(await openAllPending(h.database.db, h.clock.now())).toBe(1);
  // Pending: no receipt yet, said in the caller's language.
  expect(await h.call(optionReceipt, { id: String(placed.data.id) }, { token })).toEqual(
    refused('This order has no receipt yet: an option has one once settled, a contract order once filled.'),
  );
  // The end is a minute after the start tick: the last tick at or before it decides; one after it closes the minute.
  await btcAt(accepted + 60_500, 100_300);
  await btcAt(accepted + 62_000, 100_400);
  h.clock.set(new Date(accepted + 67_000));
  expect(await settleAllDue(h.database.db, h.clock.now())).toBe(1);
  return placed.data.id;
}

/** The same receipt with one byte of its canonical JSON changed (one digit of the payout). */
function withOneByteChanged(signed: SignedReceipt): SignedReceipt {
  const payout = signed.receipt.payout;
  const last = payout.at(-1)!;
  const changed = `${payout.slice(0, -1)}${last === '9' ? '8' : String(Number(last) + 1)}`;
  expect(canonicalJson({ ...signed.receipt, payout: changed }).length).toBe(canonicalJson(signed.receipt).length);
  return { ...signed, receipt: { ...signed.receipt, payout: changed } };
}

/** The first receipt, signed by key A, and its buyer's session (it lives in the database: the second app takes it). */
let oldReceipt: SignedReceipt;
let oldBuyerToken: string;

it("signs a settled option's receipt: it verifies with the published key and not after a one-byte change", async () => {
  const buyer = await customer(h, '100');
  const other = await customer(h, '100');
  const id = await settledOption(buyer.token);
  const answer = await h.call(optionReceipt, { id: String(id) }, { token: buyer.token });
  expect(answer.ret).toBe(1);
  const signed = answer.data;
  const { receipt } = signed;
  const start = receipt.start!;
  expect(receipt).toMatchObject({
    format: 'coinvest-receipt-1',
    kind: 'option',
    key_id: receiptKeyRing([KEY_A]).published()[0]!.id,
    order: { id: String(id), account: 'real', coin: 'BTC', direction: 'up', amount: '10', minutes: '1' },
    outcome: 'win',
    signed_at: h.clock.now().toISOString(),
  });
  expect(Number(receipt.payout)).toBeGreaterThan(10);
  // The deciding ticks with each exchange's price and trade id, as the order recorded them.
  expect(start.price).toBe('100100');
  expect(start.constituents.map((c) => c.trade_id)).toEqual([`b${Date.parse(start.at)}`, `o${Date.parse(start.at)}`]);
  expect(receipt.end!.price).toBe('100300');

  const keys = await wellKnownKeys();
  expect((await h.call(receiptKeys)).data).toEqual(keys);
  expect(keys.keys).toEqual([
    {
      id: receipt.key_id,
      algorithm: 'Ed25519',
      public_key: expect.any(String),
      valid_from: '2026-01-01T00:00:00.000Z',
      valid_until: null,
      revoked_at: null,
    },
  ]);
  // The key id is the first 16 hex digits of the SHA-256 of the raw public key.
  expect(createHash('sha256').update(Buffer.from(keys.keys[0]!.public_key, 'base64')).digest('hex').slice(0, 16)).toBe(
    receipt.key_id,
  );
  expect(verifiedByNode(signed, keys)).toBe(true);
  expect(await checkReceipt(signed, keys.keys)).toBe('valid');

  const changed = withOneByteChanged(signed);
  expect(verifiedByNode(changed, keys)).toBe(false);
  expect(await checkReceipt(changed, keys.keys)).toBe('invalid');
  // A signature with one byte changed, and a receipt naming a key nobody published.
  const signature = Buffer.from(signed.signature, 'base64');
  signature[10] ^= 1;
  expect(await checkReceipt({ ...signed, signature: signature.toString('base64') }, keys.keys)).toBe('invalid');
  expect(await checkReceipt({ ...signed, receipt: { ...receipt, key_id: '0000000000000000' } }, keys.keys)).toBe(
    'unknown-key',
  );

  const size = Buffer.byteLength(JSON.stringify(signed));
  console.log(`receipt of a settled option (2 constituents a tick): ${size} bytes`);
  expect(size).toBeLessThan(2048);
  // Another customer's order is not found, like one that does not exist.
  expect(await h.call(optionReceipt, { id: String(id) }, { token: other.token })).toEqual(
    refused('The order does not exist!'),
  );
  oldReceipt = signed;
  oldBuyerToken = buyer.token;
});

it("a lost option's receipt says loss, as the option's record does, and verifies", async () => {
  const buyer = await customer(h, '100');
  h.clock.advance(1000);
  const id = await settledOption(buyer.token, 'down');
  const signed = (await h.call(optionReceipt, { id: String(id) }, { token: buyer.token })).data;
  expect(signed.receipt).toMatchObject({ outcome: 'loss', payout: '0' });
  expect(await checkReceipt(signed, (await wellKnownKeys()).keys)).toBe('valid');
});

/**
 * Places a BTC buy `order` for a new customer while BTC is at 49,000, then records the next tick at 50,000 and runs
 * the matching; `beforeFill` runs between the two. Resolves with the order's id, the fill tick's time and its receipt.
 */
async function boughtAtNextTick(
  order: { type: 'market' } | { type: 'limit'; price: string },
  beforeFill: (id: string, token: string) => Promise<void> = async () => undefined,
) {
  const buyer = await customer(h, '10000');
  h.clock.advance(1000);
  await btcAt(h.clock.now().getTime(), 49_000);
  const placed = await h.call(
    placeContract,
    { code: 'BTC', side: 'buy', quantity: '0.1', ...order },
    { token: buyer.token },
  );
  expect(placed.ret, placed.msg).toBe(1);
  const id = String(placed.data.id);
  await beforeFill(id, buyer.token);
  h.clock.advance(1000);
  const fillAt = h.clock.now().getTime();
  await btcAt(fillAt, 50_000);
  expect(await matchAllPairs(h.database.db, h.clock.now())).toBe(1);
  const signed = (await h.call(contractReceipt, { id }, { token: buyer.token })).data;
  return { id, fillAt, signed };
}

it("signs a filled contract order's receipt with its fill tick; an order not filled has none", async () => {
  const { id, fillAt, signed } = await boughtAtNextTick({ type: 'market' }, async (placed, token) =>
    expect(await h.call(contractReceipt, { id: placed }, { token })).toEqual(
      refused('This order has no receipt yet: an option has one once settled, a contract order once filled.'),
    ),
  );
  expect(signed.receipt).toMatchObject({
    kind: 'contract',
    order: { id, side: 'buy', type: 'market', quantity: '0.1', coin: 'BTC' },
    tick: { price: '50000', at: new Date(fillAt).toISOString() },
    outcome: 'filled',
    unit_price: '50000',
    total: '5000',
    spent: '5000',
    spent_asset: 'USDT',
    payout: '0.0999',
    payout_asset: 'BTC',
  });
  expect(signed.receipt.order).not.toHaveProperty('price');
  expect(signed.receipt.tick.constituents.map((c) => c.trade_id)).toEqual([`b${fillAt}`, `o${fillAt}`]);
  const keys = await wellKnownKeys();
  expect(verifiedByNode(signed, keys)).toBe(true);
  expect(await checkReceipt(signed, keys.keys)).toBe('valid');
  expect(await checkReceipt(withOneByteChanged(signed), keys.keys)).toBe('invalid');
});

it("a limit order's receipt gives the price the customer got, its limit, and the recorded price that filled it", async () => {
  const { fillAt, signed } = await boughtAtNextTick({ type: 'limit', price: '50500' });
  // A limit order fills at its own price once a recorded price reaches it: 50,500 paid, 50,000 recorded.
  expect(signed.receipt).toMatchObject({
    order: { type: 'limit', price: '50500' },
    tick: { price: '50000', at: new Date(fillAt).toISOString() },
    unit_price: '50500',
    total: '5050',
  });
  expect(signed.receipt.order).not.toHaveProperty('trigger_price');
  const keys = await wellKnownKeys();
  expect(verifiedByNode(signed, keys)).toBe(true);
  expect(await checkReceipt(signed, keys.keys)).toBe('valid');
});

it('after a rotation an old receipt still verifies by its key id, and new receipts name the new key', async () => {
  // The same database served with key B made current (from 09:00) beside A: a restart with one key added.
  const rotated = receiptKeyRing([KEY_B, KEY_A]);
  const after = await appWithKeys(rotated);
  try {
    h.clock.set(new Date('2026-11-22T09:30:00Z'));
    const keys = await wellKnownKeys(after);
    expect(keys.keys.map(({ id, valid_from, valid_until }) => ({ id, valid_from, valid_until }))).toEqual([
      {
        id: oldReceipt.receipt.key_id,
        valid_from: '2026-01-01T00:00:00.000Z',
        valid_until: '2026-11-22T09:00:00.000Z',
      },
      {
        id: expect.not.stringMatching(oldReceipt.receipt.key_id),
        valid_from: KEY_B.validFrom.toISOString(),
        valid_until: null,
      },
    ]);
    expect(verifiedByNode(oldReceipt, keys)).toBe(true);
    expect(await checkReceipt(oldReceipt, keys.keys)).toBe('valid');
    expect(await checkReceipt(withOneByteChanged(oldReceipt), keys.keys)).toBe('invalid');

    // The same order's receipt asked for again is signed with B, and verifies by B only.
    const signed = await oldReceiptAgain(after);
    expect(signed.receipt.key_id).toBe(keys.keys[1]!.id);
    expect(await checkReceipt(signed, keys.keys)).toBe('valid');
    expect(await checkReceipt(signed, keys.keys.slice(0, 1))).toBe('unknown-key');
    expect(await checkReceipt({ ...signed, receipt: { ...signed.receipt, key_id: keys.keys[0]!.id } }, keys.keys)).toBe(
      'invalid',
    );
    // Key A, retired at 09:00, still signs what it is given (as a copy that leaked would): the same receipt signed by A
    // and dated after 09:00 is refused as signed outside A's period, though its signature is A's.
    const byRetired = { ...signed.receipt, key_id: keys.keys[0]!.id };
    const forged = { receipt: byRetired, signature: rotated.sign(keys.keys[0]!.id, byRetired) } as SignedReceipt;
    expect(verifiedByNode(forged, keys)).toBe(false);
    expect(verifiedByNode({ ...forged, receipt: { ...byRetired, signed_at: '2026-11-22T08:59:59.999Z' } }, keys)).toBe(
      false, // dated inside A's period, but the signature is over the later date
    );
    expect(await checkReceipt(forged, keys.keys)).toBe('outside-key-period');
  } finally {
    await after.close();
  }
});

it('after a revocation every receipt of the revoked key is doubted, and the order is signed anew by the new key', async () => {
  // Key A may have leaked: revoked at 09:40, key B signing since 09:00 (the operator's file, as RECEIPTS.md writes it).
  const entries = parseReceiptKeys(
    `${KEY_A.seed.toString('hex')}@2026-01-01T00:00:00Z revoked 2026-11-22T09:40:00Z\n` +
      `${KEY_B.seed.toString('hex')}@2026-11-22T09:00:00Z`,
    'RECEIPT_SIGNING_KEYS',
  );
  const revoked = loadReceiptKeys(entries, '/nonexistent/receipt-signing.keys', new Date('2026-11-22T09:45:00Z'));
  const after = await appWithKeys(revoked);
  try {
    h.clock.set(new Date('2026-11-22T09:45:00Z'));
    const keys = await wellKnownKeys(after);
    expect(keys.keys.map(({ id, valid_until, revoked_at }) => ({ id, valid_until, revoked_at }))).toEqual([
      {
        id: oldReceipt.receipt.key_id,
        valid_until: '2026-11-22T09:00:00.000Z',
        revoked_at: '2026-11-22T09:40:00.000Z',
      },
      { id: expect.not.stringMatching(oldReceipt.receipt.key_id), valid_until: null, revoked_at: null },
    ]);
    // Signed by A inside its period, before anyone doubted it: no longer relied on, by the app's check or the script's.
    expect(await checkReceipt(oldReceipt, keys.keys)).toBe('revoked-key');
    expect(verifiedByNode(oldReceipt, keys)).toBe(false);
    // The customer opens the order's receipt again: signed by B, valid.
    const signed = await oldReceiptAgain(after);
    expect(signed.receipt.key_id).toBe(keys.keys[1]!.id);
    expect(await checkReceipt(signed, keys.keys)).toBe('valid');
    // The revoked key signs nothing more, whatever asks it.
    expect(() => revoked.sign(keys.keys[0]!.id, signed.receipt)).toThrow(/revoked/);
  } finally {
    await after.close();
  }
});

it('will not start with a revoked key that no started key replaces', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const a = `${KEY_A.seed.toString('hex')}@2026-01-01T00:00:00Z`;
  const b = `${KEY_B.seed.toString('hex')}`;
  // Revoked with no new key: it would go on signing.
  expect(() =>
    loadReceiptKeys(parseReceiptKeys(`${a} revoked 2026-11-22T09:59:00Z`, 'RECEIPT_SIGNING_KEYS'), '/none', now),
  ).toThrow(/RECEIPT_SIGNING_KEYS: receipt key [0-9a-f]{16} is revoked and no key started by 2026-11-22T10:00:00.000Z/);
  // Its replacement not started yet: the revoked key would sign until then.
  expect(() =>
    loadReceiptKeys(
      parseReceiptKeys(`${a} revoked 2026-11-22T09:59:00Z,${b}@2026-11-22T10:05:00Z`, 'RECEIPT_SIGNING_KEYS'),
      '/none',
      now,
    ),
  ).toThrow(/is revoked and no key started/);
  // The key file is held to the same rule.
  const folder = mkdtempSync(join(tmpdir(), 'receipt-keys-'));
  try {
    const file = join(folder, 'receipt-signing.keys');
    writeFileSync(file, `${a} revoked 2026-11-22T09:59:00Z\n`);
    expect(() => loadReceiptKeys(null, file, now)).toThrow(`${file}: receipt key`);
    writeFileSync(file, `${a} revoked 2026-11-22T09:59:00Z\n${b}@2026-11-22T10:00:00Z\n`);
    expect(loadReceiptKeys(null, file, now).signingKey(now).id).not.toBe(oldReceipt.receipt.key_id);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  // A revocation written wrongly is refused by its position, never echoing the key.
  for (const wrong of [`${a} revoked yesterday`, `${a} revoked 2026-02-30T00:00:00Z`, `${b}@2026-02-30T00:00:00Z`])
    expect(() => parseReceiptKeys(wrong, 'RECEIPT_SIGNING_KEYS')).toThrow(
      /^RECEIPT_SIGNING_KEYS: receipt key 1 is not/,
    );
});

it('makes the key file once, for its owner only, and never publishes or reports a private key', () => {
  const folder = mkdtempSync(join(tmpdir(), 'receipt-keys-'));
  try {
    const file = join(folder, 'data', 'receipt-signing.keys');
    const first = loadReceiptKeys(null, file, new Date('2026-11-22T08:00:00Z'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}@2026-11-22T08:00:00.000Z\n$/);
    // A second start reads the same key.
    expect(loadReceiptKeys(null, file, new Date()).published()).toEqual(first.published());
    const seed = text.slice(0, 64);
    expect(JSON.stringify(first.published())).not.toContain(seed);
    expect(JSON.stringify(first)).not.toContain(seed);
    // The variable wins over the file; a bad entry is refused by its position, without its text.
    expect(
      loadReceiptKeys(
        parseReceiptKeys(`${'ab'.repeat(32)}@2026-01-01T00:00:00Z`, 'X'),
        file,
        new Date(),
      ).published()[0]!.id,
    ).not.toBe(first.published()[0]!.id);
    const bad = `${'cd'.repeat(31)}@2026-01-01T00:00:00Z`;
    expect(() => parseReceiptKeys(`${seed}@2026-01-01T00:00:00Z,${bad}`, 'RECEIPT_SIGNING_KEYS')).toThrow(
      /RECEIPT_SIGNING_KEYS: receipt key 2 is not/,
    );
    try {
      parseReceiptKeys(bad, 'RECEIPT_SIGNING_KEYS');
    } catch (error) {
      expect((error as Error).message).not.toContain('cdcdcdcd');
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

it('will not start with no key signing yet: a receipt signed then would read as signed by a retired key', async () => {
  // The first key configured to start in ten minutes (as the rotation's recipe writes a key) on a first deployment.
  const now = new Date('2026-11-22T08:00:00Z');
  const later = parseReceiptKeys(`${'ef'.repeat(32)}@2026-11-22T08:10:00Z`, 'RECEIPT_SIGNING_KEYS');
  expect(() => loadReceiptKeys(later, '/nonexistent/receipt-signing.keys', now)).toThrow(
    'RECEIPT_SIGNING_KEYS: no receipt signing key has started by 2026-11-22T08:00:00.000Z (the first starts at ' +
      '2026-11-22T08:10:00.000Z): give one a start not after now.',
  );
  // What it would have signed: a receipt the app and anyone checking call signed by a retired key.
  const ring = receiptKeyRing(later);
  const receipt = { key_id: ring.signingKey(now).id, kind: 'option', signed_at: now.toISOString() };
  const signed = { receipt, signature: ring.sign(receipt.key_id, receipt) } as unknown as SignedReceipt;
  expect(await checkReceipt(signed, ring.published())).toBe('outside-key-period');
});
