// Where the keyboard's focus goes, for every page and every modal dialog and sheet at once (the WAI-ARIA dialog
// pattern): a new page's heading takes it; an open dialog takes it, keeps Tab inside and closes on Escape when it has
// a way out; a closed dialog gives it back to the control that opened it.
//
// Radio groups are one Tab stop each, moved through with the arrow keys (ui/radio-groups.ts).
//
// One module for the whole app, loaded by the shell at the first navigation, key press or focus, and by a dialog as it
// opens (ui/keyboard-focus-load.ts; not with the first screen, whose bytes are counted): radio groups need no code of
// their own, only their markup, and dialogs only that call and their markup — `aria-modal="true"`, `tabIndex={-1}`,
// and `data-dismiss` on the control (or backdrop) that Escape should press.
import { keepOneTabStop, moveInRadioGroup } from './radio-groups.ts';

/** What Tab can reach, in document order. */
const TABBABLE =
  'a[href],button:not(:disabled),input:not(:disabled):not([type="hidden"]),select:not(:disabled),' +
  'textarea:not(:disabled),[tabindex]:not([tabindex="-1"])';

/** The controls of `dialog` that Tab reaches, first to last (hidden ones and those under `inert` left out). */
export function tabbables(dialog: Element): HTMLElement[] {
  // Every element, then the tabbable ones: document order, whatever order a selector list comes back in.
  return [...dialog.querySelectorAll<HTMLElement>('*')].filter(
    (element) => element.matches(TABBABLE) && element.tabIndex >= 0 && !element.closest('[hidden],[inert]'),
  );
}

/** The open dialogs, oldest first, each with the element that had the focus before it opened. */
const open: { dialog: HTMLElement; opener: HTMLElement | null }[] = [];
/** The element last focused outside any dialog: the opener of the next dialog. */
let lastOutside: HTMLElement | null = null;
/** The element that has the focus, or had it when it went away; null once the focus was moved off it to nothing. */
let lastFocused: HTMLElement | null = null;

const inDialog = (element: Element) => !!element.closest('[aria-modal="true"]');
/** Nothing has the focus (it was on an element that went away, or on none). */
const lost = () => !document.activeElement || document.activeElement === document.body;
/** The page's heading, which takes the focus when nothing better can (in `main`, focusable by script). */
const heading = (main: ParentNode = document) => main.querySelector<HTMLElement>('main h1, h1');

/**
 * Brings the list of open dialogs up to date with the document (focus into a new one, back from a closed one), and
 * the Tab stops of its radio groups.
 */
function sync(): void {
  keepOneTabStop(document);
  for (let at = open.length - 1; at >= 0; at--) {
    const { dialog, opener } = open[at]!;
    if (dialog.isConnected) continue;
    open.splice(at, 1);
    // Back to the opener; when it is gone or cannot take the focus now (disabled), the dialog below or the heading.
    for (const next of [opener, open.at(-1)?.dialog, heading()]) if (lost() && next?.isConnected) next.focus();
  }
  for (const dialog of document.querySelectorAll<HTMLElement>('[aria-modal="true"]')) {
    if (open.some((entry) => entry.dialog === dialog)) continue;
    open.push({ dialog, opener: lastOutside?.isConnected ? lastOutside : null });
    if (!dialog.contains(document.activeElement)) (tabbables(dialog)[0] ?? dialog).focus();
  }
  // The focused control went away (a list drawn again, a button replaced): the open dialog or the page's heading takes
  // the focus, so the next Tab goes on from there instead of from the top of the document.
  if (lost() && lastFocused && !lastFocused.isConnected) {
    lastFocused = null;
    (open.at(-1)?.dialog ?? heading())?.focus({ preventScroll: true });
  }
}

function onKeyDown(event: KeyboardEvent): void {
  if (event.defaultPrevented || moveInRadioGroup(event)) return;
  const dialog = open.at(-1)?.dialog;
  if (!dialog) return;
  if (event.key === 'Escape') {
    // The dialog's own way out (Cancel, Later, the sheet's backdrop), when it has one and it is not disabled now.
    const dismiss =
      dialog.querySelector<HTMLElement>('[data-dismiss]') ?? dialog.closest<HTMLElement>('[data-dismiss]');
    if (!dismiss || (dismiss as HTMLButtonElement).disabled) return;
    event.preventDefault();
    dismiss.click();
    return;
  }
  if (event.key !== 'Tab') return;
  const controls = tabbables(dialog);
  const first = controls[0] ?? dialog;
  const last = controls.at(-1) ?? dialog;
  const active = document.activeElement;
  // Focus outside the dialog (the backdrop was tapped) comes back in at its start; at either end it wraps around.
  const outside = !active || !dialog.contains(active);
  if (outside || active === (event.shiftKey ? first : last) || active === dialog) {
    event.preventDefault();
    (event.shiftKey && !outside ? last : first).focus();
  }
}

/**
 * Starts watching the document: called once, when this module loads (the shell loads it; the console imports it).
 * Dialogs already open are taken in at once.
 */
function watch(): void {
  document.addEventListener('focusin', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    lastFocused = target;
    if (!inDialog(target)) lastOutside = target;
  });
  // Focus moved to nothing (a tap on the background, blur()): the person's choice, kept. Chromium also sends this as a
  // focused element is removed, while it is still in the document: only one still there a moment later was left.
  document.addEventListener('focusout', (event) => {
    const target = event.target;
    if (event.relatedTarget || !(target instanceof HTMLElement)) return;
    queueMicrotask(() => {
      if (target.isConnected && lastFocused === target) lastFocused = null;
    });
  });
  document.addEventListener('keydown', onKeyDown);
  if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body)
    lastOutside = document.activeElement;
  // Radios checked or unchecked move their group's Tab stop.
  new MutationObserver(sync).observe(document.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-checked', 'disabled'],
  });
  sync();
}
watch();

/** The wait of the page opened last for its heading. */
let waiting: MutationObserver | undefined;

/**
 * A new page opened: its heading (the first `h1` in `main`, focusable with `tabIndex={-1}`) takes the focus once the
 * page draws it (its code may still be on its way) — unless the focus is already in the page (a field that
 * autofocuses) or in a dialog.
 */
export function pageShown(): void {
  const main = document.querySelector('main');
  waiting?.disconnect();
  if (!main) return;
  const focus = () => {
    const title = heading(main);
    if (!title) return false;
    const active = document.activeElement;
    if (lost() || !(main.contains(active) || inDialog(active!))) {
      if (!title.hasAttribute('tabindex')) title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
    return true;
  };
  if (focus()) return;
  waiting = new MutationObserver(() => focus() && waiting?.disconnect());
  waiting.observe(main, { childList: true, subtree: true });
}
