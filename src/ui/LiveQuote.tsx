// A coin's live quote against USDT (last recorded price, 24 h change, high and low, when it was
// recorded, the Simulated label) and its compact one-minute chart kept live from the price stream.
// Shown on every trading screen (options, contracts).
import type { ReactNode } from 'react';
import { useLiveSnapshot } from '../lib/live-snapshot.ts';
import { Trans } from '@lingui/react/macro';
import { formatAmount, formatPrice, formatTime } from '../lib/format.ts';
import { prices } from '../lib/prices.ts';
import { useLiveCandles } from '../lib/use-live-candles.ts';
import { useSnapshot } from 'valtio';
import { useLingui } from '@lingui/react/macro';
import { FRAMES } from '../lib/candles.ts';
import { chartSettings } from '../lib/chart-settings.ts';
import { ChartTools } from './ChartTools.tsx';
import { Segmented } from './forms.tsx';
import { KLineChart } from './KLineChart.tsx';
import { PausedBadge, PriceSourceBadge } from './PriceSourceBadge.tsx';
import { FRAME_LABELS } from './frame-labels.ts';

interface CoinQuoteProps {
  code: string;
  /** Shown instead of the pair's name (e.g. the contracts screen's pair picker). */
  title?: ReactNode;
  /** Shown under the figures (e.g. a chart toggle). */
  children?: ReactNode;
}

export function CoinQuote({ code, title, children }: CoinQuoteProps) {
  const quote = useLiveSnapshot(prices).quotes[code];
  const name = title ?? <strong>{code}/USDT</strong>;
  if (!quote) {
    // Blank lines as tall as the figures, so the screen below does not jump when the quote arrives.
    return (
      <section className="card opt-quote">
        <div className="opt-quote-head">{name}</div>
        <div className="opt-quote-row" aria-hidden="true">
          <span className="opt-price">{'\u00a0'}</span>
        </div>
        <div className="opt-quote-meta" aria-hidden="true">
          {'\u00a0'}
        </div>
        {children}
      </section>
    );
  }
  const rising = !quote.change_24h.startsWith('-');
  const direction = rising ? 'up' : 'down';
  const time = formatTime(quote.at);
  return (
    <section className="card opt-quote">
      <div className="opt-quote-head">
        {name}
        <span className="muted">{quote.name}</span>
        {quote.halted ? <PausedBadge /> : <PriceSourceBadge source={quote} />}
      </div>
      <div className="opt-quote-row">
        <span className={`opt-price opt-num ${direction}`}>{formatPrice(quote.price, quote.price_decimals)}</span>
        <span className={`opt-change opt-num ${direction}`}>
          {rising ? '+' : ''}
          {formatAmount(quote.change_24h, 2)}%
        </span>
      </div>
      <div className="opt-quote-meta muted">
        <Trans>
          24h high <span className="opt-num">{formatPrice(quote.high_24h, quote.price_decimals)}</span> · low{' '}
          <span className="opt-num">{formatPrice(quote.low_24h, quote.price_decimals)}</span> · recorded at{' '}
          <span className="opt-time">{time}</span>
        </Trans>
      </div>
      {children}
    </section>
  );
}

interface LiveChartProps {
  code: string;
  /** Time frames and indicators (the choices kept on the device); without: one-minute candles only. */
  tools?: boolean;
  /** A price and time to mark, in seconds since the epoch (a pending option's start). */
  marker?: { time: number; price: string } | null;
}

export function LiveChart({ code, tools = false, marker }: LiveChartProps) {
  const { i18n } = useLingui();
  const decimals = useLiveSnapshot(prices).quotes[code]?.price_decimals ?? 2;
  const settings = useSnapshot(chartSettings);
  const frame = tools ? settings.frame : '1m';
  const { candles, failed } = useLiveCandles(code, frame);
  const chart = (
    <KLineChart
      candles={candles}
      decimals={decimals}
      height={tools ? 240 : 200}
      indicators={tools ? settings.indicators : undefined}
      marker={marker}
    />
  );
  if (tools && !failed) {
    return (
      <section className="card market-chart-card opt-chart">
        <Segmented
          value={frame}
          options={FRAMES.map((item) => ({ value: item, label: i18n._(FRAME_LABELS[item]) }))}
          onChange={(item) => (chartSettings.frame = item)}
        />
        <ChartTools />
        {chart}
      </section>
    );
  }
  if (failed) {
    return (
      <p className="card muted opt-chart-failed">
        <Trans>The chart is not available right now.</Trans>
      </p>
    );
  }
  return chart;
}
