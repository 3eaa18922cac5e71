// Pieces of the contract screens: the side and type tag, the status badge, one order as a row of a
// list (with what it holds and Revoke while open), and one order's details (unit price, dealt amount, status;
// the recorded tick it filled at).
import { useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { Link } from 'wouter';
import { ROUTES } from '../../api-contract/routes.ts';
import type { ContractOrder, ContractStatus, OrderSide, OrderType } from '../../api-contract/contracts.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { formatDateTime, formatPrice, formatQuantity, formatTime } from '../../lib/format.ts';
import { useSubmit } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { ConfirmDialog, Dialog } from '../../ui/lists.tsx';
import { Row, StatusBadge, type Tone } from '../../ui/records.tsx';
import { MadeOf } from '../../ui/MadeOf.tsx';
import { Amount } from '../../ui/Amount.tsx';
import { PracticeTag } from '../../ui/AccountSwitch.tsx';
import { DUST_CONVERSION_NAME, ORDER_TYPE_NAMES } from '../../ui/order-types.ts';
import { contractsState, revokeOrder } from './contracts-store.ts';
import { formatOrderAmount } from './order-amounts.ts';

export function SideTag({ side, type }: { side: OrderSide; type: OrderType }) {
  return (
    <span className={`ct-tag ${side}`}>
      {side === 'buy' ? <Trans>Buy</Trans> : <Trans>Sell</Trans>} · {i18n._(ORDER_TYPE_NAMES[type])}
    </span>
  );
}

/** Said beside the side and type of a small balance's conversion, in the list and in the details. */
function DustTag() {
  return <span className="ct-dust-tag">{i18n._(DUST_CONVERSION_NAME)}</span>;
}

/** A conditional order's leg or kind and its state: "Take-profit · waiting". */
function TriggerLine({ order, decimals }: { order: Readonly<ContractOrder>; decimals: number }) {
  if (order.trigger_price === null || order.trigger_state === null) return null;
  const price = formatPrice(order.trigger_price, decimals);
  const leg =
    order.leg === 'take_profit' ? (
      <Trans>Take-profit</Trans>
    ) : order.leg === 'stop_loss' ? (
      <Trans>Stop-loss</Trans>
    ) : (
      <Trans>Trigger</Trans>
    );
  const state = {
    waiting: <Trans>waiting</Trans>,
    triggered: <Trans>triggered</Trans>,
    filled: <Trans>filled</Trans>,
    cancelled: <Trans>cancelled</Trans>,
    expired: <Trans>expired</Trans>,
  }[order.trigger_state];
  return (
    <span className="ct-trigger" data-trigger-state={order.trigger_state}>
      {leg}{' '}
      <span className="opt-num">
        {order.trigger_above ? '≥' : '≤'} {price}
      </span>{' '}
      · {state}
    </span>
  );
}

/** Whether the customer may still revoke the order: open, or waiting for its trigger (or for its parent to fill). */
const revocable = (status: ContractStatus) => status === 'open' || status === 'waiting' || status === 'attached';

/**
 * Whether the order holds part of the balance now: in the open list (resting, filling at its tick, or waiting for its
 * trigger or for its parent to fill) with an amount above zero. What these hold adds up to the pair's frozen amounts;
 * one that holds nothing (a take-profit whose stop-loss holds the pair's reserve, a leg whose parent has not filled)
 * says nothing rather than "Held 0".
 */
const holding = ({ status, frozen }: Readonly<ContractOrder>) =>
  (revocable(status) || status === 'filling') && /[1-9]/.test(frozen ?? '');

const STATUS_TONE: Record<ContractStatus, Tone> = {
  open: 'wait',
  filling: 'wait',
  filled: 'good',
  cancelled: 'bad',
  void: 'bad',
  waiting: 'wait',
  attached: 'wait',
  expired: 'bad',
};
const STATUS_LABEL: Record<ContractStatus, ReactNode> = {
  open: <Trans>Open</Trans>,
  filling: <Trans>Filling…</Trans>,
  filled: <Trans>Dealt</Trans>,
  cancelled: <Trans>Cancelled</Trans>,
  void: <Trans>Not filled</Trans>,
  waiting: <Trans>Waiting</Trans>,
  attached: <Trans>Waiting</Trans>,
  expired: <Trans>Expired</Trans>,
};
export function ContractStatusBadge({ status }: { status: ContractStatus }) {
  return <StatusBadge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</StatusBadge>;
}

/** Why a market order did not fill, in the app's language. */
function VoidReasonText({ reason }: { reason: ContractOrder['void_reason'] }) {
  return reason === 'price_moved' ? (
    <Trans>
      The first price recorded after the order moved beyond what it held. Nothing was traded; the funds were released.
    </Trans>
  ) : (
    <Trans>
      No price was recorded within 10 s after the order (the market data was unavailable or the coin was paused).
      Nothing was traded; the funds were released.
    </Trans>
  );
}

/** The pair's decimals for prices (2 until the pairs are known); quantities read with their own (formatQuantity). */
export function usePairDecimals(code: string): { price: number } {
  const pair = useSnapshot(contractsState).pairs.find((item) => item.code === code);
  return { price: pair?.price_decimals ?? 2 };
}

/** An order's amount with its unit, one left-to-right run ("12.50 USDT" in Arabic too); nothing when there is none. */
const money = (amount: string | null, asset: string | null) =>
  amount === null ? null : <Amount value={formatOrderAmount(amount, asset)} unit={asset} />;

/** One order in a list: tag, status, price, quantity, dealt, what it holds while open (a waiting stop too), time; a
 * tap opens its details; Revoke while open. */
export function OrderRow({ order }: { order: Readonly<ContractOrder> }) {
  const decimals = usePairDecimals(order.code);
  const [details, setDetails] = useState(false);
  const price = order.unit_price ?? order.price;
  return (
    <li className="ct-order">
      <button type="button" className="record-row ct-order-open" onClick={() => setDetails(true)}>
        <span className="record-row-head">
          <span className="record-row-title">
            <span dir="ltr">{order.code}/USDT</span> <SideTag side={order.side} type={order.type} />
            {order.practice && <PracticeTag />}
            {order.dust_conversion && <DustTag />}
          </span>
          <ContractStatusBadge status={order.status} />
        </span>
        <span className="ct-order-grid">
          <span>
            <span className="muted">
              {order.status === 'filled' ? <Trans>Unit price</Trans> : <Trans>Price</Trans>}
            </span>
            <span className="opt-num">{price ? formatPrice(price, decimals.price) : <Trans>Market</Trans>}</span>
          </span>
          <span>
            <span className="muted">
              <Trans>Quantity</Trans>
            </span>
            <span className="opt-num">{formatQuantity(order.quantity)}</span>
          </span>
          <span>
            <span className="muted">
              <Trans>Dealt</Trans>
            </span>
            <span className="opt-num">{formatQuantity(order.dealt_quantity)}</span>
          </span>
        </span>
        <TriggerLine order={order} decimals={decimals.price} />
        {holding(order) && (
          <span className="ct-held">
            <span className="muted">
              <Trans>Held</Trans>
            </span>{' '}
            {money(order.frozen, order.frozen_asset)}
          </span>
        )}
        <span className="record-row-foot muted">
          <span className="opt-num">#{order.id}</span>
          <time dateTime={order.created_at}>{formatDateTime(order.created_at)}</time>
        </span>
      </button>
      {revocable(order.status) && <RevokeButton order={order} />}
      {details && <OrderDetails order={order} onClose={() => setDetails(false)} />}
    </li>
  );
}

function RevokeButton({ order }: { order: Readonly<ContractOrder> }) {
  const [asking, setAsking] = useState(false);
  const { busy, submit: revoke } = useSubmit(
    async () => {
      try {
        await revokeOrder(order);
        toast(i18n._(texts.cancellationSucceeded));
      } finally {
        setAsking(false);
      }
    },
    undefined,
    (error) => errorText(error) || i18n._(texts.cancellationFailed),
  );
  return (
    <div className="ct-revoke">
      <Button size="small" variant="danger" onClick={() => setAsking(true)} disabled={busy}>
        <Trans>Revoke</Trans>
      </Button>
      {asking && (
        <ConfirmDialog
          title={<Trans>Revoke this order?</Trans>}
          confirm={<Trans>Revoke order</Trans>}
          keep={<Trans>Keep order</Trans>}
          busy={busy}
          onCancel={() => setAsking(false)}
          onConfirm={() => void revoke()}
        >
          <p>
            <Trans>What the order holds returns to your available balance.</Trans>
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** One order's details in a dialog; quantities carry the pair's coin, as the signed receipt's do. */
export function OrderDetails({ order, onClose }: { order: Readonly<ContractOrder>; onClose: () => void }) {
  const decimals = usePairDecimals(order.code);
  const tickTime = order.tick_at ? formatTime(order.tick_at) : '';
  return (
    <Dialog
      title={<Trans>Order details</Trans>}
      actions={
        <Button variant="secondary" onClick={onClose}>
          <Trans>Close</Trans>
        </Button>
      }
    >
      <dl className="detail-rows ct-details">
        <Row label={<Trans>Order number</Trans>}>
          <span className="opt-num">{order.id}</span>
        </Row>
        <Row label={<Trans>Pair</Trans>}>
          <span dir="ltr">{order.code}/USDT</span>
        </Row>
        <Row label={<Trans>Order</Trans>}>
          <SideTag side={order.side} type={order.type} />
          {order.dust_conversion && <DustTag />}
        </Row>
        {order.practice && (
          <Row label={<Trans>Account</Trans>}>
            <PracticeTag />
          </Row>
        )}
        <Row label={<Trans>Status</Trans>}>
          <ContractStatusBadge status={order.status} />
        </Row>
        <Row label={<Trans>Limit price</Trans>}>
          {order.price === null ? null : <span className="opt-num">{formatPrice(order.price, decimals.price)}</span>}
        </Row>
        <Row label={<Trans>Quantity</Trans>}>
          <Amount value={formatQuantity(order.quantity)} unit={order.code} />
        </Row>
        <Row label={<Trans>Total asked</Trans>}>{money(order.total_asked, 'USDT')}</Row>
        {holding(order) && <Row label={<Trans>Held</Trans>}>{money(order.frozen, order.frozen_asset)}</Row>}
        {order.status === 'filling' && (
          <Row label={<Trans>Fills at</Trans>}>
            <Trans>The first price recorded after the order</Trans>
          </Row>
        )}
        {order.status === 'void' && (
          <Row label={<Trans>Not filled</Trans>}>
            <VoidReasonText reason={order.void_reason} />
          </Row>
        )}
        <Row label={<Trans>Dealt</Trans>}>
          <Amount value={formatQuantity(order.dealt_quantity)} unit={order.code} />
        </Row>
        <Row label={<Trans>Unit price</Trans>}>
          {order.unit_price === null ? null : (
            <span className="opt-num">{formatPrice(order.unit_price, decimals.price)}</span>
          )}
        </Row>
        <Row label={<Trans>Total</Trans>}>{money(order.total, 'USDT')}</Row>
        <Row label={<Trans>Fee</Trans>}>{money(order.fee, order.fee_asset)}</Row>
        <Row label={<Trans>Spent</Trans>}>{money(order.spent, order.spent_asset)}</Row>
        <Row label={<Trans>Received</Trans>}>{money(order.received, order.received_asset)}</Row>
        <Row label={<Trans>Filled at the recorded price</Trans>}>
          {order.tick_price === null ? null : (
            <>
              <span className="opt-num">{formatPrice(order.tick_price, decimals.price)}</span>
              <small className="muted">
                <Trans>recorded at {tickTime}</Trans>
              </small>
              <MadeOf constituents={order.tick_constituents} decimals={decimals.price} />
            </>
          )}
        </Row>
        <Row label={<Trans>Placed</Trans>}>
          <time className="opt-time">{formatDateTime(order.created_at)}</time>
        </Row>
        <Row label={<Trans>Dealt at</Trans>}>
          {order.filled_at && <time className="opt-time">{formatDateTime(order.filled_at)}</time>}
        </Row>
        <Row label={order.status === 'void' ? <Trans>Void at</Trans> : <Trans>Cancelled at</Trans>}>
          {order.cancelled_at && <time className="opt-time">{formatDateTime(order.cancelled_at)}</time>}
        </Row>
      </dl>
      {order.status === 'filled' && (
        <Link href={`${ROUTES.receipt}?contract=${order.id}`} className="receipt-link">
          <Trans>Signed receipt</Trans>
        </Link>
      )}
      {order.simulated && (
        <p className="ct-note">
          <Trans>Prices come from a simulated feed. Orders fill only at recorded prices; no one can set a fill.</Trans>
        </p>
      )}
    </Dialog>
  );
}
