// "Get code" with the §9 resend countdown of 60 s; the request itself is the caller's.
import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { CODE_RESEND_SECONDS } from '../contract/constants.ts';

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
      {left > 0 ? <Trans>Resend in {left}s</Trans> : <Trans>Get code</Trans>}
    </button>
  );
}
