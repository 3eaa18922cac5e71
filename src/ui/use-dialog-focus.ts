// The keyboard behaviour every modal dialog and bottom sheet shares, as the WAI-ARIA dialog pattern asks: focus moves
// in when it opens, Tab and Shift+Tab stay inside, Escape dismisses it when it can be, and focus goes back to the
// control that opened it when it closes.
import { useEffect, useRef, useState, type RefObject } from 'react';

/** What can take focus by Tab inside a dialog, in document order. */
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls of `dialog` that Tab reaches, first to last: hidden ones and those under `inert` left out. */
export function tabbables(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && !element.closest('[hidden], [inert]'),
  );
}

/** The dialogs open now, the newest (the one on top, which alone handles keys) last. */
const open: HTMLElement[] = [];

function onKeyDown(event: KeyboardEvent): void {
  const dialog = open.at(-1);
  if (!dialog || event.defaultPrevented) return;
  if (event.key === 'Escape') {
    const dismiss = dismissers.get(dialog);
    if (!dismiss) return;
    event.preventDefault();
    dismiss();
    return;
  }
  if (event.key !== 'Tab') return;
  const controls = tabbables(dialog);
  const first = controls[0] ?? dialog;
  const last = controls.at(-1) ?? dialog;
  const active = document.activeElement;
  // Focus outside the dialog (the backdrop was tapped) comes back in at its start; at either end it wraps around.
  const outside = !(active instanceof Node) || !dialog.contains(active);
  if (event.shiftKey ? outside || active === first || active === dialog : outside || active === last) {
    event.preventDefault();
    (event.shiftKey && !outside ? last : first).focus();
  }
}

/** How each open dialog is dismissed (Escape), when it can be. */
const dismissers = new WeakMap<HTMLElement, () => void>();

/**
 * Gives a modal dialog or sheet its keyboard behaviour; put the returned ref on the element with `role="dialog"` or
 * `"alertdialog"` (give it `tabIndex={-1}`: with no control enabled, the dialog itself takes the focus).
 *
 * - On open, focus moves to its first control, unless a control inside already took it (`autoFocus`).
 * - While it is the newest dialog open, Tab and Shift+Tab cycle through its controls and never leave it.
 * - Escape calls `onDismiss`; without one (a forced update, a step that must be answered) Escape does nothing.
 * - On close, focus returns to the element that had it when the dialog opened when that is still in the document,
 *   else to the page's heading (`main h1`), unless something else has taken the focus meanwhile (a new page's
 *   heading after a navigation, say).
 */
export function useDialogFocus<T extends HTMLElement>(onDismiss?: () => void): RefObject<T | null> {
  const ref = useRef<T>(null);
  // Read during the render that opens the dialog: an `autoFocus` control inside takes the focus before any effect.
  // (The body is no opener: the focus was nowhere, on a button that turned disabled say.)
  const [opener] = useState(() => {
    const active = document.activeElement;
    return active instanceof HTMLElement && active !== document.body ? active : null;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (onDismiss) dismissers.set(dialog, onDismiss);
    else dismissers.delete(dialog);
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    open.push(dialog);
    if (open.length === 1) document.addEventListener('keydown', onKeyDown);
    if (!dialog.contains(document.activeElement)) (tabbables(dialog)[0] ?? dialog).focus();
    return () => {
      open.splice(open.indexOf(dialog), 1);
      if (!open.length) document.removeEventListener('keydown', onKeyDown);
      const active = document.activeElement;
      const lost = !active || active === document.body || dialog.contains(active);
      if (!lost) return;
      // An opener gone with the page it was on (the dialog led to another): the page's heading, at its top.
      const back = opener?.isConnected ? opener : document.querySelector<HTMLElement>('main h1[tabindex="-1"]');
      back?.focus();
    };
  }, [opener]);

  return ref;
}
