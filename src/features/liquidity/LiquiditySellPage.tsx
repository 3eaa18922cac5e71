// Redeem (/pages/Liquidity/sell): the amount ("All" for everything redeemable) and the way:
// quick (into the available balance now, no interest today on the part redeemed, capped per day)
// or standard (paid at the end of the next interest day, still earning today). Next checks it and
// opens the confirmation with the amount and the mode in the query.
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { liquidityProduct, transferOutInfo, type RedeemMode } from '../../api-contract/liquidity.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { RecordLink } from '../../ui/records.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { Figure, ModeName, useFigures } from './LiquidityParts.tsx';
import { liquidityState, loadProduct, loadRedeemInfo, redeemProblem, standardPayDay } from './liquidity-store.ts';

export default function LiquiditySellPage() {
  const { t } = useLingui();
  const { product, redeemInfo, draft } = useSnapshot(liquidityState);
  useFigures(loadRedeemInfo, loadProduct);

  const amount = draft.redeem;
  const mode = draft.mode;
  const setAmount = (typed: string) => (liquidityState.draft.redeem = typed);
  const setMode = (next: RedeemMode) => (liquidityState.draft.mode = next);

  const next = async () => {
    const problem = redeemProblem(amount, mode, redeemInfo);
    if (problem) return toast(problem);
    navigate(`${ROUTES.liquiditySellConfirm}?amount=${encodeURIComponent(amount.trim())}&mode=${mode}`);
  };

  return (
    <div className="page">
      <NavBar
        title={<Trans>Redeem</Trans>}
        right={<RecordLink to={ROUTES.liquidityRecord} label={t`Liquidity record`} />}
      />
      <Form onSubmit={next}>
        <OfflineNote endpoints={[transferOutInfo, liquidityProduct]} />
        <AmountField
          value={amount}
          onChange={setAmount}
          enterKeyHint="next"
          placeholder={t`Amount to redeem`}
          all={redeemInfo?.redeemable}
        />
        <p className="liq-available muted">
          <Trans>Redeemable</Trans> <Figure value={redeemInfo?.redeemable} />
        </p>

        <div className="liq-modes" role="radiogroup" aria-label={t`Redemption`}>
          <button
            type="button"
            role="radio"
            aria-checked={mode === 'quick'}
            className="liq-mode"
            onClick={() => setMode('quick')}
          >
            <strong>
              <ModeName mode="quick" />
            </strong>
            <span>
              <Trans>Arrives in your available balance at once. The part you redeem earns no interest today.</Trans>
            </span>
            <span className="liq-mode-figure">
              <Trans>Left today</Trans> <Figure value={redeemInfo?.quick_remaining} />
            </span>
          </button>
          <button
            type="button"
            role="radio"
            aria-checked={mode === 'standard'}
            className="liq-mode"
            onClick={() => setMode('standard')}
          >
            <strong>
              <ModeName mode="standard" />
            </strong>
            <span>
              {product ? (
                <Trans>
                  Paid into your available balance at the end of <CalendarDay day={standardPayDay(product)} />, the next
                  interest day. It still earns interest today.
                </Trans>
              ) : (
                <Trans>
                  Paid into your available balance at the end of the next interest day. It still earns interest today.
                </Trans>
              )}
            </span>
            <span className="liq-mode-figure">
              <Trans>No daily limit</Trans>
            </span>
          </button>
        </div>

        <Button type="submit" disabled={!redeemInfo}>
          <Trans>Next</Trans>
        </Button>
        {redeemInfo && (
          <p className="liq-note">
            <Trans>
              Quick redemption is limited to <Figure value={redeemInfo.quick_daily_max} /> a day for each user.
            </Trans>
          </p>
        )}
      </Form>
    </div>
  );
}
