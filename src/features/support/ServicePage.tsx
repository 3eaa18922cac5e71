// Customer service (/pages/service/index, custom nav bar): the chat with the service team (with
// the count of answers not seen yet), the configured service link — in the web-view when it
// is an https site on the allowlist, otherwise in a new browser tab — and the FAQ, each question
// opening to its answer.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { config } from '../../api-contract/content.ts';
import { contentPage } from '../../api-contract/support.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { refreshUnreadQuietly, unread } from '../../lib/messages.ts';
import { session } from '../../lib/session.ts';
import { BuildingIcon, ChevronIcon, ExternalIcon, HeadsetIcon, InfoIcon } from '../../ui/icons.tsx';
import { icon } from '../../ui/tab-icons.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { ContentFailure, Faq, useContentPage } from './ContentArticle.tsx';
import { loadSupportConfig, serviceTarget, supportState } from './support-store.ts';
import './support.css';

/** Drawn here: only this page shows it (the shared icons' chunk is in every route's start). */
const ChatIcon = icon(<path d="M4 5h16v11H9l-5 4zm4 5h.01M12 10h.01M16 10h.01" />);

export default function ServicePage() {
  const faq = useContentPage('faq');
  return (
    <div className="page support-page">
      <NavBar title={<Trans>Customer service</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[config, contentPage]} />
        <ChatEntry />
        <ServiceLink />
        {faq.page && (
          <section className="card support-faq-card">
            <h2>{faq.page.title}</h2>
            <Faq body={faq.page.body} />
          </section>
        )}
        {!faq.page && faq.failure && <ContentFailure failure={faq.failure} retry={faq.retry} />}
        <nav className="card flush support-more">
          <Link href={ROUTES.intro} className="support-link">
            <InfoIcon />
            <span>
              <Trans>Getting started with the app</Trans>
            </span>
            <ChevronIcon className="flip-rtl" />
          </Link>
          <Link href={ROUTES.companyProfile} className="support-link">
            <BuildingIcon />
            <span>
              <Trans>Company profile</Trans>
            </span>
            <ChevronIcon className="flip-rtl" />
          </Link>
        </nav>
      </div>
    </div>
  );
}

/** The conversation with the service team; signed out, the chat asks for a login first. */
function ChatEntry() {
  const { service } = useSnapshot(unread);
  const { token } = useSnapshot(session);
  useEffect(() => {
    if (token) refreshUnreadQuietly();
  }, [token]);
  return (
    <Link href={ROUTES.serviceChat} className="card support-service support-chat-entry">
      <ChatIcon />
      <div className="support-service-text">
        <h2>
          <Trans>Chat with us</Trans>
          {token && service > 0 && <span className="count-badge">{service > 99 ? '99+' : service}</span>}
        </h2>
        <p className="muted">
          <Trans>Write to the service team in the app; answers come here, also to messages you send offline.</Trans>
        </p>
      </div>
      <ChevronIcon className="flip-rtl" />
    </Link>
  );
}

/** The configured external service (system config `service_url`), when there is one, beside the chat. */
function ServiceLink() {
  const { serviceUrl, hosts } = useSnapshot(supportState);
  useEffect(() => {
    // Not loaded (offline, say): the chat above is the way to reach the team; the link shows once known.
    loadSupportConfig().catch(() => undefined);
  }, []);

  const target = serviceTarget(serviceUrl, hosts);
  if (target.kind === 'none') return null;
  return (
    <section className="card support-service">
      <HeadsetIcon />
      <div className="support-service-text">
        <h2>
          <Trans>Online customer service</Trans>
        </h2>
      </div>
      {target.kind === 'webview' ? (
        <Link href={target.route} className="btn small">
          <Trans>Contact us</Trans>
        </Link>
      ) : (
        <a href={target.url} target="_blank" rel="noopener noreferrer" className="btn small support-external">
          <Trans>Contact us</Trans>
          <ExternalIcon />
        </a>
      )}
    </section>
  );
}
