// Chart indicators over a series of closing prices: moving average (MA), exponential moving
// average (EMA) and Bollinger bands, as exchanges draw them. These values only place lines on the
// chart (canvas geometry), so they are plain numbers, not decimals: no amount is ever computed
// from them. Each result is as long as the input; a candle too early to have a value holds null.
// The chart loads this module only once an indicator is switched on.
import type { IndicatorSettings } from './chart-settings.ts';

/** Simple moving average of the last `period` values. */
export function movingAverage(values: readonly number[], period: number): (number | null)[] {
  const result: (number | null)[] = [];
  let sum = 0;
  for (let index = 0; index < values.length; index++) {
    sum += values[index]!;
    if (index >= period) sum -= values[index - period]!;
    result.push(index >= period - 1 ? sum / period : null);
  }
  return result;
}

/**
 * Exponential moving average with smoothing 2 / (period + 1), seeded with the simple average of
 * the first `period` values (its first value sits on the period-th candle, as the MA's does).
 */
export function exponentialAverage(values: readonly number[], period: number): (number | null)[] {
  const result: (number | null)[] = [];
  const alpha = 2 / (period + 1);
  let ema = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    if (index < period - 1) {
      ema += value;
      result.push(null);
    } else if (index === period - 1) {
      ema = (ema + value) / period;
      result.push(ema);
    } else {
      ema = alpha * value + (1 - alpha) * ema;
      result.push(ema);
    }
  }
  return result;
}

export interface Bands {
  middle: (number | null)[];
  upper: (number | null)[];
  lower: (number | null)[];
}

/** Bollinger bands: the MA of `period` values, and `width` population standard deviations around it. */
export function bollingerBands(values: readonly number[], period: number, width: number): Bands {
  const middle = movingAverage(values, period);
  const upper: (number | null)[] = [];
  const lower: (number | null)[] = [];
  middle.forEach((mean, index) => {
    if (mean === null) {
      upper.push(null);
      lower.push(null);
      return;
    }
    let squares = 0;
    for (let at = index - period + 1; at <= index; at++) squares += (values[at]! - mean) ** 2;
    const deviation = Math.sqrt(squares / period);
    upper.push(mean + width * deviation);
    lower.push(mean - width * deviation);
  });
  return { middle, upper, lower };
}

/** A line the chart draws over the candles: its values per candle and its colour. */
export interface OverlayLine {
  values: (number | null)[];
  color: string;
  label: string;
}

const MA_COLORS = ['#f0b90b', '#c13bd8', '#2f80ed'];
const EMA_COLORS = ['#0ea5e9', '#f97316', '#16a34a'];
const BOLL_COLORS = { middle: '#f0b90b', upper: '#8b5cf6', lower: '#8b5cf6' };

/** The lines `settings` draw over `closes`. */
export function overlayLines(closes: readonly number[], settings: IndicatorSettings): OverlayLine[] {
  const lines: OverlayLine[] = [];
  if (settings.ma.on)
    settings.ma.periods.forEach((period, at) =>
      lines.push({ values: movingAverage(closes, period), color: MA_COLORS[at % 3]!, label: `MA${period}` }),
    );
  if (settings.ema.on)
    settings.ema.periods.forEach((period, at) =>
      lines.push({ values: exponentialAverage(closes, period), color: EMA_COLORS[at % 3]!, label: `EMA${period}` }),
    );
  if (settings.boll.on) {
    const { middle, upper, lower } = bollingerBands(closes, settings.boll.period, settings.boll.width);
    lines.push({ values: upper, color: BOLL_COLORS.upper, label: 'UP' });
    lines.push({
      values: middle,
      color: BOLL_COLORS.middle,
      label: `BOLL(${settings.boll.period},${settings.boll.width})`,
    });
    lines.push({ values: lower, color: BOLL_COLORS.lower, label: 'DN' });
  }
  return lines;
}
