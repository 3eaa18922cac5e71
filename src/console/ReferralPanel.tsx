// The referral reward (a tab of RewardsPage.tsx): the USDT an inviter is credited once per invited friend whose primary
// certification is verified; "0" turns it off. The server's rule (domain/referrals.ts) accepts or refuses the amount,
// and a change pays friends verified from then on: what was paid stays paid.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { consoleReferralReward, consoleSetReferralReward } from '../api-contract/console-rewards.ts';
import { consoleApi } from './api.ts';
import { sentNumber } from './format.ts';
import { ErrorLine, useLoad } from './parts.tsx';
import { OutcomeLine, plain, useSave } from './reward-parts.tsx';

export function ReferralPanel() {
  const [loaded, error] = useLoad(() => consoleApi(consoleReferralReward), 'referral');
  if (!loaded) return <ErrorLine error={error} />;
  return <ReferralForm first={plain(loaded.amount)} asset={loaded.asset} />;
}

function ReferralForm({ first, asset }: { first: string; asset: string }) {
  const { t } = useLingui();
  const [saved, setSaved] = useState(first);
  const [amount, setAmount] = useState(first);
  const { busy, outcome, run, clear } = useSave();
  const save = () =>
    run(async () => {
      const now = await consoleApi(consoleSetReferralReward, { amount: sentNumber(amount) });
      setSaved(plain(now.amount));
      setAmount(plain(now.amount));
    });
  return (
    <div className="console-panel">
      <p className="console-muted">
        <Trans>
          Credited to the inviter once for each invited friend, when that friend&apos;s primary certification is
          verified. 0 turns the reward off. A change pays friends verified from then on.
        </Trans>
      </p>
      <label>
        {t`Referral reward (${asset})`}
        <input
          inputMode="decimal"
          value={amount}
          className={amount !== saved ? 'console-changed' : ''}
          onChange={(event) => {
            setAmount(event.target.value);
            clear();
          }}
        />
      </label>
      <div className="console-panel-actions">
        <button type="button" className="primary" disabled={busy || amount === saved} onClick={() => void save()}>
          <Trans>Save the referral reward</Trans>
        </button>
      </div>
      <OutcomeLine outcome={outcome} done={<Trans>Saved. It pays for friends verified from now on.</Trans>} />
    </div>
  );
}
