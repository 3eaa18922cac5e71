// What became of the customer's writes that move funds whose answer was lost (lost-answers.ts): each one named with its
// amount and when it was sent, and what the server said of it (or that it was sent too long ago to check). Opened by
// the shell (App.tsx) while there is something to tell; "OK" clears it.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { Trans as Message } from '@lingui/react';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import Big from 'big.js';
import { formatDateTime, formatExact } from '../../lib/format.ts';
import { lostAnswers, type LostWriteOutcome } from '../../lib/lost-answers-state.ts';
import { toasts } from '../../lib/toast.ts';
import { Amount } from '../../ui/Amount.tsx';
import { Verbatim } from '../../ui/Verbatim.tsx';
import { Button } from '../../ui/forms.tsx';
import { Dialog } from '../../ui/lists.tsx';
import './lost-answer.css';

/**
 * Each write's name by its path (lib/funds-writes.ts), with `amount` (as written in the locale) where it has one. The
 * amount of a USDT write is the placeholder `usdtAmount`, shown with its unit as one left-to-right element (Amount), so
 * that in Arabic it never reads "USDT 10".
 */
const writeNames = (amount: string): Readonly<Record<string, MessageDescriptor>> => {
  const usdtAmount = amount;
  return {
    '/coin/order/add': msg`Option order of ${usdtAmount}`,
    '/coin/trans/add': msg`Contract order`,
    '/coin/trans/dust': msg`Small balances converted to USDT`,
    '/lockup/subscribe': msg`Lock-up subscription of ${usdtAmount}`,
    '/yuebao/transfer/in': msg`Liquidity subscription of ${usdtAmount}`,
    '/yuebao/transfer/out': msg`Liquidity redemption of ${usdtAmount}`,
    '/users/extract': msg`Withdrawal of ${amount}`,
    '/pay/submit': msg`Recharge of ${amount}`,
    '/blindbox/draw': msg`Blind box draw`,
    '/users/ptomoney': msg`Redemption of ${amount} points`,
  };
};

/** An amount as sent, written in the locale's way when it is a number. */
const written = (amount: string) => {
  try {
    return formatExact(new Big(amount).toFixed());
  } catch {
    return amount;
  }
};

function Outcome({ write }: { write: LostWriteOutcome }) {
  const amount = written(write.amount);
  const name = writeNames(amount)[write.path];
  const values = { ...name?.values, usdtAmount: <Amount value={amount} unit="USDT" /> };
  return (
    <li data-state={write.state}>
      <strong>{name ? <Message id={name.id} message={name.message} values={values} /> : write.path}</strong>
      <span className="lost-answer-sent">
        <Trans>Sent at {formatDateTime(new Date(write.sentAt).toISOString())}</Trans>
      </span>
      <p>
        {write.state === 'applied' ? (
          <Trans>It went through: the connection dropped only before its answer arrived. Do not place it again.</Trans>
        ) : write.state === 'refused' ? (
          <>
            <Trans>It was not done:</Trans> <Verbatim text={write.msg ?? ''} />
          </>
        ) : write.state === 'expired' ? (
          <Trans>
            It was sent too long ago for us to check whether it went through. Look for it in your account details and
            records before you place it again.
          </Trans>
        ) : (
          <Trans>It did not reach us, so nothing was done. You can place it again.</Trans>
        )}
      </p>
    </li>
  );
}

/** Loaded by the shell when there is something to tell (App.tsx). */
export default function LostAnswerDialog() {
  const { told } = useSnapshot(lostAnswers);
  // "You are offline" said of the same write is no longer what happened.
  useEffect(() => void (toasts.current = null), []);
  return (
    <Dialog
      title={<Trans>What became of your request</Trans>}
      actions={
        <Button onClick={() => (lostAnswers.told = [])} dismiss>
          <Trans>OK</Trans>
        </Button>
      }
    >
      <ul className="lost-answer-list">
        {told.map((write) => (
          <Outcome key={write.key} write={write as LostWriteOutcome} />
        ))}
      </ul>
    </Dialog>
  );
}
