// The customer beside an order under review, shared by the withdrawal and recharge pages: totals in
// USDT (deposits at what they credited, a baht deposit at the rate recorded when it was reported),
// the latest deposits and withdrawals with their USDT value, and the USDT balance after each ledger
// entry of the last 30 days as a sparkline and a short list. Amounts stay decimal strings; only the
// sparkline's pixel positions are numbers.
import { Fragment } from 'react';
import Big from 'big.js';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { BALANCE_HISTORY_DAYS, type BalanceHistory, type CustomerHistory } from '../api-contract/console.ts';
import { ledgerKindName } from '../api-contract/ledger-kinds.ts';
import { sharedMoneyDecimals } from '../api-contract/decimal-values.ts';
import type { InferOutput } from 'valibot';
import { decimalsPerAsset, formatAmount, formatNumber, formatTime } from './format.ts';
import { Facts, RowsTable, Status } from './parts.tsx';
import { ClosedTag } from './closed-account-parts.tsx';
import './console-pages.css';

/**
 * The decimals every withdrawal amount of `asset` in a list is written with: the app's sharedMoneyDecimals over their
 * amounts and fees, as the customer's record list and the withdrawal's own page count them, so a list's amounts line
 * up and read as on the withdrawal's page.
 */
export function withdrawalDecimals(
  withdrawals: readonly { asset: string; amount: string; fee: string }[],
  asset: string,
): number {
  return sharedMoneyDecimals(withdrawals.filter((row) => row.asset === asset).flatMap((row) => [row.amount, row.fee]));
}

/** How many of the latest balance entries the list shows (the sparkline shows them all). */
const LISTED_ENTRIES = 8;
const USDT = 'USDT';

/**
 * The customer's page, named by their username and then their id in brackets, a closed account's by the username
 * it held and tagged "Closed": `of` is the record under review (a recharge, a withdrawal, a certification).
 */
export function CustomerLink({ of }: { of: { user_id: number; username: string; closed: boolean } }) {
  return (
    <>
      <Link href={`/customer/${of.user_id}`}>
        <bdi>{of.username}</bdi> (#{of.user_id})
      </Link>
      {of.closed && <ClosedTag />}
    </>
  );
}

export function CustomerHistoryPanel({ history }: { history: InferOutput<typeof CustomerHistory> }) {
  const { t } = useLingui();
  const { totals, deposits, withdrawals, balance_history: balance } = history;
  const sums = [
    totals.deposits_credited,
    totals.deposits_waiting,
    totals.withdrawals_paid,
    totals.withdrawals_waiting,
    totals.net,
  ];
  // The totals stand together, as do a deposit's amount and the USDT values beside it: one asset's amounts line up.
  const totalDecimals = sharedMoneyDecimals(sums);
  const depositDecimals = decimalsPerAsset(
    deposits.flatMap((row) => [[row.currency, row.amount] as const, [USDT, row.usdt_value] as const]),
  );
  return (
    <div className="console-history" data-testid="customer-history">
      <h2>
        <Trans>Totals in USDT</Trans>
      </h2>
      <div data-testid="usdt-totals">
        <Facts
          rows={[
            [t`Deposits credited`, formatAmount(totals.deposits_credited, USDT, totalDecimals)],
            [t`Deposits waiting`, formatAmount(totals.deposits_waiting, USDT, totalDecimals)],
            [t`Withdrawals paid out`, formatAmount(totals.withdrawals_paid, USDT, totalDecimals)],
            [t`Withdrawals waiting`, formatAmount(totals.withdrawals_waiting, USDT, totalDecimals)],
            [t`Credited less paid out`, formatAmount(totals.net, USDT, totalDecimals)],
          ]}
        />
      </div>
      {totals.not_in_usdt > 0 && (
        <p className="console-muted">
          <Trans>Orders in other assets, not in these totals: {totals.not_in_usdt}</Trans>
        </p>
      )}
      <h2>
        <Trans>Deposits</Trans>
      </h2>
      <RowsTable
        className="console-table console-mini"
        label="deposits"
        rows={deposits.map((row) => [
          formatTime(row.created_at),
          <span key="amount" className="console-nowrap">
            {formatAmount(row.amount, row.currency, depositDecimals(row.currency))}
          </span>,
          row.usdt_value === null
            ? '—'
            : row.currency === USDT
              ? formatAmount(row.usdt_value, USDT, depositDecimals(USDT))
              : t`${formatAmount(row.usdt_value, USDT, depositDecimals(USDT))} at the rate of ${formatNumber(row.rate)}`,
          <Status key="status" value={row.status} />,
        ])}
        empty={<Trans>No deposits.</Trans>}
      />
      <h2>
        <Trans>Withdrawals</Trans>
      </h2>
      <RowsTable
        className="console-table console-mini"
        label="withdrawals"
        rows={withdrawals.map((row) => [
          formatTime(row.created_at),
          <span key="amount" className="console-nowrap">
            {formatAmount(row.amount, row.asset, withdrawalDecimals(withdrawals, row.asset))}
          </span>,
          <Status key="status" value={row.status} />,
        ])}
        empty={<Trans>No withdrawals.</Trans>}
      />
      <h2>
        <Trans>USDT balance, last {BALANCE_HISTORY_DAYS} days</Trans>
      </h2>
      <BalanceHistoryView balance={balance} />
    </div>
  );
}

function BalanceHistoryView({ balance }: { balance: BalanceHistory }) {
  const { t, i18n } = useLingui();
  if (balance.points.length === 0)
    return (
      <p className="console-empty">
        <Trans>
          No USDT entries in these days. Balance:{' '}
          {formatAmount(new Big(balance.opening.available).plus(balance.opening.frozen).toString(), USDT)}
        </Trans>
      </p>
    );
  const kindName = (kind: string) => ledgerKindName(kind, (text) => i18n._(text));
  const latest = balance.points.slice(-LISTED_ENTRIES).reverse();
  // Every change and balance the list shows is USDT: one number of decimals for them all.
  const decimals = sharedMoneyDecimals(
    latest.flatMap((point) => [point.available_change, point.frozen_change, point.total]),
  );
  return (
    <>
      <Sparkline balance={balance} label={t`USDT balance after each entry`} />
      {balance.capped && (
        <p className="console-muted">
          <Trans>Only the latest {balance.points.length} entries are shown.</Trans>
        </p>
      )}
      <RowsTable
        className="console-table console-mini"
        label="balance-history"
        head={[t`Time`, t`Entry`, t({ message: 'Change', context: 'amount' }), t`Balance after`]}
        rows={latest.map((point) => [
          formatTime(point.at),
          kindName(point.kind),
          // Each move whole on its line, the two of a freeze apart: a phone's narrow column breaks between them.
          <span key="amount">
            {changes(point).map(({ amount, frozen }, index) => (
              <Fragment key={index}>
                {index > 0 && ' · '}
                <span className="console-nowrap">
                  {frozen ? `${signed(amount, decimals)} (${t`frozen`})` : signed(amount, decimals)}
                </span>
              </Fragment>
            ))}
          </span>,
          <span key="total" className="console-nowrap">
            {formatAmount(point.total, USDT, decimals)}
          </span>,
        ])}
        empty={null}
      />
    </>
  );
}

/** A posting's change in each bucket it moved, available first (a freeze moves both: −X available, +X frozen). */
function changes(point: BalanceHistory['points'][number]): { amount: string; frozen: boolean }[] {
  return [
    { amount: point.available_change, frozen: false },
    { amount: point.frozen_change, frozen: true },
  ].filter(({ amount }) => !new Big(amount).eq(0));
}

/** An amount with its sign written, + for money in, with `decimals` decimals. */
function signed(amount: string, decimals: number): string {
  return amount.startsWith('-') ? formatAmount(amount, '', decimals) : `+${formatAmount(amount, '', decimals)}`;
}

const WIDTH = 300;
const HEIGHT = 56;

/** The total (available + frozen) after each entry, the opening balance first. */
function Sparkline({ balance, label }: { balance: BalanceHistory; label: string }) {
  const values = [
    new Big(balance.opening.available).plus(balance.opening.frozen),
    ...balance.points.map((point) => new Big(point.total)),
  ];
  const high = values.reduce((max, value) => (value.gt(max) ? value : max), values[0]!);
  const low = values.reduce((min, value) => (value.lt(min) ? value : min), values[0]!);
  const span = high.minus(low);
  const step = WIDTH / Math.max(1, values.length - 1);
  // Pixel positions only: the amounts themselves are never turned into floats.
  const y = (value: Big) => (span.eq(0) ? HEIGHT / 2 : 2 + (HEIGHT - 4) * (1 - value.minus(low).div(span).toNumber()));
  const line = values.map((value, index) => `${(index * step).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  const decimals = sharedMoneyDecimals([low.toString(), high.toString()]);
  return (
    <figure className="console-sparkline">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} preserveAspectRatio="none">
        <polyline points={line} fill="none" stroke="currentColor" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="console-muted">
        <Trans>
          Low {formatAmount(low.toString(), USDT, decimals)} · high {formatAmount(high.toString(), USDT, decimals)}
        </Trans>
      </figcaption>
    </figure>
  );
}
