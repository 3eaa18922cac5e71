// Welfare: reward tasks whose conditions the server checks in the database. A claim checks
// its condition inside its own transaction; welfare_claims' primary key pays each task once per
// user, through the ledger (kind `welfare`, reference `welfare:<code>:<userId>`).
import { serverTexts } from '../../api-contract/server-texts.ts';
import Big from 'big.js';
import { and, asc, count, eq, isNotNull, not, or, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { optionOrders, rechargeOrders, users, welfareClaims, welfareTasks } from '../db/schema.ts';
import {
  WELFARE_CODES,
  type WelfareClaim,
  type WelfareCode,
  type WelfareHold,
  type WelfareState,
  type WelfareTask,
} from '../../api-contract/welfare.ts';
import { POINTS, isWholePoints } from '../../api-contract/rewards.ts';
import { Refusal } from './refusal.ts';
import { checkRewardCap, type RewardCaps } from './reward-caps.ts';
import { holdOpenAccount, isUniqueViolation } from './accounts.ts';
import { AlreadyPosted, balanceOf, post } from './ledger.ts';
import { certifiedBefore, invitedThemselves, openFriendsOf } from './referrals.ts';
import { WELFARE_ASSETS } from '../../api-contract/console-rewards.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { changesOf, flag, type Term } from './settings.ts';
import { isPositiveAmount } from '../../api-contract/markets.ts';

/** How far a user is with a task's condition: `progress` of `target`; `held`, why a condition met cannot be claimed. */
interface Progress {
  progress: number;
  target: number;
  held?: WelfareHold;
}

const once = (n: number): Progress => ({ progress: Math.min(Number(n), 1), target: 1 });

/** Each task's condition, read from the database. */
const CONDITIONS: Record<WelfareCode, (db: Executor, userId: number) => Promise<Progress>> = {
  // The primary certification was verified by an operator, and its document for no other account before: a reward for
  // a new person is paid once per person (the referral reward's rule: one document, one person), to the account whose
  // document was verified first, whichever claims first.
  async primary_certification(db, userId) {
    const [row] = await db
      .select({ n: count(), before: sql<boolean>`bool_or(${certifiedBefore(users.id)})` })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.verification, 'verified')));
    return row?.before ? { ...once(0), held: 'document_rewarded' } : once(row?.n ?? 0);
  },
  // A recharge was credited (an operator approved it).
  async first_recharge(db, userId) {
    const [row] = await db
      .select({ n: count() })
      .from(rechargeOrders)
      .where(and(eq(rechargeOrders.userId, userId), eq(rechargeOrders.status, 'success')));
    return once(row?.n ?? 0);
  },
  // An option of real money that opened (its start price recorded): a practice one earns no real reward, and one still
  // waiting for its start tick, or voided and refunded for want of one, was never traded.
  async first_option(db, userId) {
    const [row] = await db
      .select({ n: count() })
      .from(optionOrders)
      .where(
        and(eq(optionOrders.userId, userId), eq(optionOrders.practice, false), isNotNull(optionOrders.startPriceAt)),
      );
    return once(row?.n ?? 0);
  },
  // Someone who registered with the caller's invitation code has a verified primary certification, of a document that
  // is not one of the caller's own nor verified for another account before (no new person: the referral reward's
  // rule), and their account is open. A closed account counts toward no reward: a friend who closed theirs before the
  // caller claims no longer makes the task claimable, though certified while open (a friend who left is not one the
  // caller brought); a task already claimed stays paid.
  async friend_certified(db, userId) {
    const [row] = await db
      .select({ n: count() })
      .from(users)
      .where(
        and(
          openFriendsOf(userId),
          eq(users.verification, 'verified'),
          not(or(invitedThemselves(users.id, userId), certifiedBefore(users.id))!),
        ),
      );
    return once(row?.n ?? 0);
  },
};

const isWelfareCode = (code: string): code is WelfareCode => (WELFARE_CODES as readonly string[]).includes(code);

const stateOf = (claimed: boolean, { progress, target }: Progress): WelfareState =>
  claimed ? 'claimed' : progress >= target ? 'claimable' : 'locked';

type TaskRow = typeof welfareTasks.$inferSelect;
type ClaimRow = typeof welfareClaims.$inferSelect;

function toTask(task: TaskRow, claim: ClaimRow | undefined, progress: Progress): WelfareTask {
  // A claimed task shows what was paid, even if the operator changed the reward since.
  return {
    code: task.code as WelfareCode,
    asset: claim?.asset ?? task.asset,
    reward: new Big(claim?.reward ?? task.reward).toString(),
    progress: claim ? progress.target : progress.progress,
    target: progress.target,
    state: stateOf(Boolean(claim), progress),
    held: claim ? null : (progress.held ?? null),
    claimed_at: claim ? claim.claimedAt.toISOString() : null,
  };
}

/** Every task in the table, offered or not, in the app's order. */
export const allWelfareTasks = (db: Executor) =>
  db.select().from(welfareTasks).orderBy(asc(welfareTasks.sort), asc(welfareTasks.code));

/** The active tasks this version knows, in their order, with the caller's progress and state; a claimed one stays
 * listed. */
export async function welfareTasksOf(db: Executor, userId: number): Promise<WelfareTask[]> {
  const [tasks, claims] = await Promise.all([
    allWelfareTasks(db),
    db.select().from(welfareClaims).where(eq(welfareClaims.userId, userId)),
  ]);
  const shown = tasks.filter(
    (task) => isWelfareCode(task.code) && (task.active || claims.some((claim) => claim.taskCode === task.code)),
  );
  const progress = await Promise.all(shown.map((task) => CONDITIONS[task.code as WelfareCode](db, userId)));
  return shown.map((task, index) =>
    toTask(
      task,
      claims.find((claim) => claim.taskCode === task.code),
      progress[index]!,
    ),
  );
}

/** One task for its details page; an unknown code is the refusal. */
export async function welfareTaskOf(db: Executor, userId: number, code: string): Promise<WelfareTask> {
  const task = (await welfareTasksOf(db, userId)).find((item) => item.code === code);
  if (!task) throw new Refusal(serverTexts.welfareNotOffered.id);
  return task;
}

/** The tasks this version knows, offered or not, in the app's order, as operators read them. */
export const welfareTaskList = async (db: Executor) =>
  (await allWelfareTasks(db)).filter((task) => isWelfareCode(task.code)).map(welfareTaskTerms);

type TaskChanges = Partial<Pick<TaskRow, 'reward' | 'asset' | 'active'>>;
/** What an operator changes on a task, written `term=value`: its reward, the asset it pays, whether it is offered. */
const WELFARE_TASK_TERMS: Record<string, Term<TaskChanges>> = {
  reward: { takes: isPositiveAmount, set: (row, value) => (row.reward = new Big(value).toFixed(8)) },
  asset: {
    takes: (value) => (WELFARE_ASSETS as readonly string[]).includes(value),
    set: (row, value) => (row.asset = value),
  },
  active: flag,
};

/** A task's terms as operators read and write them (the console's list, the audit log's before and after). */
export const welfareTaskTerms = (row: TaskRow) => ({
  code: row.code as WelfareCode,
  reward: row.reward,
  asset: row.asset,
  active: row.active,
});

/**
 * Changes a task for claims to come (a claim already paid keeps what it paid), with its audit entry
 * (the terms before and after), in the caller's transaction: every entry point's way in. An offered task pays at
 * most `caps` of its asset (reward-caps.ts); one above it can still be taken off offer (`active=false`).
 * @throws Refusal consoleRewardAboveCap (field `reward`) for an offered task whose reward would be above its bound.
 */
export async function changeWelfareTaskAs(
  tx: Executor,
  actor: Actor,
  code: string,
  changes: readonly string[],
  now: Date,
  caps: RewardCaps,
): Promise<TaskRow> {
  const [before] = isWelfareCode(code)
    ? await tx.select().from(welfareTasks).where(eq(welfareTasks.code, code)).for('update')
    : [];
  if (!before) throw new Refusal(consoleTexts.consoleWelfareTaskNotFound.id, { code });
  const set = changesOf(changes, WELFARE_TASK_TERMS, 'reward=50, asset=POINT|USDT or active=true|false');
  const reward = set.reward ?? before.reward;
  if ((set.asset ?? before.asset) === POINTS && !isWholePoints(reward))
    throw new Refusal(consoleTexts.consoleWelfarePoints.id, { code, reward: new Big(reward).toFixed() });
  if (set.active ?? before.active) checkRewardCap(caps, set.asset ?? before.asset, reward, 'reward');
  const [after] = await tx.update(welfareTasks).set(set).where(eq(welfareTasks.code, before.code)).returning();
  await appendAudit(
    tx,
    actor,
    'welfare.change',
    `welfare:${after!.code}`,
    { before: welfareTaskTerms(before), after: welfareTaskTerms(after!) },
    now,
  );
  return after!;
}

/** Pays a task's reward once, when its condition holds now; otherwise nothing moves. */
export async function claimTask(tx: Tx, userId: number, code: string, now: Date): Promise<WelfareClaim> {
  if (!isWelfareCode(code)) throw new Refusal(serverTexts.welfareNotOffered.id);
  const [task] = await tx
    .select()
    .from(welfareTasks)
    .where(and(eq(welfareTasks.code, code), eq(welfareTasks.active, true)));
  if (!task) throw new Refusal(serverTexts.welfareNotOffered.id);
  // A claim racing the customer's closure credits no closed account.
  await holdOpenAccount(tx, userId);
  const { progress, target, held } = await CONDITIONS[code](tx, userId);
  if (held === 'document_rewarded') throw new Refusal(serverTexts.welfareDocumentRewarded.id);
  if (progress < target) throw new Refusal(serverTexts.welfareNotYet.id);
  // A parallel claim waits here for the first one's commit, then inserts nothing.
  const inserted = await tx
    .insert(welfareClaims)
    .values({ userId, taskCode: code, asset: task.asset, reward: task.reward, claimedAt: now })
    .onConflictDoNothing()
    .returning({ code: welfareClaims.taskCode });
  if (!inserted.length) throw new Refusal(serverTexts.welfareClaimed.id);
  await post(
    tx,
    { userId, asset: task.asset, amount: task.reward, kind: 'welfare', reference: `welfare:${code}:${userId}` },
    now,
  );
  const balance = await balanceOf(tx, userId, task.asset);
  const decimals = task.asset === POINTS ? 0 : 8;
  return {
    code,
    asset: task.asset,
    reward: new Big(task.reward).toString(),
    balance: new Big(balance.available).toFixed(decimals),
  };
}

/** The claim in its own transaction; a racing claim's unique violation is the refusal, never a 500. */
export async function claimOnce(db: Executor, userId: number, code: string, now: Date): Promise<WelfareClaim> {
  try {
    return await db.transaction((tx) => claimTask(tx, userId, code, now));
  } catch (error) {
    if (error instanceof AlreadyPosted || isUniqueViolation(error)) throw new Refusal(serverTexts.welfareClaimed.id);
    throw error;
  }
}
