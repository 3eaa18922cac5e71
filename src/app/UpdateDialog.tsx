// The one update dialog: a new version waits (dismissible with "Later"),
// or the startup version check (the `v` of appurl_android against APP_VERSION) found a newer one (forced:
// 'Please update to the latest version!').
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { texts } from '../api-contract/texts.ts';
import { installUpdate, isAndroidShell } from '../lib/update-install.ts';
import { appUpdate } from '../lib/update-state.ts';
import { useKeyboardFocus } from '../ui/keyboard-focus-load.ts';

/** Loaded by the shell when it opens (App.tsx). */
export default function UpdateDialog() {
  const { forced } = useSnapshot(appUpdate);
  const { i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  // On the first page it may open before any key press: the focus module then loads for it.
  useKeyboardFocus();

  const update = () => {
    // The Android shell opens the download and stays here: the button stays usable.
    if (!(forced && isAndroidShell())) setBusy(true);
    void installUpdate();
  };
  return (
    <div className="dialog-backdrop update-backdrop">
      <div
        tabIndex={-1}
        className="dialog update-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="update-title"
        data-forced={forced}
      >
        <h2 id="update-title">
          <Trans>A new version is available</Trans>
        </h2>
        <p>{forced ? i18n._(texts.updateToLatest) : <Trans>Update now to start using it. The app reloads.</Trans>}</p>
        <div className="dialog-actions">
          {!forced && (
            <button
              type="button"
              className="btn secondary"
              data-action="later"
              data-dismiss
              onClick={() => (appUpdate.dismissed = true)}
              disabled={busy}
            >
              <Trans>Later</Trans>
            </button>
          )}
          <button type="button" className="btn" data-action="update" onClick={update} disabled={busy}>
            <Trans>Update</Trans>
          </button>
        </div>
      </div>
    </div>
  );
}
