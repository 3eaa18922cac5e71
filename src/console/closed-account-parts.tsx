// A closed account as the console shows it: said closed in words (colour is never the only sign), the day it closed
// in UTC, the username, mobile number and e-mail address it held until then, and what the closure ended with it.
import { Trans, useLingui } from '@lingui/react/macro';
import type { ConsoleClosure } from '../api-contract/console.ts';
import { assetName, ledgerKindName, type TranslateText } from '../api-contract/ledger-kinds.ts';
import { formatAmount, formatTime, formatUtcDay } from './format.ts';
import { Facts } from './parts.tsx';
// Its tag's and lines' styles, wherever a closed account shows (the customer pages, the review queues).
import './console-pages.css';

/** "Closed", a tag beside the account's name. */
export function ClosedTag() {
  return (
    <span className="console-closed-tag">
      <Trans context="account">Closed</Trans>
    </span>
  );
}

/** "Closed on May 1, 2026 (UTC)", its full time with the operator's offset on hover. */
function ClosedOn({ closure }: { closure: ConsoleClosure }) {
  const day = formatUtcDay(closure.closed_at);
  return (
    <span title={formatTime(closure.closed_at)}>
      <Trans>Closed on {day} (UTC)</Trans>
    </span>
  );
}

/** What the closure ended, "0.77 USDT, 12.00 Points", or null when it ended nothing. */
function useEnded(closure: ConsoleClosure): string | null {
  const { i18n } = useLingui();
  const translate: TranslateText = (text) => i18n._(text);
  if (!closure.ended.length) return null;
  return closure.ended.map((entry) => formatAmount(entry.amount, assetName(entry.asset, translate))).join(', ');
}

/** Under a listed customer: the day the account closed and what its closure ended, on one line each. */
export function ClosureLines({ closure }: { closure: ConsoleClosure }) {
  const ended = useEnded(closure);
  return (
    <div className="console-closure-lines console-muted">
      <div>
        <ClosedOn closure={closure} />
      </div>
      <div>{ended ? <Trans>Ended with the closure: {ended}</Trans> : <Trans>The closure ended no balance.</Trans>}</div>
    </div>
  );
}

/** On the customer's page: the closure, what the account held until then, each ledger entry that ended a balance. */
export function ClosureFacts({ closure }: { closure: ConsoleClosure }) {
  const { t, i18n } = useLingui();
  const translate: TranslateText = (text) => i18n._(text);
  return (
    <section className="console-closure" aria-labelledby="console-closure-title" data-testid="customer-closure">
      <h2 id="console-closure-title">
        <Trans>Account closed</Trans>
      </h2>
      <p>
        <Trans>
          This account is closed: it signs in no more, and its records below are kept read only. It held these until
          then:
        </Trans>
      </p>
      <Facts
        rows={[
          [t({ message: 'Closed', context: 'account' }), <ClosedOn key="closed" closure={closure} />],
          [t`Username`, closure.username],
          [t`Mobile`, closure.phone ?? ''],
          [t`E-mail`, closure.email ?? ''],
          [
            t`Ended with the closure`,
            closure.ended.length ? (
              <ul key="ended" className="console-closure-ended">
                {closure.ended.map((entry) => (
                  <li key={`${entry.kind}:${entry.asset}`}>
                    {formatAmount(entry.amount, assetName(entry.asset, translate))} —{' '}
                    {ledgerKindName(entry.kind, translate)}
                  </li>
                ))}
              </ul>
            ) : (
              t`No balance`
            ),
          ],
        ]}
      />
    </section>
  );
}
