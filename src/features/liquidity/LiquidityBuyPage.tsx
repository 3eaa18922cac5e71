// Subscribe (/pages/Liquidity/buy): the amount (the minimum in the placeholder, "All" for every
// available USDT), when it starts earning and about what a day then pays. Next checks it and opens
// the confirmation with the amount in the query.
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import Big from 'big.js';
import { earnBalance } from '../../api-contract/earn.ts';
import { liquidityProduct, transferInInfo } from '../../api-contract/liquidity.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { formatMoney } from '../../lib/format.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { RecordLink, Row } from '../../ui/records.tsx';
import { TimeoutGate } from '../../ui/TimeoutGate.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { Figure, useFigures } from './LiquidityParts.tsx';
import { Amount } from '../../ui/Amount.tsx';
import {
  earningStartsOn,
  estimatedDailyInterest,
  isAmount,
  liquidityState,
  loadBalance,
  loadProduct,
  loadSubscribeInfo,
  subscribeProblem,
} from './liquidity-store.ts';

export default function LiquidityBuyPage() {
  const { t } = useLingui();
  const { product, balance, subscribeInfo, draft } = useSnapshot(liquidityState);
  useFigures(loadSubscribeInfo, loadProduct, loadBalance);

  const amount = draft.subscribe;
  const setAmount = (typed: string) => (liquidityState.draft.subscribe = typed);
  const minimum = subscribeInfo
    ? formatMoney(subscribeInfo.min_amount)
    : product
      ? formatMoney(product.min_amount)
      : '';
  const newTotal = isAmount(amount) && balance ? new Big(balance.principal).plus(amount).toFixed(8) : null;
  const estimate = estimatedDailyInterest(amount, balance?.principal, product);

  const next = async () => {
    const problem = subscribeProblem(amount, subscribeInfo);
    if (problem) return toast(problem);
    navigate(`${ROUTES.liquidityBuyConfirm}?amount=${encodeURIComponent(amount.trim())}`);
  };

  return (
    <div className="page">
      <NavBar
        title={<Trans>Subscribe</Trans>}
        right={<RecordLink to={ROUTES.liquidityRecord} label={t`Liquidity record`} />}
      />
      <Form onSubmit={next}>
        <OfflineNote endpoints={[transferInInfo, liquidityProduct, earnBalance]} />
        <AmountField
          value={amount}
          onChange={setAmount}
          enterKeyHint="next"
          placeholder={minimum ? t`At least ${minimum} USDT` : undefined}
          all={subscribeInfo?.usdt_available}
        />
        <p className="liq-available muted">
          <Trans>Available</Trans> <Figure value={subscribeInfo?.usdt_available} balance />
        </p>

        <section className="card liq-quote">
          <dl className="detail-rows">
            <Row label={<Trans>Earns from</Trans>}>
              {product ? <CalendarDay day={earningStartsOn(product.today)} /> : '—'}
            </Row>
            <Row label={<Trans>Liquidity balance after</Trans>}>
              <Figure value={newTotal} />
            </Row>
            <Row label={<Trans>Interest a day (estimate)</Trans>}>
              <Figure value={estimate} />
            </Row>
          </dl>
          <p className="liq-note">
            <Trans>
              Money subscribed today earns from the next interest day. Interest is paid into your liquidity balance at
              the end of each interest day and earns interest itself from then on.
            </Trans>
          </p>
        </section>

        <TimeoutGate>
          <Button type="submit" disabled={!subscribeInfo}>
            <Trans>Next</Trans>
          </Button>
        </TimeoutGate>
        <p className="liq-note">
          <Trans>
            Minimum subscription: <Amount value={minimum || '—'} unit="USDT" />. You can redeem at any time.
          </Trans>
        </p>
      </Form>
    </div>
  );
}
