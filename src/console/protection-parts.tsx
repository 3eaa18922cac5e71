// A customer's own limits and time-out on the customer page: read only. They are the customer's to set in the app
// (a tightening at once, a loosening 24 hours later); no operator changes them, nor ends a time-out early.
import { Trans, useLingui } from '@lingui/react/macro';
import type { consoleCustomer } from '../api-contract/console.ts';
import type { ResultOf } from '../api-contract/endpoint.ts';
import type { ProtectionSetting } from '../api-contract/protection.ts';
import { formatAmount, formatTime } from './format.ts';
import { Facts, RowsTable } from './parts.tsx';

type CustomerProtection = ResultOf<typeof consoleCustomer>['protection'];

export function ProtectionFacts({ protection }: { protection: CustomerProtection }) {
  const { t } = useLingui();
  const names: Record<ProtectionSetting, string> = {
    stake_day: t`Most staked in 24 hours`,
    stake_week: t`Most staked in 7 days`,
    stake_month: t`Most staked in 30 days`,
    loss_day: t`Most lost in 24 hours`,
    loss_week: t`Most lost in 7 days`,
    loss_month: t`Most lost in 30 days`,
    max_open_options: t`Most open options at once`,
    reminder_minutes: t`Reminder after`,
    timeout_until: t`Time-out until`,
  };
  const none = t`None`;
  const shown = (setting: ProtectionSetting, value: string) => {
    if (value === '') return none;
    if (setting === 'timeout_until') return formatTime(value);
    if (setting === 'reminder_minutes') return t`${value} minutes`;
    if (setting === 'max_open_options') return value;
    return formatAmount(value, 'USDT');
  };
  const settings = Object.keys(names) as ProtectionSetting[];
  // Framed and scrolling sideways when there is a row, like the page's other tables.
  const pending = (
    <RowsTable
      head={[t`Setting`, t`New value`, t`Takes effect`]}
      rows={protection.pending.map((row) => [
        names[row.setting],
        shown(row.setting, row.value),
        formatTime(row.effective_at),
      ])}
      label="protection-pending"
      empty={<Trans>None.</Trans>}
    />
  );
  return (
    <div data-testid="customer-protection">
      <h2>
        <Trans>Own limits and time-out</Trans>
      </h2>
      <p className="console-muted">
        <Trans>
          Set by the customer in the app. They cannot be changed here, and a time-out cannot be ended early.
        </Trans>
      </p>
      <Facts rows={settings.map((setting) => [names[setting], shown(setting, protection.limits[setting])])} />
      <h2>
        <Trans>Changes waiting 24 hours</Trans>
      </h2>
      {protection.pending.length ? <div className="console-table-wrap">{pending}</div> : pending}
    </div>
  );
}
