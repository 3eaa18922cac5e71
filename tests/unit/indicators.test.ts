// The chart's indicators against values worked out by hand from one fixed series of closes.
import { describe, expect, it } from 'vitest';
import { aggregateCandles } from '../../src/lib/candles.ts';
import { DEFAULT_INDICATORS, parameter } from '../../src/lib/chart-settings.ts';
import { bollingerBands, exponentialAverage, movingAverage, overlayLines } from '../../src/lib/indicators.ts';

const closes = [10, 11, 12, 13, 14, 13, 12];

const close = (values: (number | null)[], expected: (number | null)[]) => {
  expect(values).toHaveLength(expected.length);
  values.forEach((value, at) => {
    if (expected[at] === null) expect(value).toBeNull();
    else expect(value).toBeCloseTo(expected[at]!, 9);
  });
};

describe('movingAverage', () => {
  it('averages the last n closes from the n-th candle on', () => {
    // (10+11+12)/3 = 11, (11+12+13)/3 = 12, 13, (13+14+13)/3 = 13.333…, (14+13+12)/3 = 13
    close(movingAverage(closes, 3), [null, null, 11, 12, 13, 40 / 3, 13]);
    close(movingAverage(closes, 1), closes);
    close(movingAverage([1, 2], 3), [null, null]);
  });
});

describe('exponentialAverage', () => {
  it('is seeded with the simple average of the first n, then smooths by 2/(n+1)', () => {
    // n = 3: alpha = 0.5; seed (10+11+12)/3 = 11; then 0.5·13 + 0.5·11 = 12; 0.5·14 + 0.5·12 = 13;
    // 0.5·13 + 0.5·13 = 13; 0.5·12 + 0.5·13 = 12.5
    close(exponentialAverage(closes, 3), [null, null, 11, 12, 13, 13, 12.5]);
    // n = 4: alpha = 0.4; seed (10+11+12+13)/4 = 11.5; 0.4·14 + 0.6·11.5 = 12.5; 0.4·13 + 0.6·12.5 = 12.7;
    // 0.4·12 + 0.6·12.7 = 12.42
    close(exponentialAverage(closes, 4), [null, null, null, 11.5, 12.5, 12.7, 12.42]);
  });
});

describe('bollingerBands', () => {
  it('puts the bands k population standard deviations around the moving average', () => {
    const { middle, upper, lower } = bollingerBands(closes, 3, 2);
    close(middle, [null, null, 11, 12, 13, 40 / 3, 13]);
    // 10, 11, 12 around 11: squares 1, 0, 1 → variance 2/3 (divided by n, not n−1), deviation √(2/3).
    const sd = Math.sqrt(2 / 3);
    // 13, 14, 13 around 40/3: squares 1/9, 4/9, 1/9 → variance 2/9.
    const sd5 = Math.sqrt(2 / 9);
    close(upper, [null, null, 11 + 2 * sd, 12 + 2 * sd, 13 + 2 * sd, 40 / 3 + 2 * sd5, 13 + 2 * sd]);
    close(lower, [null, null, 11 - 2 * sd, 12 - 2 * sd, 13 - 2 * sd, 40 / 3 - 2 * sd5, 13 - 2 * sd]);
    // A flat series has no spread: the bands meet the average.
    const flat = bollingerBands([5, 5, 5, 5], 2, 2);
    close(flat.upper, [null, 5, 5, 5]);
    close(flat.lower, [null, 5, 5, 5]);
  });
});

describe('overlayLines and parameter', () => {
  it('draws the lines of the indicators switched on', () => {
    expect(overlayLines(closes, DEFAULT_INDICATORS)).toEqual([]);
    const lines = overlayLines(closes, {
      ...DEFAULT_INDICATORS,
      ma: { on: true, periods: [3] },
      boll: { on: true, period: 3, width: 2 },
    });
    expect(lines.map((line) => line.label)).toEqual(['MA3', 'UP', 'BOLL(3,2)', 'DN']);
  });

  it('keeps typed parameters within bounds and refuses non-numbers', () => {
    expect(parameter('25', 7, 1, 200)).toBe(25);
    expect(parameter('0', 7, 1, 200)).toBe(1);
    expect(parameter('999', 7, 1, 200)).toBe(200);
    expect(parameter('abc', 7, 1, 200)).toBe(7);
    expect(parameter('2.5', 7, 1, 200)).toBe(7);
    expect(parameter('2.5', 2, 0.5, 5, false)).toBe(2.5);
    expect(parameter('', 2, 0.5, 5, false)).toBe(2);
  });
});

describe('aggregateCandles', () => {
  it('merges hours into 4 h candles: first open, highest high, lowest low, last close, summed volume', () => {
    const hour = (time: number, open: string, high: string, low: string, close: string, volume: string) => ({
      time,
      open,
      high,
      low,
      close,
      volume,
    });
    const merged = aggregateCandles(
      [
        hour(3600 * 3, '9', '10', '8', '9.5', '1'),
        hour(3600 * 4, '10', '12', '9', '11', '2'),
        hour(3600 * 5, '11', '11.5', '7', '8', '0.5'),
        hour(3600 * 8, '8', '9', '8', '9', '3'),
      ],
      4 * 3600,
    );
    expect(merged).toEqual([
      hour(0, '9', '10', '8', '9.5', '1'),
      hour(3600 * 4, '10', '12', '7', '8', '2.5'),
      hour(3600 * 8, '8', '9', '8', '9', '3'),
    ]);
  });
});
