// The customers page's list of accounts whose mobile number is not in E.164 (several accounts on one handset, or a
// stored number that is no mobile number): each with what it holds, to settle with the customers. Nothing is merged.
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { consolePhoneDuplicates } from '../api-contract/console.ts';
import { consoleApi } from './api.ts';
import { formatAmount, formatTime } from './format.ts';
import { ErrorLine, RowsTable, useLoad } from './parts.tsx';

export function PhoneDuplicates() {
  const { t } = useLingui();
  const [listed, error] = useLoad(() => consoleApi(consolePhoneDuplicates, {}), 'phones');
  if (!listed) return <ErrorLine error={error} />;
  return (
    <section data-testid="phone-duplicates">
      <h2>
        <Trans>Mobile numbers to settle</Trans>
      </h2>
      <p className="console-note">
        <Trans>
          Accounts holding one handset under different spellings, or a stored number that is no mobile number. They keep
          their number as stored and are never merged: settle with each customer which number each account keeps.
        </Trans>
      </p>
      <div className="console-table-wrap">
        <RowsTable
          head={[t`Handset`, t`Username`, t`Stored as`, t`Holds`, t`Found`]}
          rows={listed.map((row) => [
            row.phone ? (
              <bdi key="phone" dir="ltr">
                {row.phone}
              </bdi>
            ) : (
              t`Not a mobile number`
            ),
            <Link key="user" href={`/customer/${row.user_id}`}>
              {row.username}
            </Link>,
            <bdi key="stored" dir="ltr">
              {row.stored_phone}
            </bdi>,
            row.holds.map(({ asset, amount }) => formatAmount(amount, asset)).join(', ') || t`Nothing`,
            formatTime(row.found_at),
          ])}
          empty={<Trans>Every stored mobile number is in E.164.</Trans>}
          label="phone-duplicates"
        />
      </div>
    </section>
  );
}
