// Pieces the liquidity screens share: loading their figures, a figure that may be unknown ("—"),
// an interest day, the ladder as a table, a record's status and the two redemption modes.
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ladderPortions,
  type LiquidityBalance,
  type LadderTier,
  type LiquidityStatus,
  type RedeemMode,
} from '../../api-contract/liquidity.ts';
import { errorText } from '../../lib/api.ts';
import { balanceDecimalsOf, USDT } from '../../lib/balances.ts';
import { formatMoney } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { Money } from '../../ui/Money.tsx';
import { Ltr, StatusBadge, type Tone } from '../../ui/records.tsx';
import { formatRate, tierRanges, type TierRange } from './liquidity-format.ts';
import './liquidity.css';

/** Loads a page's figures when it opens; the first failure is told once (the others say the same). */
export function useFigures(...loaders: (() => Promise<void>)[]): void {
  useEffect(() => {
    void Promise.allSettled(loaders.map((load) => load())).then((results) => {
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) toast(errorText(failed.reason));
    });
    // The loaders are module functions: once per visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, []);
}

/**
 * A USDT figure, or "—" while the server has not said it (never an invented 0.00); `balance`: the USDT balance, read as
 * every page reads it (balanceDecimalsOf). The liquidity figures (principal, interest, redeemable) stay exact, so the
 * principal and the interest it earned add up on the card.
 */
export function Figure({
  value,
  signed,
  balance,
  className,
}: {
  value: string | null | undefined;
  signed?: boolean;
  balance?: boolean;
  className?: string;
}) {
  if (value === null || value === undefined) return <span className={`liq-unknown ${className ?? ''}`}>—</span>;
  const decimals = balance ? balanceDecimalsOf(value, USDT) : undefined;
  return <Money amount={value} asset="USDT" signed={signed} className={className} decimals={decimals} />;
}

/** An annual rate as a percentage, kept left to right; "—" while unknown. */
export function Rate({ rate }: { rate: string | null | undefined }) {
  return <Ltr className="liq-rate">{rate === null || rate === undefined ? '—' : formatRate(rate)}</Ltr>;
}

interface LadderProps {
  ladder: readonly LadderTier[];
  /** The principal to hold against the tiers: the tiers it reaches are highlighted, with the part in each. */
  principal?: string | null;
  caption: ReactNode;
}

/** The marginal ladder: each tier's range and annual rate. */
export function LadderTable({ ladder, principal, caption }: LadderProps) {
  const { t } = useLingui();
  const ranges = tierRanges(ladder);
  const portions = principal ? ladderPortions(principal, ladder) : [];
  return (
    <table className="liq-ladder">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Amount (USDT)</Trans>
          </th>
          <th scope="col">
            <Trans>Annual rate</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {ladder.map((tier, index) => {
          const portion = portions[index]?.[0];
          const reached = portion !== undefined && portion.gt(0);
          const held = reached ? formatMoney(portion.toFixed(8)) : '';
          return (
            <tr
              key={index}
              className={reached ? 'reached' : undefined}
              title={reached ? t`Your balance reaches this tier` : undefined}
            >
              <td>
                <TierRangeText range={ranges[index]!} />
                {reached && (
                  <small className="liq-held">
                    <Trans>
                      Yours: <Ltr>{held}</Ltr>
                    </Trans>
                  </small>
                )}
              </td>
              <td>
                <Rate rate={tier.rate} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * A tier's range in the reader's language: "0 – 1,000", and the top tier, which has no upper bound, "10,000 and
 * above". Each amount is kept left to right on its own and the words around them follow the language, so in Arabic
 * the range reads from its lower bound on the right.
 */
function TierRangeText({ range }: { range: TierRange }) {
  const { from, to } = range;
  return (
    <span className="liq-tier-range">
      {to === null ? (
        <Trans>
          <Ltr>{from}</Ltr> and above
        </Trans>
      ) : (
        <Trans>
          <Ltr>{from}</Ltr> – <Ltr>{to}</Ltr>
        </Trans>
      )}
    </span>
  );
}

const STATUS_TONE: Record<LiquidityStatus, Tone> = {
  done: 'good',
  submitted: 'wait',
  waiting: 'wait',
  confirmed: 'good',
};

/** A standard redemption is submitted, then waits to be processed, then is confirmed. */
export function LiquidityStatusBadge({ status }: { status: LiquidityStatus }) {
  const label = {
    done: <Trans>Done</Trans>,
    submitted: <Trans>Submitted</Trans>,
    waiting: <Trans>Waiting to be processed</Trans>,
    confirmed: <Trans>Confirmed</Trans>,
  }[status];
  return <StatusBadge tone={STATUS_TONE[status]}>{label}</StatusBadge>;
}

export function ModeName({ mode }: { mode: RedeemMode }) {
  return mode === 'quick' ? <Trans>Quick redemption</Trans> : <Trans>Standard redemption</Trans>;
}

/** The liquidity balance and what it earns; every figure the server has not said reads "—". */
export function BalanceCard({ balance }: { balance: Readonly<LiquidityBalance> | null }) {
  return (
    <section className="card liq-balance" aria-labelledby="liq-balance-label">
      <div className="liq-balance-head">
        <span id="liq-balance-label" className="liq-balance-label">
          <Trans>Liquidity balance</Trans>
        </span>
        <span className="liq-balance-rate">
          <Trans>
            Your annual rate <Rate rate={balance?.effective_rate} />
          </Trans>
        </span>
      </div>
      <Figure value={balance?.principal} className="liq-balance-amount" />
      <dl className="liq-balance-grid">
        <div>
          <dt>
            <Trans>Earning today</Trans>
          </dt>
          <dd>
            <Figure value={balance?.earning_today} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Redeeming</Trans>
          </dt>
          <dd>
            <Figure value={balance?.redeeming} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Yesterday's interest</Trans>
          </dt>
          <dd>
            <Figure value={balance?.yesterday_interest} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Total interest</Trans>
          </dt>
          <dd>
            <Figure value={balance?.total_interest} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
