// The admin's products in the console: option products and contract pairs read and changed
// through the console API, on the one rule of `npm run ops -- product|pair` (domain/settings.ts). A
// change shows in what customers read at once and leaves one audit entry with the terms before and
// after, from the console and from the command line alike; a value outside a term's rule is refused,
// changes nothing and leaves no entry; only the admin role gets through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, gt } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { TOKEN_EXPIRED, customer, refused } from './helpers.ts';
import { ops, opsOk } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import {
  consoleChangeContractPair,
  consoleChangeOptionProduct,
  consoleContractPairs,
  consoleOptionProducts,
} from '../../src/api-contract/console-products.ts';
import { optionProducts } from '../../src/api-contract/options.ts';
import { contractPairs } from '../../src/api-contract/contracts.ts';
import { auditLog, contractPairs as pairRows, optionProducts as productRows } from '../../src/server/db/schema.ts';

const ADMIN_IP = '203.0.113.9';
const PRODUCT_HELP = 'use yield=0.85 (above 0, at most 1: 85 % is 0.85), min=1 or active=true|false.';
const PAIR_HELP = 'use tick=0..8, step=0..8, min=5, fee=0.001 (below 0.1), band=0.1 or active=true|false.';

let h: Harness;
let admin: string;
let productId: number;
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorToken(h, 'adam', 'admin');
  const [row] = await h.database.db
    .select()
    .from(productRows)
    .where(and(eq(productRows.coin, 'ETH'), eq(productRows.minutes, 5)));
  productId = row!.id;
});
afterAll(() => h.close());

/** The admin's token and address (a function: the token exists once beforeAll has run). */
const as = () => ({ token: admin, ip: ADMIN_IP });
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditSince = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
const customerProduct = async (id: number) =>
  (await h.call(optionProducts, { code: 'ETH' })).data.lists.find((product) => product.id === id);
const customerPair = async (code: string) =>
  (await h.call(contractPairs)).data.lists.find((pair) => pair.code === code);
const rows = async () => ({
  products: await h.database.db.select().from(productRows).orderBy(asc(productRows.id)),
  pairs: await h.database.db.select().from(pairRows).orderBy(asc(pairRows.coin)),
});

describe('an admin', () => {
  it('lists every option product and every pair with the terms the command line shows', async () => {
    const products = await h.call(consoleOptionProducts, {}, as());
    expect(products.ret, products.msg).toBe(1);
    expect(products.data).toHaveLength(50);
    expect(products.data.find((product) => product.id === productId)).toEqual({
      id: productId,
      coin: 'ETH',
      minutes: 5,
      yield: '0.8500',
      min: '1.00000000',
      active: true,
    });
    const pairs = await h.call(consoleContractPairs, {}, as());
    expect(pairs.data.map((pair) => pair.coin)).toEqual([
      'ADA',
      'BNB',
      'BTC',
      'DOGE',
      'DOT',
      'ETH',
      'LTC',
      'SOL',
      'TRX',
      'XRP',
    ]);
    expect(pairs.data.find((pair) => pair.coin === 'BTC')).toEqual({
      coin: 'BTC',
      tick: 2,
      step: 5,
      min: '5.00000000',
      fee: '0.001000',
      band: '0.1000',
      active: true,
    });
  });

  it('changes a product’s yield and minimum: customers see them at once, and one audit entry says who, from where, before and after', async () => {
    const since = await lastAuditId();
    const answer = await h.call(consoleChangeOptionProduct, { id: String(productId), yield: '0.91', min: '2' }, as());
    expect(answer).toMatchObject({
      ret: 1,
      data: { id: productId, coin: 'ETH', minutes: 5, yield: '0.9100', min: '2.00000000', active: true },
    });
    expect(await customerProduct(productId)).toMatchObject({ yield_rate: '0.91', min_amount: '2' });
    const entries = await auditSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: 'adam',
      address: ADMIN_IP,
      action: 'product.change',
      target: `product:${productId}`,
      before: { id: productId, coin: 'ETH', minutes: 5, yield: '0.8500', min: '1.00000000', active: true },
      after: { id: productId, coin: 'ETH', minutes: 5, yield: '0.9100', min: '2.00000000', active: true },
    });

    // Taken off sale: customers no longer see it.
    expect((await h.call(consoleChangeOptionProduct, { id: String(productId), active: 'false' }, as())).ret).toBe(1);
    expect(await customerProduct(productId)).toBeUndefined();
    expect((await h.call(consoleChangeOptionProduct, { id: String(productId), active: 'true' }, as())).ret).toBe(1);
    expect(await customerProduct(productId)).toMatchObject({ yield_rate: '0.91' });
  });

  it('changes a pair’s rules (named in any case): customers see them at once, with one audit entry', async () => {
    const since = await lastAuditId();
    const answer = await h.call(
      consoleChangeContractPair,
      { coin: 'trx', fee: '0.002', min: '10', band: '0.05' },
      as(),
    );
    expect(answer).toMatchObject({
      ret: 1,
      data: { coin: 'TRX', tick: 5, step: 0, min: '10.00000000', fee: '0.002000', band: '0.0500', active: true },
    });
    expect(await customerPair('TRX')).toMatchObject({
      fee_rate: '0.002',
      min_notional: '10',
      price_band: '0.05',
      price_decimals: 5,
    });
    const entries = await auditSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: 'adam',
      address: ADMIN_IP,
      action: 'pair.change',
      target: 'pair:TRX',
      before: { coin: 'TRX', tick: 5, step: 0, min: '5.00000000', fee: '0.001000', band: '0.1000', active: true },
      after: { coin: 'TRX', tick: 5, step: 0, min: '10.00000000', fee: '0.002000', band: '0.0500', active: true },
    });
  });
});

describe('a value outside a term’s rule', () => {
  const cases: [string, () => ReturnType<Harness['call']>, ReturnType<typeof refused>][] = [
    [
      'yield=abc',
      () => h.call(consoleChangeOptionProduct, { id: String(productId), yield: 'abc' }, as()),
      refused(`Cannot apply "yield=abc": ${PRODUCT_HELP}`),
    ],
    // One bad term among good ones applies none of them.
    [
      'min=0 with yield=0.7',
      () => h.call(consoleChangeOptionProduct, { id: String(productId), yield: '0.7', min: '0' }, as()),
      refused(`Cannot apply "min=0": ${PRODUCT_HELP}`),
    ],
    // A yield is a fraction of the stake: "85" meant as 85 % would pay 85 times the stake; a win must pay something.
    ...['85', '1.5', '1.0001', '0', '0.0000', '-0.5', '.85'].map(
      (value) =>
        [
          `yield=${value}`,
          () => h.call(consoleChangeOptionProduct, { id: String(productId), yield: value }, as()),
          refused(`Cannot apply "yield=${value}": ${PRODUCT_HELP}`),
        ] as (typeof cases)[number],
    ),
    [
      'an emptied field',
      () => h.call(consoleChangeOptionProduct, { id: String(productId), yield: '' }, as()),
      refused(`Cannot apply "yield=": ${PRODUCT_HELP}`),
    ],
    [
      'a second "="',
      () => h.call(consoleChangeOptionProduct, { id: String(productId), yield: '0.8=1' }, as()),
      refused(`Cannot apply "yield=0.8=1": ${PRODUCT_HELP}`),
    ],
    [
      'no term at all',
      () => h.call(consoleChangeOptionProduct, { id: String(productId) }, as()),
      refused('Nothing to change.'),
    ],
    [
      'a product that does not exist',
      () => h.call(consoleChangeOptionProduct, { id: '999999', yield: '0.8' }, as()),
      refused('No product 999999.'),
    ],
    [
      'a field that is no term (price)',
      () => h.call(consoleChangeOptionProduct, { id: String(productId), price: '1' }, as()),
      refused('The request is not valid!'),
    ],
    [
      'fee=0.5',
      () => h.call(consoleChangeContractPair, { coin: 'BTC', fee: '0.5' }, as()),
      refused(`Cannot apply "fee=0.5": ${PAIR_HELP}`),
    ],
    [
      'tick=9',
      () => h.call(consoleChangeContractPair, { coin: 'BTC', tick: '9', fee: '0.002' }, as()),
      refused(`Cannot apply "tick=9": ${PAIR_HELP}`),
    ],
    [
      'an unknown coin',
      () => h.call(consoleChangeContractPair, { coin: 'XYZ', fee: '0.002' }, as()),
      refused('No pair XYZ/USDT.'),
    ],
    [
      'a field that is no term (outcome)',
      () => h.call(consoleChangeContractPair, { coin: 'BTC', outcome: 'win' }, as()),
      refused('The request is not valid!'),
    ],
  ];
  it.each(cases)('%s: refused with ret 0, nothing changes, no audit entry', async (_name, change, answer) => {
    const before = await rows();
    const since = await lastAuditId();
    expect(await change()).toEqual(answer);
    expect(await rows()).toEqual(before);
    expect(await auditSince(since)).toEqual([]);
  });

  it('is refused in the operator’s language', async () => {
    const answer = await h.call(consoleChangeContractPair, { coin: 'XYZ', fee: '0.002' }, { ...as(), lang: 'zh' });
    expect(answer).toEqual(refused('没有交易对 XYZ/USDT。'));
  });
});

describe('only the admin role', () => {
  it('refuses reviewers and content operators, and answers "no session" without a token or with a customer’s', async () => {
    const reviewer = await operatorToken(h, 'rita', 'reviewer');
    const writer = await operatorToken(h, 'cora', 'content');
    const { token: customerToken } = await customer(h);
    const before = await rows();
    const since = await lastAuditId();
    const calls = [
      () => [consoleOptionProducts, {}] as const,
      () => [consoleContractPairs, {}] as const,
      () => [consoleChangeOptionProduct, { id: String(productId), yield: '0.5' }] as const,
      () => [consoleChangeContractPair, { coin: 'BTC', fee: '0.009' }] as const,
    ];
    for (const made of calls) {
      const [endpoint, input] = made();
      for (const token of [reviewer, writer])
        expect(await h.call(endpoint, input, { token }), endpoint.path).toEqual(
          refused('Your role does not allow this!'),
        );
      for (const token of [undefined, customerToken])
        expect(await h.call(endpoint, input, { token }), endpoint.path).toEqual(TOKEN_EXPIRED);
    }
    expect(await rows()).toEqual(before);
    expect(await auditSince(since)).toEqual([]);
  });
});

describe('the operator command', () => {
  it('is audited too: `ops product` and `ops pair` leave an entry as "ops" from "local"; a refused one none', async () => {
    const since = await lastAuditId();
    expect(await opsOk(h, 'product', String(productId), 'yield=0.88')).toMatch(
      /^Product \d+ \(ETH, 5 min\): yield 0\.8800/,
    );
    expect(await opsOk(h, 'pair', 'btc', 'band=0.2')).toMatch(/^Pair BTC\/USDT: .* band 0\.2000/);
    expect(await ops(h, 'product', String(productId), 'yield=abc')).toEqual({
      ok: false,
      output: `Cannot apply "yield=abc": ${PRODUCT_HELP}`,
    });
    expect(await ops(h, 'pair', 'XYZ', 'fee=0.002')).toEqual({ ok: false, output: 'No pair XYZ/USDT.' });
    const entries = await auditSince(since);
    expect(entries).toMatchObject([
      {
        operator: 'ops',
        address: 'local',
        action: 'product.change',
        target: `product:${productId}`,
        before: { yield: '0.9100' },
        after: { yield: '0.8800' },
      },
      {
        operator: 'ops',
        address: 'local',
        action: 'pair.change',
        target: 'pair:BTC',
        before: { band: '0.1000' },
        after: { band: '0.2000' },
      },
    ]);
    // The console lists what the command set.
    expect(
      (await h.call(consoleOptionProducts, {}, as())).data.find((product) => product.id === productId),
    ).toMatchObject({ yield: '0.8800' });
  });
});
