// Welfare (§1): reward tasks, each paid once per user when its condition holds in the database —
// checked by the server when it is claimed, paid through the ledger.
import * as v from 'valibot';
import { NoInput, get, post, result } from './endpoint.ts';
import { texts } from './texts.ts';

/** The tasks this version knows; each names a condition the server checks. */
export const WELFARE_CODES = ['primary_certification', 'first_recharge', 'first_option', 'friend_certified'] as const;
export type WelfareCode = (typeof WELFARE_CODES)[number];

export type WelfareState = 'locked' | 'claimable' | 'claimed';

export interface WelfareTask {
  code: WelfareCode;
  /** POINT or USDT. */
  asset: string;
  reward: string;
  /** How much of the condition is met, out of `target` (e.g. 0/1). */
  progress: number;
  target: number;
  state: WelfareState;
  /** When it was claimed, else null. */
  claimed_at: string | null;
}

export const welfareTasks = get('/task/welfare', NoInput, result<{ lists: WelfareTask[] }>());

const code = v.object({ code: v.picklist(WELFARE_CODES, texts.invalidRequest.id) });
/** One task, for its details page. */
export const welfareTask = get('/task/welfare/info', code, result<WelfareTask>());

export interface WelfareClaim {
  code: string;
  asset: string;
  reward: string;
  /** The balance of `asset` after it. */
  balance: string;
}
/** Claims a task's reward: refused while its condition does not hold, and after it was paid. */
export const claimWelfare = post('/task/welfare/claim', code, result<WelfareClaim>());
