// Recharge by bank transfer (/pages/Recharge/bankpay?id=): the account to pay (bank, name, number, each
// copyable), the currency and today's rate, what the typed amount credits in USDT, and the
// transfer receipt (a picture, shrunk here and uploaded) as proof. The order waits for review.
import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import type { RechargeChannel } from '../../api-contract/funds.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatMoney } from '../../lib/format.ts';
import { uploadErrorText, uploadPicture } from '../../lib/images.ts';
import { forgetVisits, navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { Empty } from '../../ui/lists.tsx';
import { PrivatePicture } from '../../ui/PrivatePicture.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr, RecordLink, Row } from '../../ui/records.tsx';
import { formatExact, idFromQuery } from './funds-format.ts';
import { creditPreview, loadChannels, rechargeProblem, rechargeState, sendRecharge } from './recharge-store.ts';
import './funds.css';

/** Receipts must stay readable: larger than avatars, still small on the wire. */
const RECEIPT_MAX_SIDE = 1600;

export default function RechargeBankPage() {
  const { t } = useLingui();
  const id = idFromQuery(useSearch());
  const { channels, channelsLoaded } = useSnapshot(rechargeState);
  const channel = channels.find((item) => item.id === id && item.kind === 'bank');

  useEffect(() => {
    loadChannels().catch((error) => toast(errorText(error)));
  }, []);

  return (
    <div className="page">
      <NavBar
        title={<Trans>Bank transfer</Trans>}
        right={<RecordLink to={ROUTES.rechargeRecord} label={t`Recharge record`} />}
      />
      {channel ? (
        <TransferForm channel={channel} />
      ) : (
        channelsLoaded && <Empty>{i18n._(texts.channelUnavailable)}</Empty>
      )}
    </div>
  );
}

function TransferForm({ channel }: { channel: Readonly<RechargeChannel> }) {
  const { t } = useLingui();
  const fiat = useDisplayCurrency();
  const picker = useRef<HTMLInputElement>(null);
  const [amount, setAmount] = useState('');
  const [proof, setProof] = useState('');
  const credit = creditPreview(amount, channel.rate);
  const currency = channel.currency;
  const asset = channel.asset;
  const rate = formatExact(channel.rate);
  const minimum = formatMoney(channel.min_amount);

  const upload = useSubmit(
    async (file: File) => {
      setProof(await uploadPicture(file, RECEIPT_MAX_SIDE));
    },
    undefined,
    uploadErrorText,
  );
  const choose = async (file: File | undefined) => {
    if (!file) return;
    await upload.submit(file);
    // The same file may be chosen again after a failure.
    if (picker.current) picker.current.value = '';
  };

  const input = { kind: 'bank' as const, channel_id: String(channel.id), amount, proof };
  const { busy, submit } = useSubmit(
    async () => {
      const order = await sendRecharge(input);
      toast(i18n._(texts.submitted));
      // Back from the order goes to the list of methods, not to this filled-in form.
      forgetVisits(ROUTES.rechargeBank);
      navigate(`${ROUTES.rechargeDetails}?id=${order.id}`, { replace: true });
    },
    () => rechargeProblem(input, channel),
  );

  return (
    <Form onSubmit={submit}>
      <section className="card">
        <h2 className="funds-card-title">
          <Trans>Transfer to this account</Trans>
        </h2>
        <dl className="detail-rows">
          <Row label={<Trans>Bank</Trans>}>{channel.bank_name || channel.name}</Row>
          <Row label={<Trans>Account name</Trans>} copy={channel.account_name}>
            <bdi>{channel.account_name}</bdi>
          </Row>
          <Row label={<Trans>Account number</Trans>} copy={channel.address}>
            <Ltr className="funds-mono">{channel.address}</Ltr>
          </Row>
          <Row label={<Trans>Currency</Trans>}>{currency}</Row>
          <Row label={<Trans>Rate</Trans>}>
            <Ltr>
              1 {asset} = {rate} {currency}
            </Ltr>
          </Row>
          <Row label={<Trans>Minimum</Trans>}>
            <Ltr>
              {minimum} {currency}
            </Ltr>
          </Row>
        </dl>
      </section>

      <AmountField
        label={<Trans>Amount transferred ({currency})</Trans>}
        value={amount}
        onChange={setAmount}
        placeholder={t`At least ${minimum}`}
      />
      <div className="funds-preview">
        <span className="muted">
          <Trans>Credited after review</Trans>
        </span>
        {credit ? <Money amount={credit} asset={asset} fiat={fiat} /> : <span className="muted">—</span>}
      </div>

      <div className="field">
        <span className="funds-field-label">
          <Trans>Transfer receipt</Trans>
        </span>
        <input
          ref={picker}
          type="file"
          accept="image/*"
          hidden
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        <button type="button" className="funds-receipt" onClick={() => picker.current?.click()} disabled={upload.busy}>
          {proof ? (
            <PrivatePicture url={proof} alt={t`Transfer receipt`} />
          ) : (
            <span className="funds-receipt-empty">
              <ReceiptIcon />
              {upload.busy ? i18n._(texts.loading) : <Trans>Upload a photo or screenshot of the receipt</Trans>}
            </span>
          )}
        </button>
        {proof && (
          <button type="button" className="link-button" onClick={() => picker.current?.click()} disabled={upload.busy}>
            <Trans>Choose another picture</Trans>
          </button>
        )}
      </div>

      <Button type="submit" disabled={busy || upload.busy}>
        <Trans>Submit</Trans>
      </Button>
    </Form>
  );
}

function ReceiptIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M4 7h3l2-3h6l2 3h3v13H4zM12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z" />
    </svg>
  );
}
