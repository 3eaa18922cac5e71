// The practice account back to its starting USDT, after a confirmation. The server refuses while a practice option
// is open (its settlement would land on the new balance): its translated reason is shown.
import { Trans } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { PRACTICE_START, resetPractice } from '../../api-contract/practice.ts';
import { api } from '../../lib/api.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatMoney } from '../../lib/format.ts';
import { notePractice } from '../../lib/practice.ts';
import { toast } from '../../lib/toast.ts';
import { PracticeTag } from '../../ui/AccountSwitch.tsx';
import { Amount } from '../../ui/Amount.tsx';
import { ConfirmDialog } from '../../ui/lists.tsx';

export default function PracticeResetDialog({ onClose }: { onClose: () => void }) {
  const start = formatMoney(PRACTICE_START);
  const { busy, submit: reset } = useSubmit(async () => {
    notePractice(await api(resetPractice, undefined));
    toast({ message: msg`Practice account reset to ${start}`, parts: { start: { amount: start, unit: 'USDT' } } });
    onClose();
  });
  return (
    <ConfirmDialog
      title={
        <>
          <Trans>Reset the practice account?</Trans> <PracticeTag />
        </>
      }
      confirm={<Trans>Reset</Trans>}
      busy={busy}
      onCancel={onClose}
      onConfirm={() => void reset()}
    >
      <p>
        <Trans>
          Back to <Amount value={start} unit="USDT" /> of virtual money and no coins; open practice contract orders are
          cancelled. Real money is not touched.
        </Trans>
      </p>
    </ConfirmDialog>
  );
}
