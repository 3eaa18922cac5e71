// The loading mask ('Loading...' while calls are in flight) and the toast line.
import { useSnapshot } from 'valtio';
import { lazy, Suspense } from 'react';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { cancelReads, loading } from '../lib/loading.ts';
import { toasts } from '../lib/toast.ts';
import { texts } from '../api-contract/texts.ts';

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

// Loaded the first time a toast with amounts shows (an order filled, an option settled), never at the start.
const ToastMessageText = lazy(() => import('./ToastMessageText.tsx'));

export function ToastHost() {
  const { current } = useSnapshot(toasts);
  if (!current) return null;
  return (
    <div className="toast" role="alert" key={current.id}>
      {current.message ? (
        <Suspense fallback={current.text}>
          <ToastMessageText text={current.message} />
        </Suspense>
      ) : (
        current.text
      )}
    </div>
  );
}
