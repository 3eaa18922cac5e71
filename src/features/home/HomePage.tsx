// Home (tab, /pages/index/index): the app's own bar with the messages bell, the slides (
// every 3000 ms, swipeable), the scrolling notice, total assets and the USDT balance, shortcuts to
// each area and the first coins with their live prices.
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { config, slides as slideList } from '../../api-contract/content.ts';
import { balances as balancesCall, coinList, type CoinQuote } from '../../api-contract/markets.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { errorText } from '../../lib/api.ts';
import { formatBalance, refreshBalances, USDT, userBalances, usdtAvailable } from '../../lib/balances.ts';
import { formatAmount } from '../../lib/format.ts';
import { badgeText, refreshUnreadUnlessFresh, unread } from '../../lib/messages.ts';
import { loadCoinList, prices, subscribePrices } from '../../lib/prices.ts';
import { session } from '../../lib/session.ts';
import { storeHydrated } from '../../lib/storage.ts';
import { toast } from '../../lib/toast.ts';
import { Carousel } from '../../ui/Carousel.tsx';
import {
  BellIcon,
  BoxIcon,
  BuildingIcon,
  CalendarIcon,
  ChevronIcon,
  ContractsIcon,
  FlagIcon,
  GiftIcon,
  HeadsetIcon,
  MarketsIcon,
  MiningIcon,
  OptionsIcon,
  RechargeIcon,
  SavingsIcon,
  ShareIcon,
  WithdrawIcon,
} from '../../ui/icons.tsx';
import { TotalAssets } from '../../ui/TotalAssets.tsx';
import { WordBreaks } from '../../ui/WordBreaks.tsx';
import { PausedBadge, PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import { coinChange, home, loadHomeForPage, topCoins } from './home-store.ts';

/** Called by the route table when the app starts on Home (app/routes.ts). */
export { prepareHome as prepare } from './home-store.ts';

/** The product's name: a brand, the same in every language. */
const APP_NAME = 'Coinvest';

export default function HomePage() {
  const { slides, notice } = useSnapshot(home);
  // Until the first answer, a blank slide and notice hold their places: the cards below don't jump.
  const [answered, setAnswered] = useState(false);

  useEffect(() => {
    // Slides and notice from the last visit stay on screen; only a blank home reports a failure.
    loadHomeForPage()
      .catch((error) => {
        if (home.slides.length === 0 && !home.notice) toast(errorText(error));
      })
      .finally(() => setAnswered(true));
    refreshUnreadUnlessFresh();
    void storeHydrated(prices).then(() => {
      if (prices.codes.length === 0) loadCoinList({ loading: false }).catch(() => undefined);
    });
    return subscribePrices();
  }, []);

  return (
    <div className="page home-page">
      <HomeBar />
      <div className="page-body">
        {/* Offline, the balance card's figures may be the service worker's last kept balances: said since when. */}
        <OfflineNote endpoints={[slideList, config, coinList, balancesCall]} />
        {slides.length > 0 ? <Carousel items={slides} /> : !answered && <div className="carousel" aria-hidden="true" />}
        {notice ? (
          <div className="notice" role="marquee">
            <BellIcon />
            <div className="notice-track">
              <span>{notice}</span>
            </div>
          </div>
        ) : (
          !answered && (
            <div className="notice" aria-hidden="true">
              <BellIcon />
              <div className="notice-track">{'\u00a0'}</div>
            </div>
          )
        )}
        <BalanceCard />
        <Entries />
        <TopCoins />
      </div>
    </div>
  );
}

function HomeBar() {
  const { t } = useLingui();
  const { count } = useSnapshot(unread);
  const label = count > 0 ? t`Messages, ${count} unread` : t`Messages`;
  return (
    <header className="navbar home-bar">
      <span className="home-brand">
        <img src="/favicon.svg" alt="" width="28" height="28" />
        <h1 tabIndex={-1}>{APP_NAME}</h1>
      </span>
      <Link href={ROUTES.messages} className="icon-button home-bell" aria-label={label}>
        <BellIcon />
        {count > 0 && (
          <span className="count-badge" aria-hidden="true">
            {badgeText(count)}
          </span>
        )}
      </Link>
    </header>
  );
}

/** A customer's own text as a value of a translated sentence, isolated. */
const isolated = (text: string) => <bdi>{text}</bdi>;

function BalanceCard() {
  const balances = useSnapshot(userBalances);
  const { user } = useSnapshot(session);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    refreshBalances()
      .then(() => setFailure(null))
      .catch((error) => setFailure(errorText(error)));
  }, []);

  const known = balances.updatedAt !== null;
  return (
    <section className="card home-balance">
      <h2 className="home-balance-greeting">
        {/* The name in a <bdi>: written right to left, it cannot reorder the greeting around it. */}
        {user ? <Trans>Hello, {isolated(user.nickname || user.username)}</Trans> : <Trans>Hello</Trans>}
      </h2>
      <TotalAssets className="home-total" />
      <span className="home-balance-label">
        <Trans>Available balance (USDT)</Trans>
      </span>
      <strong className="home-balance-amount">
        <span dir="ltr">{known ? formatBalance(usdtAvailable(balances), USDT) : '—'}</span>
      </strong>
      {failure && !known && <p className="home-balance-note">{failure}</p>}
      <Link href={ROUTES.option} className="btn small home-balance-action">
        <Trans>Trade options</Trans>
      </Link>
    </section>
  );
}

function Entries() {
  const { t } = useLingui();
  const { count, service } = useSnapshot(unread);
  return (
    <nav className="home-entries" aria-label={t`Shortcuts`}>
      <Link href={ROUTES.recharge}>
        <RechargeIcon />
        <span>
          <WordBreaks text={t`Recharge`} />
        </span>
      </Link>
      <Link href={ROUTES.withdraw}>
        <WithdrawIcon />
        <span>
          <WordBreaks text={t`Withdraw`} />
        </span>
      </Link>
      <Link href={ROUTES.contracts}>
        <ContractsIcon />
        <span>
          <WordBreaks text={t`Contracts`} />
        </span>
      </Link>
      <Link href={ROUTES.option}>
        <OptionsIcon />
        <span>
          <WordBreaks text={t`Options`} />
        </span>
      </Link>
      <Link href={ROUTES.liquidity}>
        <SavingsIcon />
        <span>
          <WordBreaks text={t`Liquidity`} />
        </span>
      </Link>
      <Link href={ROUTES.lockUp}>
        <MiningIcon />
        <span>
          <WordBreaks text={t`Lock-up`} />
        </span>
      </Link>
      <Link href={ROUTES.coinList}>
        <MarketsIcon />
        <span>
          <WordBreaks text={t`Markets`} />
        </span>
      </Link>
      <Link href={ROUTES.checkIn}>
        <CalendarIcon />
        <span>
          <WordBreaks text={t`Check in`} />
        </span>
      </Link>
      <Link href={ROUTES.blindBox}>
        <BoxIcon />
        <span>
          <WordBreaks text={t`Blind box`} />
        </span>
      </Link>
      <Link href={ROUTES.welfare}>
        <GiftIcon />
        <span>
          <WordBreaks text={t`Welfare`} />
        </span>
      </Link>
      <Link href={ROUTES.activities}>
        <FlagIcon />
        <span>
          <WordBreaks text={t`Activities`} />
        </span>
      </Link>
      <Link href={ROUTES.share}>
        <ShareIcon />
        <span>
          <WordBreaks text={t`Invite`} />
        </span>
      </Link>
      <Link href={ROUTES.service}>
        <span className="home-entry-icon">
          <HeadsetIcon />
          {service > 0 && <span className="count-badge dot" aria-hidden="true" />}
        </span>
        <span>
          <WordBreaks text={t`Service`} />
        </span>
      </Link>
      <Link href={ROUTES.companyProfile}>
        <BuildingIcon />
        <span>
          <WordBreaks text={t`About us`} />
        </span>
      </Link>
      <Link href={ROUTES.messages}>
        <span className="home-entry-icon">
          <BellIcon />
          {count > 0 && <span className="count-badge dot" aria-hidden="true" />}
        </span>
        <span>
          <WordBreaks text={t`Messages`} />
        </span>
      </Link>
    </nav>
  );
}

function TopCoins() {
  const { t } = useLingui();
  const { codes, quotes } = useLiveSnapshot(prices);
  const coins = topCoins(codes, quotes);
  if (coins.length === 0) return null;
  return (
    <section className="card flush home-coins" aria-label={t`Top coins`}>
      <header className="home-coins-head">
        <h2>
          <Trans>Top coins</Trans>
        </h2>
        <PriceSourceBadge source={coins[0]} />
        <Link href={ROUTES.coinList} className="home-coins-more">
          <Trans>More</Trans>
          <ChevronIcon className="flip-rtl" />
        </Link>
      </header>
      {coins.map((quote) => (
        <CoinRow key={quote.code} quote={quote} />
      ))}
    </section>
  );
}

function CoinRow({ quote }: { quote: Readonly<CoinQuote> }) {
  const change = coinChange(quote.change_24h);
  return (
    <Link href={`${ROUTES.coinDetail}?code=${encodeURIComponent(quote.code)}`} className="home-coin">
      <span className="home-coin-name">
        <span className="home-coin-pair" dir="ltr">
          <strong>{quote.code}</strong>
          <span className="muted">/USDT</span>
        </span>
        <bdi className="home-coin-full">{quote.name}</bdi>
      </span>
      <span className="home-coin-price" dir="ltr">
        {formatAmount(quote.price, quote.price_decimals)}
      </span>
      {quote.halted ? (
        <PausedBadge />
      ) : (
        <span className={change.up ? 'home-coin-change up' : 'home-coin-change down'} dir="ltr">
          {change.text}
        </span>
      )}
    </Link>
  );
}
