// Confirm a redemption (/pages/Liquidity/sellConfirm?amount=…&mode=quick|standard): what leaves
// the liquidity balance, when it arrives and what it earns today; Confirm redeems, then the
// liquidity page shows the new figures.
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { liquidityProduct, transferOutInfo } from '../../api-contract/liquidity.ts';
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
import { CalendarDay, formatCalendarDay } from '../../ui/CalendarDay.tsx';
import { Figure, ModeName, useFigures } from './LiquidityParts.tsx';
import {
  isAmount,
  liquidityState,
  loadProduct,
  loadRedeemInfo,
  redeemLiquidity,
  redeemModeOf,
  redeemProblem,
  standardPayDay,
} from './liquidity-store.ts';

export default function LiquiditySellConfirmPage() {
  const { t } = useLingui();
  const query = new URLSearchParams(useSearch());
  const amount = query.get('amount') ?? '';
  const mode = redeemModeOf(query.get('mode'));
  const { product, redeemInfo } = useSnapshot(liquidityState);
  useFigures(loadRedeemInfo, loadProduct);

  const { busy, submit } = useSubmit(
    async () => {
      const record = await redeemLiquidity(amount, mode!);
      const payDay = record.pay_day ? formatCalendarDay(record.pay_day) : '';
      toast(
        record.mode === 'standard' && payDay
          ? t`Redemption submitted: paid at the end of ${payDay}.`
          : i18n._(texts.transactionSucceeded),
      );
      // Back from the liquidity page leads where the user came from, not to these forms.
      forgetVisits(ROUTES.liquiditySell);
      navigate(ROUTES.liquidity, { replace: true });
    },
    () => redeemProblem(amount, mode ?? '', redeemInfo),
    transactionErrorText,
  );

  if (!isAmount(amount) || !mode) {
    return (
      <div className="page">
        <NavBar title={<Trans>Confirm redemption</Trans>} />
        <Empty
          action={
            <Button size="small" variant="secondary" onClick={() => navigate(ROUTES.liquiditySell, { replace: true })}>
              <Trans>Enter the amount</Trans>
            </Button>
          }
        >
          {i18n._(mode ? texts.amountFormat : texts.chooseRedeemMode)}
        </Empty>
      </div>
    );
  }

  const quick = mode === 'quick';
  const payDay = product ? standardPayDay(product) : null;
  return (
    <div className="page">
      <NavBar title={<Trans>Confirm redemption</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[transferOutInfo, liquidityProduct]} />
        <section className="card liq-summary">
          <span className="muted">
            <Trans>You redeem</Trans>
          </span>
          <Money amount={amount} asset="USDT" className="liq-summary-amount" />
          <dl className="detail-rows">
            <Row label={<Trans>Way</Trans>}>
              <ModeName mode={mode} />
            </Row>
            <Row label={<Trans>From</Trans>}>
              <Trans>Liquidity balance</Trans>
            </Row>
            <Row label={<Trans>To</Trans>}>
              <Trans>Available balance</Trans>
            </Row>
            <Row label={<Trans>Redeemable</Trans>}>
              <Figure value={redeemInfo?.redeemable} />
            </Row>
            <Row label={<Trans>Arrives</Trans>}>
              {quick ? (
                <Trans>Now</Trans>
              ) : payDay ? (
                <Trans>
                  At the end of <CalendarDay day={payDay} />
                </Trans>
              ) : (
                <Trans>At the end of the next interest day</Trans>
              )}
            </Row>
            <Row label={<Trans>Interest today</Trans>}>
              {quick ? <Trans>None on the amount redeemed</Trans> : <Trans>Still earned on the amount redeemed</Trans>}
            </Row>
            {quick && (
              <Row label={<Trans>Quick allowance left today</Trans>}>
                <Figure value={redeemInfo?.quick_remaining} />
              </Row>
            )}
          </dl>
        </section>
        <p className="liq-note">
          {quick ? (
            <Trans>The USDT is in your available balance as soon as you confirm.</Trans>
          ) : (
            <Trans>
              The amount stays in your liquidity balance as redeeming until it is paid. Your record shows it as
              submitted, then waiting to be processed, then confirmed once paid.
            </Trans>
          )}
        </p>

        <div className="liq-actions">
          <Button variant="secondary" onClick={() => goBack(ROUTES.liquiditySell)} disabled={busy}>
            <Trans>Back</Trans>
          </Button>
          <Button onClick={() => void submit()} disabled={busy || !redeemInfo}>
            {busy ? <Trans>Redeeming…</Trans> : <Trans>Confirm</Trans>}
          </Button>
        </div>
      </div>
    </div>
  );
}
