// Settings (/pages/mine/setting): the profile and security rows, the language and appearance, and log out.
import { Suspense, lazy, useState } from 'react';
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { APP_VERSION } from '../../api-contract/constants.ts';
import { signOut } from '../../lib/account.ts';
import type { PushState } from '../../lib/push.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { useSecondFactorStatus } from '../../lib/two-factor.ts';
import { useAntiPhishing } from '../../lib/anti-phishing.ts';
import { Button } from '../../ui/forms.tsx';
import { Cell, ConfirmDialog } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { LanguageCell } from './LanguageCell.tsx';
import { ThemeCell } from './ThemeCell.tsx';
import { PriceColorsCell } from './PriceColorsCell.tsx';
import { shownPhone, useUser } from './profile-store.ts';
import { AvatarPicture } from './AvatarPicture.tsx';

// Its code and texts arrive when Settings opens (never with Mine, which shares the profile texts).
const NotificationsSection = lazy(async () => {
  const [section] = await Promise.all([
    import('./NotificationsSection.tsx'),
    import('../../lib/push.ts').then((push) => push.loadPushTexts()),
  ]);
  return section;
});
// The idle sign-out and the app lock: their code arrives when Settings opens.
const LockSection = lazy(() => import('./LockSection.tsx'));

export default function SettingsPage() {
  const { t } = useLingui();
  const { user } = useUser();
  const [confirming, setConfirming] = useState(false);
  const notSet = t`Not set`;
  const twoFactorOn = useSecondFactorStatus();
  const antiPhishing = useAntiPhishing();
  // Read on this device once a visit, outside the lower part's Suspense, so that the lower part's wait for it ends.
  const [deviceNotifications] = useState(() =>
    import('../../lib/push.ts').then((push) => push.pushState()).catch((): PushState => 'unsupported'),
  );

  // One log-out however often it is tapped (useSubmit's guard).
  const { busy, submit: logOut } = useSubmit(async () => {
    // Leave the guarded page first, so clearing the session does not bounce through the guard.
    navigate(ROUTES.login, { replace: true });
    // signOut ends the session on this device even when the server cannot be reached.
    await signOut();
  });

  return (
    <div className="page">
      <NavBar title={<Trans>Settings</Trans>} />
      <div className="page-body">
        <section className="card flush cells">
          <Cell
            label={<Trans>Avatar</Trans>}
            value={<AvatarPicture className="avatar small" url={user?.userimg} size={32} />}
            to={ROUTES.avatar}
          />
          <Cell
            label={<Trans>Nickname</Trans>}
            value={user?.nickname ? <bdi>{user.nickname}</bdi> : ''}
            to={ROUTES.nickname}
          />
          <Cell
            label={<Trans>Mobile number</Trans>}
            // Left to right as dialled in any language: Arabic would otherwise draw "+66 812345678" as "812345678 66+".
            value={user?.phone ? <bdi dir="ltr">{shownPhone(user.phone)}</bdi> : notSet}
            to={ROUTES.phone}
          />
        </section>
        <section className="card flush cells">
          <Cell label={<Trans>Login password</Trans>} to={ROUTES.password} />
          <Cell
            label={<Trans>Payment password</Trans>}
            value={user?.has_paypass ? t`Set` : notSet}
            to={ROUTES.tradePassword}
          />
          <Cell label={<Trans>Bank card</Trans>} to={ROUTES.bankCard} />
          <Cell
            label={<Trans>Two-factor authentication</Trans>}
            value={twoFactorOn === null ? undefined : twoFactorOn ? t`On` : t`Off`}
            to={ROUTES.twoFactor}
          />
          <Cell
            label={<Trans>Anti-phishing code</Trans>}
            value={antiPhishing.loaded ? (antiPhishing.phrase ? t`Set` : notSet) : undefined}
            to={ROUTES.antiPhishing}
          />
          <Cell label={<Trans>Passkeys</Trans>} to={ROUTES.passkeys} />
          <Cell label={<Trans>Devices</Trans>} to={ROUTES.devices} />
          <Cell label={<Trans>Sign-in history</Trans>} to={`${ROUTES.devices}?view=history`} />
          {/* The Devices page, at its Freeze my account card. */}
          <Cell label={<Trans>Freeze my account</Trans>} to={`${ROUTES.devices}?freeze=1`} />
        </section>
        <section className="card flush cells">
          <Cell label={<Trans>Limits and time-out</Trans>} to={ROUTES.protection} />
          <Cell label={<Trans>Verify my balance</Trans>} to={ROUTES.liabilities} />
          <Cell label={<Trans>My data and closing the account</Trans>} to={ROUTES.closeAccount} />
        </section>
        <section className="card flush cells">
          <Cell label={<Trans>Currency</Trans>} value={user?.currency ?? ''} to={ROUTES.currency} />
          <LanguageCell />
          <ThemeCell />
          <PriceColorsCell />
        </section>
        {/* The lock and notification sections, Log out and the version show together, once the sections' code and
            the device's notification state (a note when blocked, a row per kind when on) are in: shown apart, each
            pushed Log out down under a finger already on its way. On a phone they start below the first screen. */}
        <Suspense fallback={null}>
          <LockSection />
          <NotificationsSection deviceState={deviceNotifications} />
          <Button variant="danger" onClick={() => setConfirming(true)} disabled={busy}>
            <Trans>Log out</Trans>
          </Button>
          {/* Tapping the version opens the diagnostics for QA. */}
          <p className="app-build" dir="ltr">
            <Link href={ROUTES.diagnostics} className="muted" title={t`Diagnostics`}>
              Coinvest {APP_VERSION} · {__BUILD_ID__}
            </Link>
          </p>
        </Suspense>
      </div>
      {confirming && (
        <ConfirmDialog
          title={<Trans>Log out</Trans>}
          confirm={<Trans>Log out</Trans>}
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void logOut()}
        >
          <p>
            <Trans>Do you want to log out of this account?</Trans>
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
