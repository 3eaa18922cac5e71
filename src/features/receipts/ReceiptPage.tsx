// An order's signed receipt (/pages/receipt?option=12 or ?contract=7): asked for from the server, checked on this
// device against the platform's published keys, shown with the result first, and shared (the system sheet where
// there is one, else a download) or copied as JSON, for anyone to check with the public key. The check page of a
// shared receipt (/pages/receipt/check) comes in this module too: one chunk for both routes.
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { texts } from '../../api-contract/texts.ts';
import { contractReceipt, optionReceipt, type SignedReceipt } from '../../api-contract/receipts.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { copyText } from '../../lib/clipboard.ts';
import { useSubmit } from '../../lib/form.ts';
import { Button } from '../../ui/forms.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { CheckBanner, HowToCheck, ReceiptDetails } from './ReceiptParts.tsx';
import { ReceiptCheckPage } from './ReceiptCheckPage.tsx';
import {
  canShare,
  checkOnDevice,
  downloadReceipt,
  loadReceipt,
  receiptJson,
  shareReceipt,
  type CheckState,
  type ReceiptOf,
} from './receipts-store.ts';
import '../../ui/records.css';
import './receipts.css';

/** The order the query names, or null for a query naming none. */
function receiptOf(search: string): ReceiptOf | null {
  const query = new URLSearchParams(search);
  for (const kind of ['option', 'contract'] as const) {
    const id = query.get(kind);
    if (id && /^\d{1,9}$/.test(id)) return { kind, id };
  }
  return null;
}

/** The module of both receipt routes: the check of a shared receipt at its path, else the order's receipt. */
export default function ReceiptPages() {
  const [path] = useLocation();
  return path === ROUTES.receiptCheck ? <ReceiptCheckPage /> : <OrderReceiptPage />;
}

function OrderReceiptPage() {
  const { t } = useLingui();
  const search = useSearch();
  const [signed, setSigned] = useState<SignedReceipt | null>(null);
  const [check, setCheck] = useState<{ check: CheckState; ms: number | null }>({ check: 'checking', ms: null });
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const of = receiptOf(search);
    let current = true;
    setSigned(null);
    setFailure(null);
    setCheck({ check: 'checking', ms: null });
    if (!of) return setFailure(i18n._(texts.orderNotFound));
    loadReceipt(of)
      .then(async (answer) => {
        if (!current) return;
        // Another order's receipt, however valid, is not this order's: never shown as if it were.
        const answered = answer.receipt.order.id;
        if (answer.receipt.kind !== of.kind || Number(answered) !== Number(of.id))
          return setFailure(
            t`The server answered the receipt of another order (number ${answered}), not of this one. Please contact customer service.`,
          );
        setSigned(answer);
        const result = await checkOnDevice(answer);
        if (current) setCheck(result);
      })
      .catch((error) => current && setFailure(errorText(error)));
    return () => void (current = false);
  }, [search, attempt, t]);

  const share = useSubmit(async () => {
    if (!signed) return;
    if (canShare()) await shareReceipt(signed, t`Receipt of order ${signed.receipt.order.id}`);
    else downloadReceipt(signed);
  });

  return (
    <div className="page receipt-page">
      <NavBar title={<Trans>Signed receipt</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[optionReceipt, contractReceipt]} />
        {failure && !signed && <LoadFailure onRetry={() => setAttempt((n) => n + 1)}>{failure}</LoadFailure>}
        {signed && (
          <>
            <CheckBanner check={check.check} ms={check.ms} keyId={signed.receipt.key_id} />
            <ReceiptDetails
              signed={signed}
              actions={
                <>
                  <Button onClick={() => void share.submit()} disabled={share.busy}>
                    {canShare() ? <Trans>Share</Trans> : <Trans>Download</Trans>}
                  </Button>
                  <Button variant="secondary" onClick={() => void copyText(receiptJson(signed))}>
                    <Trans>Copy</Trans>
                  </Button>
                </>
              }
            />
            <p className="muted receipt-note">
              <Trans>
                Anyone you share this receipt with can check it with the platform's public key, in this app without an
                account or with a few lines of standard code.
              </Trans>{' '}
              <Link href={ROUTES.receiptCheck}>
                <Trans>Check a receipt</Trans>
              </Link>
            </p>
            <HowToCheck />
          </>
        )}
      </div>
    </div>
  );
}
