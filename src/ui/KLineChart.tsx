// A K-line (candlestick) chart, drawn by the app on one canvas (kline-draw.ts): about a millisecond
// a draw, so it shows with the page and follows every price without holding a slow phone's main
// thread (a charting library took 50 KB and 100–200 ms of main thread for its first draw there).
// Touch: a horizontal drag pans, two fingers zoom, a tap picks a candle; vertical drags still
// scroll the page. Mouse: hover picks, drag pans, the wheel zooms.
import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { appearance } from '../lib/theme.ts';
import { priceColors } from '../lib/price-colors.ts';
import { formatAmount, formatCandleTime } from '../lib/format.ts';
import { CHART_PALETTES, chartPalette, drawKLine, plotSize, type ChartSeries } from './kline-draw.ts';
import type { IndicatorSettings } from '../lib/chart-settings.ts';
import type { OverlayLine } from '../lib/indicators.ts';
import { DEFAULT_WINDOW, candleAt, clampWindow, panWindow, zoomWindow, type ChartWindow } from './kline-scale.ts';

export interface ChartCandle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume?: string;
}

interface KLineChartProps {
  candles: readonly ChartCandle[];
  /** Digits after the decimal point on the price scale. */
  decimals: number;
  height?: number;
  /** Indicators to draw, and the volume pane (none: candles only). */
  indicators?: IndicatorSettings;
  /** A price and time to mark (a pending option's start), in seconds since the epoch. */
  marker?: { time: number; price: string } | null;
}

const toSeries = (candles: readonly ChartCandle[]): ChartSeries => ({
  times: candles.map((candle) => candle.time),
  opens: candles.map((candle) => Number(candle.open)),
  highs: candles.map((candle) => Number(candle.high)),
  lows: candles.map((candle) => Number(candle.low)),
  closes: candles.map((candle) => Number(candle.close)),
  volumes: candles.every((candle) => candle.volume !== undefined)
    ? candles.map((candle) => Number(candle.volume))
    : undefined,
});

/** A press that moves less than this is a tap. */
const TAP_SLOP = 6;

export function KLineChart({ candles, decimals, height = 260, indicators, marker }: KLineChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Filled by the candles' effect below, which runs right after this one's first render.
  const state = useRef({
    series: toSeries([]),
    candles: [] as readonly ChartCandle[],
    view: DEFAULT_WINDOW as ChartWindow,
    crosshair: null as { index: number; y: number } | null,
    width: 0,
    frame: 0,
    fontFamily: 'sans-serif',
    overlays: [] as OverlayLine[],
    // Prices as numbers here only place lines on the canvas.
    marker: null as { time: number; price: number } | null,
    volume: false,
    palette: CHART_PALETTES.light,
  });
  const redraw = useRef<() => void>(() => undefined);

  useEffect(() => {
    const element = canvas.current!;
    const context = element.getContext('2d');
    if (!context) return;
    const chart = state.current;
    chart.fontFamily = getComputedStyle(element).fontFamily;
    // The page's text size (the phone's text setting): the scales' labels grow with the page's text.
    const textScale = () => parseFloat(getComputedStyle(document.documentElement).fontSize) / 16 || 1;
    // Prices on the canvas read as everywhere else in the app: grouped by thousands in the app's language.
    const priceText = (price: number) => formatAmount(price.toFixed(decimals), decimals);
    const plot = () => plotSize(context, { ...chart, height, decimals, priceText, textScale: textScale() });
    const plotWidth = () => plot().width;
    const draw = () => {
      chart.frame = 0;
      const ratio = devicePixelRatio || 1;
      const series = chart.volume ? chart.series : { ...chart.series, volumes: undefined };
      const [pixelWidth, pixelHeight] = [Math.round(chart.width * ratio), Math.round(height * ratio)];
      if (element.width !== pixelWidth || element.height !== pixelHeight)
        [element.width, element.height] = [pixelWidth, pixelHeight];
      // The marked price, if any, and which candles are in view, for tests and anyone inspecting the page.
      element.dataset.marker = chart.marker ? String(chart.marker.price) : '';
      element.dataset.shown =
        drawKLine(context, {
          ...chart,
          series,
          height,
          ratio,
          decimals,
          priceText,
          textScale: textScale(),
          timeLabel: formatCandleTime,
        })?.join('-') ?? '';
    };
    redraw.current = () => {
      chart.frame ||= requestAnimationFrame(draw);
    };
    const resize = new ResizeObserver(([entry]) => {
      chart.width = entry!.contentRect.width;
      chart.view = clampWindow(chart.view, chart.series.times.length, plotWidth());
      redraw.current();
    });
    resize.observe(element);

    // Pointers down on the chart, by id: one pans, two zoom by the change of their distance.
    const pointers = new Map<number, { x: number; y: number; startX: number; startY: number }>();
    const local = (event: PointerEvent | WheelEvent) => {
      const box = element.getBoundingClientRect();
      return { x: event.clientX - box.left, y: event.clientY - box.top };
    };
    const pick = ({ x, y }: { x: number; y: number }) => {
      const count = chart.series.times.length;
      const { width, height: plotHeight } = plot();
      const index = candleAt(Math.min(x, width), count, width, chart.view);
      // Anywhere on the plot: the price at that height; over a candle, its time and prices too.
      chart.crosshair = count ? { index, y: Math.min(Math.max(0, y), plotHeight) } : null;
      redraw.current();
    };
    const down = (event: PointerEvent) => {
      const at = local(event);
      pointers.set(event.pointerId, { ...at, startX: at.x, startY: at.y });
      element.setPointerCapture?.(event.pointerId);
    };
    const move = (event: PointerEvent) => {
      const at = local(event);
      const pointer = pointers.get(event.pointerId);
      if (!pointer) {
        if (event.pointerType === 'mouse') pick(at);
        return;
      }
      const count = chart.series.times.length;
      const width = plotWidth();
      if (pointers.size === 2) {
        const other = [...pointers.entries()].find(([id]) => id !== event.pointerId)![1];
        const before = Math.hypot(pointer.x - other.x, pointer.y - other.y);
        const after = Math.hypot(at.x - other.x, at.y - other.y);
        if (before > 0) chart.view = zoomWindow(chart.view, after / before, (at.x + other.x) / 2, count, width);
      } else {
        chart.view = panWindow(chart.view, at.x - pointer.x, count, width);
        if (Math.abs(at.x - pointer.startX) > TAP_SLOP) chart.crosshair = null;
      }
      Object.assign(pointer, at);
      redraw.current();
    };
    const up = (event: PointerEvent) => {
      const pointer = pointers.get(event.pointerId);
      pointers.delete(event.pointerId);
      if (!pointer || event.type === 'pointercancel' || pointers.size) return;
      const at = local(event);
      const tapped = Math.hypot(at.x - pointer.startX, at.y - pointer.startY) <= TAP_SLOP;
      // A tap picks a candle, or lets go of the one picked; the mouse picks by hovering.
      if (tapped && event.pointerType !== 'mouse') {
        if (chart.crosshair) {
          chart.crosshair = null;
          redraw.current();
        } else pick(at);
      }
    };
    const leave = (event: PointerEvent) => {
      if (event.pointerType !== 'mouse' || pointers.size) return;
      chart.crosshair = null;
      redraw.current();
    };
    const wheel = (event: WheelEvent) => {
      event.preventDefault();
      const count = chart.series.times.length;
      const width = plotWidth();
      chart.view =
        Math.abs(event.deltaX) > Math.abs(event.deltaY)
          ? panWindow(chart.view, -event.deltaX, count, width)
          : zoomWindow(chart.view, event.deltaY < 0 ? 1.1 : 1 / 1.1, local(event).x, count, width);
      redraw.current();
    };
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
    element.addEventListener('pointercancel', up);
    element.addEventListener('pointerleave', leave);
    element.addEventListener('wheel', wheel, { passive: false });
    return () => {
      resize.disconnect();
      cancelAnimationFrame(chart.frame);
      chart.frame = 0;
      redraw.current = () => undefined;
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('pointercancel', up);
      element.removeEventListener('pointerleave', leave);
      element.removeEventListener('wheel', wheel);
    };
  }, [decimals, height]);

  useEffect(() => {
    const chart = state.current;
    const previous = chart.candles;
    chart.candles = candles;
    chart.series = toSeries(candles);
    // A new candle while panned back: the same candles stay in view. Another series: the newest.
    const newCandle =
      previous.length > 0 &&
      candles.length > 0 &&
      candles.at(-1)!.time > previous.at(-1)!.time &&
      candles.at(-2)?.time === previous.at(-1)!.time;
    const anotherSeries = !newCandle && candles.at(-1)?.time !== previous.at(-1)?.time;
    if (newCandle && chart.view.offset > 0) chart.view = { ...chart.view, offset: chart.view.offset + 1 };
    else if (anotherSeries) chart.view = { ...chart.view, offset: 0 };
    // The picked candle stays picked when the oldest one drops out; another series lets go of it.
    if (chart.crosshair && newCandle && candles[0]!.time !== previous[0]!.time)
      chart.crosshair = { ...chart.crosshair, index: chart.crosshair.index - 1 };
    if (anotherSeries) chart.crosshair = null;
    redraw.current();
  }, [candles]);

  // The indicators' maths loads only once one is switched on (most charts draw none).
  useEffect(() => {
    const chart = state.current;
    if (!indicators || !(indicators.ma.on || indicators.ema.on || indicators.boll.on)) {
      chart.overlays = [];
      redraw.current();
      return;
    }
    let current = true;
    void import('../lib/indicators.ts').then(({ overlayLines }) => {
      if (!current) return;
      chart.overlays = overlayLines(chart.series.closes, indicators);
      redraw.current();
    });
    return () => {
      current = false;
    };
  }, [candles, indicators]);

  const markTime = marker?.time;
  const markPrice = marker?.price;
  useEffect(() => {
    const chart = state.current;
    chart.volume = indicators?.volume ?? false;
    chart.marker =
      markTime !== undefined && markPrice !== undefined ? { time: markTime, price: Number(markPrice) } : null;
    redraw.current();
  }, [indicators?.volume, markTime, markPrice]);

  // The theme's colours in the customer's price colours: the chart redraws when the page changes either.
  const { theme } = useSnapshot(appearance);
  const { colors } = useSnapshot(priceColors);
  useEffect(() => {
    state.current.palette = chartPalette(theme, colors);
    redraw.current();
  }, [theme, colors]);

  return (
    <div className="kline-chart" style={{ height }}>
      <canvas ref={canvas} className="kline-canvas" aria-hidden="true" />
    </div>
  );
}
