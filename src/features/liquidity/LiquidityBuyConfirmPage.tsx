// Confirm a subscription (/pages/Liquidity/buyConfirm?amount=…): what moves, when it starts
// earning and with which ladder; Confirm subscribes, then the liquidity page shows the new figures.
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { liquidityProduct, transferInInfo } from '../../api-contract/liquidity.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { transactionErrorText, useSubmit } from '../../lib/form.ts';
import { forgetVisits, goBack, navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { Empty } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Row } from '../../ui/records.tsx';
import { TimeoutGate } from '../../ui/TimeoutGate.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { Figure, LadderTable, useFigures } from './LiquidityParts.tsx';
import {
  earningStartsOn,
  estimatedDailyInterest,
  isAmount,
  liquidityState,
  loadBalance,
  loadProduct,
  loadSubscribeInfo,
  startingLadder,
  subscribeLiquidity,
  subscribeProblem,
} from './liquidity-store.ts';

export default function LiquidityBuyConfirmPage() {
  const amount = new URLSearchParams(useSearch()).get('amount') ?? '';
  const { product, balance, subscribeInfo } = useSnapshot(liquidityState);
  useFigures(loadSubscribeInfo, loadProduct, loadBalance);

  const { busy, submit } = useSubmit(
    async () => {
      await subscribeLiquidity(amount);
      toast(i18n._(texts.transactionSucceeded));
      // Back from the liquidity page leads where the user came from, not to these forms.
      forgetVisits(ROUTES.liquidityBuy);
      navigate(ROUTES.liquidity, { replace: true });
    },
    () => subscribeProblem(amount, subscribeInfo),
    transactionErrorText,
  );

  if (!isAmount(amount)) {
    return (
      <div className="page">
        <NavBar title={<Trans>Confirm subscription</Trans>} />
        <Empty
          action={
            <Button size="small" variant="secondary" onClick={() => navigate(ROUTES.liquidityBuy, { replace: true })}>
              <Trans>Enter the amount</Trans>
            </Button>
          }
        >
          {i18n._(texts.amountFormat)}
        </Empty>
      </div>
    );
  }

  const startsOn = product ? earningStartsOn(product.today) : null;
  const ladder = product ? startingLadder(product) : null;
  // Tomorrow's ladder when published; else today's, which stays in force until another is.
  const tomorrowsLadder = Boolean(product?.next_ladder);
  return (
    <div className="page">
      <NavBar title={<Trans>Confirm subscription</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[transferInInfo, liquidityProduct]} />
        <section className="card liq-summary">
          <span className="muted">
            <Trans>You subscribe</Trans>
          </span>
          <Money amount={amount} asset="USDT" className="liq-summary-amount" />
          <dl className="detail-rows">
            <Row label={<Trans>From</Trans>}>
              <Trans>Available balance</Trans>
            </Row>
            <Row label={<Trans>To</Trans>}>
              <Trans>Liquidity balance</Trans>
            </Row>
            <Row label={<Trans>Available now</Trans>}>
              <Figure value={subscribeInfo?.usdt_available} balance />
            </Row>
            <Row label={<Trans>Earns from</Trans>}>{startsOn ? <CalendarDay day={startsOn} /> : '—'}</Row>
            <Row label={<Trans>Interest a day (estimate)</Trans>}>
              <Figure value={estimatedDailyInterest(amount, balance?.principal, product)} />
            </Row>
          </dl>
        </section>

        {product && ladder && ladder.length > 0 && startsOn && (
          <section className="card liq-ladder-card">
            <LadderTable
              ladder={ladder}
              caption={
                tomorrowsLadder ? (
                  <>
                    <Trans>Tomorrow's rates</Trans> <CalendarDay day={startsOn} />
                  </>
                ) : (
                  <>
                    <Trans>Today's rates</Trans> <CalendarDay day={product.today} />
                  </>
                )
              }
            />
            <p className="liq-note">
              <Trans>
                Rates are published for each interest day and may change from one day to the next. Each part of your
                balance earns the rate of its tier; the estimate uses the rates above.
              </Trans>
            </p>
          </section>
        )}

        <TimeoutGate>
          <div className="liq-actions">
            <Button variant="secondary" onClick={() => goBack(ROUTES.liquidityBuy)} disabled={busy}>
              <Trans>Back</Trans>
            </Button>
            <Button onClick={() => void submit()} disabled={busy || !subscribeInfo}>
              {busy ? <Trans>Subscribing…</Trans> : <Trans>Confirm</Trans>}
            </Button>
          </div>
        </TimeoutGate>
      </div>
    </div>
  );
}
