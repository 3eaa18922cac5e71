// The add form of the bank card page: real name, IFSC code, bank (one of the 13 Thai banks of BANK_CODES),
// account number, phone and e-mail — every field required, checked against the API contract first.
import { useId, useState } from 'react';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { BANK_CODES, BANK_NAMES, type BankCode } from '../../api-contract/constants.ts';
import { PAYEE_LABEL_MAX } from '../../api-contract/payouts.ts';
import { useSubmit } from '../../lib/form.ts';
import { otpField, secondFactorErrorText, secondFactorProblem, useSecondFactor } from '../../lib/two-factor.ts';
import { toast } from '../../lib/toast.ts';
import { texts } from '../../api-contract/texts.ts';
import { Button, TextField } from '../../ui/forms.tsx';
import { Sheet } from '../../ui/lists.tsx';
import { AuthenticatorCodeField } from '../../ui/AuthenticatorCodeField.tsx';
import { ChevronIcon } from '../../ui/icons.tsx';
import { addCard, bankCardProblem, emptyBankCardForm, type BankCardForm as Form } from './payouts-store.ts';
import { REAL_NAME_MAX, unitsFor } from '../../api-contract/constants.ts';

interface BankCardFormProps {
  cardsBound: number;
  onAdded: () => void;
  onCancel?: () => void;
}

export function BankCardForm({ cardsBound, onAdded, onCancel }: BankCardFormProps) {
  const { t } = useLingui();
  const bankId = useId();
  const [form, setForm] = useState(emptyBankCardForm);
  const [choosingBank, setChoosingBank] = useState(false);
  const needsCode = useSecondFactor();
  const [otp, setOtp] = useState('');
  const set = (key: keyof Form) => (value: string) => setForm((current) => ({ ...current, [key]: value }));

  const { busy, submit } = useSubmit(
    async () => {
      await addCard({ ...form, ...otpField(needsCode, otp) });
      toast(i18n._(texts.saved));
      setForm(emptyBankCardForm());
      setOtp('');
      onAdded();
    },
    () => bankCardProblem(form, cardsBound) ?? secondFactorProblem(needsCode, otp),
    secondFactorErrorText,
  );

  return (
    <form
      className="card payout-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className="payout-form-title">
        <Trans>Add bank card</Trans>
      </h2>
      <TextField
        label={<Trans>Real name</Trans>}
        value={form.real_name}
        onChange={set('real_name')}
        name="real_name"
        autoComplete="name"
        maxLength={unitsFor(REAL_NAME_MAX)}
        placeholder={t`Name of the account holder`}
      />
      <TextField
        label={<Trans>IFSC code</Trans>}
        value={form.ifsc}
        onChange={(value) => set('ifsc')(value.toUpperCase())}
        name="ifsc"
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        maxLength={20}
        dir="ltr"
        placeholder={t`Bank branch code`}
      />
      <div className="field">
        <label htmlFor={bankId}>
          <Trans>Bank</Trans>
        </label>
        <button
          id={bankId}
          type="button"
          className="field-box payout-picker"
          onClick={() => setChoosingBank(true)}
          aria-haspopup="dialog"
        >
          {form.bank_code ? (
            <span className="payout-picker-value">
              <strong>{form.bank_code}</strong> <span className="muted">{BANK_NAMES[form.bank_code]}</span>
            </span>
          ) : (
            <span className="payout-picker-value muted">
              <Trans>Choose a bank</Trans>
            </span>
          )}
          <ChevronIcon className="cell-chevron flip-rtl" />
        </button>
      </div>
      <TextField
        label={<Trans>Bank account number</Trans>}
        value={form.bank_number}
        onChange={(value) => set('bank_number')(value.replace(/[\s-]/g, ''))}
        name="bank_number"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        maxLength={20}
        dir="ltr"
        placeholder={t`6-20 digits`}
      />
      <TextField
        label={<Trans>Mobile number</Trans>}
        value={form.phone}
        onChange={set('phone')}
        name="phone"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={15}
        dir="ltr"
        placeholder={t`Enter your mobile number`}
      />
      <TextField
        label={<Trans>E-mail</Trans>}
        value={form.email}
        onChange={set('email')}
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        dir="ltr"
        placeholder={t`Enter your e-mail address`}
      />
      <TextField
        label={<Trans>Label (optional)</Trans>}
        value={form.label ?? ''}
        onChange={set('label')}
        name="label"
        autoComplete="off"
        maxLength={unitsFor(PAYEE_LABEL_MAX)}
        placeholder={t`e.g. Rent, My savings`}
      />
      {needsCode && <AuthenticatorCodeField value={otp} onChange={setOtp} />}
      <Button type="submit" disabled={busy}>
        <Trans>Save bank card</Trans>
      </Button>
      {onCancel && (
        <button type="button" className="link-button payout-cancel" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
      )}
      {choosingBank && (
        <Sheet
          title={t`Choose a bank`}
          options={BANK_CODES.map((code) => ({
            value: code,
            label: (
              <span className="payout-bank-option">
                <strong>{code}</strong> <span className="muted">{BANK_NAMES[code]}</span>
              </span>
            ),
          }))}
          value={form.bank_code || null}
          onChoose={(code: BankCode) => {
            set('bank_code')(code);
            setChoosingBank(false);
          }}
          onClose={() => setChoosingBank(false)}
        />
      )}
    </form>
  );
}
