// The Mine tab (§2, public): a login prompt for visitors; the profile card and the account
// menu for a signed-in user. No balances are shown: there is no balance data yet.
import { Link } from 'wouter';
import { Trans, useLingui } from '@lingui/react/macro';
import type { UserInfo } from '../../contract/account.ts';
import { ROUTES, loginRoute } from '../../contract/routes.ts';
import { APP_VERSION } from '../../contract/constants.ts';
import { navigate } from '../../lib/navigation.ts';
import { Button } from '../../ui/forms.tsx';
import { MineIcon, SettingsIcon } from '../../ui/icons.tsx';
import { Cell } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { LanguageCell } from './LanguageCell.tsx';
import { avatarSrc, useUser } from './profile-store.ts';

export default function MinePage() {
  const { t } = useLingui();
  const { token, user } = useUser({ refresh: true });
  const signedIn = token !== null;

  return (
    <div className="page">
      <NavBar
        title={<Trans>Mine</Trans>}
        back={false}
        right={
          signedIn && (
            <Link href={ROUTES.settings} className="icon-button" aria-label={t`Settings`}>
              <SettingsIcon />
            </Link>
          )
        }
      />
      <div className="page-body">
        {signedIn ? (
          <ProfileCard user={user} />
        ) : (
          <section className="card profile-guest">
            <MineIcon className="profile-guest-icon" />
            <h2>
              <Trans>You are not logged in</Trans>
            </h2>
            <p className="muted">
              <Trans>Log in to trade, follow your orders and manage your account.</Trans>
            </p>
            <div className="profile-guest-actions">
              <Button onClick={() => navigate(loginRoute(ROUTES.mine))}>
                <Trans>Log in</Trans>
              </Button>
              <Button variant="secondary" onClick={() => navigate(ROUTES.register)}>
                <Trans>Register</Trans>
              </Button>
            </div>
          </section>
        )}
        <nav className="card flush cells">
          {signedIn && <Cell icon={<SettingsIcon className="cell-icon" />} label={<Trans>Settings</Trans>} to={ROUTES.settings} />}
          <LanguageCell withIcon />
        </nav>
        <p className="app-build muted" dir="ltr">
          Coinvest {APP_VERSION} · {__BUILD_ID__}
        </p>
      </div>
    </div>
  );
}

function ProfileCard({ user }: { user: Readonly<UserInfo> | null }) {
  const inviteCode = user?.invite_code ?? '—';
  const level = user?.level ?? 0;
  return (
    <section className="card profile-card">
      <img className="avatar" src={avatarSrc(user?.userimg)} alt="" width="64" height="64" />
      <div className="profile-card-text">
        <div className="profile-card-name">
          <strong>{user?.nickname || user?.username || '—'}</strong>
          {user && (
            <span className="vip-badge">
              <Trans>VIP {level}</Trans>
            </span>
          )}
        </div>
        {user && (
          <>
            <span className="muted">{user.username}</span>
            <span className="muted">
              <Trans>Invitation code: {inviteCode}</Trans>
            </span>
          </>
        )}
      </div>
    </section>
  );
}
