// The review queues for a day of volume (server/domain/review-queues.ts): each item with how long it has waited, oldest
// first, marked late past its kind's target; searched by order number or customer, a page at a time; and claims, so two
// reviewers do not work one item ("being reviewed by reviewer1"). A claim is advice for people and runs out by itself:
// the decision still locks the row (server/domain/reviews.ts), whoever holds the claim.
import * as v from 'valibot';
import { get, post, returns } from './endpoint.ts';
import { cursor, matching } from './fields.ts';
import { texts } from './texts.ts';
import { consoleTexts } from './console-texts.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';
import { CursorPaged } from './envelope.ts';

export const REVIEW_KINDS = ['recharge', 'withdrawal', 'certification'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

/**
 * How long an item may wait before it is late, in minutes, per kind: the one place these targets are set. A recharge
 * is money the customer has sent and waits to use; a withdrawal is money the customer waits for (four eyes may need
 * a second reviewer); a certification has a working day.
 */
export const QUEUE_TARGET_MINUTES: Record<ReviewKind, number> = {
  recharge: 15,
  withdrawal: 30,
  certification: 24 * 60,
};
/** A claim lasts this long; the page holding it renews it every CLAIM_RENEW_SECONDS while the reviewer works. */
export const CLAIM_MINUTES = 10;
export const CLAIM_RENEW_SECONDS = 30;
export const QUEUE_PAGE_SIZE = 50;

const reviewer = { console: 'reviewer' } as const;
const kind = v.picklist(REVIEW_KINDS, texts.invalidRequest.id);
const itemId = matching(/^\d{1,9}$/, consoleTexts.consoleRecordNotFound);

/** Who holds an item now: null when nobody does (or the claim ran out). */
export const ReviewClaim = shape({
  kind: v.picklist(REVIEW_KINDS),
  id: whole,
  holder: v.nullable(v.string()),
  /** The caller holds it. */
  mine: v.boolean(),
  claimed_at: v.nullable(isoTime),
  expires_at: v.nullable(isoTime),
});
export type ReviewClaim = v.InferOutput<typeof ReviewClaim>;

/** One item of a queue, whatever its kind. */
export const QueueItem = shape({
  id: whole,
  /** "R20261122000042" (recharges and withdrawals); '' for a certification. */
  order_no: v.string(),
  user_id: whole,
  /** The customer's username; a closed account's, the one it held when it closed (its row's is `closed:<id>`). */
  username: v.string(),
  /** The customer's account is closed (console-closures.ts): the console tags the row "Closed". */
  closed: v.boolean(),
  /** A recharge's amount in its currency, a withdrawal's in its asset; null for a certification. */
  amount: v.nullable(decimal),
  unit: v.string(),
  /** The channel of a recharge, the payee's kind of a withdrawal, the level and name of a certification. */
  detail: v.string(),
  status: v.string(),
  created_at: isoTime,
  /** Seconds it has waited by the server's clock; null once decided. */
  waiting_seconds: v.nullable(whole),
  /** Waited longer than its kind's target (QUEUE_TARGET_MINUTES). */
  late: v.boolean(),
  /** Four eyes (withdrawals, recharges): who approved so far, and how many approvals it needs; [] and 1 for the others.
   */
  approvals: v.array(v.string()),
  approvals_needed: whole,
  /** The operator who holds a live claim on it, or null. */
  claimed_by: v.nullable(v.string()),
});
export type QueueItem = v.InferOutput<typeof QueueItem>;

/**
 * A queue, oldest first (by the time each item was made, then its id), QUEUE_PAGE_SIZE items a page: `status`
 * 'waiting' (the default) or 'all'; `query` the start of an order number ("R20261122…") or of the customer's
 * username, mobile number or e-mail (the username and e-mail in any letter case or compatibility form, as login reads
 * a name; a closed account's, those it held when it closed); `cursor` a previous answer's `next` (absent for the
 * oldest). Items decided or added meanwhile neither repeat nor hide others; `total` counts the whole queue as filtered.
 */
export const consoleQueue = get(
  '/console/queue',
  v.object({
    kind,
    status: v.optional(v.picklist(['waiting', 'all'], texts.invalidRequest.id), 'waiting'),
    query: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, texts.invalidRequest.id)), ''),
    cursor,
  }),
  returns(CursorPaged(QueueItem, v.strictObject({ total: whole, target_minutes: whole }))),
  reviewer,
);

/**
 * Claims the item for the caller for CLAIM_MINUTES, or renews the caller's claim; an item another operator holds stays
 * theirs (the answer names them) unless `take_over` is '1': then it is the caller's, and the audit log says so
 * ('review.takeover'). Only an item that waits can be claimed.
 */
export const consoleClaimItem = post(
  '/console/claim',
  v.object({ kind, id: itemId, take_over: v.optional(v.picklist(['', '0', '1'], texts.invalidRequest.id), '') }),
  returns(ReviewClaim),
  reviewer,
);
/** Gives up the caller's claim (the page left without a decision); someone else's claim is left alone. */
export const consoleReleaseItem = post(
  '/console/release',
  v.object({ kind, id: itemId }),
  returns(ReviewClaim),
  reviewer,
);
/**
 * After a decision: claims the oldest item of the queue that waits and nobody else holds (a withdrawal the caller
 * approved already is left to a second reviewer), and answers it; null when there is none.
 */
export const consoleClaimNext = post(
  '/console/queue/next',
  v.object({ kind }),
  returns(v.nullable(ReviewClaim)),
  reviewer,
);
