// Diagnostics (our addition): what this app keeps on the device and how its calls went,
// for QA and bug reports — version, service worker, caches and their age, stored records, the
// network as the app sees it, the last failed calls' request ids, the last 50 calls. Opened by tapping the version
// line; works offline.
import { useEffect, useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { callLog, type LoggedCall } from '../../lib/call-log.ts';
import { failedCalls, type FailedCall } from '../../lib/failed-calls.ts';
import { copyText } from '../../lib/clipboard.ts';
import { formatTime } from '../../lib/format.ts';
import { offlineData } from '../../lib/offline.ts';
import { outbox } from '../../lib/outbox.ts';
import { priceStream, subscribePrices, type StreamStatus } from '../../lib/prices.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { Ltr, Row } from '../../ui/records.tsx';
import { ageSeconds, type RuntimeCache, type WorkerState } from './diagnostics-report.ts';
import { formatAge, formatBytes, formatDuration } from './diagnostics-format.ts';
import {
  appFacts,
  checkForUpdate,
  clearMyCachedAnswers,
  currentReport,
  diagnostics,
  outboxItems,
  readDiagnostics,
  unregisterAndReload,
  watchServiceWorker,
  type UpdateCheck,
} from './diagnostics-store.ts';
import './diagnostics.css';

/** How often the page reads the caches and the worker again while it is open. */
const REFRESH_MS = 5000;

const STREAM_STATES: Record<StreamStatus, MessageDescriptor> = {
  idle: msg`Not running`,
  connecting: msg`Connecting`,
  live: msg`Live`,
  reconnecting: msg`Reconnecting`,
  paused: msg`Paused (page hidden)`,
};

const WORKER_STATES: Record<ServiceWorkerState, MessageDescriptor> = {
  parsed: msg`Parsed`,
  installing: msg`Installing`,
  installed: msg`Installed`,
  activating: msg`Activating`,
  activated: msg`Activated`,
  redundant: msg`Redundant`,
};

const UPDATE_TEXTS: Record<UpdateCheck, MessageDescriptor> = {
  'no-worker': msg`No service worker is registered.`,
  'up-to-date': msg`This is the latest version.`,
  found: msg`A new version was found.`,
  failed: msg`Could not check for an update.`,
};

export default function DiagnosticsPage() {
  useEffect(() => {
    const timer = setInterval(() => void readDiagnostics(), REFRESH_MS);
    // Reads at once, and again whenever the worker's state moves.
    const stopWatching = watchServiceWorker(() => void readDiagnostics());
    return () => {
      clearInterval(timer);
      stopWatching();
    };
  }, []);

  return (
    <div className="page">
      <NavBar title={<Trans>Diagnostics</Trans>} />
      <div className="page-body diagnostics">
        <AppCard />
        <ServiceWorkerCard />
        <NetworkCard />
        <OutboxCard />
        <CachesCard />
        <DeviceRecordsCard />
        <FailedCallsCard />
        <CallsCard />
      </div>
    </div>
  );
}

function Card({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section className="card diag-card">
      <h2 className="diag-title">{title}</h2>
      {children}
    </section>
  );
}

function YesNo({ value }: { value: boolean | null }) {
  if (value === null) return <Trans>Unknown</Trans>;
  return value ? <Trans>Yes</Trans> : <Trans>No</Trans>;
}

const Mono = ({ children }: { children: ReactNode }) => (
  <code className="diag-mono" dir="ltr">
    {children}
  </code>
);

function AppCard() {
  const app = appFacts();
  const copy = () => void copyText(JSON.stringify(currentReport(), null, 2));
  return (
    <Card title={<Trans>App</Trans>}>
      <dl className="detail-rows">
        <Row label={<Trans>Version</Trans>}>
          <Ltr>
            {app.version} ({app.packageVersion})
          </Ltr>
        </Row>
        <Row label={<Trans>Build</Trans>}>
          <Mono>{app.build}</Mono>
        </Row>
      </dl>
      <Button variant="secondary" onClick={copy}>
        <Trans>Copy the report (JSON)</Trans>
      </Button>
    </Card>
  );
}

function ServiceWorkerCard() {
  const { i18n } = useLingui();
  const { serviceWorker: worker } = useSnapshot(diagnostics);
  const [busy, setBusy] = useState(false);
  const state = (value: WorkerState) => (value ? i18n._(WORKER_STATES[value]) : '—');
  const check = async () => {
    setBusy(true);
    try {
      toast(i18n._(UPDATE_TEXTS[await checkForUpdate()]));
    } finally {
      setBusy(false);
    }
  };
  const unregister = () => {
    setBusy(true);
    void unregisterAndReload();
  };
  return (
    <Card title={<Trans>Service worker</Trans>}>
      {worker && (
        <dl className="detail-rows">
          <Row label={<Trans>Supported</Trans>}>
            <YesNo value={worker.supported} />
          </Row>
          <Row label={<Trans>Installing</Trans>}>{state(worker.installing)}</Row>
          <Row label={<Trans>Waiting</Trans>}>{state(worker.waiting)}</Row>
          <Row label={<Trans>Active</Trans>}>{state(worker.active)}</Row>
          <Row label={<Trans>Controls this page</Trans>}>
            <YesNo value={worker.controlling} />
          </Row>
          <Row label={<Trans>Scope</Trans>}>{worker.scope ? <Mono>{worker.scope}</Mono> : '—'}</Row>
        </dl>
      )}
      <div className="diag-actions">
        <Button variant="secondary" size="small" onClick={() => void check()} disabled={busy || !worker?.scope}>
          <Trans>Check for an update</Trans>
        </Button>
        <Button variant="danger" size="small" onClick={unregister} disabled={busy || !worker?.scope}>
          <Trans>Unregister and reload</Trans>
        </Button>
      </div>
    </Card>
  );
}

function NetworkCard() {
  const { i18n } = useLingui();
  const { online } = useSnapshot(offlineData);
  const { status } = useSnapshot(priceStream);
  const { storage } = useSnapshot(diagnostics);
  // The stream runs only while a screen uses it: this page opens it too, so its state says whether
  // it connects here and now (it sleeps while the page is hidden, like on every screen).
  useEffect(() => subscribePrices(), []);
  // navigator.onLine changes only with the browser's events, which also re-render through offlineData.
  const browserOnline = typeof navigator === 'undefined' || navigator.onLine;
  const usage = storage?.usage ?? null;
  const quota = storage?.quota ?? null;
  const used = usage === null ? null : formatBytes(usage);
  const total = quota === null ? null : formatBytes(quota);
  return (
    <Card title={<Trans>Network and storage</Trans>}>
      <dl className="detail-rows">
        <Row label={<Trans>Online (as the app sees it)</Trans>}>
          <span data-testid="diag-online">
            <YesNo value={online} />
          </span>
        </Row>
        <Row label={<Trans>Online (browser)</Trans>}>
          <YesNo value={browserOnline} />
        </Row>
        <Row label={<Trans>Price stream (opened by this page)</Trans>}>{i18n._(STREAM_STATES[status])}</Row>
        <Row label={<Trans>Storage used</Trans>}>
          {used === null ? (
            <Trans>Unknown</Trans>
          ) : total === null ? (
            <Ltr>{used}</Ltr>
          ) : (
            <Ltr>
              <Trans>
                {used} of {total}
              </Trans>
            </Ltr>
          )}
        </Row>
        <Row label={<Trans>Persistent storage</Trans>}>
          <YesNo value={storage?.persisted ?? null} />
        </Row>
      </dl>
    </Card>
  );
}

function OutboxCard() {
  useSnapshot(outbox);
  const items = outboxItems();
  return (
    <Card title={<Trans>Outbox (sent when the connection returns)</Trans>}>
      {items.length === 0 && (
        <p className="muted diag-note">
          <Trans>Nothing waits to be sent.</Trans>
        </p>
      )}
      <ul className="diag-list diag-outbox">
        {items.map((item) => {
          const count = item.messages;
          const queued = formatTime(item.queuedAt);
          return (
            <li key={`${item.queuedAt}-${count}`}>
              <span>
                {item.kind === 'price-alert' ? (
                  <Trans>Create a price alert</Trans>
                ) : item.kind === 'price-alert-delete' ? (
                  <Trans>Delete a price alert</Trans>
                ) : count === 'all' ? (
                  <Trans>Mark all messages read</Trans>
                ) : (
                  <Trans>Mark messages read: {count}</Trans>
                )}
              </span>
              <span className="muted diag-meta">
                <Trans>kept at {queued}</Trans>
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

function CachesCard() {
  const { t } = useLingui();
  const { caches, readAt } = useSnapshot(diagnostics);
  const { token } = useSnapshot(session);
  const [busy, setBusy] = useState(false);
  const now = readAt ? new Date(readAt) : new Date();
  const clear = async () => {
    setBusy(true);
    try {
      if (await clearMyCachedAnswers()) toast(t`Your cached answers were deleted.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={<Trans>Cached answers</Trans>}>
      {caches && !caches.supported && (
        <p className="muted diag-note">
          <Trans>This browser keeps no caches here (the page is not a secure context).</Trans>
        </p>
      )}
      {caches?.supported && (
        <>
          <dl className="detail-rows">
            <Row label={<Trans>App files kept (precache)</Trans>}>
              <span data-testid="diag-precache">{caches.precache ? caches.precache.entries : 0}</span>
            </Row>
          </dl>
          {caches.runtime.length === 0 && (
            <p className="muted diag-note">
              <Trans>No answers are cached.</Trans>
            </p>
          )}
          {caches.runtime.map((cache) => (
            <CacheList key={cache.name} cache={cache} now={now} />
          ))}
        </>
      )}
      <Button variant="secondary" size="small" onClick={() => void clear()} disabled={busy || !token}>
        <Trans>Clear this user's cached answers</Trans>
      </Button>
    </Card>
  );
}

function CacheList({ cache, now }: { cache: Readonly<RuntimeCache>; now: Date }) {
  const title =
    cache.kind === 'public' ? (
      <Trans>Public data</Trans>
    ) : cache.mine ? (
      <Trans>This user's answers</Trans>
    ) : cache.kind === 'user' ? (
      <Trans>Another user's answers</Trans>
    ) : (
      <Trans>Other cache</Trans>
    );
  return (
    <div className="diag-cache" data-cache={cache.name}>
      <h3 className="diag-subtitle">
        {title} <Mono>{cache.name}</Mono>
      </h3>
      <ul className="diag-list">
        {cache.entries.map((entry) => {
          const age = ageSeconds(entry.storedAt, now);
          return (
            <li key={entry.key}>
              <Mono>{entry.key}</Mono>
              <span className="muted diag-meta">{age === null ? '—' : formatAge(age)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function DeviceRecordsCard() {
  const { deviceRecords } = useSnapshot(diagnostics);
  return (
    <Card title={<Trans>Records on this device (IndexedDB)</Trans>}>
      {deviceRecords?.length === 0 && (
        <p className="muted diag-note">
          <Trans>Nothing is stored.</Trans>
        </p>
      )}
      <ul className="diag-list">
        {deviceRecords?.map((record) => (
          <li key={record.key}>
            <Mono>{record.key}</Mono>
            <span className="muted diag-meta">
              <Ltr>{formatBytes(record.size)}</Ltr>
              {record.token && (
                <>
                  {' · '}
                  <Trans>token</Trans> <Mono>{record.token}</Mono>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The request ids of the last failed calls: what support looks up in the server's log. */
function FailedCallsCard() {
  const { calls } = useSnapshot(failedCalls);
  return (
    <Card title={<Trans>Last failed calls</Trans>}>
      {calls.length === 0 && (
        <p className="muted diag-note">
          <Trans>No call has failed.</Trans>
        </p>
      )}
      <ol className="diag-list diag-failed" data-testid="diag-failed-calls">
        {[...calls].reverse().map((call) => (
          <FailedCallRow key={call.requestId} call={call} />
        ))}
      </ol>
    </Card>
  );
}

function FailedCallRow({ call }: { call: Readonly<FailedCall> }) {
  const status = call.status;
  const ret = call.ret ?? '—';
  return (
    <li>
      <Mono>
        {call.method} {call.path}
      </Mono>
      <span className="muted diag-meta">
        <Ltr>{formatTime(call.at)}</Ltr>
        {' · '}
        <Trans>HTTP {status}</Trans>
        {' · '}
        <Trans>ret {ret}</Trans>
      </span>
      <span className="diag-request-id">
        <Trans>Request id</Trans> <Mono>{call.requestId}</Mono>
        <Button variant="secondary" size="small" onClick={() => void copyText(call.requestId)}>
          <Trans>Copy</Trans>
        </Button>
      </span>
    </li>
  );
}

function CallsCard() {
  const { calls } = useSnapshot(callLog);
  const count = calls.length;
  return (
    <Card title={<Trans>Last calls ({count})</Trans>}>
      {count === 0 && (
        <p className="muted diag-note">
          <Trans>No call has been made since the app started.</Trans>
        </p>
      )}
      <ol className="diag-list diag-calls">
        {[...calls].reverse().map((call, index) => (
          <CallRow key={`${call.at}-${call.path}-${index}`} call={call} />
        ))}
      </ol>
    </Card>
  );
}

function CallRow({ call }: { call: Readonly<LoggedCall> }) {
  const status = call.status ?? '—';
  const ret = call.ret ?? '—';
  const attempts = call.attempts;
  const stored = call.storedAt ? formatTime(call.storedAt) : null;
  return (
    <li>
      <Mono>
        {call.method} {call.path}
      </Mono>
      <span className="muted diag-meta">
        <Ltr>{formatTime(call.at)}</Ltr>
        {' · '}
        <Trans>HTTP {status}</Trans>
        {' · '}
        <Trans>ret {ret}</Trans>
        {' · '}
        <Ltr>{formatDuration(call.durationMs)}</Ltr>
        {' · '}
        <Trans>attempts: {attempts}</Trans>
        {' · '}
        {stored ? (
          <Trans>from cache, stored {stored}</Trans>
        ) : call.status === null ? (
          <Trans>no answer</Trans>
        ) : (
          <Trans>from the network</Trans>
        )}
      </span>
    </li>
  );
}
