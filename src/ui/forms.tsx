// Form controls with the app's look: the page form, labelled text fields, a checkbox, buttons, a two-way switch.
// The amount field is apart (AmountField.tsx): it brings the locale-aware number parser.
import type { InputHTMLAttributes, ReactNode } from 'react';
import { createContext, useContext, useEffect, useId, useRef, type RefObject } from 'react';
import { toast } from '../lib/toast.ts';
import { asciiDigits } from '../api-contract/typed-digits.ts';
import type { FieldRefusals } from '../lib/field-refusals.ts';

/** The refusals of the nearest form (null outside one that asks for them): given by `<Form refusals>`. */
export const FieldRefusalsScope = createContext<FieldRefusals | null>(null);

/**
 * The server's refusal of the field `name` of the nearest form, for the field to show under itself: its text (while
 * shown, `element` has the focus from the moment it came) and `edited`, which the field calls on every change so the
 * text goes once the customer edits what it was about. The field counts as shown while mounted.
 */
export function useRefusedField(
  name: string | undefined,
  element: RefObject<HTMLElement | null>,
): { text: string | undefined; edited: () => void } {
  const scope = useContext(FieldRefusalsScope);
  const shown = scope?.shown;
  useEffect(() => {
    if (!shown || !name) return;
    shown.add(name);
    return () => void shown.delete(name);
  }, [shown, name]);
  const refused = name !== undefined && scope?.refused?.field === name ? scope.refused : null;
  useEffect(() => {
    if (refused) element.current?.focus();
  }, [refused, element]);
  return { text: refused?.text, edited: () => void (refused && scope?.clear()) };
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  lead?: ReactNode;
  trailing?: ReactNode;
  /**
   * A line under the box: what is wrong with the text typed (announced as it appears). The server's refusal of this
   * field (by its `name`, in a form given `refusals`) shows there too, until the field is edited.
   */
  problem?: ReactNode;
  /** A line under the box, always shown: what the field takes (a rule too long for a placeholder, a count). */
  hint?: ReactNode;
}

/**
 * A labelled text field. A numeric one (`inputMode="numeric"`: codes, card numbers, payment passwords) hands on its
 * digits in ASCII, whatever script they were typed in (Arabic-Indic, Devanagari, Thai, full-width…).
 */
export function TextField({ label, value, onChange, lead, trailing, problem: own, hint, ...input }: TextFieldProps) {
  const id = useId();
  const box = useRef<HTMLInputElement>(null);
  const refused = useRefusedField(input.name, box);
  const problem = own ?? refused.text;
  const numeric = input.inputMode === 'numeric';
  const described = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-box">
        {lead && <span className="field-prefix">{lead}</span>}
        <input
          id={id}
          ref={box}
          value={value}
          onChange={(event) => {
            refused.edited();
            onChange(numeric ? asciiDigits(event.target.value) : event.target.value);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={described || undefined}
          {...input}
        />
        {trailing}
      </div>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {problem && <FieldProblem id={`${id}-problem`}>{problem}</FieldProblem>}
    </div>
  );
}

/**
 * The line under a field saying what is wrong with it (a check of the form, or the server's refusal of that field),
 * announced as it appears. `id` is what the field's `aria-describedby` names; `className` adds a screen's own layout.
 */
export function FieldProblem({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  return (
    <p className={className ? `error-text ${className}` : 'error-text'} id={id} role="alert">
      {children}
    </p>
  );
}

interface FormProps {
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
  /** useSubmit's `refusals`: a server's refusal of one of the fields inside shows under that field. */
  refusals?: FieldRefusals;
  /** The page's body by default; a form inside a card names its own class. */
  className?: string;
}

/**
 * What a field inside a form says before the form is sent: the text of what is wrong with what was typed (a number
 * that reads two ways), or null. The form holds the checks of the fields it contains.
 */
export type FieldCheck = () => string | null;
/** The checks of the fields inside the nearest form (null outside one): a field adds its own while it is shown. */
export const FieldChecks = createContext<Set<FieldCheck> | null>(null);

/** The checks of a panel that sends without a <Form> (its own buttons send): give them to FieldChecks' provider. */
export const useFieldChecks = (): Set<FieldCheck> => useRef(new Set<FieldCheck>()).current;

/** The first thing a field of `checks` finds wrong (toasted), or null: what a form does before it is sent. */
export function firstFieldProblem(checks: Set<FieldCheck>): string | null {
  for (const check of checks) {
    const problem = check();
    if (problem) {
      toast(problem);
      return problem;
    }
  }
  return null;
}

/**
 * A form (a page's body, or a dialog's): submitting (button or Enter) runs `onSubmit` instead of reloading the page,
 * unless a field inside says what it holds cannot be read (its text is toasted; nothing is sent).
 */
export function Form({ onSubmit, children, className = 'page-body', refusals }: FormProps) {
  const checks = useFieldChecks();
  return (
    <form
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        if (!firstFieldProblem(checks)) void onSubmit();
      }}
    >
      <FieldChecks.Provider value={checks}>
        <FieldRefusalsScope value={refusals ?? null}>{children}</FieldRefusalsScope>
      </FieldChecks.Provider>
    </form>
  );
}

interface CheckboxProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}

export function Checkbox({ checked, onChange, children }: CheckboxProps) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{children}</span>
    </label>
  );
}

interface ButtonProps {
  children: ReactNode;
  onClick?: () => void;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'secondary' | 'danger';
  size?: 'normal' | 'small';
  disabled?: boolean;
  /** The dialog's way out that Escape presses (its Cancel): see ui/keyboard-focus.ts. */
  dismiss?: boolean;
}

export function Button({
  children,
  onClick,
  type = 'button',
  variant = 'primary',
  size = 'normal',
  disabled,
  dismiss,
}: ButtonProps) {
  const classes = ['btn', variant !== 'primary' && variant, size === 'small' && 'small'].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} onClick={onClick} disabled={disabled} data-dismiss={dismiss}>
      {children}
    </button>
  );
}

interface SegmentedProps<T extends string> {
  value: T;
  options: readonly { value: T; label: ReactNode }[];
  onChange: (value: T) => void;
}

export function Segmented<T extends string>({ value, options, onChange }: SegmentedProps<T>) {
  return (
    <div className="segmented" role="group">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** The input attributes of a payment password field: exactly 6 digits, numeric keyboard. */
export const PAY_PASSWORD_FIELD = {
  type: 'password',
  inputMode: 'numeric',
  maxLength: 6,
  autoComplete: 'off',
  pattern: '[0-9]*',
} as const;
