// The two order tabs of the options page: pending orders, each with its live countdown, and the purchase record
// (start and end price, direction, duration, profit or loss, end time). A tap opens the order.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans } from '@lingui/react/macro';
import Big from 'big.js';
import type { OptionOrder } from '../../api-contract/options.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { useSubmit } from '../../lib/form.ts';
import { prices } from '../../lib/prices.ts';
import { Button, Segmented } from '../../ui/forms.tsx';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { formatDateTime, formatPriceTo, formatSignedUsdt, formatUsdt, startPricePlaces } from './option-format.ts';
import { hasMore, loadMore, loadOrders, optionsState, type OrderTab } from './options-store.ts';
import { Countdown, Opening, OrderHead } from './OptionParts.tsx';
import { Amount } from '../../ui/Amount.tsx';

export const orderRoute = (id: number) => `${ROUTES.optionRecord}?id=${id}`;

/** Green when the order gains, red when it loses, plain when even. */
export const gainClass = (value: string | null) =>
  value === null ? '' : new Big(value).gt(0) ? 'up' : new Big(value).lt(0) ? 'down' : '';

/** Reads a list's head again; a failure shows in the list's place (NotLoaded), so the promise is not reported. */
const reload = (status: OrderTab) => void loadOrders(status).catch(() => undefined);

export function OrderTabs() {
  const { tab, holding } = useSnapshot(optionsState);
  const choose = (next: OrderTab) => {
    optionsState.tab = next;
    reload(next);
  };
  return (
    <section id="option-orders" className="opt-orders">
      <Segmented
        value={tab}
        onChange={choose}
        options={[
          {
            value: 'holding',
            label: (
              <>
                <Trans>Pending orders</Trans>
                {holding.total > 0 && <span className="opt-count">{holding.total}</span>}
              </>
            ),
          },
          { value: 'history', label: <Trans>Purchase record</Trans> },
        ]}
      />
      {tab === 'holding' ? <PendingList /> : <RecordList />}
    </section>
  );
}

/** A list not read yet: nothing while its first read is on its way, else what that read said, with a retry. */
function NotLoaded({ status }: { status: OrderTab }) {
  const { failure } = useSnapshot(optionsState)[status];
  return failure ? <LoadFailure onRetry={() => reload(status)}>{failure}</LoadFailure> : null;
}

function PendingList() {
  const { holding } = useSnapshot(optionsState);
  if (!holding.loaded) return <NotLoaded status="holding" />;
  if (holding.lists.length === 0)
    return (
      <Empty>
        <Trans>No pending orders</Trans>
      </Empty>
    );
  return (
    <div className="opt-order-list">
      {holding.lists.map((order) => (
        <PendingItem key={order.id} order={order} />
      ))}
      <MoreButton status="holding" />
    </div>
  );
}

function PendingItem({ order }: { order: Readonly<OptionOrder> }) {
  const quote = useLiveSnapshot(prices).quotes[order.code];
  const moved = quote && order.start_price !== null ? new Big(quote.price).cmp(order.start_price) : 0;
  const winning = moved === 0 ? '' : moved > 0 === (order.direction === 'up') ? 'up' : 'down';
  return (
    <OrderCard
      order={order}
      other={quote?.price ?? null}
      decimals={quote?.price_decimals}
      aside={<Countdown endAt={order.end_at} />}
    >
      <div>
        <span className="muted">
          <Trans>Current price</Trans>
        </span>
        <span className={`opt-num ${winning}`}>{quote ? formatPriceTo(quote.price, quote.price_decimals) : '—'}</span>
      </div>
    </OrderCard>
  );
}

/**
 * One order in a list: coin, direction, expiry, a corner (countdown or result), the figures. The start price reads
 * with the pair's price decimals (`decimals`, unknown before its quote), or every digit where `other` (the end or live
 * price beside it) would otherwise read the same while it is not (startPricePlaces).
 */
function OrderCard({
  order,
  other,
  decimals,
  aside,
  children,
  foot,
}: {
  order: Readonly<OptionOrder>;
  other: string | null;
  decimals: number | undefined;
  aside: ReactNode;
  children: ReactNode;
  foot?: ReactNode;
}) {
  return (
    <Link href={orderRoute(order.id)} className="card opt-order">
      <OrderHead order={order}>{aside}</OrderHead>
      <div className="opt-order-grid">
        <div>
          <span className="muted">
            <Trans>Amount</Trans>
          </span>
          <span className="opt-num">{formatUsdt(order.amount)}</span>
        </div>
        <div>
          <span className="muted">
            <Trans>Start price</Trans>
          </span>
          {order.start_price === null && order.outcome === 'void' ? (
            // No price was recorded after the order: it never opened, and never will.
            <span className="muted">
              <Trans>Did not open</Trans>
            </span>
          ) : order.start_price === null ? (
            <Opening className="muted" />
          ) : (
            <span className="opt-num">
              {formatPriceTo(order.start_price, startPricePlaces(order.start_price, other, decimals))}
            </span>
          )}
        </div>
        {children}
      </div>
      {foot}
    </Link>
  );
}

function RecordList() {
  const { history, totals } = useSnapshot(optionsState);
  if (!history.loaded) return <NotLoaded status="history" />;
  if (history.lists.length === 0)
    return (
      <Empty>
        <Trans>No purchase records yet</Trans>
      </Empty>
    );
  const settledCount = totals?.settled_count ?? 0;
  const totalProfit = totals?.total_profit ?? '0';
  return (
    <div className="opt-order-list">
      {totals && (
        <p className="opt-totals muted">
          <Trans>
            Settled orders: {settledCount} · Total profit:{' '}
            <Amount
              value={<span className={gainClass(totalProfit)}>{formatSignedUsdt(totalProfit)}</span>}
              unit="USDT"
            />
          </Trans>
        </p>
      )}
      {history.lists.map((order) => (
        <RecordItem key={order.id} order={order} />
      ))}
      <MoreButton status="history" />
    </div>
  );
}

function RecordItem({ order }: { order: Readonly<OptionOrder> }) {
  const decimals = useLiveSnapshot(prices).quotes[order.code]?.price_decimals;
  // The end price with the same decimals as the start price beside it, so the two compare as the settlement did.
  const places =
    order.start_price === null || order.end_price === null
      ? startPricePlaces(order.end_price ?? '0', null, decimals)
      : startPricePlaces(order.start_price, order.end_price, decimals);
  const result = (
    <span className={`opt-profit ${gainClass(order.profit)}`}>
      <span className="opt-num">{order.profit === null ? '—' : formatSignedUsdt(order.profit)}</span>
    </span>
  );
  const endTime = (
    <div className="opt-order-foot muted">
      <Trans>End time</Trans>{' '}
      <span className="opt-time">{order.end_at === null ? '—' : formatDateTime(order.end_at)}</span>
    </div>
  );
  return (
    <OrderCard order={order} other={order.end_price} decimals={decimals} aside={result} foot={endTime}>
      <div>
        <span className="muted">
          <Trans>End price</Trans>
        </span>
        <span className="opt-num">{order.end_price === null ? '—' : formatPriceTo(order.end_price, places)}</span>
      </div>
    </OrderCard>
  );
}

function MoreButton({ status }: { status: OrderTab }) {
  const list = useSnapshot(optionsState)[status];
  const { busy, submit } = useSubmit(() => loadMore(status));
  if (!hasMore(list)) return null;
  return (
    <Button variant="secondary" size="small" onClick={() => void submit()} disabled={busy}>
      <Trans>Load more</Trans>
    </Button>
  );
}
