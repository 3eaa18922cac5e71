// Account details (§2 /pages/accountDetails/accountDetails): every move of the available balance,
// filtered by what caused it (all, recharge, withdrawal, options, points, other), newest first.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { ACCOUNT_FILTERS, accountEntries, type AccountEntry, type AccountFilter } from '../../contract/funds.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { FilterChips, ListView } from '../../ui/records.tsx';
import { FILTER_LABELS, accountDetails, kindLabel } from './account-store.ts';

// A failed load shows in the list itself (with a retry), so the promise is not reported again.
const reload = (filter: AccountFilter) => void accountDetails.load(filter).catch(() => undefined);

export default function AccountDetailsPage() {
  const { t, i18n } = useLingui();
  const { filter, lists } = useSnapshot(accountDetails.state);
  const list = lists[filter];

  useEffect(() => reload(accountDetails.state.filter), []);

  return (
    <div className="page">
      <NavBar title={<Trans>Account details</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[accountEntries]} />
        <FilterChips
          label={t`Show`}
          value={filter}
          onChange={(next) => void accountDetails.choose(next).catch(() => undefined)}
          options={ACCOUNT_FILTERS.map((value) => ({ value, label: i18n._(FILTER_LABELS[value]) }))}
        />
        <ListView list={list} empty={<Trans>No entries yet</Trans>} retry={() => reload(filter)} more={() => accountDetails.load(filter, { more: true })}>
          {list.lists.map((entry) => (
            <EntryRow key={entry.id} entry={entry} />
          ))}
        </ListView>
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
      <Money amount={entry.amount} asset={entry.asset} fiat={fiat} signed className={credit ? 'up' : 'down'} />
    </li>
  );
}
