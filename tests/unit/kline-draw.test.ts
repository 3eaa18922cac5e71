// The K-line chart's scales follow the page's text size (src/ui/kline-draw.ts): with the phone's text at 200 % the
// labels are drawn twice as large, the time scale is twice as tall, and labels stand twice as far apart, so they stay
// readable and do not run into each other. Drawn on a context that records what it is asked to draw.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW } from '../../src/ui/kline-scale.ts';
import { drawKLine, plotSize, type ChartScene } from '../../src/ui/kline-draw.ts';

interface Label {
  text: string;
  x: number;
  y: number;
  font: string;
}

/** A 2D context that keeps the text drawn on it; a glyph is 0.6 of the font's size wide; the rest draws nothing. */
function recordingContext() {
  const labels: Label[] = [];
  const kept = {
    font: '10px sans-serif',
    measureText(text: string) {
      return { width: text.length * parseFloat(kept.font) * 0.6 };
    },
    fillText(text: string, x: number, y: number) {
      labels.push({ text, x, y, font: kept.font });
    },
  };
  const context = new Proxy(kept, {
    get: (target, key) => (key in target ? target[key as keyof typeof target] : () => undefined),
  });
  return { context: context as unknown as CanvasRenderingContext2D, labels };
}

const COUNT = 120;
const start = Date.UTC(2026, 10, 30) / 1000;
const closes = Array.from({ length: COUNT }, (_, index) => 97_000 + 40 * Math.sin(index / 7));
const scene = (textScale?: number): ChartScene => ({
  width: 360,
  height: 240,
  ratio: 1,
  series: {
    times: closes.map((_, index) => start + 60 * index),
    opens: closes.map((close) => close - 5),
    highs: closes.map((close) => close + 12),
    lows: closes.map((close) => close - 12),
    closes,
  },
  view: DEFAULT_WINDOW,
  decimals: 2,
  fontFamily: 'sans-serif',
  crosshair: null,
  timeLabel: (time) => new Date(time * 1000).toISOString().slice(11, 16),
  ...(textScale === undefined ? {} : { textScale }),
});

function draw(textScale?: number) {
  const { context, labels } = recordingContext();
  drawKLine(context, scene(textScale));
  const plot = plotSize(recordingContext().context, scene(textScale));
  const prices = labels.filter((label) => label.x > plot.width && /^\d+\.\d\d$/.test(label.text));
  const times = labels.filter((label) => /^\d\d:\d\d$/.test(label.text));
  return { labels, plot, prices, times };
}

describe('the chart with larger text', () => {
  it('draws its labels at 11 px by default and at 22 px with the text at 200 %', () => {
    expect(new Set(draw().labels.map((label) => label.font))).toEqual(new Set(['11px sans-serif']));
    expect(new Set(draw(2).labels.map((label) => label.font))).toEqual(new Set(['22px sans-serif']));
  });

  it('makes the time scale twice as tall and the price scale as wide as its longest label', () => {
    const normal = draw(1);
    const large = draw(2);
    expect(240 - normal.plot.height).toBe(22);
    expect(240 - large.plot.height).toBe(44);
    // "97052.00" at 0.6 of the font per glyph, with 8 px either side.
    expect(360 - large.plot.width).toBe(Math.ceil(8 * 22 * 0.6) + 16);
    for (const label of large.times) expect(label.y).toBe(large.plot.height + 22);
  });

  it('keeps labels apart by their size: fewer, farther apart, none running into the next', () => {
    const normal = draw(1);
    const large = draw(2);
    expect(large.prices.length).toBeGreaterThan(0);
    expect(large.prices.length).toBeLessThan(normal.prices.length);
    const gaps = (labels: Label[], axis: 'x' | 'y') => {
      const at = labels.map((label) => label[axis]).sort((a, b) => a - b);
      return at.slice(1).map((value, index) => value - at[index]!);
    };
    for (const gap of gaps(large.prices, 'y')) expect(gap).toBeGreaterThanOrEqual(22 + 4);
    // A time label is 5 glyphs wide: 66 px at 22 px.
    for (const gap of gaps(large.times, 'x')) expect(gap).toBeGreaterThan(5 * 22 * 0.6);
  });
});

describe('the prices on the chart', () => {
  it('are written by the scene’s priceText on the scale, in the latest price’s box and under the crosshair', () => {
    const grouped = (price: number) =>
      new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(price);
    const { context, labels } = recordingContext();
    const picked: ChartScene = { ...scene(), priceText: grouped, crosshair: { index: 60, y: 100 } };
    drawKLine(context, picked);
    const plot = plotSize(recordingContext().context, picked);
    const onScale = labels.filter((label) => label.x > plot.width).map((label) => label.text);
    expect(onScale.length).toBeGreaterThan(2);
    for (const text of onScale) expect(text).toMatch(/^9[67],\d{3}\.\d\d$/);
    // The picked candle's readout along the top: open, high, low and close, grouped too.
    expect(labels.filter((label) => /^\d/.test(label.text) && label.x < plot.width).map((label) => label.text)).toEqual(
      expect.arrayContaining([grouped(closes[60]! - 5), grouped(closes[60]! + 12), grouped(closes[60]!)]),
    );
    // The price scale is as wide as its longest label with its separator: "97,052.00" is 9 glyphs.
    expect(360 - plot.width).toBe(Math.ceil(9 * 11 * 0.6) + 16);
  });
});
