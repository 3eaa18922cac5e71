// Web-view (/pages/index/web-view?url=): an https page of a site on the config's allowlist, in a
// sandboxed frame under a title bar with Back and "Open in browser". Any other address is refused
// with a text saying why — never a blank page, and the refused address is not made a link.
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { allowedWebViewUrl } from '../../api-contract/support.ts';
import { errorText } from '../../lib/api.ts';
import { ExternalIcon } from '../../ui/icons.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { loadSupportConfig, supportState } from './support-store.ts';
import './support.css';

export default function WebViewPage() {
  const { t } = useLingui();
  const raw = new URLSearchParams(useSearch()).get('url') ?? '';
  const { hosts, configLoaded } = useSnapshot(supportState);
  const [failure, setFailure] = useState<string | null>(null);
  const load = () => {
    setFailure(null);
    loadSupportConfig().catch((error) => setFailure(errorText(error)));
  };
  useEffect(load, []);

  const url = configLoaded ? allowedWebViewUrl(raw, hosts) : null;
  if (url) {
    return (
      <div className="page webview-page">
        <NavBar
          title={<bdi>{url.hostname}</bdi>}
          right={
            <a
              href={url.href}
              target="_blank"
              rel="noopener noreferrer"
              className="icon-button"
              aria-label={t`Open in browser`}
              title={t`Open in browser`}
            >
              <ExternalIcon className="flip-rtl" />
            </a>
          }
        />
        <iframe
          className="webview-frame"
          src={url.href}
          title={url.hostname}
          sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
          referrerPolicy="no-referrer"
        />
      </div>
    );
  }
  return (
    <div className="page support-page">
      <NavBar title={<Trans>Web page</Trans>} />
      <div className="page-body">
        {!configLoaded && failure && <LoadFailure onRetry={load}>{failure}</LoadFailure>}
        {configLoaded && (
          <section className="card webview-refused" role="alert">
            <h2>
              <Trans>This address cannot be opened in the app</Trans>
            </h2>
            <p>
              <Trans>Only secure (https) pages of the sites we trust open here. Nothing was loaded.</Trans>
            </p>
            {raw && (
              <p className="webview-refused-url" dir="ltr">
                {raw}
              </p>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
