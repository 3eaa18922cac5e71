// The K-line chart's geometry (src/ui/kline-scale.ts): what the window shows as it pans and zooms,
// and which prices and times get a label.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW,
  candleAt,
  candleSeconds,
  candleX,
  clampWindow,
  panWindow,
  priceTicks,
  timeTicks,
  visibleCandles,
  zoomWindow,
} from '../../src/ui/kline-scale.ts';

const WIDTH = 300;
const COUNT = 120;

describe('the window', () => {
  it('shows the newest candles at first, the newest against the right edge', () => {
    expect(candleX(COUNT - 1, COUNT, WIDTH, DEFAULT_WINDOW)).toBe(WIDTH - 3);
    expect(visibleCandles(COUNT, WIDTH, DEFAULT_WINDOW)).toEqual([70, 119]);
    expect(candleAt(WIDTH - 1, COUNT, WIDTH, DEFAULT_WINDOW)).toBe(119);
    expect(candleAt(candleX(80, COUNT, WIDTH, DEFAULT_WINDOW) + 2, COUNT, WIDTH, DEFAULT_WINDOW)).toBe(80);
  });

  it('a drag to the right brings older candles in, and stops with a few still in view', () => {
    const back = panWindow(DEFAULT_WINDOW, 60, COUNT, WIDTH);
    expect(visibleCandles(COUNT, WIDTH, back)).toEqual([60, 109]);
    const farthest = panWindow(DEFAULT_WINDOW, 100_000, COUNT, WIDTH);
    expect(visibleCandles(COUNT, WIDTH, farthest)).toEqual([0, 2]);
  });

  it('a drag to the left stops a little after the newest candle', () => {
    const forward = panWindow(DEFAULT_WINDOW, -100_000, COUNT, WIDTH);
    expect(forward.offset).toBeLessThan(0);
    expect(candleX(COUNT - 1, COUNT, WIDTH, forward)).toBeGreaterThan(WIDTH - 60);
  });

  it('zooming keeps the candle under the fingers where it is, within the narrowest and widest candles', () => {
    const x = 150;
    const under = candleAt(x, COUNT, WIDTH, DEFAULT_WINDOW);
    const closer = zoomWindow(DEFAULT_WINDOW, 2, x, COUNT, WIDTH);
    expect(closer.spacing).toBe(12);
    expect(candleAt(x, COUNT, WIDTH, closer)).toBe(under);
    expect(zoomWindow(DEFAULT_WINDOW, 100, x, COUNT, WIDTH).spacing).toBe(40);
    expect(zoomWindow(DEFAULT_WINDOW, 0.01, x, COUNT, WIDTH).spacing).toBe(2);
  });

  it('a series shorter than the window still shows all of it; none shows nothing', () => {
    expect(visibleCandles(10, WIDTH, clampWindow(DEFAULT_WINDOW, 10, WIDTH))).toEqual([0, 9]);
    expect(visibleCandles(0, WIDTH, DEFAULT_WINDOW)).toBeNull();
  });
});

describe('price labels', () => {
  it('fall on round prices, 1, 2 or 5 times a power of ten apart', () => {
    expect(priceTicks(97_165.04, 97_699.58, 6, 2)).toEqual([97_200, 97_300, 97_400, 97_500, 97_600]);
    expect(priceTicks(97_165.04, 97_699.58, 5, 2)).toEqual([97_200, 97_400, 97_600]);
    expect(priceTicks(0.0812, 0.0871, 3, 4)).toEqual([0.082, 0.084, 0.086]);
  });

  it("are never finer than the coin's last decimal", () => {
    expect(priceTicks(1.001, 1.004, 10, 2)).toEqual([]);
    expect(priceTicks(1.001, 1.031, 10, 2)).toEqual([1.01, 1.02, 1.03]);
  });
});

describe('time labels', () => {
  const minutes = Array.from({ length: COUNT }, (_, index) => 1_764_000_000 + index * 60);

  it('1-minute candles 6 px apart: a label each quarter hour, on the local clock', () => {
    const ticks = timeTicks(minutes, 0, COUNT - 1, 6, 64, 0);
    expect(ticks.map((index) => (minutes[index]! / 60) % 15)).toEqual(ticks.map(() => 0));
    expect(ticks).toHaveLength(8);
    // Half an hour east of UTC: the labels move with the clock.
    const shifted = timeTicks(minutes, 0, COUNT - 1, 6, 64, 330);
    expect(shifted.map((index) => (minutes[index]! / 60 + 330) % 15)).toEqual(shifted.map(() => 0));
  });

  it('wider candles, labels closer in time', () => {
    expect(timeTicks(minutes, 0, COUNT - 1, 40, 64, 0)).toHaveLength(60);
  });

  it('daily candles: the first of every second week', () => {
    const days = Array.from({ length: 60 }, (_, index) => 1_763_942_400 + index * 86_400);
    const ticks = timeTicks(days, 0, 59, 6, 64, 0);
    expect(ticks.length).toBeGreaterThan(3);
    expect(ticks.every((index) => (days[index]! / 86_400) % 14 === 0)).toBe(true);
  });

  it('a gap in the feed does not change the period', () => {
    expect(candleSeconds([0, 60, 120, 6000, 6060])).toBe(60);
    expect(candleSeconds([500])).toBe(60);
  });
});
