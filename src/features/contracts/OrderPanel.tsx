// The order form: Buy or Sell, Market or Limit, the limit price in tick steps, the quantity (a
// market buy names the USDT to spend) or a share of what is available, and before submit the
// total, the fee and what arrives; then a confirmation, and the success or failure texts as toasts.
import { Suspense, lazy, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import Big from 'big.js';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import {
  QUOTE_ASSET,
  gridStep,
  hasLimitPrice,
  hasTrigger,
  type ContractPair,
  type OrderSide,
  type OrderType,
} from '../../api-contract/contracts.ts';
import { texts } from '../../api-contract/texts.ts';
import { transactionErrorText, useSubmit } from '../../lib/form.ts';
import { formatAmount, formatPrice } from '../../lib/format.ts';
import { formatBalance } from '../../lib/balances.ts';
import { knownOffline } from '../../lib/offline.ts';
import { pausedText, prices } from '../../lib/prices.ts';
import { toast } from '../../lib/toast.ts';
import { FieldChecks, firstFieldProblem, useFieldChecks } from '../../ui/forms.tsx';
import { AmountField, DecimalField } from '../../ui/AmountField.tsx';
import { MinusIcon, PlusIcon } from '../../ui/icons.tsx';
import { ConfirmDialog } from '../../ui/lists.tsx';
import { PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import { Amount } from '../../ui/Amount.tsx';
import { TimeoutGate } from '../../ui/TimeoutGate.tsx';
import {
  awaitMarketFill,
  contractsState,
  marketOutcomeText,
  orderPreview,
  orderProblem,
  placeOrder,
  shareOf,
  type OrderForm,
} from './contracts-store.ts';
import { SideTag } from './ContractParts.tsx';
import { formatOrderAmount } from './order-amounts.ts';
import { useAccount } from '../../lib/practice.ts';
import { PracticeTag } from '../../ui/AccountSwitch.tsx';

// Loaded when a stop or TP/SL is asked for: the contracts route's first load stays within its budget.
const ConditionalFields = lazy(() => import('./ConditionalFields.tsx'));

const SHARES = [25, 50, 75, 100];
const EMPTY_FORM: OrderForm = { side: 'buy', type: 'limit', price: '', quantity: '', total: '' };

export function OrderPanel({ code }: { code: string }) {
  const { t } = useLingui();
  const { pairs, amounts } = useSnapshot(contractsState);
  const quote = useLiveSnapshot(prices).quotes[code];
  const pair = pairs.find((item) => item.code === code);
  const held = amounts[code];
  const [form, setForm] = useState<OrderForm>(EMPTY_FORM);
  const [confirming, setConfirming] = useState(false);
  const [legs, setLegs] = useState(false);
  const practising = useAccount() === 'practice';
  const lastPrice = quote?.price;
  const marketBuy = form.type === 'market' && form.side === 'buy';
  const preview = orderPreview(code, form, pair, lastPrice);

  const change = (fields: Partial<OrderForm>) => setForm((previous) => ({ ...previous, ...fields }));
  // A limit starts at the latest price, on the tick size.
  const startPrice = () =>
    pair && lastPrice ? new Big(lastPrice).round(pair.price_decimals, Big.roundDown).toFixed(pair.price_decimals) : '';
  // The limit price starts at the latest price once it is known (the form is made anew per pair).
  const ready = Boolean(pair && lastPrice);
  useEffect(() => {
    if (ready)
      setForm((previous) =>
        previous.type === 'limit' && previous.price === '' ? { ...previous, price: startPrice() } : previous,
      );
    // Once, when the price first arrives: later prices must not move a typed limit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready]);
  const chooseType = (type: OrderType) =>
    change({ type, price: hasLimitPrice(type) && !form.price ? startPrice() : form.price });
  const chooseSide = (side: OrderSide) => change({ side, quantity: '', total: '', take_profit: '', stop_loss: '' });
  const toggleLegs = () => {
    if (legs) change({ take_profit: '', stop_loss: '' });
    setLegs(!legs);
  };
  const stepPrice = (direction: 1 | -1) => {
    if (!pair) return;
    const from = form.price && /^\d+(\.\d+)?$/.test(form.price) ? form.price : startPrice();
    if (!from) return;
    const next = new Big(from)
      .round(pair.price_decimals, Big.roundDown)
      .plus(new Big(gridStep(pair.price_decimals)).times(direction));
    if (next.gt(0)) change({ price: next.toFixed(pair.price_decimals) });
  };
  const fillShare = (percent: number) => {
    if (!pair || !held) return;
    const value = shareOf(percent, form, pair, held);
    change(marketBuy ? { total: value } : { quantity: value });
  };

  const checks = useFieldChecks();
  const ask = () => {
    if (firstFieldProblem(checks)) return;
    // Trading needs a connection: say so before any rule of the form (the cached price may be old).
    const problem = knownOffline()
      ? i18n._(texts.offline)
      : (pausedText(code) ?? orderProblem(code, form, pair, held, lastPrice));
    if (problem) toast(problem);
    else setConfirming(true);
  };

  const { busy, submit } = useSubmit(
    async () => {
      try {
        const order = await placeOrder(code, form);
        if (order.status === 'filled') toast(i18n._(texts.transactionSucceeded));
        else if (order.status === 'waiting') {
          const trigger = formatPrice(order.trigger_price ?? '0', pair?.price_decimals);
          toast(
            {
              message: order.trigger_above
                ? msg`Stop order placed: it triggers when a recorded price is at or above ${trigger}`
                : msg`Stop order placed: it triggers when a recorded price is at or below ${trigger}`,
              parts: { trigger: { amount: trigger, unit: '' } },
            },
            3000,
          );
        } else if (order.status === 'filling') {
          toast(t`Market order accepted: it fills at the next recorded price`, 2000);
          const decimals = pair?.price_decimals;
          void awaitMarketFill(order).then((done) => done && toast(marketOutcomeText(done, decimals), 4000));
        } else {
          const price = formatPrice(order.price ?? '0', pair?.price_decimals);
          toast(
            {
              message:
                order.side === 'buy'
                  ? msg`Limit order placed: it fills when a recorded price is at or below ${price}`
                  : msg`Limit order placed: it fills when a recorded price is at or above ${price}`,
              parts: { price: { amount: price, unit: '' } },
            },
            3000,
          );
        }
        change({ quantity: '', total: '' });
        // The offer's chunk not loaded (offline, a deploy in between): no offer after this order; a later one makes it.
        void import('../../ui/push-offer.tsx').then(
          (offer) => offer.offerNotifications(),
          () => undefined,
        );
      } finally {
        setConfirming(false);
      }
    },
    undefined,
    transactionErrorText,
  );

  const spendAsset = form.side === 'buy' ? QUOTE_ASSET : code;
  const available = held ? (form.side === 'buy' ? held.usdt_available : held.available) : null;
  return (
    <FieldChecks.Provider value={checks}>
      <section className={practising ? 'card ct-form practising' : 'card ct-form'} aria-label={t`Place an order`}>
        <div className="ct-sides" role="group" aria-label={t`Side`}>
          <button
            type="button"
            className="ct-side buy"
            aria-pressed={form.side === 'buy'}
            onClick={() => chooseSide('buy')}
          >
            <Trans>Buy</Trans>
          </button>
          <button
            type="button"
            className="ct-side sell"
            aria-pressed={form.side === 'sell'}
            onClick={() => chooseSide('sell')}
          >
            <Trans>Sell</Trans>
          </button>
        </div>
        <div className="segmented" role="group" aria-label={t`Order type`}>
          <button type="button" aria-pressed={form.type === 'limit'} onClick={() => chooseType('limit')}>
            <Trans>Limit</Trans>
          </button>
          <button type="button" aria-pressed={form.type === 'market'} onClick={() => chooseType('market')}>
            <Trans>Market</Trans>
          </button>
          <button type="button" aria-pressed={form.type === 'stop_market'} onClick={() => chooseType('stop_market')}>
            <Trans>Stop</Trans>
          </button>
          <button type="button" aria-pressed={form.type === 'stop_limit'} onClick={() => chooseType('stop_limit')}>
            <Trans>Stop-limit</Trans>
          </button>
        </div>

        {(hasTrigger(form.type) || legs) && (
          <Suspense fallback={null}>
            <ConditionalFields form={form} pair={pair} legs={legs} change={change} />
          </Suspense>
        )}

        {hasLimitPrice(form.type) ? (
          <DecimalField
            label={<Trans>Price (USDT)</Trans>}
            value={form.price}
            onChange={(price) => change({ price })}
            name="price"
            placeholder={pair ? t`Steps of ${gridStep(pair.price_decimals)}` : undefined}
            lead={
              <button
                type="button"
                className="ct-step"
                onClick={() => stepPrice(-1)}
                aria-label={t`Lower price by one tick`}
              >
                <MinusIcon />
              </button>
            }
            trailing={
              <button
                type="button"
                className="ct-step"
                onClick={() => stepPrice(1)}
                aria-label={t`Raise price by one tick`}
              >
                <PlusIcon />
              </button>
            }
          />
        ) : (
          <div className="ct-market-price">
            <span className="muted">
              <Trans>Market price</Trans>
            </span>
            <span>
              <Amount value={lastPrice ? formatPrice(lastPrice, quote?.price_decimals) : '—'} unit={QUOTE_ASSET} />{' '}
              <PriceSourceBadge source={quote} />
            </span>
          </div>
        )}

        {marketBuy ? (
          <AmountField
            label={<Trans>Total to spend (USDT)</Trans>}
            value={form.total}
            onChange={(total) => change({ total })}
            name="total"
            placeholder={pair ? t`At least ${pair.min_notional} USDT` : undefined}
          />
        ) : (
          <AmountField
            label={<Trans>Quantity ({code})</Trans>}
            value={form.quantity}
            onChange={(quantity) => change({ quantity })}
            name="quantity"
            placeholder={pair ? t`Steps of ${gridStep(pair.quantity_decimals)}` : undefined}
          />
        )}

        <div className="ct-shares" role="group" aria-label={t`Share of what is available`}>
          {SHARES.map((percent) => (
            <button key={percent} type="button" onClick={() => fillShare(percent)} disabled={!held || !pair}>
              <span dir="ltr">{percent}%</span>
            </button>
          ))}
        </div>
        {/* One row: the Buy button stays within a phone's first screen (844 px) with the TP/SL switch there. */}
        <div className="ct-available-row">
          <p className="ct-available muted">
            <Trans>Available</Trans>{' '}
            <Amount value={available === null ? '—' : formatBalance(available, spendAsset)} unit={spendAsset} />{' '}
            {practising && <PracticeTag />}
          </p>
          {form.side === 'buy' && (
            <button type="button" className="link-button ct-legs-toggle" aria-pressed={legs} onClick={toggleLegs}>
              <Trans>TP/SL</Trans>
            </button>
          )}
        </div>

        <OrderFigures code={code} pair={pair} preview={preview} />

        {quote?.halted && (
          <p className="paused-note" role="status">
            {pausedText(code)}
          </p>
        )}
        <TimeoutGate>
          <button type="button" className={`btn ct-submit ${form.side}`} onClick={ask} disabled={busy}>
            {form.side === 'buy' ? <Trans>Buy {code}</Trans> : <Trans>Sell {code}</Trans>}
          </button>
        </TimeoutGate>

        {confirming && preview && pair && (
          <ConfirmDialog
            title={
              <>
                <Trans>Confirm your order</Trans> {practising && <PracticeTag />}
              </>
            }
            confirm={<Trans>Confirm</Trans>}
            busy={busy}
            onCancel={() => setConfirming(false)}
            onConfirm={() => void submit()}
          >
            <dl className="detail-rows">
              <div>
                <dt>
                  <Trans>Pair</Trans>
                </dt>
                <dd dir="ltr">{code}/USDT</dd>
              </div>
              <div>
                <dt>
                  <Trans>Order</Trans>
                </dt>
                <dd>
                  <SideTag side={form.side} type={form.type} />
                </dd>
              </div>
              <div>
                <dt>
                  {hasLimitPrice(form.type) ? (
                    <Trans>Limit price</Trans>
                  ) : form.type === 'stop_market' ? (
                    <Trans>Trigger price</Trans>
                  ) : (
                    <Trans>Latest price</Trans>
                  )}
                </dt>
                <dd>
                  <span className="opt-num">{formatPrice(preview.price, pair.price_decimals)}</span>
                </dd>
              </div>
            </dl>
            <OrderFigures code={code} pair={pair} preview={preview} />
            <p className="ct-note">
              {hasTrigger(form.type) ? (
                <Trans>
                  A stop order waits until a price recorded after it reaches its trigger, then fills at the next
                  recorded price (a stop-limit rests at its limit); until then what it needs is held, and you can revoke
                  it.
                </Trans>
              ) : form.type === 'market' ? (
                <Trans>
                  A market order fills at the first price recorded after you confirm, which may differ a little from the
                  one shown.
                </Trans>
              ) : (
                <Trans>
                  A limit order fills at its own price once a recorded price reaches it; until then what it needs is
                  held, and you can revoke it.
                </Trans>
              )}
            </p>
          </ConfirmDialog>
        )}
      </section>
    </FieldChecks.Provider>
  );
}

/** Quantity, total, fee and what arrives, as the order would fill now. */
function OrderFigures({
  code,
  pair,
  preview,
}: {
  code: string;
  pair: Readonly<ContractPair> | undefined;
  preview: ReturnType<typeof orderPreview>;
}) {
  const feePercent = pair
    ? formatAmount(
        new Big(pair.fee_rate).times(100).toFixed(),
        Math.min(4, Math.max(1, new Big(pair.fee_rate).times(100).toFixed().split('.')[1]?.length ?? 0)),
      )
    : '—';
  return (
    <dl className="detail-rows ct-figures">
      <div>
        <dt>
          <Trans>Quantity</Trans>
        </dt>
        <dd>
          <Amount value={preview ? formatOrderAmount(preview.quantity, code) : '—'} unit={code} />
        </dd>
      </div>
      <div>
        <dt>
          <Trans>Total</Trans>
        </dt>
        <dd>
          <Amount value={preview ? formatOrderAmount(preview.total, QUOTE_ASSET) : '—'} unit={QUOTE_ASSET} />
        </dd>
      </div>
      <div>
        <dt>
          <Trans>Fee ({feePercent}%)</Trans>
        </dt>
        <dd>
          <Amount value={preview ? formatOrderAmount(preview.fee, preview.fee_asset) : '—'} unit={preview?.fee_asset} />
        </dd>
      </div>
      <div>
        <dt>
          <Trans>You receive</Trans>
        </dt>
        <dd>
          <strong>
            <Amount
              value={preview ? formatOrderAmount(preview.received, preview.received_asset) : '—'}
              unit={preview?.received_asset}
            />
          </strong>
        </dd>
      </div>
    </dl>
  );
}
