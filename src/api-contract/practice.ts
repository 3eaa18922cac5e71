// Our addition: the practice account. Every customer can trade options and contracts with virtual USDT on the same
// recorded prices, under the same rules and settlement, switching between Real and Practice on the trading pages and
// Mine. Practice money lives in the ledger under assets of its own (practiceAsset) that no call moves, recharges,
// withdraws or converts, and that no real balance, exposure, house result, limit or risk figure counts.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';

/** What a practice account holds when opened and after each reset (USDT). */
export const PRACTICE_START = '10000';

export const ACCOUNTS = ['real', 'practice'] as const;
export type Account = (typeof ACCOUNTS)[number];
/** Which account a trading call is about: absent means the real one. */
export const account = v.optional(v.picklist(ACCOUNTS, texts.invalidRequest.id), 'real');

/**
 * The ledger's name for an asset of the practice account ('practice:USDT'). Only the server's ledger uses it: answers
 * name the plain asset and say `practice`.
 */
export const practiceAsset = (asset: string) => `practice:${asset}`;
export const isPracticeAsset = (asset: string) => asset.startsWith('practice:');

export const PracticeBalance = shape({
  /** The plain asset (USDT, BTC…). */
  asset: v.string(),
  available: decimal,
  frozen: decimal,
});
export type PracticeBalance = v.InferOutput<typeof PracticeBalance>;

export const PracticeAccount = shape({
  /** USDT first, then the coins held, by code. */
  balances: v.array(PracticeBalance),
  /** PRACTICE_START as a decimal. */
  start_amount: decimal,
  /** How many times it was reset. */
  resets: whole,
  opened_at: isoTime,
  reset_at: v.nullable(isoTime),
});
export type PracticeAccount = v.InferOutput<typeof PracticeAccount>;

/** The caller's practice account, opened with PRACTICE_START USDT on first use. */
export const practiceAccount = get('/users/practice', NoInput, returns(PracticeAccount), { cache: 'user' });

/**
 * Back to PRACTICE_START USDT and no coins: open practice contract orders are cancelled first; refused while a
 * practice option is open (its settlement would land on the new balance).
 */
export const resetPractice = post('/users/practice/reset', NoInput, returns(PracticeAccount));
