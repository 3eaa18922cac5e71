// How the focus module (ui/keyboard-focus.ts) is asked for: lazily, so that its code is not in the first screen's
// bytes. The shell asks at the first navigation, key press or focus in the app; a modal dialog asks as it opens, so
// that a dialog on the very first page (the startup message, the update dialog) takes the focus and keeps Tab inside
// as any other does.
import { useEffect } from 'react';

/**
 * Loads the focus module once (later calls get the same module); it starts watching the document as it loads.
 * Resolves with null when its code cannot be fetched (offline before the service worker kept it): the app works on
 * without it, and each later key press, focus or page asks again, with no uncaught error for each.
 */
export const loadKeyboardFocus = () => import('./keyboard-focus.ts').catch(() => null);

/**
 * For the component of a modal dialog or sheet (`aria-modal="true"`): asks for the focus module when it mounts. Once
 * loaded, the module takes in the dialogs already open: the focus moves into this one.
 */
export function useKeyboardFocus(): void {
  useEffect(() => void loadKeyboardFocus(), []);
}
