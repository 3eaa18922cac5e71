// The liquidity rules (our /pages/Liquidity/rule, /yuebao/rule): the minimum, the ladder, how
// a day's interest is computed (with an example on the published rates), when money starts
// earning, quick and standard redemption, and the time zone of an interest day.
import { useSnapshot } from 'valtio';
import { Plural, Trans } from '@lingui/react/macro';
import { addDays } from '../../api-contract/earn.ts';
import { dailyInterest, ladderPortions, liquidityRule, type LadderTier } from '../../api-contract/liquidity.ts';
import { formatExact, formatMoney } from '../../lib/format.ts';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Ltr } from '../../ui/records.tsx';
import { CalendarDay } from '../../ui/CalendarDay.tsx';
import { LadderTable, useFigures } from './LiquidityParts.tsx';
import { formatRate, zoneOffset } from './liquidity-format.ts';
import { liquidityState, loadRule } from './liquidity-store.ts';
import { Amount } from '../../ui/Amount.tsx';

/** The principal of the worked example. */
const EXAMPLE_PRINCIPAL = '5000';

export default function LiquidityRulePage() {
  const { rule } = useSnapshot(liquidityState);
  useFigures(loadRule);

  const minimum = rule ? formatMoney(rule.min_amount) : '—';
  const quickMax = rule ? formatMoney(rule.quick_daily_max) : '—';
  const zone = rule?.timezone ?? '—';
  const offset = rule ? zoneOffset(rule.timezone) : '';
  const payoutDays = rule?.standard_payout_days ?? 1;
  return (
    <div className="page">
      <NavBar title={<Trans>Liquidity rules</Trans>} />
      <div className="page-body liq-rules">
        <OfflineNote endpoints={[liquidityRule]} />
        <section className="card">
          <h2>
            <Trans>Subscribing</Trans>
          </h2>
          <ul>
            <li>
              <Trans>
                The minimum subscription is <Amount value={minimum} unit="USDT" />. It moves from your available balance
                to your liquidity balance at once.
              </Trans>
            </li>
            <li>
              <Trans>Money subscribed on an interest day starts earning on the next interest day.</Trans>
            </li>
            <li>
              <Trans>You can subscribe more and redeem at any time.</Trans>
            </li>
          </ul>
        </section>

        <section className="card">
          <h2>
            <Trans>Rates</Trans>
          </h2>
          <p>
            <Trans>
              Rates are annual and tiered: each part of your balance earns the rate of the tier it falls in. A new
              ladder can be published for each interest day; a day without one keeps the last one published.
            </Trans>
          </p>
          {rule && rule.ladder.length > 0 && (
            <LadderTable
              ladder={rule.ladder}
              caption={
                <>
                  <Trans>Today's rates</Trans> <CalendarDay day={rule.today} />
                </>
              }
            />
          )}
          {rule?.next_ladder && (
            <LadderTable
              ladder={rule.next_ladder}
              caption={
                <>
                  <Trans>Tomorrow's rates</Trans> <CalendarDay day={addDays(rule.today, 1)} />
                </>
              }
            />
          )}
        </section>

        <section className="card">
          <h2>
            <Trans>Interest</Trans>
          </h2>
          <p>
            <Trans>
              A day's interest is the sum, over the tiers, of the part of your earning balance in the tier × the tier's
              annual rate, divided by 365 and rounded down to 8 decimals.
            </Trans>
          </p>
          {rule && rule.ladder.length > 0 && <Example ladder={rule.ladder} />}
          <p>
            <Trans>
              Interest is added to your liquidity balance at the end of each interest day and earns interest itself from
              the next day: it compounds daily.
            </Trans>
          </p>
        </section>

        <section className="card">
          <h2>
            <Trans>Redeeming</Trans>
          </h2>
          <ul>
            <li>
              <Trans>
                <strong>Quick redemption</strong>: the USDT arrives in your available balance at once. The part redeemed
                earns no interest that day. At most <Amount value={quickMax} unit="USDT" /> per user and interest day.
              </Trans>
            </li>
            <li>
              <Trans>
                <strong>Standard redemption</strong>: no daily limit. It is submitted, waits to be processed from the
                end of its day, and is confirmed when paid into your available balance at the end of{' '}
                <Plural value={payoutDays} one="the next interest day" other="the interest day # days later" />. It
                still earns interest on the day it is made.
              </Trans>
            </li>
          </ul>
        </section>

        <section className="card">
          <h2>
            <Trans>Interest days</Trans>
          </h2>
          <p>
            <Trans>
              An interest day runs from 00:00 to 24:00 in the <bdi>{zone}</bdi> time zone <Ltr>{offset}</Ltr>. Interest
              is computed and credited, and standard redemptions are paid, when it ends.
            </Trans>
          </p>
        </section>
      </div>
    </div>
  );
}

/** The worked example: what 5,000 USDT earns in a day on the given ladder. */
function Example({ ladder }: { ladder: readonly LadderTier[] }) {
  const parts = ladderPortions(EXAMPLE_PRINCIPAL, ladder).filter(([portion]) => portion.gt(0));
  const sum = parts
    .map(([portion, rate]) => `${formatExact(portion.toFixed())} × ${formatRate(rate.toFixed())}`)
    .join(' + ');
  const principal = formatExact(EXAMPLE_PRINCIPAL);
  const interest = formatMoney(dailyInterest(EXAMPLE_PRINCIPAL, ladder));
  return (
    <p className="liq-example">
      <Trans>
        Example: <Amount value={principal} unit="USDT" /> earning today makes (<Ltr>{sum}</Ltr>) ÷ 365 ={' '}
        <Amount value={interest} unit="USDT" />.
      </Trans>
    </p>
  );
}
