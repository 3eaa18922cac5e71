// The console's small shared pieces: the server's lines (an error, a notice), a private picture read with the
// operator's token, the reason dialog of every rejection, a definition list, a polling hook and an action hook.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { REASON_MAX, checkRejectionReason, type OperatorRole } from '../api-contract/console.ts';
import { consoleHeaders, messageOf } from './api.ts';
import { formatShortTime, formatTime } from './format.ts';
import { activateConsoleLocale, CONSOLE_LOCALES, consoleLocale, LOCALE_NAMES, type ConsoleLocale } from './i18n.ts';

/** How often the queues' counts are asked again (live counts). */
export const QUEUES_POLL_MS = 10_000;

/** The server's words (a refusal, or why a session ended) in the language they were asked in: once the operator picks
 * another language they go (they cannot be said again in the new one) rather than standing in the old language under a
 * translated page. A new text shows, as before. */
export function ServerLine({ text, className, role }: { text: string; className: string; role: 'alert' | 'status' }) {
  const { i18n } = useLingui();
  const [madeIn, setMadeIn] = useState({ text, locale: i18n.locale });
  if (madeIn.text !== text) setMadeIn({ text, locale: i18n.locale });
  return text && madeIn.locale === i18n.locale ? (
    <p className={className} role={role}>
      {text}
    </p>
  ) : null;
}

export const ErrorLine = ({ error }: { error: string }) => (
  <ServerLine text={error} className="console-error" role="alert" />
);

/** Without a key press or a click for this long, polling pauses: an unattended console lets its session run out (30
 * minutes idle). */
const POLL_WHILE_IDLE_MS = 5 * 60_000;
let lastInput = Date.now();
for (const kind of ['pointerdown', 'keydown'] as const)
  addEventListener(kind, () => void (lastInput = Date.now()), { capture: true, passive: true });

/** Runs `load` now and every `everyMs` while the page is shown and the operator is at the console (the queues' live
 * counts). */
export function usePolling(load: () => Promise<void>, everyMs: number) {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    void latest.current();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && Date.now() - lastInput < POLL_WHILE_IDLE_MS) void latest.current();
    }, everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
}

/**
 * A guard for a page's writes: `once(call)` runs `call` unless one is running, marked in the click's own task, so a
 * second click or Enter before the re-render (`busy`) is dropped, not sent twice. Resolves `call`'s value, or
 * undefined when dropped; a failure of `call` is passed on.
 */
export function useSingleRun() {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const once = async <T,>(call: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    try {
      return await call();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, once };
}

/**
 * An action of a page (a save, an answer, a removal): busy while it runs (useSingleRun), the server's refusal as
 * `error` after, and `run` resolving true when it went through (then `after` has run too).
 */
export function useAction(after: () => Promise<void> = async () => {}) {
  const { busy, once } = useSingleRun();
  const [error, setError] = useState('');
  const run = async (call: () => Promise<unknown>): Promise<boolean> => {
    try {
      const went = await once(async () => {
        await call();
        setError('');
        await after();
        return true;
      });
      return went === true;
    } catch (failure) {
      setError(messageOf(failure));
      return false;
    }
  };
  return { busy, error, run };
}

/** Loads once (and again when `key` changes): [data, error, reload]. */
export function useLoad<T>(load: () => Promise<T>, key: string): [T | null, string, () => Promise<void>] {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const latest = useRef(load);
  latest.current = load;
  const reload = useRef(async () => {
    try {
      setData(await latest.current());
      setError('');
    } catch (failure) {
      setError(messageOf(failure));
    }
  });
  useEffect(() => {
    setData(null);
    void reload.current();
  }, [key]);
  return [data, error, reload.current];
}

/** A table of cells, row by row, or `empty` when there are no rows (the customer record, the withdrawal's history). */
export function RowsTable({
  head,
  rows,
  empty,
  className = 'console-table',
  label,
}: {
  head?: ReactNode[];
  rows: ReactNode[][];
  empty: ReactNode;
  className?: string;
  label?: string;
}) {
  if (rows.length === 0) return <p className="console-empty">{empty}</p>;
  return (
    <table className={className} data-testid={label}>
      {head && (
        <thead>
          <tr>
            {head.map((cell, column) => (
              <th key={column}>{cell}</th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>
        {rows.map((cells, index) => (
          <tr key={index}>
            {cells.map((cell, column) => (
              <td key={column}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An uploaded picture (a receipt, a document side): private, so fetched with the console token. */
export function PrivatePicture({ id, alt }: { id: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState('');
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fetch(`/api/uploads/${encodeURIComponent(id)}`, { headers: consoleHeaders() })
      .then(async (response) => {
        const type = response.headers.get('content-type') ?? '';
        if (!response.ok || !type.startsWith('image/'))
          throw new Error(
            ((await response.json().catch(() => null)) as { msg?: string } | null)?.msg ?? String(response.status),
          );
        url = URL.createObjectURL(await response.blob());
        if (live) setSrc(url);
      })
      .catch((error: unknown) => live && setFailed(messageOf(error)));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);
  if (failed) return <span className="console-picture-failed">{failed}</span>;
  if (!src) return <span className="console-picture-loading" role="img" aria-label={alt} aria-busy="true" />;
  return (
    <a className="console-picture" href={src} target="_blank" rel="noreferrer">
      <img src={src} alt={alt} />
    </a>
  );
}

/** A rejection's reason, which the customer will see: required, at most REASON_MAX characters. */
export function RejectDialog({
  title,
  onReject,
  onClose,
}: {
  title: string;
  onReject: (reason: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const { busy, once } = useSingleRun();
  const submit = async () => {
    const checked = checkRejectionReason(reason);
    if ('broken' in checked) return setError(t(checked.broken));
    try {
      await once(() => onReject(checked.reason));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <div className="console-overlay">
      <div className="console-dialog" role="dialog" aria-modal="true" aria-labelledby="reject-title" tabIndex={-1}>
        <h2 id="reject-title">{title}</h2>
        <label>
          <Trans>Reason (the customer sees it)</Trans>
          <textarea
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            rows={4}
            maxLength={REASON_MAX + 1}
            autoFocus
          />
        </label>
        <ErrorLine error={error} />
        <div className="console-actions">
          <button type="button" onClick={onClose} disabled={busy} data-dismiss>
            <Trans>Cancel</Trans>
          </button>
          <button type="button" className="danger" onClick={() => void submit()} disabled={busy}>
            <Trans>Reject</Trans>
          </button>
        </div>
      </div>
    </div>
  );
}

/** Label and value pairs of a record. */
export function Facts({ rows }: { rows: [ReactNode, ReactNode][] }) {
  return (
    <dl className="console-facts">
      {rows.map(([label, value], index) => (
        <div key={index}>
          <dt>{label}</dt>
          <dd>{value === '' || value === null ? '—' : <bdi>{value}</bdi>}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A record's status in the operator's language (the server's word when it is a new one). */
export function Status({ value }: { value: string }) {
  const { t } = useLingui();
  const names: Record<string, string> = {
    none: t`Not certified`,
    pending: t`Waiting`,
    review: t`Waiting`,
    success: t`Approved`,
    verified: t`Approved`,
    rejected: t`Rejected`,
    fail: t`Rejected`,
  };
  return <span className={`console-status console-status-${value}`}>{names[value] ?? value}</span>;
}

/** The operator roles' names in the operator's language. */
export function useRoleNames(): Record<OperatorRole, string> {
  const { t } = useLingui();
  return { reviewer: t`Reviewer`, content: t`Content`, admin: t`Admin` };
}

export function RoleName({ role }: { role: OperatorRole }) {
  return <>{useRoleNames()[role]}</>;
}

/**
 * Where a payment came from or goes, in the operator's language: a recharge's kind (crypto, bank transfer, QR code) or
 * a withdrawal's target (bank card, wallet); the server's word when it is a new one.
 */
export function usePaymentKindName(): (kind: string) => string {
  const { t } = useLingui();
  const names: Record<string, string> = {
    crypto: t`Crypto`,
    bank: t`Bank transfer`,
    qr: t`QR code`,
    wallet: t`Wallet`,
  };
  return (kind) => names[kind] ?? kind;
}

export function LanguageSwitch() {
  const { t } = useLingui();
  return (
    <select
      className="console-language"
      aria-label={t`Language`}
      value={consoleLocale()}
      onChange={(event) => void activateConsoleLocale(event.target.value as ConsoleLocale)}
    >
      {CONSOLE_LOCALES.map((locale) => (
        <option key={locale} value={locale}>
          {LOCALE_NAMES[locale]}
        </option>
      ))}
    </select>
  );
}

/** A list's short time (the hour today, the date otherwise), its full time with the UTC offset on hover. */
export function ShortTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={formatTime(iso)} className={className}>
      {formatShortTime(iso)}
    </time>
  );
}
