// One coin (our addition, /pages/coinList/detail?code=BTC): live price and 24 h figures, the
// K-line chart per period with a live last candle, and the ways to trade it (spot contracts, options). The bell in the
// bar opens the price alerts with this coin chosen.
import { useEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { CoinQuote } from '../../api-contract/markets.ts';
import { FRAMES, type Frame } from '../../lib/candles.ts';
import { chartSettings } from '../../lib/chart-settings.ts';
import { storeHydrated } from '../../lib/storage.ts';
import { ChartTools } from '../../ui/ChartTools.tsx';
import { ROUTES } from '../../api-contract/routes.ts';
import { formatAmount } from '../../lib/format.ts';
import { prices, subscribePrices } from '../../lib/prices.ts';
import { Button, Segmented } from '../../ui/forms.tsx';
import { KLineChart } from '../../ui/KLineChart.tsx';
import { BellIcon } from '../../ui/icons.tsx';
import { Empty } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { PausedBadge, PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import { ReadPrice } from '../../ui/ReadPrice.tsx';
import { ChangePill, MarketStatus } from './MarketStatus.tsx';
import {
  applyTicksToChart,
  coinChart,
  coinListState,
  ensureCoinList,
  formatChange,
  formatCompact,
  loadCandles,
  refreshCoinList,
} from './markets-store.ts';
import { FRAME_LABELS } from '../../ui/frame-labels.ts';

export default function CoinDetailPage() {
  const { i18n, t } = useLingui();
  const code = (new URLSearchParams(useSearch()).get('code') ?? '').toUpperCase();
  const { codes, quotes } = useLiveSnapshot(prices);
  const { failure } = useSnapshot(coinListState);
  const chart = useSnapshot(coinChart);
  const { indicators } = useSnapshot(chartSettings);
  const quote = quotes[code];
  // Unknown once the list is on the device and does not hold the code.
  const unknown = !code || (codes.length > 0 && !quote);

  useEffect(() => {
    // The list from the device answers at once; a deep link with nothing cached fetches it.
    void ensureCoinList();
    return subscribePrices(applyTicksToChart);
  }, []);

  const listed = quote !== undefined;
  useEffect(() => {
    // The time frame chosen last, kept on the device.
    if (listed) void storeHydrated(chartSettings).then(() => loadCandles(code, chartSettings.frame));
  }, [code, listed]);

  if (unknown) {
    return (
      <div className="page">
        <NavBar title={<Trans>Markets</Trans>} />
        <Empty
          action={
            <Link href={ROUTES.coinList} className="btn small">
              <Trans>Back to Markets</Trans>
            </Link>
          }
        >
          <Trans>This coin is not listed.</Trans>
        </Empty>
      </div>
    );
  }

  const choosePeriod = (period: Frame) => {
    chartSettings.frame = period;
    void loadCandles(code, period);
  };
  const retry = () => {
    void loadCandles(code, chart.period);
    if (failure) void refreshCoinList();
  };
  const showCandles = chart.code === code;
  return (
    <div className="page">
      <NavBar
        title={`${code}/USDT`}
        right={
          quote && (
            <Link
              href={`${ROUTES.priceAlerts}?code=${encodeURIComponent(code)}`}
              className="icon-button"
              aria-label={t`Price alert`}
              title={t`Price alert`}
            >
              <BellIcon />
            </Link>
          )
        }
      />
      <div className="page-body market-body">
        <MarketStatus />
        {quote ? (
          <QuoteHeader quote={quote} />
        ) : (
          failure && (
            <Empty
              action={
                <Button size="small" onClick={() => void refreshCoinList()}>
                  <Trans>Try again</Trans>
                </Button>
              }
            >
              {failure.message}
            </Empty>
          )
        )}
        {quote && (
          <section className="card market-chart-card">
            <Segmented
              value={chart.period}
              options={FRAMES.map((period) => ({ value: period, label: i18n._(FRAME_LABELS[period]) }))}
              onChange={choosePeriod}
            />
            <ChartTools />
            <KLineChart
              candles={showCandles ? chart.candles : []}
              decimals={quote.price_decimals}
              height={300}
              indicators={indicators}
            />
            {showCandles && chart.status === 'failed' && (
              <p className="market-chart-error" role="alert">
                <span className="error-text">{chart.error}</span>
                <button type="button" className="link-button" onClick={retry}>
                  <Trans>Try again</Trans>
                </button>
              </p>
            )}
          </section>
        )}
        {quote && (
          <div className="coin-trade">
            <Link href={`${ROUTES.contracts}?code=${encodeURIComponent(code)}`} className="btn secondary">
              <Trans>Buy or sell {code}</Trans>
            </Link>
            <Link href={`${ROUTES.option}?code=${encodeURIComponent(code)}`} className="btn">
              <Trans>Trade options</Trans>
            </Link>
          </div>
        )}
      </div>
    </div>
  );
}

function QuoteHeader({ quote }: { quote: CoinQuote }) {
  const { up } = formatChange(quote.change_24h);
  const digits = quote.price_decimals;
  const coin = quote.code;
  return (
    <section className="card market-quote">
      <div className="market-quote-top">
        <strong className={up ? 'market-quote-price up' : 'market-quote-price down'} dir="ltr">
          {formatAmount(quote.price, digits)}
        </strong>
        {quote.halted ? <PausedBadge /> : <PriceSourceBadge source={quote} />}
      </div>
      <div className="market-quote-change">
        <ChangePill change={quote.change_24h} />
        <bdi className="muted">{quote.name}</bdi>
        <ReadPrice code={coin} />
      </div>
      <dl className="market-stats">
        <div>
          <dt>
            <Trans>24h high</Trans>
          </dt>
          <dd>
            <span dir="ltr">{formatAmount(quote.high_24h, digits)}</span>
          </dd>
        </div>
        <div>
          <dt>
            <Trans>24h low</Trans>
          </dt>
          <dd>
            <span dir="ltr">{formatAmount(quote.low_24h, digits)}</span>
          </dd>
        </div>
        <div>
          <dt>
            <Trans>24h volume ({coin})</Trans>
          </dt>
          <dd>
            <bdi>{formatCompact(quote.volume_24h)}</bdi>
          </dd>
        </div>
      </dl>
    </section>
  );
}
