// Every radio group of the app as one Tab stop, as the WAI-ARIA radio group pattern has it: Tab reaches the checked
// radio (the first when none is), the arrow keys move through the group and check the radio they reach, Home and End
// go to the first and the last.
//
// Part of the focus module (ui/keyboard-focus.ts), which runs it for the whole document: a group needs no code of its
// own, only its markup — `role="radiogroup"` around buttons with `role="radio"`, `aria-checked` and the `onClick`
// that checks them. The module loads after the first screen (at the first navigation, key press or focus): before
// that every radio is a Tab stop, and the first Tab press, on its way to the page's first control, brings it in.

/** The radios of `group` that can be chosen, in document order. */
const radiosOf = (group: Element) => [...group.querySelectorAll<HTMLElement>('[role="radio"]:not(:disabled)')];

const checked = (radio: Element) => radio.getAttribute('aria-checked') === 'true';

/**
 * Gives every radio group in `root` a single Tab stop: its checked radio (`aria-checked="true"`), or its first radio
 * when none is checked, gets `tabIndex` 0 and every other radio -1. Run again whenever radios come, go or change.
 */
export function keepOneTabStop(root: ParentNode): void {
  for (const group of root.querySelectorAll('[role="radiogroup"]')) {
    const radios = radiosOf(group);
    const stop = radios.find(checked) ?? radios[0];
    for (const radio of radios) {
      const tabIndex = radio === stop ? 0 : -1;
      // Written only when it changes: this runs at every change of the document.
      if (radio.tabIndex !== tabIndex) radio.tabIndex = tabIndex;
    }
  }
}

/** How far each arrow key moves in a left-to-right page: the next radio or the previous. */
const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * A key pressed on a radio of a group: Arrow Right and Down focus and check the next radio, Arrow Left and Up the
 * previous, wrapping round at either end; in a right-to-left page Right and Left follow the reading direction (Right
 * goes to the previous). Home and End go to the first and the last. Checking is a click on the radio, what a pointer
 * would do, skipped when the radio reached is checked already. Returns true when the key was taken (its default
 * prevented); keys elsewhere, other keys and keys with Alt, Ctrl or Meta are left to the browser.
 */
export function moveInRadioGroup(event: KeyboardEvent): boolean {
  const radio = event.target instanceof Element ? event.target.closest('[role="radio"]') : null;
  const group = radio?.closest('[role="radiogroup"]');
  if (!group || event.altKey || event.ctrlKey || event.metaKey) return false;
  const radios = radiosOf(group);
  const at = radios.indexOf(radio as HTMLElement);
  let to: number;
  if (event.key === 'Home') to = 0;
  else if (event.key === 'End') to = radios.length - 1;
  else if (Object.hasOwn(STEPS, event.key) && at >= 0) {
    const sideways = event.key === 'ArrowLeft' || event.key === 'ArrowRight';
    const rightToLeft = group.closest('[dir]')?.getAttribute('dir') === 'rtl';
    to = (at + STEPS[event.key]! * (sideways && rightToLeft ? -1 : 1) + radios.length) % radios.length;
  } else return false;
  const next = radios[to];
  if (!next) return false;
  event.preventDefault();
  next.focus();
  if (!checked(next)) next.click();
  return true;
}
