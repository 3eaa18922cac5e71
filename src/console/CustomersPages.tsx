// Customer lookup (read only): find by the start of a username, mobile number or e-mail address (a closed account's by
// those it held when it closed, marked closed); one customer's balances, latest ledger entries and orders.
import './console-pages.css';
import { Fragment, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { consoleCustomer, consoleFindCustomers } from '../api-contract/console.ts';
import { assetName, ledgerKindName, type TranslateText } from '../api-contract/ledger-kinds.ts';
import type { ResultOf } from '../api-contract/endpoint.ts';
import { consoleApi, messageOf } from './api.ts';
import { decimalsPerAsset, formatAmount, formatTime } from './format.ts';
import { ErrorLine, Facts, RowsTable, Status, useLoad } from './parts.tsx';
import { ProtectionFacts } from './protection-parts.tsx';
import { withdrawalDecimals } from './customer-history.tsx';
import { sharedMoneyDecimals } from '../api-contract/decimal-values.ts';
import { PhoneDuplicates } from './PhoneDuplicates.tsx';
import { FrozenAccounts } from './FrozenAccounts.tsx';
import { ClosedTag, ClosureFacts, ClosureLines } from './closed-account-parts.tsx';

const SEARCH_KEY = 'coinvest.console.customer-search';
const USDT = 'USDT';

/** The decimals of a balance row's available and frozen amounts: one asset's two amounts line up. */
const balanceDecimals = (row: { available: string; frozen: string }) =>
  sharedMoneyDecimals([row.available, row.frozen]);

export function CustomersPage() {
  const { t } = useLingui();
  const [query, setQuery] = useState(() => sessionStorage.getItem(SEARCH_KEY) ?? '');
  const [found, setFound] = useState<ResultOf<typeof consoleFindCustomers> | null>(null);
  const [error, setError] = useState('');
  const search = async (event: FormEvent) => {
    event.preventDefault();
    sessionStorage.setItem(SEARCH_KEY, query);
    try {
      setFound(await consoleApi(consoleFindCustomers, { query }));
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <section>
      <h1>
        <Trans>Customers</Trans>
      </h1>
      <form className="console-search" onSubmit={(event) => void search(event)}>
        <input
          aria-label={t`Username, mobile number or e-mail`}
          placeholder={t`Username, mobile number or e-mail`}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="submit" className="primary">
          <Trans>Search</Trans>
        </button>
      </form>
      <ErrorLine error={error} />
      {found &&
        (found.length === 0 ? (
          <p className="console-empty">
            <Trans>No customer found.</Trans>
          </p>
        ) : (
          <div className="console-table-wrap">
            <table className="console-table">
              <thead>
                <tr>
                  <th>
                    <Trans>Username</Trans>
                  </th>
                  <th>
                    <Trans>Mobile</Trans>
                  </th>
                  <th>
                    <Trans>E-mail</Trans>
                  </th>
                  <th>
                    <Trans>Certification</Trans>
                  </th>
                  <th>
                    <Trans>Registered</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {found.map((customer) => (
                  // A closed account under what it held when it closed, which is what the operator searched for.
                  <tr key={customer.id} className={customer.closed ? 'console-row-closed' : undefined}>
                    <td>
                      <Link href={`/customer/${customer.id}`}>{customer.closed?.username ?? customer.username}</Link>
                      {customer.closed && (
                        <>
                          <ClosedTag />
                          <ClosureLines closure={customer.closed} />
                        </>
                      )}
                    </td>
                    <td>{(customer.closed ?? customer).phone ?? '—'}</td>
                    <td>{(customer.closed ?? customer).email ?? '—'}</td>
                    <td>
                      <Status value={customer.verification} />
                    </td>
                    <td>{formatTime(customer.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      <FrozenAccounts />
      <PhoneDuplicates />
    </section>
  );
}

export function CustomerPage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const translate: TranslateText = (text) => i18n._(text);
  const [detail, error] = useLoad(() => consoleApi(consoleCustomer, { id }), id);
  if (!detail) return <ErrorLine error={error} />;
  const { customer } = detail;
  // Each list's amounts of one asset are written with one number of decimals (the app's rule), so they line up; the
  // options are staked and paid in USDT, a contract's quantity is in its coin.
  const ledgerDecimals = decimalsPerAsset(detail.ledger.map((row) => [row.asset, row.amount] as const));
  const rechargeDecimals = decimalsPerAsset(detail.recharges.map((row) => [row.currency, row.amount] as const));
  const optionDecimals = decimalsPerAsset(
    detail.options.flatMap((row) => [[USDT, row.amount] as const, [USDT, row.payout] as const]),
  )(USDT);
  const quantityDecimals = decimalsPerAsset(detail.contracts.map((row) => [row.coin, row.quantity] as const));
  return (
    <section>
      <Link href="/customers" className="console-back">
        ← <Trans>Customers</Trans>
      </Link>
      <h1>
        {customer.closed?.username ?? customer.username}
        {customer.closed && <ClosedTag />}
      </h1>
      {customer.closed && <ClosureFacts closure={customer.closed} />}
      {/* Side by side where both fit whole; the balances go under the facts where their figures need the width. */}
      <div className="console-customer-head">
        <Facts
          rows={[
            [t`Customer number`, `#${customer.id}`],
            [t`Nickname`, customer.nickname],
            // A closed account's row holds none: what it held is in the closure's facts above.
            ...(customer.closed
              ? []
              : ([
                  [t`Mobile`, customer.phone ?? ''],
                  [t`E-mail`, customer.email ?? ''],
                ] as [string, string][])),
            [t`VIP level`, String(customer.level)],
            [
              t`Certification`,
              <Fragment key="certification">
                <Status value={customer.verification} /> / <Status value={customer.advanced_verification} />
              </Fragment>,
            ],
            [t`Registered`, formatTime(customer.created_at)],
          ]}
        />
        <div className="console-customer-balances">
          <h2>
            <Trans>Balances</Trans>
          </h2>
          <Table
            head={[t`Asset`, t`Available`, t`Frozen`]}
            rows={detail.balances.map((row) => [
              assetName(row.asset, translate),
              formatAmount(row.available, '', balanceDecimals(row)),
              formatAmount(row.frozen, '', balanceDecimals(row)),
            ])}
            label="balances"
            className="console-table console-figures"
          />
        </div>
      </div>
      <ProtectionFacts protection={detail.protection} />
      <h2>
        <Trans>Ledger</Trans>
      </h2>
      <Table
        head={[t`Time`, t`Asset`, t`Amount`, t`Kind`, t`Reference`]}
        rows={detail.ledger.map((row) => [
          formatTime(row.created_at),
          `${assetName(row.asset, translate)} (${row.bucket === 'frozen' ? t`Frozen` : t`Available`})`,
          formatAmount(row.amount, '', ledgerDecimals(row.asset)),
          <span key="kind" title={row.kind}>
            {ledgerKindName(row.kind, translate)}
          </span>,
          row.reference,
        ])}
        label="ledger"
      />
      <h2>
        <Trans>Recharges</Trans>
      </h2>
      <Table
        head={[t`Time`, t`Order`, t`Amount`, t`Status`]}
        rows={detail.recharges.map((row) => [
          formatTime(row.created_at),
          row.order_no,
          formatAmount(row.amount, row.currency, rechargeDecimals(row.currency)),
          <Status key="status" value={row.status} />,
        ])}
        label="recharges"
      />
      <h2>
        <Trans>Withdrawals</Trans>
      </h2>
      <Table
        head={[t`Time`, t`Order`, t`Amount`, t`Status`]}
        rows={detail.withdrawals.map((row) => [
          formatTime(row.created_at),
          row.order_no,
          formatAmount(row.amount, row.asset, withdrawalDecimals(detail.withdrawals, row.asset)),
          <Status key="status" value={row.status} />,
        ])}
        label="withdrawals"
      />
      <h2>
        <Trans>Option orders</Trans>
      </h2>
      <Table
        head={[t`Time`, t`Coin`, t`Direction`, t`Amount`, t`Outcome`, t`Payout`]}
        rows={detail.options.map((row) => [
          formatTime(row.created_at),
          row.coin,
          row.direction,
          formatAmount(row.amount, '', optionDecimals),
          row.outcome ?? row.status,
          formatAmount(row.payout, '', optionDecimals),
        ])}
        label="options"
      />
      <h2>
        <Trans>Contract orders</Trans>
      </h2>
      <Table
        head={[t`Time`, t`Coin`, t`Side`, t`Type`, t`Quantity`, t`Status`]}
        rows={detail.contracts.map((row) => [
          formatTime(row.created_at),
          row.coin,
          row.side,
          // A small balance's conversion is a market sell the customer asked for as a conversion, not one placed.
          row.dust_conversion ? `${row.type} · ${t`Small balance conversion`}` : row.type,
          formatAmount(row.quantity, '', quantityDecimals(row.coin)),
          row.status,
        ])}
        label="contracts"
      />
    </section>
  );
}

function Table({
  head,
  rows,
  label,
  className,
}: {
  head: string[];
  rows: React.ReactNode[][];
  label: string;
  /** The table's classes (RowsTable's): `console-figures` right-aligns every column after the first. */
  className?: string;
}) {
  const table = <RowsTable head={head} rows={rows} label={label} className={className} empty={<Trans>None.</Trans>} />;
  // Framed and scrolling sideways when there is a table; "None." stands on its own.
  return rows.length ? <div className="console-table-wrap">{table}</div> : table;
}
