// Decimal fields (amounts, prices, percentages): they show what the person typed, in their own script and marks, and
// hand the page the plain ASCII decimal it means (lib/typed-amount.ts), or '' while it cannot be read.
import type { ReactNode } from 'react';
import { useContext, useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { texts } from '../api-contract/texts.ts';
import { currentLocale, intlLocale } from '../lib/i18n.ts';
import { amountExample, loadNumberParser, readAmount, type AmountReading } from '../lib/typed-amount.ts';
import { FieldChecks, TextField } from './forms.tsx';

type Refusal = Extract<AmountReading, { ok: false }>;

/** 1,234.50 written as the person wrote: in their digits and the language's marks (١٬٢٣٤٫٥٠ in Arabic digits). */

export interface DecimalFieldProps {
  label: ReactNode;
  /** The page's value: a plain ASCII decimal ('1000.50'), or '' while nothing readable is typed. */
  value: string;
  onChange: (value: string) => void;
  /** Digits the field takes after the decimal mark (8 for amounts). */
  decimals?: number;
  name?: string;
  placeholder?: string;
  enterKeyHint?: 'next' | 'done';
  lead?: ReactNode;
  trailing?: ReactNode;
}

/**
 * A decimal field. Typing key by key keeps every intermediate text ('1,' on the way to '1,000', '١٫' to '١٫٥'); a text
 * that reads two ways or is no number says so under the field once typing on cannot mend it (or the field is left),
 * and the form it is in refuses to send with that text. The page gets '' meanwhile, never a guess.
 */
export function DecimalField({ label, value, onChange, decimals = 8, ...field }: DecimalFieldProps) {
  const { t } = useLingui();
  const locale = intlLocale(currentLocale());
  // The text shown, the value last handed to the page, and the page's value as last seen. A value the page sets itself
  // (All, a step, a reset) shows; a page that hears of the field's change only later (a store read through valtio's
  // snapshot) still shows its old value for a render or two, and that is no value set: the text typed stays.
  const [shown, setShown] = useState({ text: value, value, page: value });
  const [left, setLeft] = useState(false);
  if (value !== shown.page) setShown({ text: value === shown.value ? shown.text : value, value, page: value });

  const reading = readAmount(shown.text, locale, decimals);
  const say = (refusal: Refusal): string => {
    const sample = amountExample(locale, refusal.system, decimals);
    if (refusal.problem === 'ambiguous') return t`This number can be read two ways. Write it as in ${sample}.`;
    if (refusal.problem === 'decimals') return t`At most ${decimals} digits after the decimal mark.`;
    if (refusal.problem === 'hidden') return i18n._(texts.hiddenCharacters);
    return t`Enter a number, as in ${sample}.`;
  };
  const problem = !reading.ok && (left || !reading.unfinished) ? say(reading) : null;

  // The form this field is in asks before it sends: an unreadable text is refused with its own reason.
  const checks = useContext(FieldChecks);
  const current = useRef<() => string | null>(() => null);
  current.current = () => {
    if (reading.ok) return null;
    setLeft(true);
    return say(reading);
  };
  useEffect(() => {
    if (!checks) return;
    const check = () => current.current();
    checks.add(check);
    return () => void checks.delete(check);
  }, [checks]);

  return (
    <TextField
      {...field}
      label={label}
      value={shown.text}
      onChange={(text) => {
        const read = readAmount(text, locale, decimals);
        const next = read.ok ? read.value : '';
        setShown({ text, value: next, page: value });
        setLeft(false);
        if (next !== value) onChange(next);
      }}
      // Not arrived (offline, a failed chunk): the reading refuses what the parser would dispute; a next focus retries.
      onFocus={() => void loadNumberParser().catch(() => undefined)}
      onBlur={() => setLeft(true)}
      problem={problem}
      inputMode="decimal"
      autoComplete="off"
      dir="ltr"
    />
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
  /** Digits after the decimal mark (8 unless told). */
  decimals?: number;
}

/** A money amount: a decimal field (decimal keyboard, 8 decimals at most unless told) with an All button. */
export function AmountField({
  label,
  all,
  allLabel,
  name = 'amount',
  enterKeyHint = 'done',
  ...field
}: AmountFieldProps) {
  return (
    <DecimalField
      {...field}
      label={label ?? <Trans>Amount (USDT)</Trans>}
      name={name}
      enterKeyHint={enterKeyHint}
      trailing={
        all != null && (
          <button
            type="button"
            className="link-button field-all"
            // The amount as the server writes it, without the zeros that carry no value.
            onClick={() => field.onChange(all.includes('.') ? all.replace(/0+$/, '').replace(/\.$/, '') : all)}
          >
            {allLabel ?? <Trans>All</Trans>}
          </button>
        )
      }
    />
  );
}
