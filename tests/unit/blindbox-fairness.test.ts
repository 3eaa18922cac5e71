// The draw's mathematics, shared by the server and the browser's verification: known vectors
// (checked against node:crypto, an independent implementation), the mapping's edges, and 100,000
// draws whose prizes follow the published odds (chi-square below the 0.999 critical value).
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  WEIGHT_TOTAL,
  drawRoll,
  expectedValue,
  hmacSha256Hex,
  oddsPercent,
  prizeFor,
  rollFromHex,
  sha256Hex,
  tableTotal,
  valueAgainstCost,
} from '../../src/api-contract/blindbox.ts';
import { DEMO_PRIZES } from '../../src/server/db/seed-blindbox.ts';

const TABLE = DEMO_PRIZES.map((prize, index) => ({ id: index + 1, weight: prize.weight }));

describe('hashes and the roll', () => {
  it('match the published test vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // RFC 4231 test case 2.
    expect(await hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    // A draw by hand: HMAC-SHA256(key = 64 zeros, "client:0") = 6ca3954a2dd18…; 0x6ca3954a2dd18 × 1,000,000 >> 52 =
    // 424371.
    expect(await hmacSha256Hex('0'.repeat(64), 'client:0')).toBe(
      '6ca3954a2dd18ac8e683477b941d288b54797e33b21c15cdc54c52007c4076e5',
    );
    expect(await drawRoll('0'.repeat(64), 'client', 0)).toBe(424_371);
  });

  it('agree with node:crypto on random seeds', async () => {
    for (let n = 0; n < 50; n += 1) {
      const serverSeed = createHash('sha256').update(`vector-${n}`).digest('hex');
      const clientSeed = `c${n}`;
      const digest = createHmac('sha256', serverSeed).update(`${clientSeed}:${n}`).digest('hex');
      const expected = Number((BigInt(`0x${digest.slice(0, 13)}`) * 1_000_000n) / 2n ** 52n);
      expect(await drawRoll(serverSeed, clientSeed, n)).toBe(expected);
      expect(await sha256Hex(serverSeed)).toBe(createHash('sha256').update(serverSeed).digest('hex'));
    }
  });

  it('maps the whole range of 52 bits onto [0, 1,000,000)', () => {
    expect(rollFromHex('0000000000000')).toBe(0);
    expect(rollFromHex('0000000000001')).toBe(0);
    expect(rollFromHex('fffffffffffff')).toBe(999_999);
    expect(rollFromHex('8000000000000')).toBe(500_000);
    // Only the first 13 hex digits count.
    expect(rollFromHex('fffffffffffff0000')).toBe(rollFromHex('fffffffffffffffff'));
  });
});

describe('the prize table', () => {
  it('walks the cumulative weights in table order, edges included', () => {
    const table = [
      { id: 1, weight: 1_000 },
      { id: 2, weight: 9_000 },
      { id: 3, weight: 990_000 },
    ];
    expect(prizeFor(0, table)?.id).toBe(1);
    expect(prizeFor(999, table)?.id).toBe(1);
    expect(prizeFor(1_000, table)?.id).toBe(2);
    expect(prizeFor(9_999, table)?.id).toBe(2);
    expect(prizeFor(10_000, table)?.id).toBe(3);
    expect(prizeFor(999_999, table)?.id).toBe(3);
    // A table short of 100 % has rolls that win nothing: the server refuses to draw on it.
    expect(prizeFor(999_999, table.slice(0, 2))).toBeNull();
  });

  it('publishes odds and an expected value that are exact', () => {
    expect(tableTotal(TABLE)).toBe(WEIGHT_TOTAL);
    expect(DEMO_PRIZES.map((prize) => oddsPercent(prize.weight))).toEqual(['0.1%', '0.9%', '10%', '5%', '40%', '44%']);
    expect(oddsPercent(1)).toBe('0.0001%');
    expect(expectedValue(DEMO_PRIZES, 'USDT')).toBe('0.29');
    expect(expectedValue(DEMO_PRIZES, 'POINT')).toBe('30');
  });

  it('says plainly whether a draw returns less than it costs, in USDT at the points rate', () => {
    const costs = [
      { pay: 'points' as const, asset: 'POINT', amount: '100' },
      { pay: 'usdt' as const, asset: 'USDT', amount: '1' },
    ];
    expect(valueAgainstCost({ expected: { USDT: '0.29', POINT: '30' }, costs, usdt_per_point: '0.01' })).toEqual({
      expected: '0.59',
      below: true,
      above: false,
    });
    expect(valueAgainstCost({ expected: { USDT: '1.5' }, costs, usdt_per_point: '0.01' })).toEqual({
      expected: '1.5',
      below: false,
      above: true,
    });
    expect(valueAgainstCost({ expected: { USDT: '1' }, costs, usdt_per_point: '0.02' })).toEqual({
      expected: '1',
      below: false,
      above: false,
    });
    // Without a rate for points, or with a prize in a coin, no verdict is invented.
    expect(valueAgainstCost({ expected: { POINT: '30' }, costs, usdt_per_point: null })).toBeNull();
    expect(valueAgainstCost({ expected: { BTC: '0.0001' }, costs, usdt_per_point: '0.01' })).toBeNull();
  });
});

/** Upper 0.999 quantiles of chi-square by degrees of freedom. */
const CHI_SQUARE_999: Record<number, number> = {
  1: 10.828,
  2: 13.816,
  3: 16.266,
  4: 18.467,
  5: 20.515,
  6: 22.458,
  7: 24.322,
};

it('100,000 draws on 1,000 seed pairs follow the published odds (chi-square test)', async () => {
  const counts = new Map<number, number>(TABLE.map((entry) => [entry.id, 0]));
  const draws = 100_000;
  for (let pair = 0; pair < 1_000; pair += 1) {
    // Seeds as the server makes them (64 hex digits), derived so the test is the same on every run.
    const serverSeed = createHash('sha256').update(`fairness-${pair}`).digest('hex');
    const clientSeed = createHash('sha256').update(`client-${pair}`).digest('hex').slice(0, 16);
    const rolls = await Promise.all(
      Array.from({ length: draws / 1_000 }, (_, nonce) => drawRoll(serverSeed, clientSeed, nonce)),
    );
    for (const roll of rolls) {
      const prize = prizeFor(roll, TABLE)!;
      counts.set(prize.id, counts.get(prize.id)! + 1);
    }
  }
  let chiSquare = 0;
  for (const entry of TABLE) {
    const expected = (draws * entry.weight) / WEIGHT_TOTAL;
    chiSquare += (counts.get(entry.id)! - expected) ** 2 / expected;
  }
  expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(draws);
  expect(chiSquare).toBeLessThan(CHI_SQUARE_999[TABLE.length - 1]!);
}, 60_000);
