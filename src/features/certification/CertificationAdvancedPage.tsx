// Advanced certification (/pages/mine/Certification/advanced): only after a verified primary — until then
// 'Please complete the primary certification…' and the way to primary. Then its state, and the form while it
// was never sent or was rejected: the document's back and a photo of the user holding it.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/forms.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { CertificationStatusCard } from './CertificationStatusCard.tsx';
import { DocumentPhotoField } from './DocumentPhotoField.tsx';
import {
  advancedBlocked,
  canSubmit,
  certification,
  certificationProblem,
  loadCertification,
  submitLevel,
  type AdvancedForm,
} from './certification-store.ts';
import { ShieldIcon } from '../../ui/icons.tsx';
import './certification.css';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { certificationState } from '../../api-contract/certification.ts';

const reload = () => void loadCertification().catch(() => undefined);

export default function CertificationAdvancedPage() {
  const { state, failure } = useSnapshot(certification);
  useEffect(reload, []);

  return (
    <div className="page cert-page">
      <NavBar title={<Trans>Advanced certification</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[certificationState]} />
        {!state && failure && <LoadFailure onRetry={reload}>{failure}</LoadFailure>}
        {state && advancedBlocked(state) && (
          <section className="card cert-blocked" role="status">
            <ShieldIcon className="cert-blocked-icon" />
            <p>{i18n._(texts.primaryFirst)}</p>
            <Button onClick={() => navigate(ROUTES.certificationPrimary)}>
              <Trans>Go to primary certification</Trans>
            </Button>
          </section>
        )}
        {state && !advancedBlocked(state) && (
          <>
            <CertificationStatusCard title={<Trans>Advanced certification</Trans>} record={state.advanced} />
            {canSubmit(state.advanced) && <AdvancedCertificationForm />}
          </>
        )}
      </div>
    </div>
  );
}

function AdvancedCertificationForm() {
  const [form, setForm] = useState<AdvancedForm>({ image_back: '', image_hold: '' });
  const set = (key: keyof AdvancedForm) => (value: string) => setForm((current) => ({ ...current, [key]: value }));

  const { busy, submit } = useSubmit(
    async () => {
      await submitLevel({ level: 'advanced', form });
      toast(i18n._(texts.submitted));
    },
    () => certificationProblem({ level: 'advanced', form }, certification.state),
  );

  return (
    <form
      className="card cert-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="muted form-note">
        <Trans>
          Use the same document as for the primary certification. Make sure every corner is visible and the text is
          sharp.
        </Trans>
      </p>
      <DocumentPhotoField
        label={<Trans>Back of the document</Trans>}
        value={form.image_back}
        onChange={set('image_back')}
      />
      <DocumentPhotoField
        label={<Trans>Photo of you holding the document</Trans>}
        value={form.image_hold}
        onChange={set('image_hold')}
      />
      <Button type="submit" disabled={busy}>
        <Trans>Submit for review</Trans>
      </Button>
    </form>
  );
}
