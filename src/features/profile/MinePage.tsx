// The Mine tab (public: no login needed): a login prompt for visitors; for a signed-in user the profile card,
// the money shortcuts (recharge, withdraw, account details) and the account menu: payout accounts,
// certification, VIP level and points, each with where it stands, and the price alerts. Offline, figures from the
// cache are marked "as of"; blank ones say why; back online (or back in the app) they are read again.
import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import Big from 'big.js';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { userInfo, type UserInfo } from '../../api-contract/account.ts';
import { balances, coinList } from '../../api-contract/markets.ts';
import { ROUTES, loginRoute } from '../../api-contract/routes.ts';
import { APP_VERSION } from '../../api-contract/constants.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { PRACTICE_START } from '../../api-contract/practice.ts';
import { refreshUser } from '../../lib/account.ts';
import { errorText } from '../../lib/api.ts';
import { availableOf, refreshBalancesOrSay, userBalances } from '../../lib/balances.ts';
import { formatAmount, formatMoney } from '../../lib/format.ts';
import { navigate } from '../../lib/navigation.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Amount } from '../../ui/Amount.tsx';
import { Button } from '../../ui/forms.tsx';
import { MineIcon, SettingsIcon } from '../../ui/icons.tsx';
import { Cell } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { useRefreshOnReturn } from '../../lib/on-return.ts';
import { TotalAssets } from '../../ui/TotalAssets.tsx';
import { LanguageCell } from './LanguageCell.tsx';
import { certificationSummary, useUser } from './profile-store.ts';
import { AvatarPicture } from './AvatarPicture.tsx';
import {
  BankCardIcon,
  BellIcon,
  CrownIcon,
  DetailsIcon,
  PointsIcon,
  RechargeIcon,
  ShieldIcon,
  WalletIcon,
  WithdrawIcon,
} from '../../ui/icons.tsx';
import './profile.css';

// The Real / Practice switch comes in a chunk of its own: its code would otherwise join the code every tab page loads
// (the trading pages share it with Mine). The card's line is the page's own, so it is in the first screen.
const PracticeSwitch = lazy(() => import('./PracticeSwitch.tsx'));

/** What practice is, then the switch and, while Practice is on, the way back to its start (loaded with the switch). */
function PracticeCard() {
  const start = formatMoney(PRACTICE_START);
  return (
    <section className="card mine-practice">
      <p className="muted">
        <Trans>
          Practise trading with <Amount value={start} unit="USDT" /> of virtual money.
        </Trans>
      </p>
      <Suspense fallback={<div className="mine-practice-space" />}>
        <PracticeSwitch />
      </Suspense>
    </section>
  );
}

/**
 * The balances behind points and total assets. A failure is said while they are blank, as the other pages say theirs
 * (offline with nothing cached: the offline text); figures already on screen stay without a word.
 */
function readBalances(): void {
  refreshBalancesOrSay((error) => toast(errorText(error)));
}

/** Mine's figures again, on return to the app or back online: the user's record (else the stored one) and balances. */
function readMine(): void {
  if (!session.token) return;
  refreshUser({ loading: false }).catch(() => undefined);
  readBalances();
}

export default function MinePage() {
  const { t } = useLingui();
  const { token, user } = useUser({ refresh: true });
  const signedIn = token !== null;
  // One cheap call the home page makes too; points and total assets stay a dash until it answers.
  useEffect(() => {
    if (token) readBalances();
  }, [token]);
  useRefreshOnReturn(readMine);

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
          <>
            {/* Offline, what is shown may be the service worker's cached answers (the prices too): say since when. */}
            <OfflineNote endpoints={[userInfo, balances, coinList]} />
            <ProfileCard user={user} />
            <section className="card mine-assets">
              <TotalAssets />
            </section>
            <MoneyShortcuts />
            <PracticeCard />
            <AccountMenu user={user} />
          </>
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
          {signedIn && (
            <Cell icon={<SettingsIcon className="cell-icon" />} label={<Trans>Settings</Trans>} to={ROUTES.settings} />
          )}
          <LanguageCell withIcon />
        </nav>
        {/* The version line opens the diagnostics (public: QA uses it logged out too). */}
        <p className="app-build" dir="ltr">
          <Link href={ROUTES.diagnostics} className="muted" title={t`Diagnostics`}>
            Coinvest {APP_VERSION} · {__BUILD_ID__}
          </Link>
        </p>
      </div>
    </div>
  );
}

function MoneyShortcuts() {
  return (
    <nav className="mine-money">
      <Link href={ROUTES.recharge}>
        <RechargeIcon />
        <Trans>Recharge</Trans>
      </Link>
      <Link href={ROUTES.withdraw}>
        <WithdrawIcon />
        <Trans>Withdraw</Trans>
      </Link>
      <Link href={ROUTES.accountDetails}>
        <DetailsIcon />
        <Trans>Account details</Trans>
      </Link>
    </nav>
  );
}

function AccountMenu({ user }: { user: Readonly<UserInfo> | null }) {
  const held = useSnapshot(userBalances);
  const points = held.updatedAt
    ? formatAmount(new Big(availableOf(held, POINTS)).round(0, Big.roundDown).toFixed(0), 0)
    : undefined;
  const level = user?.level ?? 0;
  return (
    <nav className="card flush cells">
      <Cell icon={<BankCardIcon className="cell-icon" />} label={<Trans>Bank card</Trans>} to={ROUTES.bankCard} />
      <Cell icon={<WalletIcon className="cell-icon" />} label={<Trans>Wallets</Trans>} to={ROUTES.walletList} />
      <Cell
        icon={<ShieldIcon className="cell-icon" />}
        label={<Trans>Certification</Trans>}
        value={user ? i18n._(certificationSummary(user)) : undefined}
        to={ROUTES.certificationPrimary}
      />
      <Cell
        icon={<CrownIcon className="cell-icon" />}
        label={<Trans>VIP level</Trans>}
        value={user ? <Trans>VIP {level}</Trans> : undefined}
        to={ROUTES.vipLevel}
      />
      <Cell
        icon={<PointsIcon className="cell-icon" />}
        label={<Trans>Points</Trans>}
        value={points && <span dir="ltr">{points}</span>}
        to={ROUTES.pointRecord}
      />
      <Cell icon={<BellIcon className="cell-icon" />} label={<Trans>Price alerts</Trans>} to={ROUTES.priceAlerts} />
    </nav>
  );
}

function ProfileCard({ user }: { user: Readonly<UserInfo> | null }) {
  const inviteCode = user?.invite_code ?? '—';
  const level = user?.level ?? 0;
  return (
    <section className="card profile-card">
      <AvatarPicture className="avatar" url={user?.userimg} size={64} />
      <div className="profile-card-text">
        <div className="profile-card-name">
          <strong>
            <bdi>{user?.nickname || user?.username || '—'}</bdi>
          </strong>
          {user && (
            <span className="vip-badge">
              <Trans>VIP {level}</Trans>
            </span>
          )}
        </div>
        {/* Both lines are there before the user's record has arrived too, with a dash: nothing below them moves. */}
        <span className="muted">{user?.username ?? '—'}</span>
        <span className="muted">
          <Trans>Invitation code: {inviteCode}</Trans>
        </span>
      </div>
    </section>
  );
}
