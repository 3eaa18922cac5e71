// Invite friends (/pages/index/share, public: no login needed): with the invitation permission,
// the link to this app's register page with the user's code filled in, its QR code, Copy, the
// system share sheet and the share text; otherwise the not-activated text and how to activate it. Both show
// how many people registered with the code and how many of them are certified, how the referral reward is computed,
// and the friends themselves (FriendList.tsx).
import { useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { renderSVG } from 'uqr';
import { config } from '../../api-contract/content.ts';
import { inviteState, referredFriends, type InviteState } from '../../api-contract/share.ts';
import { loginRoute, ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { errorText } from '../../lib/api.ts';
import { copyText } from '../../lib/clipboard.ts';
import { formatAmount } from '../../lib/format.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { CopyIcon, ShareIcon, ShieldIcon } from '../../ui/icons.tsx';
import { Empty, LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { Ltr } from '../../ui/records.tsx';
import { FriendList } from './FriendList.tsx';
import { appOrigin, canShare, loadShare, shareInvitation, shareState, shareView } from './share-store.ts';
import './share.css';

export default function SharePage() {
  const { token, user } = useSnapshot(session);
  const state = useSnapshot(shareState);
  const userId = token ? (user?.id ?? 0) : null;
  const view = shareView(userId, state, appOrigin());

  useEffect(() => {
    if (userId !== null) loadShare(userId).catch(() => undefined);
  }, [userId]);

  return (
    <div className="page share-page">
      <NavBar title={<Trans>Invite friends</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[inviteState, config, referredFriends]} />
        {view.kind === 'login' && (
          <Empty
            action={
              <Link href={loginRoute(ROUTES.share)} className="btn small">
                <Trans>Log in</Trans>
              </Link>
            }
          >
            <Trans>Log in to get your invitation link and see who joined with it.</Trans>
          </Empty>
        )}
        {view.kind === 'failed' && (
          <LoadFailure
            onRetry={() => userId !== null && void loadShare(userId).catch((error) => toast(errorText(error)))}
          >
            {view.failure}
          </LoadFailure>
        )}
        {view.kind === 'gate' && <Gate invite={view.invite} />}
        {view.kind === 'link' && <Invitation link={view.link} text={view.text} code={view.invite.code} />}
        {(view.kind === 'gate' || view.kind === 'link') && (
          <>
            <Counts invite={view.invite} />
            <FriendList rule={view.invite.reward} />
          </>
        )}
      </div>
    </div>
  );
}

/** No link until the permission is active, and what activates it. */
function Gate({ invite }: { invite: Readonly<InviteState> }) {
  return (
    <section className="card share-gate" role="status">
      <ShieldIcon />
      <p className="share-gate-text">{invite.notice || i18n._(texts.inviteNotActivated)}</p>
      <p className="muted">
        <Trans>It is activated once your primary certification is verified, or by our customer service.</Trans>
      </p>
      <Link href={ROUTES.certificationPrimary} className="btn small">
        <Trans>Primary certification</Trans>
      </Link>
    </section>
  );
}

function Invitation({ link, text, code }: { link: string; text: string; code: string }) {
  const { t } = useLingui();
  const qr = useMemo(() => `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(link, { border: 2 }))}`, [link]);
  return (
    <section className="card share-card">
      {text && (
        <p className="share-text" dir="auto">
          {text}
        </p>
      )}
      <img className="share-qr" src={qr} width="200" height="200" alt={t`QR code of your invitation link`} />
      {/* Saving the QR code says "Downloaded successfully!". */}
      <a
        className="share-save"
        href={qr}
        download="coinvest-invitation.svg"
        onClick={() => toast(i18n._(texts.downloadSuccess))}
      >
        <Trans>Save QR code</Trans>
      </a>
      <div className="share-code">
        <span className="muted">
          <Trans>Invitation code</Trans>
        </span>
        <Ltr className="share-code-value">{code}</Ltr>
      </div>
      <p className="share-link" dir="ltr">
        {link}
      </p>
      <div className="share-actions">
        <Button onClick={() => void copyText(link)}>
          <CopyIcon />
          <Trans>Copy link</Trans>
        </Button>
        {canShare() && (
          <Button
            variant="secondary"
            onClick={() => void shareInvitation(link, text).catch(() => toast(i18n._(texts.appCannotPerform)))}
          >
            <ShareIcon />
            <Trans>Share</Trans>
          </Button>
        )}
      </div>
    </section>
  );
}

function Counts({ invite }: { invite: Readonly<InviteState> }) {
  const invited = formatAmount(invite.invited, 0);
  const certified = formatAmount(invite.certified, 0);
  return (
    <section className="card share-counts" aria-live="polite">
      <div>
        <strong dir="ltr">{invited}</strong>
        <span className="muted">
          <Trans>Friends invited</Trans>
        </span>
      </div>
      <div>
        <strong dir="ltr">{certified}</strong>
        <span className="muted">
          <Trans>Of them certified</Trans>
        </span>
      </div>
    </section>
  );
}
