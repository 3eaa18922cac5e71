// Account details (/pages/accountDetails/accountDetails): every move of the available balance,
// filtered by what caused it (all, recharge, withdrawal, options, points, other), newest first.
import { Suspense, lazy, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ACCOUNT_FILTERS, accountEntries, type AccountEntry } from '../../api-contract/funds.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilteredRecords } from '../../ui/records.tsx';
import { FILTER_LABELS, accountDetails, assetLabel, kindLabel } from './account-details-store.ts';
import './funds.css';

// The statement form and its CSV writer arrive on the first tap: most visits only read the list.
const StatementPanel = lazy(() => import('./StatementPanel.tsx'));

export default function AccountDetailsPage() {
  const { t, i18n } = useLingui();
  const [statementOpen, setStatementOpen] = useState(false);

  return (
    <div className="page">
      <NavBar title={<Trans>Account details</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[accountEntries]} />
        {statementOpen ? (
          <Suspense fallback={null}>
            <StatementPanel />
          </Suspense>
        ) : (
          <button type="button" className="btn secondary" onClick={() => setStatementOpen(true)}>
            <Trans>Download a statement</Trans>
          </button>
        )}
        <FilteredRecords
          store={accountDetails}
          look={{ chips: t`Show` }}
          filters={ACCOUNT_FILTERS.map((value) => ({ value, label: i18n._(FILTER_LABELS[value]) }))}
          empty={<Trans>No entries yet</Trans>}
          row={(entry) => <EntryRow entry={entry} />}
        />
      </div>
    </div>
  );
}

function EntryRow({ entry }: { entry: Readonly<AccountEntry> }) {
  const fiat = useDisplayCurrency();
  const credit = !entry.amount.startsWith('-');
  return (
    <li className="funds-entry">
      <span className="funds-entry-main">
        <bdi className="record-row-title">{kindLabel(entry.kind)}</bdi>
        <time className="muted" dateTime={entry.created_at} dir="ltr">
          {formatDateTime(entry.created_at)}
        </time>
      </span>
      <Money
        amount={entry.amount}
        asset={entry.asset}
        assetName={assetLabel(entry.asset)}
        fiat={fiat}
        signed
        className={credit ? 'up' : 'down'}
      />
    </li>
  );
}
