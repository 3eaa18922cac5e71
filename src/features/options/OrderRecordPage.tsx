// One option order (/pages/Option/orderRecord/orderRecord): what was bought, the start price (the first tick
// recorded after the order: "Opening…" until then) and when it was recorded, and once settled the
// recorded end price and its time, the result and the payout. A pending order shows its live
// countdown and is asked for again when due.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import type { OptionOrder } from '../../api-contract/options.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { prices, subscribePrices } from '../../lib/prices.ts';
import { Empty } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { MadeOf } from '../../ui/MadeOf.tsx';
import { PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import {
  formatClock,
  formatDateTime,
  formatPriceTo,
  formatSignedUsdt,
  formatUsdt,
  formatYield,
  startPricePlaces,
} from './option-format.ts';
import { loadOrder, optionsState, watchSettlements } from './options-store.ts';
import { gainClass } from './OrderLists.tsx';
import { Countdown, DirectionTag, Minutes, Opening, OrderHead } from './OptionParts.tsx';
import { syncClockFromTicks } from './server-clock.ts';
import { Amount } from '../../ui/Amount.tsx';

// A settled order's ticks around its start and end come in a chunk of their own (SettlementTicks.tsx).
const SettlementTicksCard = lazy(() => import('./SettlementTicks.tsx'));

export default function OrderRecordPage() {
  const raw = new URLSearchParams(useSearch()).get('id') ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const order = useSnapshot(optionsState).details[id ?? -1];
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    setFailure(null);
    if (id === null) return setFailure(i18n._(texts.orderNotFound));
    loadOrder(id).catch((error) => setFailure(errorText(error)));
  }, [id]);

  useEffect(() => {
    const stopWatching = watchSettlements();
    const releaseClock = subscribePrices(syncClockFromTicks);
    return () => {
      stopWatching();
      releaseClock();
    };
  }, []);

  return (
    <div className="page">
      <NavBar title={<Trans>Order details</Trans>} />
      <div className="page-body">{order ? <OrderDetails order={order} /> : failure && <Empty>{failure}</Empty>}</div>
    </div>
  );
}

function OrderDetails({ order }: { order: Readonly<OptionOrder> }) {
  const quote = useLiveSnapshot(prices).quotes[order.code];
  const decimals = quote?.price_decimals;
  const settled = order.status === 'settled';
  // Start and end (or live) price with the pair's decimals, or every digit where they would read the same but differ.
  const other = settled ? order.end_price : (quote?.price ?? null);
  const places = startPricePlaces(
    order.start_price ?? other ?? '0',
    order.start_price === null ? null : other,
    decimals,
  );
  const beyondDecimals = settled && decimals !== undefined && places > decimals && order.end_price !== null;
  const startTime = order.start_price_at ? formatClock(order.start_price_at) : '';
  const opened = order.start_price !== null;
  const endTime = order.end_price_at ? formatClock(order.end_price_at) : '';
  const orderNumber = order.id;
  return (
    <>
      <section className="card opt-summary">
        <OrderHead order={order}>
          <PriceSourceBadge source={order} />
        </OrderHead>
        {settled ? (
          <div className="opt-result">
            <span className="muted">
              {order.outcome === 'win' ? (
                <Trans>Won</Trans>
              ) : order.outcome === 'tie' ? (
                <Trans>Same price: amount returned</Trans>
              ) : order.outcome === 'void' && !opened ? (
                <Trans>
                  No market price was recorded within 10 s after the order: it did not open and the amount was returned
                </Trans>
              ) : order.outcome === 'void' ? (
                <Trans>No market price at the end time: amount returned</Trans>
              ) : (
                <Trans>Lost</Trans>
              )}
            </span>
            <strong className={`opt-num ${gainClass(order.profit)}`}>
              {formatSignedUsdt(order.profit ?? '0')} USDT
            </strong>
            {beyondDecimals && (
              <small className="muted opt-exact-note">
                <Trans>
                  The start and end prices differ only beyond the usual decimals: both are shown to every recorded
                  digit, as the result compares them.
                </Trans>
              </small>
            )}
          </div>
        ) : (
          <div className="opt-result">
            <span className="muted">
              <Trans>Time left</Trans>
            </span>
            <Countdown endAt={order.end_at} large />
            {quote && (
              <span className="muted">
                <Trans>
                  Current price <span className="opt-num">{formatPriceTo(quote.price, quote.price_decimals)}</span>
                </Trans>
              </span>
            )}
          </div>
        )}
      </section>

      <section className="card">
        <dl className="opt-rows">
          <Row label={<Trans>Order number</Trans>}>{orderNumber}</Row>
          <Row label={<Trans>Name</Trans>}>
            {quote?.name ?? order.code} ({order.code}/USDT)
          </Row>
          <Row label={<Trans>Amount</Trans>}>
            <Amount value={formatUsdt(order.amount)} unit="USDT" />
          </Row>
          <Row label={<Trans>Direction</Trans>}>
            <DirectionTag direction={order.direction} />
          </Row>
          <Row label={<Trans>Duration</Trans>}>
            <Minutes minutes={order.minutes} />
          </Row>
          <Row label={<Trans>Yield</Trans>}>
            <span className="opt-num">{formatYield(order.yield_rate)}</span>
          </Row>
          <Row label={<Trans>Start price</Trans>}>
            {order.start_price !== null ? (
              <>
                <span className="opt-num">{formatPriceTo(order.start_price, places)}</span>
                <small className="muted">
                  <Trans>Recorded at {startTime}</Trans>
                </small>
                <MadeOf constituents={order.start_constituents} decimals={decimals ?? 2} />
              </>
            ) : settled ? (
              '—'
            ) : (
              <>
                <Opening />
                <small className="muted">
                  <Trans>The first price recorded after your order</Trans>
                </small>
              </>
            )}
          </Row>
          <Row label={<Trans>End price</Trans>}>
            {settled && order.end_price !== null ? (
              <>
                <span className="opt-num">{formatPriceTo(order.end_price, places)}</span>
                <small className="muted">
                  <Trans>Settled at the recorded price of {endTime}</Trans>
                </small>
                <MadeOf constituents={order.end_constituents} decimals={decimals ?? 2} />
              </>
            ) : (
              <span className="muted">
                <Trans>The last price recorded at or before the end time</Trans>
              </span>
            )}
          </Row>
          <Row label={<Trans>Profit or loss</Trans>}>
            <span className={`opt-num ${gainClass(order.profit)}`}>
              {order.profit === null ? '—' : `${formatSignedUsdt(order.profit)} USDT`}
            </span>
          </Row>
          <Row label={<Trans>Payout</Trans>}>
            <span className="opt-num">{order.payout === null ? '—' : `${formatUsdt(order.payout)} USDT`}</span>
          </Row>
          <Row label={<Trans>Start time</Trans>}>
            <span className="opt-time">{formatDateTime(order.start_at)}</span>
          </Row>
          <Row label={<Trans>End time</Trans>}>
            <span className="opt-time">{order.end_at === null ? '—' : formatDateTime(order.end_at)}</span>
          </Row>
          <Row label={<Trans>Status</Trans>}>
            {settled ? <Trans>Settled</Trans> : opened ? <Trans>Pending</Trans> : <Trans>Opening…</Trans>}
          </Row>
        </dl>
      </section>
      {settled && (
        <Link href={`${ROUTES.receipt}?option=${order.id}`} className="card receipt-link">
          <Trans>Signed receipt</Trans>
        </Link>
      )}
      {settled && (
        <Suspense fallback={null}>
          <SettlementTicksCard order={order} decimals={decimals ?? 2} />
        </Suspense>
      )}
      {order.simulated && (
        <p className="muted opt-note">
          <Trans>
            Prices in this app come from a simulated feed. The result follows only from the recorded prices shown above;
            no one can change it.
          </Trans>
        </p>
      )}
    </>
  );
}

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
