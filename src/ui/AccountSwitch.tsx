// Real or Practice: the switch of the trading screens and Mine, and the marks that keep virtual money from being
// taken for real — the violet strip with the practice balance under the switch, and the "Practice" tag of an order.
import { useEffect, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatBalance, USDT } from '../lib/balances.ts';
import { chooseAccount, loadPractice, practice, practiceUsdt, useAccount } from '../lib/practice.ts';
import './practice.css';

/** The switch; while Practice is on, the strip below it says so and shows the practice USDT. */
export function AccountSwitch() {
  const { t } = useLingui();
  const account = useAccount();
  const practising = account === 'practice';
  const usdt = practiceUsdt(useSnapshot(practice).account);
  const balance = usdt === null ? '—' : formatBalance(usdt, USDT);
  useEffect(() => {
    if (practising) void loadPractice().catch(() => undefined);
  }, [practising]);
  return (
    <div className={practising ? 'account-bar practising' : 'account-bar'}>
      <div className="account-switch" role="radiogroup" aria-label={t`Account`}>
        <button type="button" role="radio" aria-checked={!practising} onClick={() => chooseAccount('real')}>
          <Trans>Real</Trans>
        </button>
        <button type="button" role="radio" aria-checked={practising} onClick={() => chooseAccount('practice')}>
          <Trans>Practice</Trans>
        </button>
      </div>
      {practising && (
        <p className="account-note" role="status">
          <Trans>
            Virtual money:{' '}
            <span className="account-amount" dir="ltr">
              <strong>{balance}</strong> USDT
            </span>
          </Trans>
        </p>
      )}
    </div>
  );
}

/** A trading page's title, marked "Practice" while the practice account is traded with (the bar stays in view). */
export function PracticeTitle({ children }: { children: ReactNode }) {
  const practising = useAccount() === 'practice';
  return (
    <>
      {children}
      {practising && <PracticeTag />}
    </>
  );
}

/** The mark of an order traded with the practice account. */
export function PracticeTag() {
  return (
    <span className="practice-tag">
      <Trans>Practice</Trans>
    </span>
  );
}
