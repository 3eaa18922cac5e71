// The content role's rewards calls: the daily check-in ladder, the welfare tasks, the referral reward and the
// blind box's prizes and cost, read and changed in the console as `npm run ops -- check-in-ladder |
// welfare | prizes set | prize | blindbox-cost` changes them. Values are sent as the operator would
// write them (a ladder "5,5,10", a prize table "<name>:<asset>:<amount>:<weight>[:<stock>];…",
// `term=value` terms); which values apply is decided once, on the server (server/domain/check-in.ts,
// welfare.ts, blindbox.ts), for both entry points. Everything here applies to check-ins, claims and draws to
// come: a prize table to seeds committed from now on (server/domain/README.md, "Blind box"); nothing
// touches a draw, a seed, a claim or a balance.
import * as v from 'valibot';
import { consoleTexts } from './console-texts.ts';
import { NoInput, get, post, returns } from './endpoint.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';
import { BoxPrize, PAY_WITH } from './blindbox.ts';
import { WELFARE_CODES } from './welfare.ts';
import { POINTS } from './rewards.ts';
import { decimal, shape } from './answers.ts';
import { ReferralRule } from './share.ts';

/** A welfare task's terms: the reward, the asset it pays (POINT or USDT), whether it is offered. */
export const WELFARE_TASK_TERMS = ['reward', 'asset', 'active'] as const;
export type WelfareTaskTerm = (typeof WELFARE_TASK_TERMS)[number];
/** What a welfare task can pay in. */
export const WELFARE_ASSETS = [POINTS, 'USDT'] as const;
/** The longest prize table as written: 100 prizes of a long name each. */
export const PRIZE_TABLE_MAX = 10_000;

const content = { console: 'content' } as const;
/** A value as written; the server's rule decides whether it applies. Left out: unchanged. */
const written = (max: number) =>
  v.pipe(v.string(texts.invalidRequest.id), v.trim(), v.maxLength(max, texts.invalidRequest.id));
const termValue = v.optional(written(40));

export const ConsoleCheckInLadder = shape({ ladder: v.array(decimal) });
export const ConsoleWelfareTask = shape({
  code: v.picklist(WELFARE_CODES),
  reward: decimal,
  asset: v.string(),
  active: v.boolean(),
});
export type ConsoleWelfareTask = v.InferOutput<typeof ConsoleWelfareTask>;
export const ConsoleBlindBox = shape({
  /** The table in force, in the order a roll walks it. */
  prizes: v.array(BoxPrize),
  /** What the weights sum to: "100%" unless no table is in force. */
  odds_total: v.string(),
  /** The expected prize value of one draw, per asset. */
  expected: v.record(v.string(), decimal),
  /** The cost of one draw per way of paying; "0": that way of paying is off. */
  costs: shape({ points: decimal, usdt: decimal }),
});
export type ConsoleBlindBox = v.InferOutput<typeof ConsoleBlindBox>;

/**
 * Points per consecutive day of check-in: day 1, 2, …; the last step pays every later day of a run. The paths keep
 * their published "signin" spelling.
 */
export const consoleCheckInLadder = get('/console/signin-ladder', NoInput, returns(ConsoleCheckInLadder), content);
/** Sets the whole ladder, written "5,5,10,10,15,20,30"; answers it as it now is. */
export const consoleSetCheckInLadder = post(
  '/console/signin-ladder/set',
  v.strictObject({ ladder: written(300) }, texts.invalidRequest.id),
  returns(ConsoleCheckInLadder),
  content,
);

/** Every welfare task, offered or not. */
export const consoleWelfareTasks = get(
  '/console/welfare-tasks',
  NoInput,
  returns(v.array(ConsoleWelfareTask)),
  content,
);
/** Changes the terms sent (at least one) of one task, for claims to come; answers the task as it now is. */
export const consoleChangeWelfareTask = post(
  '/console/welfare-task',
  v.strictObject(
    {
      code: v.picklist(WELFARE_CODES, consoleTexts.consoleRecordNotFound.id),
      ...(Object.fromEntries(WELFARE_TASK_TERMS.map((term) => [term, termValue])) as Record<
        WelfareTaskTerm,
        typeof termValue
      >),
    },
    texts.invalidRequest.id,
  ),
  returns(ConsoleWelfareTask),
  content,
);

/** The prize table in force with its odds and expected value, and the cost of a draw. */
export const consoleBlindBox = get('/console/blindbox', NoInput, returns(ConsoleBlindBox), content);
/** Publishes a whole new table (its weights summing to 100 %) for seeds committed from now on; answers the blind box as
 * it now is. */
export const consolePublishPrizeTable = post(
  '/console/blindbox/prizes',
  v.strictObject({ table: written(PRIZE_TABLE_MAX) }, texts.invalidRequest.id),
  returns(ConsoleBlindBox),
  content,
);
/** Restocks a prize of the table in force: a whole number, or "unlimited". */
export const consoleRestockPrize = post(
  '/console/blindbox/restock',
  v.strictObject(
    { id: matching(/^\d{1,9}$/, consoleTexts.consoleRecordNotFound), stock: written(20) },
    texts.invalidRequest.id,
  ),
  returns(ConsoleBlindBox),
  content,
);
/** Sets the cost of a draw per way of paying sent (at least one; "0" turns it off). */
export const consoleSetDrawCost = post(
  '/console/blindbox/cost',
  v.strictObject(
    Object.fromEntries(PAY_WITH.map((pay) => [pay, termValue])) as Record<(typeof PAY_WITH)[number], typeof termValue>,
    texts.invalidRequest.id,
  ),
  returns(ConsoleBlindBox),
  content,
);

/** The referral reward: USDT credited to an inviter once per invited friend whose primary certification is verified. */
export const consoleReferralReward = get('/console/referral-reward', NoInput, returns(ReferralRule), content);
/** Sets the referral reward for friends verified from now on ("0" turns it off); answers it as it now is. */
export const consoleSetReferralReward = post(
  '/console/referral-reward/set',
  v.strictObject({ amount: written(40) }, texts.invalidRequest.id),
  returns(ReferralRule),
  content,
);
