// The K-line chart's geometry, without a canvas: which candles the window shows, where each one
// sits, and which prices and times get a label. The window is kept as how many candles lie past its
// right edge and the width of one candle: the chart follows the newest candle at 0, and a user who
// panned back keeps the same candles in view as new ones arrive (KLineChart adds one per candle).

export interface ChartWindow {
  /** Candles hidden past the right edge of the plot: 0 shows the newest at the edge; below 0, space after it. */
  offset: number;
  /** CSS pixels from one candle's centre to the next. */
  spacing: number;
}

export const DEFAULT_WINDOW: ChartWindow = { offset: 0, spacing: 6 };
const MIN_SPACING = 2;
const MAX_SPACING = 40;
/** Candles that stay in view however far the chart is panned. */
const MIN_VISIBLE = 3;

/** The x of candle `index`'s centre, of `count` candles in a plot `width` wide. */
export function candleX(index: number, count: number, width: number, view: ChartWindow): number {
  return width - (count - 1 - index - view.offset + 0.5) * view.spacing;
}

/** Where `x` falls, in candles (fractional; may lie outside 0…count-1). */
const positionAt = (x: number, count: number, width: number, view: ChartWindow) =>
  count - 1 - view.offset + 0.5 - (width - x) / view.spacing;

/** The candle whose slot contains `x` (may lie outside 0…count-1). */
export const candleAt = (x: number, count: number, width: number, view: ChartWindow): number =>
  Math.round(positionAt(x, count, width, view));

/** The first and last candle with any part in the plot, or null when none is. */
export function visibleCandles(count: number, width: number, view: ChartWindow): [number, number] | null {
  const first = Math.max(0, Math.floor(count - 1 - view.offset - width / view.spacing) + 1);
  const last = Math.min(count - 1, Math.ceil(count - view.offset) - 1);
  return count && first <= last ? [first, last] : null;
}

/** The window kept within reach of the candles: never panned past them, never too thin or wide. */
export function clampWindow(view: ChartWindow, count: number, width: number): ChartWindow {
  const spacing = Math.min(MAX_SPACING, Math.max(MIN_SPACING, view.spacing));
  // Back until a few candles remain; forward to a little space after the newest.
  const most = Math.max(0, count - MIN_VISIBLE);
  const least = -Math.min(width / spacing / 4, 8);
  return { spacing, offset: Math.min(most, Math.max(least, view.offset)) };
}

/** Dragged by `dx` pixels: to the right brings older candles in. */
export function panWindow(view: ChartWindow, dx: number, count: number, width: number): ChartWindow {
  return clampWindow({ ...view, offset: view.offset + dx / view.spacing }, count, width);
}

/** Zoomed by `factor` around `x`: what is under `x` stays under it. */
export function zoomWindow(view: ChartWindow, factor: number, x: number, count: number, width: number): ChartWindow {
  const spacing = Math.min(MAX_SPACING, Math.max(MIN_SPACING, view.spacing * factor));
  const at = positionAt(x, count, width, view);
  return clampWindow({ spacing, offset: count - 1 + 0.5 - (width - x) / spacing - at }, count, width);
}

/** The lowest low and highest high of candles first…last, a little apart when they are equal. */
export function priceRange(
  lows: readonly number[],
  highs: readonly number[],
  first: number,
  last: number,
): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  for (let index = first; index <= last; index++) {
    low = Math.min(low, lows[index]!);
    high = Math.max(high, highs[index]!);
  }
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
  const pad = high > low ? (high - low) * 0.08 : Math.abs(high) * 0.001 || 1;
  return [low - pad, high + pad];
}

/**
 * Round prices between `low` and `high` for the price scale, about one per `count` of the height:
 * steps of 1, 2 or 5 times a power of ten, never finer than the coin's last decimal.
 */
export function priceTicks(low: number, high: number, count: number, decimals: number): number[] {
  const finest = 10 ** -decimals;
  const raw = Math.max((high - low) / Math.max(1, count), finest);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(
    finest,
    [1, 2, 5, 10].map((unit) => unit * power).find((candidate) => candidate >= raw)!,
  );
  const ticks: number[] = [];
  for (let tick = Math.ceil(low / step) * step; tick <= high; tick += step) ticks.push(Number(tick.toFixed(decimals)));
  return ticks;
}

/** Steps between time labels: round minutes for candles under a day, then days. */
const MINUTE_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 240, 360, 720];
const DAY_STEPS = [1, 2, 7, 14, 28];
const DAY = 86_400;

/** Seconds per candle: the shortest step between the first few (a gap in the feed is not a period). */
export function candleSeconds(times: readonly number[]): number {
  let shortest = Infinity;
  for (let index = 1; index < Math.min(times.length, 12); index++)
    if (times[index]! > times[index - 1]!) shortest = Math.min(shortest, times[index]! - times[index - 1]!);
  return Number.isFinite(shortest) ? shortest : 60;
}

/** The device's time zone at `time` (seconds), in minutes east of UTC: labels fall on local round times. */
const localZoneMinutes = (time = 0) => -new Date(time * 1000).getTimezoneOffset();

/** The local day `time` (seconds) falls on, counted from 1970. */
export const localDay = (time: number, zoneMinutes = localZoneMinutes(time)) =>
  Math.floor((time + zoneMinutes * 60) / DAY);

/**
 * Indexes of the candles first…last whose time gets a label, at least `minGap` pixels apart: those
 * on a round local time (each 5, 15, 60 … minutes), or once the steps grow past half a day, the
 * first candle of every day, second day, week … .
 */
export function timeTicks(
  times: readonly number[],
  first: number,
  last: number,
  spacing: number,
  minGap: number,
  zoneMinutes = localZoneMinutes(times[last]),
): number[] {
  const period = candleSeconds(times);
  const wideEnough = (seconds: number) => (seconds / period) * spacing >= minGap;
  const minutes =
    period < DAY
      ? MINUTE_STEPS.find((step) => step * 60 >= period && (step * 60) % period === 0 && wideEnough(step * 60))
      : undefined;
  const days = DAY_STEPS.find((step) => step * DAY >= period && wideEnough(step * DAY)) ?? DAY_STEPS.at(-1)!;
  const ticks: number[] = [];
  for (let index = first; index <= last; index++) {
    const time = times[index]!;
    if (minutes) {
      if ((Math.floor(time / 60) + zoneMinutes) % minutes === 0) ticks.push(index);
      continue;
    }
    const day = localDay(time, zoneMinutes);
    const newDay = index === 0 || localDay(times[index - 1]!, zoneMinutes) !== day;
    if (newDay && day % days === 0) ticks.push(index);
  }
  return ticks;
}
