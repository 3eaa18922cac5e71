// Checking a receipt someone shared (/pages/receipt/check, no account needed): paste its JSON, and this device checks
// its Ed25519 signature against the platform's published keys, then shows what it says. A changed byte anywhere in
// the receipt makes it "Signature not valid".
import { useState } from 'react';
import { Trans } from '@lingui/react/macro';
import type { SignedReceipt } from '../../api-contract/receipts.ts';
import { parseSignedReceipt } from '../../api-contract/receipt-signature.ts';
import { useSubmit } from '../../lib/form.ts';
import { Button } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { CheckBanner, HowToCheck, ReceiptDetails } from './ReceiptParts.tsx';
import { checkOnDevice, type CheckState } from './receipts-store.ts';
import '../../ui/records.css';
import './receipts.css';

/** The page anyone checks a shared receipt on (rendered by ReceiptPage.tsx at its path). */
export function ReceiptCheckPage() {
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ signed: SignedReceipt | null; check: CheckState; ms: number | null } | null>(
    null,
  );

  const submit = useSubmit(async () => {
    const signed = parseSignedReceipt(text);
    if (!signed) return setResult({ signed: null, check: 'malformed', ms: null });
    setResult({ signed, check: 'checking', ms: null });
    setResult({ signed, ...(await checkOnDevice(signed)) });
  });

  return (
    <div className="page receipt-page">
      <NavBar title={<Trans>Check a receipt</Trans>} />
      <div className="page-body">
        <form
          className="card"
          onSubmit={(event) => {
            event.preventDefault();
            void submit.submit();
          }}
        >
          <label htmlFor="receipt-text" className="receipt-note">
            <Trans>Paste a receipt shared with you</Trans>
          </label>
          <textarea
            id="receipt-text"
            className="receipt-paste"
            dir="ltr"
            spellCheck={false}
            value={text}
            placeholder='{"receipt": {…}, "signature": "…"}'
            onChange={(event) => {
              setText(event.target.value);
              setResult(null);
            }}
          />
          <Button type="submit" disabled={submit.busy || text.trim() === ''}>
            <Trans>Check the signature</Trans>
          </Button>
        </form>
        {result && <CheckBanner check={result.check} ms={result.ms} keyId={result.signed?.receipt.key_id ?? ''} />}
        {/* What a receipt says is shown only once its signature holds: a changed one's claims are not repeated. */}
        {result?.signed && result.check === 'valid' && <ReceiptDetails signed={result.signed} />}
        <HowToCheck />
      </div>
    </div>
  );
}
