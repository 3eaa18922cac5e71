// The update dialog's state, apart from the service worker code in
// update.ts: the shell reads it at start, the registration arrives after the first screen.
import { proxy } from 'valtio/vanilla';

export const appUpdate = proxy({
  /** A new version is installed and waits for the user's consent. */
  waiting: false,
  /** The user chose "Later" for the waiting version (asked again on the next start). */
  dismissed: false,
  /** The server announced a newer version (the `v` of appurl_android is above APP_VERSION): the dialog cannot be
   * dismissed. */
  forced: false,
  /** Where the Android shell downloads the new version (absolute URL). */
  link: null as string | null,
});

/** The dialog shows: a forced update, or a waiting version the user has not put off. */
export const updateDialogOpen = ({ waiting, dismissed, forced }: typeof appUpdate) => forced || (waiting && !dismissed);
