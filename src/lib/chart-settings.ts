// The chart choices kept on this device: the time frame of the coin and option charts and the
// indicators drawn on them, with their parameters.
import type { Frame } from './candles.ts';
import { persistedStore } from './storage.ts';

/** The indicators a chart draws, with their parameters. */
export interface IndicatorSettings {
  ma: { on: boolean; periods: readonly number[] };
  ema: { on: boolean; periods: readonly number[] };
  boll: { on: boolean; period: number; width: number };
  volume: boolean;
}

export const DEFAULT_INDICATORS: IndicatorSettings = {
  ma: { on: false, periods: [7, 25] },
  ema: { on: false, periods: [12, 26] },
  boll: { on: false, period: 20, width: 2 },
  volume: true,
};

/** A parameter typed by the user, kept between `min` and `max`; anything else gives `fallback`. */
export function parameter(text: string, fallback: number, min: number, max: number, whole = true): number {
  const value = Number(text);
  if (!text.trim() || !Number.isFinite(value) || (whole && !Number.isInteger(value))) return fallback;
  return Math.min(max, Math.max(min, value));
}

export const chartSettings = persistedStore('chart-settings', {
  frame: '1m' as Frame,
  indicators: {
    ...structuredClone(DEFAULT_INDICATORS),
    ma: { ...DEFAULT_INDICATORS.ma, periods: [...DEFAULT_INDICATORS.ma.periods] },
    ema: { ...DEFAULT_INDICATORS.ema, periods: [...DEFAULT_INDICATORS.ema.periods] },
  },
});
