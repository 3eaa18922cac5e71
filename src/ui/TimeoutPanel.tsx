// The time-out panel (ui/TimeoutGate.tsx shows it in place of the order buttons): until when the time-out lasts and
// in how many days it ends, that no order is accepted until then while withdrawals remain possible, and the way to
// the limits page. Its texts are the protection area's (features/protection/timeout-texts.ts), loaded with it.
import { i18n } from '@lingui/core';
import { Link } from 'wouter';
import { ROUTES } from '../api-contract/routes.ts';
import { formatDate } from '../lib/format.ts';
import './timeout-panel.css';

/** The ids of its texts (declared in features/protection/timeout-texts.ts). */
export const TIMEOUT_TEXT = {
  until: 'timeout.until',
  orders: 'timeout.orders',
  settings: 'timeout.settings',
} as const;

const DAY_MS = 86_400_000;

/** Days until `endsAt` (this device's clock), to the nearest whole day, and at least one. */
export const daysLeft = (endsAt: number, now = Date.now()) => Math.max(1, Math.round((endsAt - now) / DAY_MS));

/** The time-out ends at `until` (the server's moment), at `endsAt` on this device's clock. */
export default function TimeoutPanel({ until, endsAt }: { until: string; endsAt: number }) {
  const date = formatDate('dateClock', new Date(until));
  return (
    <div className="timeout-panel" role="status">
      <p className="timeout-panel-until">{i18n._(TIMEOUT_TEXT.until, { date, days: daysLeft(endsAt) })}</p>
      <p className="timeout-panel-orders">{i18n._(TIMEOUT_TEXT.orders)}</p>
      <Link href={ROUTES.protection} className="timeout-panel-link">
        {i18n._(TIMEOUT_TEXT.settings)}
      </Link>
    </div>
  );
}
