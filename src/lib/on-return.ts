// What a screen does when the customer comes back to it: from another app (the page visible again) or back online.
// Apart from ui/records.tsx so a first screen (Mine) can use it without the record lists' code.
import { useEffect } from 'react';

/**
 * Calls `refresh` when the app comes back to the screen (the page visible again, or the connection back while it is
 * visible): what changed meanwhile shows, as a trading app's screens do on return. `refresh` should keep its identity
 * between renders (a module function or useCallback), or the listeners are set again on every render.
 */
export function useRefreshOnReturn(refresh: () => void): void {
  useEffect(() => {
    const onReturn = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    document.addEventListener('visibilitychange', onReturn);
    window.addEventListener('online', onReturn);
    return () => {
      document.removeEventListener('visibilitychange', onReturn);
      window.removeEventListener('online', onReturn);
    };
  }, [refresh]);
}
