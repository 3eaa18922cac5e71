// What shows where code failed to arrive: the page's chunk (App's PageBoundary), or the app's own start
// (index.html's boot script shows this markup from a template the build renders per language).
import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { texts } from '../api-contract/texts.ts';

/**
 * The page-load-failed text and a button that tries again. Plain markup: the shell carries no form or list
 * components for this one screen.
 */
export function LoadFailed({ onRetry }: { onRetry?: () => void }) {
  return (
    <div className="empty" role="alert">
      <div>{i18n._(texts.pageLoadFailed)}</div>
      <button type="button" className="btn" data-retry onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </div>
  );
}
