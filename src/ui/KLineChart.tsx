// A K-line (candlestick) chart. lightweight-charts (Apache-2.0) loads only when a chart is shown,
// once the browser is idle: on a slow phone the rest of the first screen (prices, the order form, a
// startup message) comes first, and the chart's place keeps its height meanwhile. The library's
// code runs in one task and the chart is made in a later one (idle again): together they would
// hold a slow phone's main thread for one long stretch.
// Touch: horizontal drags pan the chart, vertical drags still scroll the page.
import { useEffect, useRef } from 'react';
import { whenIdle } from '../lib/idle.ts';
import type { CandlestickData, IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';

export interface ChartCandle {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

interface KLineChartProps {
  candles: readonly ChartCandle[];
  /** Digits after the decimal point on the price scale. */
  decimals: number;
  height?: number;
}

const toBar = (candle: ChartCandle): CandlestickData<UTCTimestamp> => ({
  time: candle.time as UTCTimestamp,
  open: Number(candle.open),
  high: Number(candle.high),
  low: Number(candle.low),
  close: Number(candle.close),
});

export function KLineChart({ candles, decimals, height = 260 }: KLineChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<{ api: IChartApi; series: ISeriesApi<'Candlestick'> } | null>(null);
  const shown = useRef<readonly ChartCandle[]>([]);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    const draw = ({ createChart, CandlestickSeries, ColorType }: Pick<typeof import('lightweight-charts'), 'createChart' | 'CandlestickSeries' | 'ColorType'>) => {
      if (disposed || !container.current) return;
      const api = createChart(container.current, {
        height,
        // Latin digits everywhere, as in the rest of the app (Arabic included).
        localization: { locale: `${document.documentElement.lang || 'en'}-u-nu-latn` },
        // The app's own typeface (ui.css) rather than the library's list: the labels read like the page.
        layout: { background: { type: ColorType.Solid, color: '#ffffff' }, textColor: '#6b7686', fontFamily: getComputedStyle(container.current).fontFamily, attributionLogo: false },
        grid: { vertLines: { color: '#f0f2f5' }, horzLines: { color: '#f0f2f5' } },
        timeScale: { timeVisible: true, secondsVisible: false, borderColor: '#e6e9ef' },
        rightPriceScale: { borderColor: '#e6e9ef' },
        handleScroll: { mouseWheel: true, pressedMouseMove: true, horzTouchDrag: true, vertTouchDrag: false },
        handleScale: { mouseWheel: true, pinch: true, axisPressedMouseMove: false },
      });
      const series = api.addSeries(CandlestickSeries, {
        upColor: '#12a150',
        downColor: '#e5484d',
        borderVisible: false,
        wickUpColor: '#12a150',
        wickDownColor: '#e5484d',
        priceFormat: { type: 'price', precision: decimals, minMove: 1 / 10 ** decimals },
      });
      chart.current = { api, series };
      series.setData(shown.current.map(toBar));
      observer = new ResizeObserver(([entry]) => api.applyOptions({ width: entry!.contentRect.width }));
      observer.observe(container.current);
    };
    let cancelStep = whenIdle(
      () =>
        // Named where it is imported: the bundler then leaves out the parts the chart does not use.
        void import('lightweight-charts').then(({ createChart, CandlestickSeries, ColorType }) => {
          if (!disposed) cancelStep = whenIdle(() => draw({ createChart, CandlestickSeries, ColorType }), 1000);
        }),
      1000,
    );
    return () => {
      disposed = true;
      cancelStep();
      observer?.disconnect();
      chart.current?.api.remove();
      chart.current = null;
    };
  }, [decimals, height]);

  useEffect(() => {
    const previous = shown.current;
    shown.current = candles;
    const current = chart.current;
    if (!current) return;
    const last = candles.at(-1);
    // A live change of the last candle (or a new one) is an update; anything else a redraw.
    if (last && previous.length && candles.length - previous.length <= 1 && previous.at(-1)!.time <= last.time && candles[0]?.time === previous[0]?.time) {
      current.series.update(toBar(last));
    } else {
      current.series.setData(candles.map(toBar));
    }
  }, [candles]);

  return <div ref={container} className="kline-chart" style={{ height }} />;
}
