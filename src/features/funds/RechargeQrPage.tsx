// Recharge by crypto (/pages/Recharge/qrpay?id=): the deposit address as a QR code and text with a copy button,
// its chain, currency and minimum; then the amount sent and the transaction hash (at least 60
// letters and digits). The order waits for review; its details open next.
import { useEffect, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { renderSVG } from 'uqr';
import type { RechargeChannel } from '../../api-contract/funds.ts';
import { HASH_MIN_LENGTH } from '../../api-contract/constants.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { useDisplayCurrency } from '../../lib/fiat.ts';
import { useSubmit } from '../../lib/form.ts';
import { formatMoney } from '../../lib/format.ts';
import { forgetVisits, navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Form, TextField } from '../../ui/forms.tsx';
import { AmountField } from '../../ui/AmountField.tsx';
import { Empty } from '../../ui/lists.tsx';
import { Money } from '../../ui/Money.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { CopyButton, RecordLink } from '../../ui/records.tsx';
import { idFromQuery } from './funds-format.ts';
import { creditPreview, loadChannels, rechargeProblem, rechargeState, sendRecharge } from './recharge-store.ts';
import './funds.css';
import { Amount } from '../../ui/Amount.tsx';

export default function RechargeQrPage() {
  const { t } = useLingui();
  const id = idFromQuery(useSearch());
  const { channels, channelsLoaded } = useSnapshot(rechargeState);
  const channel = channels.find((item) => item.id === id && item.kind === 'crypto');

  useEffect(() => {
    loadChannels().catch((error) => toast(errorText(error)));
  }, []);

  return (
    <div className="page">
      <NavBar
        title={<Trans>Crypto deposit</Trans>}
        right={<RecordLink to={ROUTES.rechargeRecord} label={t`Recharge record`} />}
      />
      {channel ? (
        <DepositForm channel={channel} />
      ) : (
        channelsLoaded && <Empty>{i18n._(texts.channelUnavailable)}</Empty>
      )}
    </div>
  );
}

function DepositForm({ channel }: { channel: Readonly<RechargeChannel> }) {
  const { t } = useLingui();
  const fiat = useDisplayCurrency();
  const [amount, setAmount] = useState('');
  const [hash, setHash] = useState('');
  const qr = useMemo(
    () => `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(channel.address, { border: 2 }))}`,
    [channel.address],
  );
  const credit = creditPreview(amount, channel.rate);
  const minimum = formatMoney(channel.min_amount);
  const chain = channel.chain ?? '';
  const currency = channel.currency;

  // The address shown is sent with the report: recorded as where the customer paid, even if the key changed meanwhile.
  const input = {
    kind: 'crypto' as const,
    channel_id: String(channel.id),
    amount,
    hash: hash.trim(),
    address: channel.address,
  };
  const { busy, submit } = useSubmit(
    async () => {
      const order = await sendRecharge(input);
      toast(i18n._(texts.submitted));
      // Back from the order goes to the list of methods, not to this filled-in form.
      forgetVisits(ROUTES.rechargeQr);
      navigate(`${ROUTES.rechargeDetails}?id=${order.id}`, { replace: true });
    },
    () => rechargeProblem(input, channel),
  );

  return (
    <Form onSubmit={submit}>
      <section className="card funds-qr">
        <div className="funds-qr-head">
          <strong>{currency}</strong>
          {chain && <span className="funds-tag">{chain}</span>}
        </div>
        <img className="funds-qr-code" src={qr} width="200" height="200" alt={t`QR code of the deposit address`} />
        <p className="funds-address" dir="ltr">
          {channel.address}
        </p>
        <CopyButton text={channel.address} label={<Trans>Copy address</Trans>} />
        <p className="funds-warning">
          <Trans>
            Send only {currency} on the {chain} network to this address. Minimum:{' '}
            <Amount value={minimum} unit={currency} />.
          </Trans>
        </p>
      </section>

      <AmountField
        label={<Trans>Amount sent ({currency})</Trans>}
        value={amount}
        onChange={setAmount}
        placeholder={t`At least ${minimum}`}
      />
      {credit && (
        <div className="funds-preview">
          <span className="muted">
            <Trans>Credited after review</Trans>
          </span>
          <Money amount={credit} asset={channel.asset} fiat={fiat} />
        </div>
      )}
      <TextField
        label={<Trans>Transaction hash</Trans>}
        value={hash}
        onChange={(typed) => setHash(typed.replace(/\s/g, ''))}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        name="hash"
        dir="ltr"
        placeholder={t`At least ${HASH_MIN_LENGTH} letters and digits`}
      />
      <p className="muted funds-note">
        <Trans>Copy the hash (TxID) of your transfer from your wallet and paste it here.</Trans>
      </p>
      <Button type="submit" disabled={busy}>
        <Trans>Submit</Trans>
      </Button>
    </Form>
  );
}
