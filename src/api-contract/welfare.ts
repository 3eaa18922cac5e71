// Welfare: reward tasks, each paid once per user when its condition holds in the database —
// checked by the server when it is claimed, paid through the ledger.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';

/** The tasks this version knows; each names a condition the server checks. */
export const WELFARE_CODES = ['primary_certification', 'first_recharge', 'first_option', 'friend_certified'] as const;
export type WelfareCode = (typeof WELFARE_CODES)[number];

export const WELFARE_STATES = ['locked', 'claimable', 'claimed'] as const;
export type WelfareState = (typeof WELFARE_STATES)[number];

/**
 * Why a task whose condition the customer met cannot be claimed: `document_rewarded`, the identity document of the
 * primary certification was verified for another account first (a reward for a new person is paid once per person,
 * as the referral reward counts one document as one person).
 */
export const WELFARE_HOLDS = ['document_rewarded'] as const;
export type WelfareHold = (typeof WELFARE_HOLDS)[number];

export const WelfareTask = shape({
  code: v.picklist(WELFARE_CODES),
  /** POINT or USDT. */
  asset: v.string(),
  reward: decimal,
  /** How much of the condition is met, out of `target` (e.g. 0/1). */
  progress: whole,
  target: whole,
  state: v.picklist(WELFARE_STATES),
  /** Why a `locked` task cannot be claimed though its condition holds (WELFARE_HOLDS), else null. */
  held: v.nullable(v.picklist(WELFARE_HOLDS)),
  /** When it was claimed, else null. */
  claimed_at: v.nullable(isoTime),
});
export type WelfareTask = v.InferOutput<typeof WelfareTask>;

export const welfareTasks = get('/task/welfare', NoInput, returns(shape({ lists: v.array(WelfareTask) })), {
  cache: 'user',
});

const code = v.object({ code: v.picklist(WELFARE_CODES, texts.invalidRequest.id) });
/** One task, for its details page. */
export const welfareTask = get('/task/welfare/info', code, returns(WelfareTask), { cache: 'user' });

export const WelfareClaim = shape({
  code: v.picklist(WELFARE_CODES),
  asset: v.string(),
  reward: decimal,
  /** The balance of `asset` after it. */
  balance: decimal,
});
export type WelfareClaim = v.InferOutput<typeof WelfareClaim>;
/** Claims a task's reward: refused while its condition does not hold, and after it was paid. */
export const claimWelfare = post('/task/welfare/claim', code, returns(WelfareClaim));
