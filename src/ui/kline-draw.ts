// Draws the K-line chart on a canvas in one pass: grid, candles, the latest price, the scales and,
// when one is picked, a candle's crosshair with its open, high, low and close. Drawing ~100 candles
// takes about a millisecond, so every change redraws the whole chart.
import {
  candleSeconds,
  candleX,
  localDay,
  priceRange,
  priceTicks,
  timeTicks,
  visibleCandles,
  type ChartWindow,
} from './kline-scale.ts';
import type { OverlayLine } from '../lib/indicators.ts';

/** The candles as numbers, one array per field (the chart only draws them). */
export interface ChartSeries {
  times: number[];
  opens: number[];
  highs: number[];
  lows: number[];
  closes: number[];
  /** Traded volume per candle, for the volume pane (none: no pane). */
  volumes?: number[];
}

export interface ChartScene {
  /** CSS pixels, and device pixels per CSS pixel. */
  width: number;
  height: number;
  ratio: number;
  series: ChartSeries;
  view: ChartWindow;
  decimals: number;
  /**
   * A price on the scale, in a box or a readout, as the app writes numbers in its language (grouped by thousands,
   * `decimals` digits: "97,250.10"). Absent: the number with `decimals` digits and no grouping.
   */
  priceText?: (price: number) => string;
  fontFamily: string;
  /**
   * The page's text size against the default (its root font size over 16 px: 2 with the phone's text at 200 %); the
   * scales' labels, boxes and spacing follow it. 1 when absent.
   */
  textScale?: number;
  /** The picked candle and the height the finger or pointer is at. */
  crosshair: { index: number; y: number } | null;
  /** Time labels: `clock` of a round minute, `day` for a new day, `dayClock` under the crosshair. */
  timeLabel: (time: number, kind: 'clock' | 'day' | 'dayClock') => string;
  /** Indicator lines drawn over the candles (MA, EMA, Bollinger bands). */
  overlays?: readonly OverlayLine[];
  /** A marked price and time (a pending option's start): a line across and a dot at the candle. */
  marker?: { time: number; price: number } | null;
  /** The theme's colours (none: the light theme's). */
  palette?: ChartPalette;
}

/** The chart's colours in one theme (canvas pixels, which no style sheet reaches). */
export interface ChartPalette {
  background: string;
  grid: string;
  border: string;
  text: string;
  /** Rising and falling candles, volume bars and the latest price's line. */
  up: string;
  down: string;
  /** Under the white text of the latest price's box: 5.4:1 or more. */
  upLabel: string;
  downLabel: string;
  crosshair: string;
  crosshairLabel: string;
  marker: string;
  /** Behind the picked candle's readout, over the candles. */
  readout: string;
  upVolume: string;
  downVolume: string;
}

/** The palettes of the light and dark themes (src/lib/theme.ts says which is painted). */
export const CHART_PALETTES: Record<'light' | 'dark', ChartPalette> = {
  light: {
    background: '#ffffff',
    grid: '#f0f2f5',
    border: '#e6e9ef',
    text: '#5f6b7a',
    up: '#12a150',
    down: '#e5484d',
    upLabel: '#0b7a3b',
    downLabel: '#c4343a',
    crosshair: '#9aa4b2',
    crosshairLabel: '#14181f',
    marker: '#2563eb',
    readout: 'rgba(255, 255, 255, 0.85)',
    upVolume: 'rgba(18, 161, 80, 0.45)',
    downVolume: 'rgba(229, 72, 77, 0.45)',
  },
  dark: {
    background: '#161d26',
    grid: '#212a35',
    border: '#2a3441',
    text: '#9aa6b5',
    up: '#2ebd6b',
    down: '#f0595e',
    upLabel: '#0b7a3b',
    downLabel: '#c4343a',
    crosshair: '#6b7686',
    crosshairLabel: '#3a4656',
    marker: '#5b9dff',
    readout: 'rgba(22, 29, 38, 0.85)',
    upVolume: 'rgba(46, 189, 107, 0.45)',
    downVolume: 'rgba(240, 89, 94, 0.45)',
  },
};

/**
 * A palette in the customer's price colours: as it is for green rises, its rising and falling colours swapped for red
 * rises (src/lib/price-colors-pick.ts).
 */
export function chartPalette(theme: 'light' | 'dark', colors: 'green-up' | 'red-up'): ChartPalette {
  const palette = CHART_PALETTES[theme];
  if (colors === 'green-up') return palette;
  return {
    ...palette,
    up: palette.down,
    down: palette.up,
    upLabel: palette.downLabel,
    downLabel: palette.upLabel,
    upVolume: palette.downVolume,
    downVolume: palette.upVolume,
  };
}
/** Share of the plot's height the volume pane takes, below the candles. */
const VOLUME_SHARE = 0.2;
const LABEL_PADDING = 8;

/**
 * The chart's text sizes in CSS pixels at `textScale` (see ChartScene): the labels' font (11 px at the default size),
 * the time scale's height, and how far apart price labels and time labels are at least.
 */
function textMetrics(textScale = 1) {
  const font = 11 * textScale;
  return { font, timeAxis: 2 * font, priceGap: 36 * textScale, timeGap: 64 * textScale };
}
const DAY = 86_400;

/** A price as the scene writes it (its priceText, else `decimals` digits). */
const written = (scene: Pick<ChartScene, 'decimals' | 'priceText'>, price: number) =>
  scene.priceText ? scene.priceText(price) : price.toFixed(scene.decimals);

/** The plot's size: the chart less the price scale on the right and the time scale below. */
export function plotSize(
  context: CanvasRenderingContext2D,
  scene: Pick<ChartScene, 'width' | 'height' | 'series' | 'decimals' | 'priceText' | 'fontFamily' | 'textScale'>,
): { width: number; height: number } {
  const { font, timeAxis } = textMetrics(scene.textScale);
  context.font = `${font}px ${scene.fontFamily}`;
  // Wide enough for the longest price of the whole series, so the scale does not jump while panning.
  const longest = written(scene, Math.max(0, ...scene.series.highs));
  const axis = Math.ceil(context.measureText(longest).width) + 2 * LABEL_PADDING;
  return { width: Math.max(0, scene.width - axis), height: Math.max(0, scene.height - timeAxis) };
}

/** Draws `scene`; returns the first and last candle it shows, if any. */
export function drawKLine(context: CanvasRenderingContext2D, scene: ChartScene): [number, number] | null {
  const { width, height, ratio, series, view, decimals } = scene;
  const colors = scene.palette ?? CHART_PALETTES.light;
  const count = series.times.length;
  const plot = plotSize(context, scene);
  const text = textMetrics(scene.textScale);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.fillStyle = colors.background;
  context.fillRect(0, 0, width, height);
  context.direction = 'ltr';
  context.textBaseline = 'middle';
  const range = visibleCandles(count, plot.width, view);
  if (range && plot.height > 0) {
    const [first, last] = range;
    const volumes = series.volumes?.length === count ? series.volumes : null;
    // With volumes, the candles take the upper part of the plot and the volume bars the rest.
    const priceHeight = volumes ? plot.height * (1 - VOLUME_SHARE) : plot.height;
    const [low, high] = widenRange(priceRange(series.lows, series.highs, first, last), scene, first, last);
    const y = (price: number) => ((high - price) / (high - low)) * priceHeight;
    const prices = priceTicks(low, high, Math.floor(priceHeight / text.priceGap), decimals);
    const times = timeTicks(series.times, first, last, view.spacing, text.timeGap);

    context.fillStyle = colors.grid;
    for (const price of prices) context.fillRect(0, snap(y(price), ratio), plot.width, 1 / ratio);
    for (const index of times)
      context.fillRect(snap(candleX(index, count, plot.width, view), ratio), 0, 1 / ratio, plot.height);

    context.save();
    context.beginPath();
    context.rect(0, 0, plot.width, plot.height);
    context.clip();
    if (volumes) drawVolumes(context, scene, volumes, first, last, plot.width, priceHeight, plot.height);
    drawCandles(context, scene, first, last, plot.width, y);
    for (const line of scene.overlays ?? [])
      drawLine(context, scene, line.values, line.color, first, last, plot.width, y);
    const marker = scene.marker ? markerIndex(series.times, scene.marker.time) : -1;
    if (scene.marker) {
      context.strokeStyle = colors.marker;
      const at = snap(y(scene.marker.price), ratio);
      dashedLine(context, 0, at, plot.width, at, ratio);
      if (marker >= 0) {
        context.fillStyle = colors.marker;
        context.beginPath();
        context.arc(candleX(marker, count, plot.width, view), y(scene.marker.price), 4, 0, 2 * Math.PI);
        context.fill();
      }
    }
    const close = series.closes[count - 1]!;
    const rising = close >= series.opens[count - 1]!;
    context.strokeStyle = rising ? colors.up : colors.down;
    dashedLine(context, 0, snap(y(close), ratio), plot.width, snap(y(close), ratio), ratio);
    if (scene.crosshair) {
      context.strokeStyle = colors.crosshair;
      const x = snap(candleX(scene.crosshair.index, count, plot.width, view), ratio);
      dashedLine(context, x, 0, x, plot.height, ratio);
      dashedLine(context, 0, snap(scene.crosshair.y, ratio), plot.width, snap(scene.crosshair.y, ratio), ratio);
    }
    context.restore();

    context.fillStyle = colors.text;
    context.textAlign = 'left';
    // Scale labels a box (the latest price, the crosshair's) would cover are left out.
    const boxes = [y(close), ...(scene.crosshair ? [scene.crosshair.y] : [])];
    for (const price of prices) {
      const at = y(price);
      const covered = boxes.some((box) => Math.abs(box - at) < text.font + 4);
      if (!covered && at > text.font / 2 && at < priceHeight - text.font / 2)
        context.fillText(written(scene, price), plot.width + LABEL_PADDING, at);
    }
    context.textAlign = 'center';
    const daily = candleSeconds(series.times) >= DAY;
    for (const index of times) {
      // The first candle of a day shows the date; the others the time. A label the plot's edge
      // would cut is left out.
      const time = series.times[index]!;
      const newDay = index > 0 && localDay(series.times[index - 1]!) !== localDay(time);
      const label = scene.timeLabel(time, newDay || daily ? 'day' : 'clock');
      const x = candleX(index, count, plot.width, view);
      const half = context.measureText(label).width / 2;
      if (x - half >= 0 && x + half <= plot.width) context.fillText(label, x, plot.height + text.timeAxis / 2);
    }
    priceLabel(
      context,
      written(scene, close),
      plot.width,
      width - plot.width,
      y(close),
      rising ? colors.upLabel : colors.downLabel,
      text.font,
    );
    if (scene.crosshair) {
      const { index, y: at } = scene.crosshair;
      priceLabel(
        context,
        written(scene, high - (at / priceHeight) * (high - low)),
        plot.width,
        width - plot.width,
        at,
        colors.crosshairLabel,
        text.font,
      );
      if (index >= 0 && index < count) {
        timeLabel(
          context,
          colors,
          scene.timeLabel(series.times[index]!, 'dayClock'),
          candleX(index, count, plot.width, view),
          plot.height,
          plot.width,
          text.timeAxis,
        );
        readout(context, scene, index, text.font);
      }
    } else if (scene.overlays?.length) legend(context, scene, last, plot.width, text.font);
  }
  context.fillStyle = colors.border;
  context.fillRect(plot.width, 0, 1 / ratio, plot.height);
  context.fillRect(0, plot.height, width, 1 / ratio);
  return plot.height > 0 ? range : null;
}

/** Rounds a CSS coordinate to the nearest device pixel, so one-pixel lines stay sharp. */
const snap = (value: number, ratio: number) => Math.round(value * ratio) / ratio;

function drawCandles(
  context: CanvasRenderingContext2D,
  { series, view, ratio, palette }: ChartScene,
  first: number,
  last: number,
  plotWidth: number,
  y: (price: number) => number,
): void {
  const colors = palette ?? CHART_PALETTES.light;
  const count = series.times.length;
  // Bodies a whole number of device pixels wide, with a one-pixel wick in their middle.
  const body = Math.max(1, Math.floor(view.spacing * ratio * 0.7)) / ratio;
  const wick = Math.max(1, Math.floor(ratio)) / ratio;
  for (const rising of [true, false]) {
    context.fillStyle = rising ? colors.up : colors.down;
    for (let index = first; index <= last; index++) {
      const open = series.opens[index]!;
      const close = series.closes[index]!;
      if (close >= open !== rising) continue;
      const x = snap(candleX(index, count, plotWidth, view), ratio);
      const top = snap(y(Math.max(open, close)), ratio);
      const bottom = snap(y(Math.min(open, close)), ratio);
      const highest = snap(y(series.highs[index]!), ratio);
      context.fillRect(x - wick / 2, highest, wick, snap(y(series.lows[index]!), ratio) - highest);
      context.fillRect(x - body / 2, top, body, Math.max(1 / ratio, bottom - top));
    }
  }
}

function dashedLine(
  context: CanvasRenderingContext2D,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  ratio: number,
): void {
  context.lineWidth = 1 / ratio;
  context.setLineDash([4, 3]);
  context.beginPath();
  context.moveTo(x1, y1);
  context.lineTo(x2, y2);
  context.stroke();
  context.setLineDash([]);
}

/** A price in a coloured box on the price scale, at height `y`. */
function priceLabel(
  context: CanvasRenderingContext2D,
  text: string,
  left: number,
  axisWidth: number,
  y: number,
  color: string,
  fontSize: number,
): void {
  const boxHeight = fontSize + 6;
  context.fillStyle = color;
  context.fillRect(left, y - boxHeight / 2, axisWidth, boxHeight);
  context.fillStyle = '#ffffff';
  context.textAlign = 'left';
  context.fillText(text, left + LABEL_PADDING, y);
}

/** A time in a dark box on the time scale, kept inside the plot's width. */
function timeLabel(
  context: CanvasRenderingContext2D,
  colors: ChartPalette,
  text: string,
  x: number,
  top: number,
  plotWidth: number,
  height: number,
): void {
  const boxWidth = context.measureText(text).width + 2 * LABEL_PADDING;
  const left = Math.min(Math.max(0, x - boxWidth / 2), plotWidth - boxWidth);
  context.fillStyle = colors.crosshairLabel;
  context.fillRect(left, top, boxWidth, height);
  context.fillStyle = '#ffffff';
  context.textAlign = 'left';
  context.fillText(text, left + LABEL_PADDING, top + height / 2);
}

/** The picked candle's open, high, low and close along the plot's top, in its colour. */
function readout(context: CanvasRenderingContext2D, scene: ChartScene, index: number, fontSize: number): void {
  const { series, palette } = scene;
  const colors = palette ?? CHART_PALETTES.light;
  const values = [series.opens, series.highs, series.lows, series.closes].map((field) => written(scene, field[index]!));
  const rising = series.closes[index]! >= series.opens[index]!;
  context.textAlign = 'left';
  const width = values.reduce((sum, value) => sum + context.measureText(value).width + 8, 0) + 4 * 12;
  const height = fontSize + 9;
  context.fillStyle = colors.readout;
  context.fillRect(0, 0, width, height);
  let x = 6;
  ['O', 'H', 'L', 'C'].forEach((name, at) => {
    context.fillStyle = colors.text;
    context.fillText(name, x, height / 2);
    x += context.measureText(name).width + 3;
    context.fillStyle = rising ? colors.up : colors.down;
    context.fillText(values[at]!, x, height / 2);
    x += context.measureText(values[at]!).width + 8;
  });
}

/** The price range widened to the visible indicator values and the marked price, with a margin past them. */
function widenRange(
  range: [number, number],
  { overlays, marker }: ChartScene,
  first: number,
  last: number,
): [number, number] {
  let [low, high] = range;
  for (const line of overlays ?? [])
    for (let index = first; index <= last; index++) {
      const value = line.values[index];
      if (value === null || value === undefined) continue;
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  if (marker) [low, high] = [Math.min(low, marker.price), Math.max(high, marker.price)];
  const pad = (high - low) * 0.05;
  return [low < range[0] ? low - pad : range[0], high > range[1] ? high + pad : range[1]];
}

/** The candle a time falls in (the last one starting at or before it), or -1 before the first. */
function markerIndex(times: readonly number[], time: number): number {
  let found = -1;
  for (let index = 0; index < times.length && times[index]! <= time; index++) found = index;
  return found;
}

/** One indicator line through the candles' centres; it breaks where it has no value. */
function drawLine(
  context: CanvasRenderingContext2D,
  { series, view, ratio }: ChartScene,
  values: readonly (number | null)[],
  color: string,
  first: number,
  last: number,
  plotWidth: number,
  y: (price: number) => number,
): void {
  const count = series.times.length;
  context.strokeStyle = color;
  context.lineWidth = Math.max(1, Math.round(ratio)) / ratio;
  context.beginPath();
  let drawing = false;
  for (let index = Math.max(0, first - 1); index <= Math.min(count - 1, last + 1); index++) {
    const value = values[index];
    if (value === null || value === undefined) {
      drawing = false;
      continue;
    }
    const x = candleX(index, count, plotWidth, view);
    if (drawing) context.lineTo(x, y(value));
    else context.moveTo(x, y(value));
    drawing = true;
  }
  context.stroke();
}

/** Volume bars in the pane under the candles, in each candle's colour, scaled to the highest in view. */
function drawVolumes(
  context: CanvasRenderingContext2D,
  { series, view, ratio, palette }: ChartScene,
  volumes: readonly number[],
  first: number,
  last: number,
  plotWidth: number,
  top: number,
  bottom: number,
): void {
  const colors = palette ?? CHART_PALETTES.light;
  const count = series.times.length;
  let most = 0;
  for (let index = first; index <= last; index++) most = Math.max(most, volumes[index]!);
  context.fillStyle = colors.border;
  context.fillRect(0, snap(top, ratio), plotWidth, 1 / ratio);
  if (most <= 0) return;
  const body = Math.max(1, Math.floor(view.spacing * ratio * 0.7)) / ratio;
  const room = bottom - top - 4;
  for (let index = first; index <= last; index++) {
    const barHeight = (volumes[index]! / most) * room;
    if (barHeight <= 0) continue;
    context.fillStyle = series.closes[index]! >= series.opens[index]! ? colors.upVolume : colors.downVolume;
    const x = snap(candleX(index, count, plotWidth, view), ratio);
    context.fillRect(x - body / 2, snap(bottom - barHeight, ratio), body, barHeight);
  }
}

/** The indicators' names and latest values in view, in their colours, along the plot's top. */
function legend(
  context: CanvasRenderingContext2D,
  scene: ChartScene,
  last: number,
  plotWidth: number,
  fontSize: number,
): void {
  context.textAlign = 'left';
  let x = 6;
  let row = (fontSize + 9) / 2;
  for (const line of scene.overlays ?? []) {
    const value = line.values[last];
    const text = `${line.label} ${value === null || value === undefined ? '-' : written(scene, value)}`;
    const width = context.measureText(text).width;
    if (x > 6 && x + width > plotWidth) {
      x = 6;
      row += fontSize + 4;
    }
    context.fillStyle = line.color;
    context.fillText(text, x, row);
    x += width + 10;
  }
}
