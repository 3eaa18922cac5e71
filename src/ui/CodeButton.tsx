// "Get code" with the resend countdown of 60 s (the request itself is the caller's; "Sending…"
// while it asks whether the code went out), and the code field it sits in.
import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { CODE_LENGTH, CODE_RESEND_SECONDS } from '../api-contract/constants.ts';
import { typedDigits } from '../api-contract/typed-digits.ts';
import { TextField } from './forms.tsx';

export function CodeButton({ onSend }: { onSend: () => Promise<boolean> }) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const send = async () => {
    setSending(true);
    try {
      if (await onSend()) setLeft(CODE_RESEND_SECONDS);
    } finally {
      setSending(false);
    }
  };

  return (
    <button type="button" className="btn small secondary" disabled={left > 0 || sending} onClick={send}>
      {sending ? <Trans>Sending…</Trans> : left > 0 ? <Trans>Resend in {left}s</Trans> : <Trans>Get code</Trans>}
    </button>
  );
}

/**
 * The verification-code field of every form: 6 digits, the phone's one-time-code autofill, and
 * "Get code" (hidden while there is nowhere to send a code: `onSend` null). What is typed or pasted keeps its digits
 * alone, in ASCII (typedDigits): a code copied with a space or line break around it, or grouped "123 456", is the code.
 * No maxlength: the browser would cut such a paste to its first six characters before the digits are picked.
 */
export function CodeField({
  value,
  onChange,
  onSend,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: (() => Promise<boolean>) | null;
}) {
  const { t } = useLingui();
  return (
    <TextField
      label={<Trans>Verification code</Trans>}
      value={value}
      onChange={(typed) => onChange(typedDigits(typed, CODE_LENGTH))}
      inputMode="numeric"
      autoComplete="one-time-code"
      name="code"
      placeholder={t`6-digit code`}
      trailing={onSend && <CodeButton onSend={onSend} />}
    />
  );
}
