// Two-factor authentication (opened from Settings): off, what it is and "Set up"; the
// setup (QR code, the key for typing in, the first code); the ten recovery codes, shown once; on,
// since when, the recovery codes left, new ones, and turning it off.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { errorText } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { secondFactor } from '../../lib/two-factor.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr } from '../../ui/records.tsx';
import { RecoveryCodesCard, RenewCodesForm, SetupCard, TurnOffForm } from './TwoFactorParts.tsx';
import { loadTwoFactor, startSetup, twoFactorState } from './two-factor-store.ts';
import './two-factor.css';

export default function TwoFactorPage() {
  const { status } = useSnapshot(secondFactor);
  const { setup, recoveryCodes } = useSnapshot(twoFactorState);
  const [open, setOpen] = useState<'renew' | 'off' | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    loadTwoFactor().catch((error) => toast(errorText(error)));
  }, []);

  const begin = async () => {
    setStarting(true);
    try {
      await startSetup();
    } catch (error) {
      toast(errorText(error));
    } finally {
      setStarting(false);
    }
  };

  let body;
  if (recoveryCodes) body = <RecoveryCodesCard codes={recoveryCodes} />;
  else if (setup) body = <SetupCard setup={setup} />;
  else if (status?.enabled) {
    const since = status.confirmed_at ? formatDateTime(status.confirmed_at) : '';
    const left = status.recovery_codes_left;
    body = (
      <>
        <section className="card two-factor-status">
          <p className="two-factor-state on">
            <Trans>Two-factor authentication is on</Trans>
          </p>
          {since && (
            <p className="muted form-note">
              <Trans>
                Since <Ltr>{since}</Ltr>
              </Trans>
            </p>
          )}
          <p className="form-note">
            <Trans>
              Recovery codes left: <strong>{left}</strong>
            </Trans>
          </p>
          <p className="muted form-note">
            <Trans>
              A code from your authenticator app is asked for to withdraw, to add a bank card or wallet, and to change
              your payment password or mobile number.
            </Trans>
          </p>
        </section>
        {open === 'renew' ? (
          <RenewCodesForm onCancel={() => setOpen(null)} />
        ) : open === 'off' ? (
          <TurnOffForm onCancel={() => setOpen(null)} />
        ) : (
          <>
            <Button variant="secondary" onClick={() => setOpen('renew')}>
              <Trans>New recovery codes</Trans>
            </Button>
            <Button variant="danger" onClick={() => setOpen('off')}>
              <Trans>Turn off</Trans>
            </Button>
          </>
        )}
      </>
    );
  } else if (status)
    body = (
      <section className="card two-factor-intro">
        <p className="two-factor-state">
          <Trans>Two-factor authentication is off</Trans>
        </p>
        <p className="form-note">
          <Trans>
            Protect your money with a second step: after your password, a 6-digit code from an authenticator app on your
            phone (such as Google Authenticator, Microsoft Authenticator or Authy). Even someone who knows your password
            cannot withdraw, add a payee or change your payment password without it.
          </Trans>
        </p>
        <p className="muted form-note">
          <Trans>We recommend turning it on.</Trans>
        </p>
        <Button onClick={() => void begin()} disabled={starting}>
          <Trans>Set up</Trans>
        </Button>
      </section>
    );

  return (
    <div className="page two-factor-page">
      <NavBar title={<Trans>Two-factor authentication</Trans>} />
      <div className="page-body">{body}</div>
    </div>
  );
}
