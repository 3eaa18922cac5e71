// Form controls with the app's look: the page form, labelled text fields, an amount field, a checkbox, buttons, a
// two-way switch.
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useId } from 'react';
import { Trans } from '@lingui/react/macro';
import { cleanAmount } from '../lib/typed-amount.ts';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  lead?: ReactNode;
  trailing?: ReactNode;
}

export function TextField({ label, value, onChange, lead, trailing, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-box">
        {lead && <span className="field-prefix">{lead}</span>}
        <input id={id} value={value} onChange={(event) => onChange(event.target.value)} {...input} />
        {trailing}
      </div>
    </div>
  );
}

interface AmountFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Amount (USDT) unless told. */
  label?: ReactNode;
  placeholder?: string;
  enterKeyHint?: 'next' | 'done';
  /** What the All button fills in (a decimal string); no button while it is unknown. */
  all?: string | null;
  allLabel?: ReactNode;
  name?: string;
}

/** A money amount: decimal keyboard, digits and one point kept (8 decimals at most), an All button. */
export function AmountField({
  value,
  onChange,
  label,
  placeholder,
  enterKeyHint = 'done',
  all,
  allLabel,
  name = 'amount',
}: AmountFieldProps) {
  return (
    <TextField
      label={label ?? <Trans>Amount (USDT)</Trans>}
      value={value}
      onChange={(typed) => onChange(cleanAmount(typed))}
      inputMode="decimal"
      autoComplete="off"
      enterKeyHint={enterKeyHint}
      name={name}
      dir="ltr"
      placeholder={placeholder}
      trailing={
        all != null && (
          <button
            type="button"
            className="link-button field-all"
            onClick={() =>
              onChange(
                cleanAmount(all)
                  .replace(/(\.\d*?)0+$/, '$1')
                  .replace(/\.$/, ''),
              )
            }
          >
            {allLabel ?? <Trans>All</Trans>}
          </button>
        )
      }
    />
  );
}

interface FormProps {
  onSubmit: () => void | Promise<void>;
  children: ReactNode;
  /** The page's body by default; a form inside a card names its own class. */
  className?: string;
}

/**
 * A form (a page's body, or a dialog's): submitting (button or Enter) runs `onSubmit` instead of reloading the page.
 */
export function Form({ onSubmit, children, className = 'page-body' }: FormProps) {
  return (
    <form
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
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
}

export function Button({
  children,
  onClick,
  type = 'button',
  variant = 'primary',
  size = 'normal',
  disabled,
}: ButtonProps) {
  const classes = ['btn', variant !== 'primary' && variant, size === 'small' && 'small'].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} onClick={onClick} disabled={disabled}>
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

/** The input attributes of a payment password field: 6 digits (§5), numeric keyboard. */
export const PAY_PASSWORD_FIELD = {
  type: 'password',
  inputMode: 'numeric',
  maxLength: 6,
  autoComplete: 'off',
  pattern: '[0-9]*',
} as const;
