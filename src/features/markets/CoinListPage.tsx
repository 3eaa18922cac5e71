// Markets (tab, /pages/coinList/index): every listed coin with its live price and 24 h change,
// searchable; a row opens the coin's chart. The last known prices show at once and stay offline.
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import type { CoinQuote } from '../../api-contract/markets.ts';
import { formatAmount } from '../../lib/format.ts';
import { prices, subscribePrices } from '../../lib/prices.ts';
import { Button } from '../../ui/forms.tsx';
import { Empty } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { PausedBadge, PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import { ChangePill, MarketStatus } from './MarketStatus.tsx';
import { coinListState, formatCompact, refreshCoinList, refreshCoinListOnOpen, searchCoins } from './markets-store.ts';
import { Verbatim } from '../../ui/Verbatim.tsx';

/** Called by the route table when the app starts on Markets (app/routes.ts). */
export { prepareMarkets as prepare } from './markets-store.ts';

export default function CoinListPage() {
  const { t } = useLingui();
  const { codes, quotes } = useLiveSnapshot(prices);
  const { failure } = useSnapshot(coinListState);
  const [query, setQuery] = useState('');

  useEffect(() => {
    void refreshCoinListOnOpen();
    return subscribePrices();
  }, []);

  const coins = searchCoins(codes, quotes, query);

  return (
    <div className="page">
      <NavBar
        back={false}
        title={
          <span className="market-title">
            <Trans>Markets</Trans>
            <PriceSourceBadge source={quotes[codes[0] ?? '']} />
          </span>
        }
      />
      <div className="page-body market-body">
        <div className="market-search">
          <SearchGlyph />
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={t`Search coin`}
            aria-label={t`Search coin`}
            autoComplete="off"
            enterKeyHint="search"
          />
        </div>
        <MarketStatus />
        {codes.length === 0 ? (
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
        ) : coins.length === 0 ? (
          <Empty>
            <Trans>
              No coin matches “<Verbatim text={query} />
              ”.
            </Trans>
          </Empty>
        ) : (
          <section className="card flush market-list" aria-label={t`Coins`}>
            <div className="market-head" aria-hidden="true">
              <span>
                <Trans>Name / 24h Vol</Trans>
              </span>
              <span>
                <Trans>Last price</Trans>
              </span>
              <span>
                <Trans>24h change</Trans>
              </span>
            </div>
            {coins.map((quote) => (
              <CoinRow key={quote.code} quote={quote} />
            ))}
          </section>
        )}
      </div>
    </div>
  );
}

function CoinRow({ quote }: { quote: CoinQuote }) {
  const volume = formatCompact(quote.volume_24h);
  return (
    <Link href={`${ROUTES.coinDetail}?code=${encodeURIComponent(quote.code)}`} className="market-row">
      <span className="market-coin">
        <span className="market-pair">
          <strong>{quote.code}</strong>
          <span className="muted">/USDT</span>
        </span>
        <span className="market-sub">
          <bdi>{quote.name}</bdi> ·{' '}
          <Trans>
            Vol <bdi>{volume}</bdi>
          </Trans>
        </span>
      </span>
      <span className="market-price" dir="ltr">
        {formatAmount(quote.price, quote.price_decimals)}
      </span>
      {quote.halted ? <PausedBadge /> : <ChangePill change={quote.change_24h} />}
    </Link>
  );
}

function SearchGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      aria-hidden="true"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="M20 20l-3.5-3.5" />
    </svg>
  );
}
