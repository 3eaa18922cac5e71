// Two-tier identity certification: where each level stands, submitting a level, and the
// rule that advanced waits for a verified primary. Pictures are uploaded as they are chosen.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  CertificationInput,
  certificationState,
  submitCertification,
  type CertificationInputType,
  type CertificationRecord,
  type CertificationState,
  type CertificationStatus,
  type DocumentType,
} from '../../api-contract/certification.ts';
import { texts } from '../../api-contract/texts.ts';
import { api, errorText } from '../../lib/api.ts';
import { refreshUser } from '../../lib/account.ts';
import { uploadPicture } from '../../lib/images.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';

/** Documents are read by a person: 1600 px keeps the small print legible and the upload small. */
export const DOCUMENT_MAX_SIDE = 1600;

export const certification = proxy({
  state: null as CertificationState | null,
  /** The last load failed: what it said. */
  failure: null as string | null,
});

let latestRequest = 0;

export async function loadCertification(): Promise<void> {
  const request = ++latestRequest;
  try {
    const state = await api(certificationState, undefined, { loading: certification.state === null });
    if (request !== latestRequest) return;
    certification.state = state;
    certification.failure = null;
  } catch (error) {
    if (request !== latestRequest) return;
    certification.failure = errorText(error);
    throw error;
  }
}

/** A level can be (re)submitted when it was never sent or was rejected. */
export const canSubmit = (record: Pick<CertificationRecord, 'status'>) =>
  record.status === 'none' || record.status === 'rejected';

/** Advanced certification starts only once primary is verified. */
export const advancedBlocked = (state: Pick<CertificationState, 'primary'>) => state.primary.status !== 'verified';

export type PrimaryForm = Omit<Extract<CertificationInputType, { level: 'primary' }>, 'level' | 'doc_type'> & {
  doc_type: DocumentType | '';
};
export type AdvancedForm = Omit<Extract<CertificationInputType, { level: 'advanced' }>, 'level'>;

/** The first rule the submission breaks (translated), or null; advanced is refused before primary is verified. */
export function certificationProblem(
  input: { level: 'primary'; form: PrimaryForm } | { level: 'advanced'; form: AdvancedForm },
  state: CertificationState | null,
): string | null {
  if (input.level === 'advanced' && (!state || advancedBlocked(state))) return i18n._(texts.primaryFirst);
  return firstError(CertificationInput, { ...input.form, level: input.level });
}

/** Sends a level for review; the answer is the new state (under review), also reflected in the user. */
export async function submitLevel(
  input: { level: 'primary'; form: PrimaryForm } | { level: 'advanced'; form: AdvancedForm },
): Promise<void> {
  const body = { ...input.form, level: input.level } as CertificationInputType;
  certification.state = await api(submitCertification, body);
  // Mine shows the status from the user info: bring it up to date without a mask.
  await refreshUser({ loading: false }).catch(() => undefined);
}

/** Shrinks and uploads a document photo; the answer is the URL the submission names. */
export const uploadDocument = (file: File) => uploadPicture(file, DOCUMENT_MAX_SIDE);

export const STATUS_LABELS: Record<CertificationStatus, MessageDescriptor> = {
  none: msg`Not certified`,
  review: msg`Under review`,
  verified: msg`Verified`,
  rejected: msg`Rejected`,
};

export const DOCUMENT_LABELS: Record<DocumentType, MessageDescriptor> = {
  id_card: msg`ID card`,
  driver_licence: msg`Driver licence`,
  passport: msg`Passport`,
};

// Another session (logout, another user) must never see this one's certification.
subscribeKey(session, 'token', () => {
  latestRequest += 1;
  certification.state = null;
  certification.failure = null;
});
