// The customers page's list of the accounts their customers froze (api-contract/console-freeze.ts), read only: an
// operator sees who is frozen and whether an unfreezing waits, and cannot unfreeze one (only the customer can).
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { consoleFrozenAccounts } from '../api-contract/console-freeze.ts';
import { consoleApi } from './api.ts';
import { formatTime } from './format.ts';
import { ErrorLine, RowsTable, useLoad } from './parts.tsx';

/** The frozen accounts, the most recently frozen first, each with the unfreezing waiting if any. */
export function FrozenAccounts() {
  const { t } = useLingui();
  const [listed, error] = useLoad(() => consoleApi(consoleFrozenAccounts, {}), 'frozen');
  if (!listed) return <ErrorLine error={error} />;
  return (
    <section data-testid="frozen-accounts">
      <h2>
        <Trans>Frozen accounts</Trans>
      </h2>
      <p className="console-note">
        <Trans>
          Accounts their customers froze: no order, withdrawal or payee change is accepted and their withdrawals in
          review are held (they can be rejected, not paid). Only the customer can unfreeze, which takes 24 hours.
        </Trans>
      </p>
      <div className="console-table-wrap">
        <RowsTable
          head={[t`Username`, t`Frozen since`, t`Unfreezes at`]}
          rows={listed.map((row) => [
            <Link key="user" href={`/customer/${row.user_id}`}>
              {row.username}
            </Link>,
            formatTime(row.frozen_since),
            row.unfreeze_at ? formatTime(row.unfreeze_at) : '—',
          ])}
          empty={<Trans>No account is frozen.</Trans>}
          label="frozen-accounts"
        />
      </div>
    </section>
  );
}
