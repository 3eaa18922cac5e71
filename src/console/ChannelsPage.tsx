// The admin's Deposit channels page: each crypto recharge channel's extended public key (decision 0011), under which
// each customer is shown a deposit address of their own. A key typed is first checked by the server (its fingerprint
// and the address customer 1 would be shown, to compare with the wallet's) and only then saved; saving an empty field
// clears it. Each change is audited by the server with the keys' fingerprints.
import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  SAMPLE_CUSTOMER_ID,
  consolePreviewChannelKey,
  consoleRechargeChannels,
  consoleSetChannelKey,
  type ChannelKeyPreview,
  type ConsoleRechargeChannel,
} from '../api-contract/console-channels.ts';
import { consoleApi } from './api.ts';
import { ErrorLine, useAction, useLoad } from './parts.tsx';

export function ChannelsPage() {
  const [channels, error, reload] = useLoad(() => consoleApi(consoleRechargeChannels), 'channels');
  return (
    <section className="console-channels">
      <h1>
        <Trans>Deposit channels</Trans>
      </h1>
      <p className="console-notice">
        <Trans>
          A crypto channel with an extended public key shows each customer a deposit address of their own, derived from
          it. Changing the key changes the address every customer is shown from then on; recharges already reported keep
          the address they recorded. A customer who copied the old address may still pay to it: keep the old wallet
          watched. Without a key every customer is shown the channel’s one address.
        </Trans>
      </p>
      <ErrorLine error={error} />
      {channels
        ?.filter((channel) => channel.chain)
        .map((channel) => (
          <ChannelKey key={channel.id} channel={channel} onSaved={reload} />
        ))}
    </section>
  );
}

function ChannelKey({ channel, onSaved }: { channel: ConsoleRechargeChannel; onSaved: () => Promise<void> }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState(channel.xpub ?? '');
  // What the server read of the field as it is now; typing again asks for a new check before saving.
  const [checked, setChecked] = useState<{ key: string; preview: ChannelKeyPreview | null } | null>(null);
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction(onSaved);
  const key = typed.trim();
  const unchanged = key === (channel.xpub ?? '');
  const ready = checked?.key === key && !unchanged;
  const check = () =>
    run(async () => {
      setDone(false);
      const preview = key ? await consoleApi(consolePreviewChannelKey, { id: String(channel.id), xpub: key }) : null;
      setChecked({ key, preview });
    });
  const save = () =>
    run(async () => {
      try {
        await consoleApi(consoleSetChannelKey, { id: String(channel.id), xpub: key, replaces: channel.xpub ?? '' });
      } catch (failure) {
        // Refused (another admin's change meanwhile among the reasons): the page reads the key now in force.
        await onSaved();
        throw failure;
      }
      setChecked(null);
      setDone(true);
    });
  const customer = SAMPLE_CUSTOMER_ID;
  const inForce = channel.fingerprint;
  const shared = channel.address;
  const fingerprint = checked?.preview?.fingerprint;
  const address = checked?.preview?.sample_address;
  return (
    <article className="console-channel" aria-label={channel.name}>
      <h2>
        {channel.name}
        {!channel.name.includes(channel.chain!) && <span className="console-muted"> {channel.chain}</span>}
        {!channel.active && (
          <span className="console-muted">
            {' '}
            <Trans>(not offered)</Trans>
          </span>
        )}
      </h2>
      <dl className="console-channel-key">
        <dt>
          <Trans>Key in force</Trans>
        </dt>
        <dd>{inForce ? t`Fingerprint ${inForce}` : t`None`}</dd>
        <dt>{channel.sample_address ? t`Customer ${customer} is shown` : t`Every customer is shown`}</dt>
        <dd className="console-address">{channel.sample_address ?? channel.address}</dd>
      </dl>
      <label>
        <Trans>Extended public key (xpub…), empty for none</Trans>
        <textarea
          rows={4}
          spellCheck={false}
          autoComplete="off"
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
            setDone(false);
          }}
        />
      </label>
      {ready && (
        <p className="console-four-eyes" role="status">
          {checked.preview ? (
            <Trans>
              Fingerprint {fingerprint}. Customer {customer} will be shown{' '}
              <span className="console-address">{address}</span>: check that your wallet shows this address at …/0/
              {customer} of the account before saving.
            </Trans>
          ) : (
            <Trans>
              Without a key every customer will be shown the channel’s one address:{' '}
              <span className="console-address">{shared}</span>.
            </Trans>
          )}
        </p>
      )}
      <ErrorLine error={error} />
      {done && !error && (
        <p className="console-saved" role="status">
          <Trans>Saved. Customers are shown their new address from now on.</Trans>
        </p>
      )}
      <div className="console-actions">
        <button type="button" disabled={busy || unchanged} onClick={() => void check()}>
          <Trans>Check the key</Trans>
        </button>
        <button type="button" className="primary" disabled={busy || !ready} onClick={() => void save()}>
          {key ? <Trans>Save the key</Trans> : <Trans>Remove the key</Trans>}
        </button>
      </div>
    </article>
  );
}
