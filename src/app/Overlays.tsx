// The loading mask ('Loading...' while calls are in flight) and the toast line.
import { useSnapshot } from 'valtio';
import { useLingui } from '@lingui/react';
import { loading } from '../lib/loading.ts';
import { toasts } from '../lib/toast.ts';
import { texts } from '../contract/texts.ts';

export function LoadingMask() {
  const { visible } = useSnapshot(loading);
  const { i18n } = useLingui();
  if (!visible) return null;
  return (
    <div className="mask" role="status" aria-live="polite">
      <div className="mask-box">
        <div className="spinner" />
        {i18n._(texts.loading)}
      </div>
    </div>
  );
}

export function ToastHost() {
  const { current } = useSnapshot(toasts);
  if (!current) return null;
  return (
    <div className="toast" role="alert" key={current.id}>
      {current.text}
    </div>
  );
}
