// A certification under review: the name and number given, the document's pictures side by side,
// and the decision.
import { Trans, useLingui } from '@lingui/react/macro';
import {
  consoleApproveCertification,
  consoleCertification,
  consoleRejectCertification,
} from '../api-contract/console.ts';
import { consoleApi } from './api.ts';
import { formatTime } from './format.ts';
import { ErrorLine, Facts, PrivatePicture, Status, useLoad } from './parts.tsx';
import { BackToQueues, Decision, useReviewFlow } from './review-parts.tsx';
import { ClosedTag } from './closed-account-parts.tsx';
import { CustomerLink } from './customer-history.tsx';

export function CertificationPage({ id }: { id: string }) {
  const { t } = useLingui();
  const [certification, error, reload] = useLoad(() => consoleApi(consoleCertification, { id }), id);
  const flow = useReviewFlow('certification', id, certification?.status === 'review', reload);
  const sides: Record<string, string> = { front: t`Front`, back: t`Back`, hold: t`Held by the customer` };
  return (
    <section>
      <BackToQueues />
      <ErrorLine error={error} />
      {flow.banner}
      {certification && (
        <>
          <div className="console-page-head">
            <h1>
              <Trans>
                Certification of <Username value={certification.username} />
              </Trans>
            </h1>
            {certification.closed && <ClosedTag />}
            <Status value={certification.status} />
          </div>
          <Facts
            rows={[
              [t`Customer`, <CustomerLink key="customer" of={certification} />],
              [t`Level`, certification.level],
              [t`Document`, certification.doc_type ?? ''],
              [t`Name`, certification.name],
              [t`Number`, certification.number],
              [t`Submitted`, formatTime(certification.created_at)],
              [t`Reviewed`, formatTime(certification.reviewed_at)],
              [t`Reason`, certification.reason],
            ]}
          />
          <div className="console-pictures">
            {Object.entries(certification.pictures).map(([side, upload]) => (
              <figure key={side} className="console-figure">
                <figcaption>{sides[side] ?? side}</figcaption>
                <PrivatePicture id={upload} alt={sides[side] ?? side} />
              </figure>
            ))}
          </div>
          <Decision
            onRefused={reload}
            open={certification.status === 'review'}
            onApprove={async () => {
              await consoleApi(consoleApproveCertification, { id });
              await flow.decided(t`Certification of ${certification.username} approved.`);
            }}
            onReject={async (reason) => {
              await consoleApi(consoleRejectCertification, { id, reason });
              await flow.decided(t`Certification of ${certification.username} rejected.`);
            }}
          />
        </>
      )}
    </section>
  );
}

// A username may be an e-mail address holding angle brackets: given as a prop, it stays out of the translated message,
// whose markup parser would otherwise read tags such as <0>…</0> in it.
const Username = ({ value }: { value: string }) => <bdi>{value}</bdi>;
