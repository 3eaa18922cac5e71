// Where one certification level stands: not certified, under review, verified, or rejected with
// the operator's reason; what was submitted is repeated (the number partly hidden by the server).
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import type { CertificationRecord } from '../../api-contract/certification.ts';
import { formatDateTime } from '../../lib/format.ts';
import { DOCUMENT_LABELS, STATUS_LABELS } from './certification-store.ts';
import { ShieldIcon } from '../../ui/icons.tsx';
import { Verbatim } from '../../ui/Verbatim.tsx';

export function CertificationStatusCard({
  title,
  record,
}: {
  title: ReactNode;
  record: Readonly<CertificationRecord>;
}) {
  const { i18n } = useLingui();
  const submitted = record.submitted_at ? formatDateTime(record.submitted_at) : null;
  const reason = record.reason;
  return (
    <section className={`card cert-status ${record.status}`} aria-live="polite">
      <div className="cert-status-head">
        <ShieldIcon className="cert-status-icon" />
        <h2>{title}</h2>
        <span className="cert-badge">{i18n._(STATUS_LABELS[record.status])}</span>
      </div>
      {record.status === 'none' && (
        <p className="muted">
          <Trans>Verify your identity to raise your limits and protect your account.</Trans>
        </p>
      )}
      {record.status === 'review' && (
        <p className="muted">
          <Trans>Your documents were received and are being reviewed. This usually takes one working day.</Trans>
        </p>
      )}
      {record.status === 'rejected' && (
        <p className="cert-reason">
          <Trans>
            Reason: <Verbatim text={reason} />
          </Trans>
          <br />
          <span className="muted">
            <Trans>Please correct it and submit again.</Trans>
          </span>
        </p>
      )}
      {record.status !== 'none' && (record.doc_type || record.name || submitted) && (
        <dl className="cert-facts">
          {record.doc_type && (
            <div>
              <dt>
                <Trans>Document</Trans>
              </dt>
              <dd>{i18n._(DOCUMENT_LABELS[record.doc_type])}</dd>
            </div>
          )}
          {record.name && (
            <div>
              <dt>
                <Trans>Name</Trans>
              </dt>
              <dd>
                <bdi>{record.name}</bdi>
              </dd>
            </div>
          )}
          {record.number && (
            <div>
              <dt>
                <Trans>Document number</Trans>
              </dt>
              <dd dir="ltr">{record.number}</dd>
            </div>
          )}
          {submitted && (
            <div>
              <dt>
                <Trans>Submitted</Trans>
              </dt>
              <dd>
                <time dateTime={record.submitted_at ?? undefined}>{submitted}</time>
              </dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
