// A group of radios that is one Tab stop, as the WAI-ARIA radio group pattern has it: Tab reaches the checked radio
// (the first when none is), the arrow keys move through the group and check the radio they reach, Home and End go to
// the first and the last. The radios are the group's own markup — buttons with `role="radio"`, `aria-checked` and the
// `onClick` that checks them — so every group of the app works the same way with the same few lines.
import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** The radios of `group` that can be chosen, in document order. */
const radiosOf = (group: Element) => [...group.querySelectorAll<HTMLElement>('[role="radio"]:not(:disabled)')];

/**
 * Gives `group` a single Tab stop: its checked radio (`aria-checked="true"`), or its first radio when none is checked,
 * gets `tabIndex` 0 and every other radio -1. Run after each render, as radios come, go and change.
 */
export function keepOneTabStop(group: Element): void {
  const radios = radiosOf(group);
  const stop = radios.find((radio) => radio.getAttribute('aria-checked') === 'true') ?? radios[0];
  for (const radio of radios) radio.tabIndex = radio === stop ? 0 : -1;
}

/** How far each arrow key moves in a left-to-right page: the next radio or the previous. */
const STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * The group's keys, on a radio of it (the group's `onKeyDown`): Arrow Right and Down focus and check the next radio,
 * Arrow Left and Up the previous, wrapping round at either end; in a right-to-left page Right and Left follow the
 * reading direction (Right goes to the previous). Home and End go to the first and the last. Checking is a click on
 * the radio, what a pointer would do, and is skipped when the radio reached is checked already. Keys with Alt, Ctrl or
 * Meta are left to the browser.
 */
export function moveInRadioGroup(event: KeyboardEvent<HTMLElement>): void {
  const radios = radiosOf(event.currentTarget);
  const at = radios.indexOf(event.target as HTMLElement);
  if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
  let to: number;
  if (event.key === 'Home') to = 0;
  else if (event.key === 'End') to = radios.length - 1;
  else if (Object.hasOwn(STEPS, event.key)) {
    const sideways = event.key === 'ArrowLeft' || event.key === 'ArrowRight';
    const rightToLeft = event.currentTarget.closest('[dir]')?.getAttribute('dir') === 'rtl';
    to = (at + STEPS[event.key]! * (sideways && rightToLeft ? -1 : 1) + radios.length) % radios.length;
  } else return;
  const radio = radios[to]!;
  event.preventDefault();
  radio.focus();
  if (radio.getAttribute('aria-checked') !== 'true') radio.click();
}

interface RadioGroupProps {
  /** The group's accessible name (a translated text). */
  label: string;
  className?: string;
  /** The radios: elements with `role="radio"`, `aria-checked` and an `onClick` that checks them. */
  children: ReactNode;
}

/** A `role="radiogroup"` that Tab enters once and the arrow keys move within (see `moveInRadioGroup`). */
export function RadioGroup({ label, className, children }: RadioGroupProps) {
  const group = useRef<HTMLDivElement>(null);
  // After every render: the checked radio may have changed, or radios may have come (a list that loaded).
  useLayoutEffect(() => keepOneTabStop(group.current!));
  return (
    <div ref={group} className={className} role="radiogroup" aria-label={label} onKeyDown={moveInRadioGroup}>
      {children}
    </div>
  );
}
