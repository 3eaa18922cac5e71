// Two-tier identity certification: primary (document type, name, number, photo; every field required),
// then advanced (only once primary is verified: the document's back and a photo holding it).
// An operator reviews each submission; a rejection carries a reason the user sees.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { UPLOAD_URL, required } from './fields.ts';
import { groupedNumber } from './grouped-number.ts';
import { texts } from './texts.ts';
import { personName } from './visible-text.ts';
import { isoTime, shape } from './answers.ts';
import { VERIFICATION_STATUSES } from './constants.ts';

export const DOCUMENT_TYPES = ['id_card', 'driver_licence', 'passport'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const CERTIFICATION_LEVELS = ['primary', 'advanced'] as const;
export type CertificationLevel = (typeof CERTIFICATION_LEVELS)[number];
/** Not certified → under review → verified, or rejected (with a reason) and open to a new try. */
export type CertificationStatus = (typeof VERIFICATION_STATUSES)[number];

const picture = v.pipe(required(texts.uploadDocument), v.regex(UPLOAD_URL, texts.uploadDocument.id));

export const CertificationInput = v.variant(
  'level',
  [
    v.object({
      level: v.literal('primary'),
      doc_type: v.picklist(DOCUMENT_TYPES, texts.chooseDocument.id),
      name: personName(texts.fillInformation),
      /** Latin letters, digits of any of the six languages' scripts and dashes, 4 to 30 once the spaces it is written
       * with are removed, at least 4 of them letters or digits (dashes only group a number). */
      number: v.pipe(
        required(texts.fillInformation),
        groupedNumber(/\s/g),
        v.regex(/^(?=(?:-*[A-Za-z0-9]){4})[A-Za-z0-9-]{4,30}$/, texts.fillInformation.id),
      ),
      image: picture,
    }),
    v.object({
      level: v.literal('advanced'),
      image_back: picture,
      image_hold: picture,
    }),
  ],
  texts.invalidRequest.id,
);
export type CertificationInputType = v.InferInput<typeof CertificationInput>;

export const CertificationRecord = shape({
  level: v.picklist(CERTIFICATION_LEVELS),
  status: v.picklist(VERIFICATION_STATUSES),
  doc_type: v.nullable(v.picklist(DOCUMENT_TYPES)),
  name: v.string(),
  /** The document number with all but its last four characters hidden. */
  number: v.string(),
  reason: v.string(),
  submitted_at: v.nullable(isoTime),
  reviewed_at: v.nullable(isoTime),
});
export type CertificationRecord = v.InferOutput<typeof CertificationRecord>;

export const CertificationState = shape({
  primary: CertificationRecord,
  advanced: CertificationRecord,
});
export type CertificationState = v.InferOutput<typeof CertificationState>;

export const submitCertification = post('/users/levelauth', CertificationInput, returns(CertificationState));
/** Our addition: where each level stands, with the reason of a rejection. */
export const certificationState = get('/users/levelauth/info', NoInput, returns(CertificationState), { cache: 'user' });
