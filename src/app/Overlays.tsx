// The loading mask ('Loading...' while calls are in flight) and the toast line.
import { useSnapshot } from 'valtio';
import type { ReactNode } from 'react';
import { Trans as Message, useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { cancelReads, loading } from '../lib/loading.ts';
import { isToastMessage, toasts, type ToastMessage } from '../lib/toast.ts';
import { texts } from '../api-contract/texts.ts';
import { Amount } from '../ui/Amount.tsx';

export function LoadingMask() {
  const { visible, cancellable } = useSnapshot(loading);
  const { i18n } = useLingui();
  if (!visible) return null;
  return (
    <div className="mask" role="status" aria-live="polite">
      <div className="mask-box">
        <div className="spinner" />
        {i18n._(texts.loading)}
        {cancellable && (
          <button type="button" className="mask-cancel" onClick={cancelReads}>
            <Trans>Cancel</Trans>
          </button>
        )}
      </div>
    </div>
  );
}

/** A toast's text with amounts: each amount and its unit in one left-to-right element (Amount), in any language. */
function ToastMessageText({ text }: { text: Readonly<ToastMessage> }) {
  const values: Record<string, ReactNode> = { ...(text.message.values as Record<string, ReactNode> | undefined) };
  for (const [name, part] of Object.entries(text.parts))
    values[name] = isToastMessage(part) ? (
      <ToastMessageText text={part} />
    ) : (
      <Amount value={part.amount} unit={part.unit} />
    );
  return <Message id={text.message.id} message={text.message.message} values={values} />;
}

export function ToastHost() {
  const { current } = useSnapshot(toasts);
  if (!current) return null;
  return (
    <div className="toast" role="alert" key={current.id}>
      {current.message ? <ToastMessageText text={current.message} /> : current.text}
    </div>
  );
}
