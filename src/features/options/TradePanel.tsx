// Buying an option: expiry and yield, amount (with the balance and a max shortcut), the payout a
// win would bring, Buy up / Buy short, and a confirmation before the order is sent.
import { lazy, Suspense, useCallback, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useLiveSnapshot } from '../../lib/live-snapshot.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import Big from 'big.js';
import type { Direction, OptionProduct } from '../../api-contract/options.ts';
import { MIN_OPTION_USDT } from '../../api-contract/constants.ts';
import { texts } from '../../api-contract/texts.ts';
import { formatBalance, USDT, usdtAvailable, userBalances } from '../../lib/balances.ts';
import { transactionErrorText, useSubmit } from '../../lib/form.ts';
import { knownOffline } from '../../lib/offline.ts';
import { practice, practiceUsdt, useAccount } from '../../lib/practice.ts';
import { PracticeTag } from '../../ui/AccountSwitch.tsx';
import { pausedText, prices } from '../../lib/prices.ts';
import { toast } from '../../lib/toast.ts';
import { Button, FieldChecks, FieldRefusalsScope, firstFieldProblem, useFieldChecks } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { Dialog } from '../../ui/lists.tsx';
import { PriceSourceBadge } from '../../ui/PriceSourceBadge.tsx';
import { TimeoutGate } from '../../ui/TimeoutGate.tsx';
import { formatPrice, formatSignedUsdt, formatUsdt, formatYield, winPayout, winProfit } from './option-format.ts';
import { optionsState, orderProblem, placeOrder } from './options-store.ts';
import { DirectionTag, Minutes } from './OptionParts.tsx';
import { Amount } from '../../ui/Amount.tsx';

// The risk figure and its call come in a chunk of their own (RiskNote.tsx).
const RiskNote = lazy(() => import('./RiskNote.tsx'));

export function TradePanel({ code, onPlaced }: { code: string; onPlaced: () => void }) {
  const { t } = useLingui();
  const { products, minutes, totals } = useSnapshot(optionsState);
  const wallet = useSnapshot(userBalances);
  const practising = useAccount() === 'practice';
  const practiceAccount = useSnapshot(practice).account;
  const halted = useLiveSnapshot(prices).quotes[code]?.halted;
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState<Direction | null>(null);

  const choices = products[code] ?? [];
  const product = choices.find((item) => item.minutes === minutes) ?? choices[0];
  // Unknown (offline before the first answer) is a dash, never an invented 0.00.
  const realAvailable = wallet.updatedAt ? usdtAvailable(wallet) : null;
  const available = practising ? practiceUsdt(practiceAccount) : realAvailable;
  const minimum = new Big(product?.min_amount ?? MIN_OPTION_USDT).toFixed();
  const payout = winPayout(amount, product?.yield_rate);
  // The yield shown goes with the order: an operator's change meanwhile refuses it rather than pay another yield.
  const input = (direction: Direction) => ({
    code,
    direction,
    product_id: product ? String(product.id) : '',
    amount,
    ...(product ? { yield_rate: product.yield_rate } : {}),
  });

  const checks = useFieldChecks();
  const ask = (direction: Direction) => {
    if (firstFieldProblem(checks)) return;
    // Trading needs a connection: say so before any rule of the form (the cached price may be old).
    const problem = knownOffline()
      ? i18n._(texts.offline)
      : (pausedText(code) ?? orderProblem(input(direction), product, available));
    if (problem) toast(problem);
    else setConfirming(direction);
  };

  const { busy, submit, refusals } = useSubmit(
    async (direction: Direction) => {
      try {
        await placeOrder(input(direction));
      } finally {
        setConfirming(null);
      }
      toast(i18n._(texts.transactionSucceeded));
      onPlaced();
      // The offer's chunk not loaded (offline, a deploy in between): no offer after this order; a later one makes it.
      void import('../../ui/push-offer.tsx').then(
        (offer) => offer.offerNotifications(),
        () => undefined,
      );
    },
    undefined,
    transactionErrorText,
  );

  return (
    <FieldChecks.Provider value={checks}>
      {/* The server's refusal of the amount (below the product's minimum) shows under the field. */}
      <FieldRefusalsScope value={refusals}>
        <section className={practising ? 'card opt-trade practising' : 'card opt-trade'}>
          <div className="opt-section-title">
            <Trans>Expiry and yield</Trans>
          </div>
          <div
            className={choices.length ? 'opt-expiries' : 'opt-expiries loading'}
            role="radiogroup"
            aria-label={t`Expiry and yield`}
          >
            {choices.map((item) => (
              <button
                key={item.id}
                type="button"
                role="radio"
                aria-checked={item.id === product?.id}
                className="opt-expiry"
                onClick={() => (optionsState.minutes = item.minutes)}
              >
                <Minutes minutes={item.minutes} /> · <span className="opt-num">{formatYield(item.yield_rate)}</span>
              </button>
            ))}
            {choices.length === 0 && <span className="muted">{i18n._(texts.loading)}</span>}
          </div>

          <AmountField
            value={amount}
            onChange={setAmount}
            placeholder={t`At least ${minimum} USDT`}
            all={available}
            allLabel={<Trans>Max</Trans>}
          />
          <div className="opt-amount-notes">
            <span className="muted">
              <Trans>
                Available: <Amount value={available === null ? '—' : formatBalance(available, USDT)} unit={USDT} />
              </Trans>{' '}
              {practising && <PracticeTag />}
            </span>
            {payout && product && (
              <span>
                <Trans>
                  If it wins: <Amount value={<strong>{formatUsdt(payout)}</strong>} unit={USDT} />
                </Trans>{' '}
                <span className="up opt-num">({formatSignedUsdt(winProfit(amount, payout))})</span>
              </span>
            )}
          </div>

          {halted && (
            <p className="paused-note" role="status">
              {pausedText(code)}
            </p>
          )}
          <TimeoutGate>
            <div className="opt-buy-row">
              <button type="button" className="btn opt-buy up" onClick={() => ask('up')} disabled={busy}>
                <Trans>Buy up</Trans>
              </button>
              <button type="button" className="btn opt-buy down" onClick={() => ask('down')} disabled={busy}>
                <Trans>Buy short</Trans>
              </button>
            </div>
          </TimeoutGate>
          <Suspense fallback={null}>
            <RiskNote />
          </Suspense>

          {confirming && product && (
            <ConfirmDialog
              code={code}
              direction={confirming}
              amount={amount}
              product={product}
              busy={busy}
              // A customer's first option (none pending or settled; unknown counts as first) hears the risk figure too.
              first={!totals || totals.holding_count + totals.settled_count === 0}
              practising={practising}
              onCancel={() => setConfirming(null)}
              onConfirm={() => void submit(confirming)}
            />
          )}
        </section>
      </FieldRefusalsScope>
    </FieldChecks.Provider>
  );
}

/** What the option order confirmation shows, and what its two buttons do. */
export interface ConfirmProps {
  code: string;
  direction: Direction;
  amount: string;
  product: Readonly<OptionProduct>;
  busy: boolean;
  first: boolean;
  /** Placed with the practice account's virtual money. */
  practising: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * The confirmation of an option order. In a customer's first order (as known when it opened: the order totals arriving
 * later do not add or remove the note) it tells the risk figure, and holds Confirm until the figure is on screen or
 * cannot be had, with the spec's loading text in its place meanwhile: a note arriving later would grow the dialog and
 * move its buttons under the customer's finger, so a tap meant for Confirm would land beside it.
 */
export function ConfirmDialog(props: ConfirmProps) {
  const { code, direction, amount, product, busy, first, practising, onCancel, onConfirm } = props;
  const [withRisk] = useState(first);
  const [riskSettled, setRiskSettled] = useState(false);
  const settleRisk = useCallback(() => setRiskSettled(true), []);
  const riskLoading = (
    <p className="opt-risk" role="status">
      {i18n._(texts.loading)}
    </p>
  );
  const quote = useLiveSnapshot(prices).quotes[code];
  const payout = winPayout(amount, product.yield_rate);
  return (
    <Dialog
      title={
        <>
          <Trans>Confirm your order</Trans> {practising && <PracticeTag />}
        </>
      }
      actions={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy} dismiss>
            <Trans>Cancel</Trans>
          </Button>
          <button
            type="button"
            className={`btn opt-buy ${direction}`}
            onClick={onConfirm}
            disabled={busy || (withRisk && !riskSettled)}
          >
            <Trans>Confirm</Trans>
          </button>
        </>
      }
    >
      <dl className="opt-rows">
        <div>
          <dt>
            <Trans>Coin</Trans>
          </dt>
          <dd>{code}/USDT</dd>
        </div>
        <div>
          <dt>
            <Trans>Direction</Trans>
          </dt>
          <dd>
            <DirectionTag direction={direction} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Amount</Trans>
          </dt>
          <dd>
            <Amount value={formatUsdt(amount)} unit={USDT} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Expiry</Trans>
          </dt>
          <dd>
            <Minutes minutes={product.minutes} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Yield</Trans>
          </dt>
          <dd className="opt-num">{formatYield(product.yield_rate)}</dd>
        </div>
        <div>
          <dt>
            <Trans>Current price</Trans>
          </dt>
          <dd>
            <span className="opt-num">{quote ? formatPrice(quote.price, quote.price_decimals) : '—'}</span>
            <PriceSourceBadge source={quote} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Payout if it wins</Trans>
          </dt>
          <dd className="up">
            <Amount value={payout ? formatUsdt(payout) : '—'} unit={USDT} />
          </dd>
        </div>
      </dl>
      <p className="opt-note">
        <Trans>
          The start price is the first price recorded after the server accepts your order, never one recorded before. A
          loss loses the amount; the same price at the end returns it.
        </Trans>
      </p>
      {withRisk && (
        <Suspense fallback={riskLoading}>
          <RiskNote whileLoading={riskLoading} onSettled={settleRisk} />
        </Suspense>
      )}
    </Dialog>
  );
}
