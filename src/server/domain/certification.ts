// Identity certification: primary, then advanced once primary is verified. Each submission
// waits for an operator, who verifies it or rejects it with a reason the customer sees; a rejected
// level can be submitted again. The user's row mirrors the state of each level.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { certifications, users } from '../db/schema.ts';
import type {
  CertificationInputType,
  CertificationLevel,
  CertificationRecord,
  CertificationState,
  CertificationStatus,
  DocumentType,
} from '../../api-contract/certification.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';
import { isUniqueViolation } from './accounts.ts';
import { holdsOnePictureTwice, ownsUploads } from './uploads.ts';
import { claimForReview, requireReason, type Reviewable } from './reviews.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { payReferralReward } from './referrals.ts';
import { queueNotice } from './notices.ts';

export type CertificationRow = typeof certifications.$inferSelect;

const statusField = (level: CertificationLevel): 'verification' | 'advancedVerification' =>
  level === 'primary' ? 'verification' : 'advancedVerification';

/** "•••••1234": a document number is never sent back whole. */
const maskNumber = (number: string) =>
  number.length <= 4 ? number : `${'•'.repeat(Math.min(8, number.length - 4))}${number.slice(-4)}`;

function toRecord(level: CertificationLevel, row: CertificationRow | undefined): CertificationRecord {
  return {
    level,
    status: (row?.status ?? 'none') as CertificationStatus,
    doc_type: (row?.docType ?? null) as DocumentType | null,
    name: row?.name ?? '',
    number: row ? maskNumber(row.number) : '',
    reason: row?.reason ?? '',
    submitted_at: row?.createdAt.toISOString() ?? null,
    reviewed_at: row?.reviewedAt?.toISOString() ?? null,
  };
}

/** The latest submission of each level. */
export async function certificationStateOf(db: Executor, userId: number): Promise<CertificationState> {
  const rows = await db
    .select()
    .from(certifications)
    .where(eq(certifications.userId, userId))
    .orderBy(desc(certifications.id));
  const latest = (level: CertificationLevel) => rows.find((row) => row.level === level);
  return { primary: toRecord('primary', latest('primary')), advanced: toRecord('advanced', latest('advanced')) };
}

export async function submitCertification(
  tx: Tx,
  userId: number,
  input: CertificationInputType,
  now: Date,
): Promise<CertificationState> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) throw new Error(`user ${userId} of a live session does not exist`);
  if (input.level === 'advanced' && user.verification !== 'verified') throw new Refusal(texts.primaryFirst.id);
  const current = user[statusField(input.level)];
  if (current === 'review') throw new Refusal(serverTexts.certificationPending.id);
  if (current === 'verified') throw new Refusal(serverTexts.certificationDone.id);

  const images: Record<string, string> =
    input.level === 'primary' ? { front: input.image } : { back: input.image_back, hold: input.image_hold };
  if (!(await ownsUploads(tx, userId, Object.values(images)))) throw new Refusal(texts.uploadDocument.id);

  // Advanced carries the document of the verified primary certification.
  const primary =
    input.level === 'advanced'
      ? (
          await tx
            .select()
            .from(certifications)
            .where(
              and(
                eq(certifications.userId, userId),
                eq(certifications.level, 'primary'),
                eq(certifications.status, 'verified'),
              ),
            )
            .orderBy(desc(certifications.id))
            .limit(1)
        )[0]
      : undefined;
  // Each photo is a picture of its own: the back, or the photo holding the document, sent as the other one or as the
  // front's photo again shows the reviewer one side of the document twice and the other never.
  const front = primary?.images.front;
  if (
    input.level === 'advanced' &&
    (await holdsOnePictureTwice(tx, [...Object.values(images), ...(front ? [front] : [])]))
  )
    throw new Refusal(serverTexts.certificationSamePicture.id);
  try {
    await tx.insert(certifications).values({
      userId,
      level: input.level,
      docType: input.level === 'primary' ? input.doc_type : (primary?.docType ?? null),
      name: input.level === 'primary' ? input.name : (primary?.name ?? ''),
      number: input.level === 'primary' ? input.number : (primary?.number ?? ''),
      images,
      status: 'review',
      createdAt: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Refusal(serverTexts.certificationPending.id);
    throw error;
  }
  await tx
    .update(users)
    .set({ [statusField(input.level)]: 'review' })
    .where(eq(users.id, userId));
  return certificationStateOf(tx, userId);
}

/**
 * Ends the certifications of `userId` still in review as its account closes, in the closing transaction (after the
 * users row is locked): each is rejected, reviewed at `now`, with `reason` (serverTexts.certificationEndedByClosure in
 * the customer's language), and the users row says 'rejected' for its level. A closed account is served no more, so
 * no operator may verify what it sent (see holdCertifiedAccount); nothing waits in the queue for it.
 */
export async function endCertificationsInReview(tx: Tx, userId: number, reason: string, now: Date): Promise<void> {
  const ended = await tx
    .update(certifications)
    .set({ status: 'rejected', reason, reviewedAt: now })
    .where(and(eq(certifications.userId, userId), eq(certifications.status, 'review')))
    .returning({ level: certifications.level });
  for (const { level } of ended)
    await tx
      .update(users)
      .set({ [statusField(level as CertificationLevel)]: 'rejected' })
      .where(eq(users.id, userId));
}

/**
 * Locks the account of certification `id` before its review claims it (the closure's order: the users row, then its
 * certifications, so a review and a closure at once wait for each other and never deadlock), and refuses
 * (consoleCertificationAccountClosed) to review a certification of a closed account: the closure ended it. A missing
 * certification is left to the claim's refusal.
 */
async function holdCertifiedAccount(tx: Tx, id: number): Promise<void> {
  const [account] = await tx
    .select({ closedAt: users.closedAt })
    .from(certifications)
    .innerJoin(users, eq(users.id, certifications.userId))
    .where(eq(certifications.id, id))
    .for('no key update', { of: users });
  if (account?.closedAt) throw new Refusal(consoleTexts.consoleCertificationAccountClosed.id, { id: String(id) });
}

/** A certification waits for review in 'review'. */
const submissions: Reviewable = {
  table: certifications,
  id: certifications.id,
  waiting: 'review',
  missing: consoleTexts.consoleCertificationNotFound,
  reviewed: consoleTexts.consoleCertificationReviewed,
};
const claimInReview = (tx: Tx, id: number) => claimForReview<CertificationRow>(tx, submissions, id);

/**
 * The operator verifies certification `id`: the users row says 'verified' for its level, the customer is told, and a
 * primary one pays the inviter's referral reward. Refuses a certification of a closed account
 * (consoleCertificationAccountClosed), a missing one and one no longer in review.
 */
export async function verifyCertification(tx: Tx, id: number, now: Date): Promise<CertificationRow> {
  await holdCertifiedAccount(tx, id);
  const row = await claimInReview(tx, id);
  const level = row.level as CertificationLevel;
  await tx
    .update(users)
    .set({ [statusField(level)]: 'verified' })
    .where(eq(users.id, row.userId));
  const [updated] = await tx
    .update(certifications)
    .set({ status: 'verified', reviewedAt: now })
    .where(eq(certifications.id, id))
    .returning();
  await queueNotice(tx, row.userId, { kind: 'certification_reviewed', level, approved: true, reason: '' }, now);
  // The inviter's referral reward waits for exactly this: the friend's primary certification verified.
  if (level === 'primary') await payReferralReward(tx, row.userId, now);
  return updated!;
}

/**
 * The operator rejects certification `id` with `reason`, which the customer sees; the same refusals as
 * verifyCertification, and one for a missing reason.
 */
export async function rejectCertification(tx: Tx, id: number, reason: string, now: Date): Promise<CertificationRow> {
  const why = requireReason(reason);
  await holdCertifiedAccount(tx, id);
  const row = await claimInReview(tx, id);
  await tx
    .update(users)
    .set({ [statusField(row.level as CertificationLevel)]: 'rejected' })
    .where(eq(users.id, row.userId));
  const [updated] = await tx
    .update(certifications)
    .set({ status: 'rejected', reason: why, reviewedAt: now })
    .where(eq(certifications.id, id))
    .returning();
  await queueNotice(
    tx,
    row.userId,
    { kind: 'certification_reviewed', level: row.level as CertificationLevel, approved: false, reason: why },
    now,
  );
  return updated!;
}

/** Submissions waiting for review (or any status), oldest first: the operator's queue. */
export async function certificationQueue(db: Executor, status: CertificationStatus | 'all') {
  return db
    .select()
    .from(certifications)
    .where(status === 'all' ? undefined : eq(certifications.status, status))
    .orderBy(asc(certifications.id))
    .limit(100);
}
