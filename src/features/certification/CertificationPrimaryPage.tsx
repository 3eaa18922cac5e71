// Primary certification (/pages/mine/Certification/primary): the current state, and the form while
// it was never sent or was rejected — document type, name, number and a photo of the document, each required.
// Once verified, the way on to the advanced certification.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { DOCUMENT_TYPES, type DocumentType } from '../../api-contract/certification.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { useSubmit } from '../../lib/form.ts';
import { navigate } from '../../lib/navigation.ts';
import { toast } from '../../lib/toast.ts';
import { Button, Segmented, TextField } from '../../ui/forms.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { CertificationStatusCard } from './CertificationStatusCard.tsx';
import { DocumentPhotoField } from './DocumentPhotoField.tsx';
import {
  DOCUMENT_LABELS,
  STATUS_LABELS,
  canSubmit,
  certification,
  certificationProblem,
  loadCertification,
  submitLevel,
  type PrimaryForm,
} from './certification-store.ts';
import './certification.css';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import { certificationState } from '../../api-contract/certification.ts';
import { REAL_NAME_MAX, unitsFor } from '../../api-contract/constants.ts';

const reload = () => void loadCertification().catch(() => undefined);

export default function CertificationPrimaryPage() {
  const { state, failure } = useSnapshot(certification);
  useEffect(reload, []);

  return (
    <div className="page cert-page">
      <NavBar title={<Trans>Primary certification</Trans>} />
      <div className="page-body">
        <OfflineNote endpoints={[certificationState]} />
        {!state && failure && <LoadFailure onRetry={reload}>{failure}</LoadFailure>}
        {state && (
          <>
            <CertificationStatusCard title={<Trans>Primary certification</Trans>} record={state.primary} />
            {canSubmit(state.primary) && <PrimaryCertificationForm />}
            {state.primary.status === 'verified' && <AdvancedStep status={state.advanced.status} />}
          </>
        )}
      </div>
    </div>
  );
}

function AdvancedStep({ status }: { status: keyof typeof STATUS_LABELS }) {
  const label = i18n._(STATUS_LABELS[status]);
  return (
    <section className="card cert-next">
      <p>
        <Trans>
          Advanced certification: <strong>{label}</strong>
        </Trans>
      </p>
      <Button
        variant={status === 'verified' ? 'secondary' : 'primary'}
        onClick={() => navigate(ROUTES.certificationAdvanced)}
      >
        {status === 'none' || status === 'rejected' ? (
          <Trans>Continue to advanced certification</Trans>
        ) : (
          <Trans>View advanced certification</Trans>
        )}
      </Button>
    </section>
  );
}

function PrimaryCertificationForm() {
  const { t } = useLingui();
  const [form, setForm] = useState<PrimaryForm>({ doc_type: 'id_card', name: '', number: '', image: '' });
  const set = (key: keyof PrimaryForm) => (value: string) => setForm((current) => ({ ...current, [key]: value }));

  const { busy, submit } = useSubmit(
    async () => {
      await submitLevel({ level: 'primary', form });
      toast(i18n._(texts.submitted));
    },
    () => certificationProblem({ level: 'primary', form }, certification.state),
  );

  return (
    <form
      className="card cert-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="field">
        <span className="cert-field-label">
          <Trans>Document type</Trans>
        </span>
        <Segmented<DocumentType | ''>
          value={form.doc_type}
          onChange={set('doc_type')}
          options={DOCUMENT_TYPES.map((value) => ({ value, label: i18n._(DOCUMENT_LABELS[value]) }))}
        />
      </div>
      <TextField
        label={<Trans>Name</Trans>}
        value={form.name}
        onChange={set('name')}
        name="name"
        autoComplete="name"
        maxLength={unitsFor(REAL_NAME_MAX)}
        placeholder={t`Your name as on the document`}
      />
      <TextField
        label={<Trans>Document number</Trans>}
        value={form.number}
        onChange={(value) => set('number')(value.replace(/\s/g, ''))}
        name="number"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={30}
        dir="ltr"
        placeholder={t`Letters, digits and dashes`}
      />
      <DocumentPhotoField
        label={<Trans>Photo of the document (front)</Trans>}
        value={form.image}
        onChange={set('image')}
      />
      <Button type="submit" disabled={busy}>
        <Trans>Submit for review</Trans>
      </Button>
    </form>
  );
}
