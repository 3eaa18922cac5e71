// Mine's Real / Practice switch, the one the trading screens share (with, while Practice is on, its virtual balance in
// the switch's strip), and then "Reset to 10,000 USDT", whose confirmation loads on the tap.
import { lazy, Suspense, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { PRACTICE_START } from '../../api-contract/practice.ts';
import { formatMoney } from '../../lib/format.ts';
import { useAccount } from '../../lib/practice.ts';
import { AccountSwitch } from '../../ui/AccountSwitch.tsx';
import { Button } from '../../ui/forms.tsx';
import { Amount } from '../../ui/Amount.tsx';

const PracticeResetDialog = lazy(() => import('./PracticeResetDialog.tsx'));

export default function PracticeSwitch() {
  const practising = useAccount() === 'practice';
  const [resetting, setResetting] = useState(false);
  const start = formatMoney(PRACTICE_START);
  return (
    <>
      <AccountSwitch />
      {practising && (
        <Button variant="secondary" size="small" onClick={() => setResetting(true)}>
          <Trans>
            Reset to <Amount value={start} unit="USDT" />
          </Trans>
        </Button>
      )}
      {resetting && (
        <Suspense fallback={null}>
          <PracticeResetDialog onClose={() => setResetting(false)} />
        </Suspense>
      )}
    </>
  );
}
