// Operator accounts and console sessions, apart from the customers': a name, one role, a
// password hashed like customers' (to change at the first sign-in) and a mandatory authenticator.
// Its secret is sealed with the server's two-factor key under the operator's id negated (customers'
// ids are positive: a sealed secret copied between the two tables does not open). A used code step
// cannot be used again, guessing is bounded by the customer login's rules, and a session
// ends after CONSOLE_IDLE_MINUTES without a call or at sign-out. Every change is audited.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, lt, ne } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { operatorSessions, operators, reviewClaims, serviceConversations } from '../db/schema.ts';
import { texts } from '../../api-contract/texts.ts';
import {
  COMMAND_LINE_OPERATOR,
  OPERATOR_NAME,
  OPERATOR_ROLES,
  SYSTEM_OPERATOR,
  type OperatorRole,
  type OperatorView,
} from '../../api-contract/console.ts';
import { PreparedSecrets, checkSecret, foldedUsername, hashSecret, verifySecret } from './accounts.ts';
import { guessFrom } from './login-guessing.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { DEFAULT_FOUR_EYES_USDT } from './operator-reviews.ts';
import { DEFAULT_REWARD_CAPS, type RewardCaps } from './reward-caps.ts';
import { hashToken } from './sessions.ts';
import { Refusal } from './refusal.ts';
import { LockedOut, tooManyAttempts } from './attempts.ts';
import { base32Encode, matchingStep, otpauthUri } from './totp.ts';
import { TWO_FACTOR_ISSUER } from './two-factor.ts';
import { openSecret, sealSecret } from './two-factor-key.ts';

/** CONSOLE_IDLE_MINUTES: a console session ends this long after its last call; FOUR_EYES_USDT: above it a withdrawal
 * or a recharge needs two approvers; REWARD_MAX_USDT, REWARD_MAX_POINTS: the most a reward an operator sets may pay
 * one customer (reward-caps.ts). */
export interface ConsoleSettings {
  idleMs: number;
  fourEyesUsdt: string;
  rewardCaps: RewardCaps;
}
export const DEFAULT_CONSOLE_SETTINGS: ConsoleSettings = {
  idleMs: 30 * 60_000,
  fourEyesUsdt: DEFAULT_FOUR_EYES_USDT,
  rewardCaps: DEFAULT_REWARD_CAPS,
};
type OperatorRow = typeof operators.$inferSelect;

/** The operator behind a console call. */
export interface OperatorCaller {
  id: number;
  name: string;
  role: OperatorRole;
  mustChangePassword: boolean;
  sessionId: number;
}

const sealedUnder = (operatorId: number) => -operatorId;
const passwordCounter = (name: string) => `console-password:${name}`;
/** Who acts: an operator signed in (`operator` an OperatorCaller: the session too, so its action is written only while
 * the operator is not disabled, audit-log.ts appendAudit), or an operator's row at sign-in. */
export const actorOf = (
  operator: Pick<OperatorCaller, 'id' | 'name'> & { sessionId?: number },
  address: string,
): Actor => ({
  operatorId: operator.id,
  name: operator.name,
  address,
  ...(operator.sessionId === undefined ? {} : { sessionId: operator.sessionId }),
});
export const operatorView = (row: Pick<OperatorRow, 'name' | 'role' | 'mustChangePassword'>): OperatorView => ({
  name: row.name,
  role: row.role as OperatorRole,
  must_change_password: row.mustChangePassword,
});
const shown = (row: OperatorRow) => ({
  ...operatorView(row),
  created_at: row.createdAt.toISOString(),
  disabled_at: row.disabledAt?.toISOString() ?? null,
});

async function operatorNamed(db: Executor, name: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.name, name));
  return row;
}

export interface NewOperator {
  name: string;
  role: OperatorRole;
  /** The first password, to be changed at the first sign-in: shown this once. */
  password: string;
  /** The authenticator's enrolment (what its QR code carries): shown this once. */
  uri: string;
}

/** A new operator with a random first password and a new authenticator secret. */
export async function addOperator(
  tx: Executor,
  actor: Actor,
  name: string,
  role: string,
  key: Buffer,
  now: Date,
): Promise<NewOperator> {
  // 'ops' and 'system' name the command line and the server's own findings in the audit log.
  if (!OPERATOR_NAME.test(name) || name === COMMAND_LINE_OPERATOR || name === SYSTEM_OPERATOR)
    throw new Refusal(consoleTexts.consoleOperatorNameFormat.id);
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw new Refusal(consoleTexts.consoleOperatorRole.id);
  const password = randomBytes(12).toString('base64url');
  const secret = randomBytes(20);
  const [row] = await tx
    .insert(operators)
    .values({ name, role, passwordHash: await hashSecret(password), totpSecret: '', createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new Refusal(consoleTexts.consoleOperatorTaken.id);
  await tx
    .update(operators)
    .set({ totpSecret: sealSecret(key, sealedUnder(row.id), secret) })
    .where(eq(operators.id, row.id));
  await appendAudit(tx, actor, 'operator.add', `operator:${name}`, { before: null, after: shown(row) }, now);
  return {
    name,
    role: role as OperatorRole,
    password,
    uri: otpauthUri(`${TWO_FACTOR_ISSUER} console`, name, base32Encode(secret)),
  };
}

export async function listOperators(db: Executor) {
  const rows = await db.select().from(operators).orderBy(asc(operators.name));
  return rows.map(shown);
}

/** Disables an operator (never the caller): their sessions end at once, their approvals of withdrawals still in review
 * count no more (operator-reviews.ts countingApproval), their claims on queue items end and their conversations go to
 * nobody (both named in the audit entry); the account and its audit entries stay. A caller
 * disabled meanwhile is refused (appendAudit), so two admins disabling each other leave one. */
export async function disableOperator(tx: Executor, actor: Actor, name: string, now: Date) {
  if (name === actor.name) throw new Refusal(consoleTexts.consoleDisableSelf.id);
  // The two operators' rows locked in one order, the lower id first: of two admins disabling each other at once, the
  // second waits for the first and is then refused as disabled (appendAudit), never deadlocked with it.
  await tx
    .select({ id: operators.id })
    .from(operators)
    .where(inArray(operators.name, [name, actor.name]))
    .orderBy(asc(operators.id))
    .for('update');
  const before = await operatorNamed(tx, name);
  const [after] = await tx
    .update(operators)
    .set({ disabledAt: now })
    .where(and(eq(operators.name, name), isNull(operators.disabledAt)))
    .returning();
  if (!before || !after) throw new Refusal(consoleTexts.consoleOperatorNotFound.id);
  await tx
    .update(operatorSessions)
    .set({ endedAt: now })
    .where(and(eq(operatorSessions.operatorId, after.id), isNull(operatorSessions.endedAt)));
  // What they were working on goes back to the team: their claims on queue items end (the items show unclaimed), and
  // their open conversations go to nobody (the inbox's unassigned view), so no customer waits on someone who left.
  const released = await tx
    .update(reviewClaims)
    .set({ expiresAt: now })
    .where(and(eq(reviewClaims.operatorId, after.id), gt(reviewClaims.expiresAt, now)))
    .returning({ kind: reviewClaims.kind, id: reviewClaims.itemId });
  const unassigned = await tx
    .update(serviceConversations)
    .set({ assignedTo: null })
    .where(eq(serviceConversations.assignedTo, after.id))
    .returning({ id: serviceConversations.id });
  await appendAudit(
    tx,
    actor,
    'operator.disable',
    `operator:${name}`,
    {
      before: shown(before),
      after: {
        ...shown(after),
        released_claims: released.map((claim) => `${claim.kind}:${claim.id}`).sort(),
        unassigned_conversations: unassigned.map((row) => row.id).sort((a, b) => a - b),
      },
    },
    now,
  );
  return shown(after);
}

/** Name, password, then the authenticator's code: a new console session's token (only its hash is kept). The name is
 * read in any letter case or compatibility form, as a customer's username is. Guessing is bounded by the customer
 * login's rules (domain/login-guessing.ts) for the operator's name: five wrong passwords or codes lock that address
 * out of that name for 15 minutes, and from all addresses a growing delay holds every address but those the operator
 * signed in from lately, so a guesser never locks the operator out. Each refusal is audited in its own transaction
 * (the sign-in's refuses). */
export async function signInOperator(
  db: Executor,
  given: { name: string; password: string; code: string },
  key: Buffer,
  address: string,
  now: Date,
): Promise<{ token: string; operator: OperatorView }> {
  // The name as customers' names are read (accounts.ts foldedUsername): operator names are lower-case ASCII
  // (OPERATOR_NAME), so "Erin" or a full-width "ｅｒｉｎ" is erin, and every spelling counts on erin's limits.
  const name = foldedUsername(given.name);
  const row = await operatorNamed(db, name);
  const subject = { operator: name };
  const refuse = async (action: 'failed' | 'locked', wrong: string | null, refusal: Refusal): Promise<never> => {
    await auditSignIn(db, row, given.name, address, action, wrong, now);
    throw refusal;
  };
  // An unknown name spends the same time and counts against the same limits as a wrong password. The password is no
  // proof yet: only the code after it makes the address one the operator signed in from.
  const password = await guessFrom(
    db,
    subject,
    address,
    now,
    () => verifySecret(row?.passwordHash, given.password),
    Boolean,
    false,
  );
  if (password instanceof LockedOut) return refuse('locked', null, tooManyAttempts(password.until, now));
  if (!password || !row) return refuse('failed', 'password', new Refusal(consoleTexts.consoleSignInWrong.id));
  if (row.disabledAt) return refuse('failed', 'disabled', new Refusal(consoleTexts.consoleOperatorDisabled.id));
  const code = await guessFrom(db, subject, address, now, (tx) => spendCode(tx, row, given.code, key, now), isRight);
  // Refused after the commit: the counted try stays counted.
  if (code instanceof LockedOut) return refuse('locked', null, tooManyAttempts(code.until, now));
  if (code === 'used') return refuse('failed', 'code used', new Refusal(serverTexts.authenticatorCodeUsed.id));
  if (code === 'wrong') return refuse('failed', 'code', new Refusal(texts.authenticatorCodeWrong.id));
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx
      .insert(operatorSessions)
      .values({ operatorId: row.id, tokenHash: hashToken(token), ip: address, createdAt: now, lastSeenAt: now });
    await appendAudit(
      tx,
      actorOf(row, address),
      'console.sign-in',
      `operator:${row.name}`,
      { before: null, after: { must_change_password: row.mustChangePassword } },
      now,
    );
  });
  return { token, operator: operatorView(row) };
}

/** What a refused sign-in leaves in the audit log. The typed name is the guesser's text: an operator's name is kept as
 * it is; any other is '-' (the operator and the target), and in the entry only when it has an operator name's form
 * (at most 32 of a-z 0-9 . _ -), so no one writes arbitrary text into the log by typing it. */
async function auditSignIn(
  db: Executor,
  row: OperatorRow | undefined,
  typed: string,
  address: string,
  action: 'failed' | 'locked',
  wrong: string | null,
  now: Date,
): Promise<void> {
  const name = row?.name ?? '-';
  await appendAudit(
    db,
    { operatorId: row?.id ?? null, name, address },
    `operator.sign-in.${action}`,
    `operator:${name}`,
    { before: null, after: { name: row ? row.name : OPERATOR_NAME.test(typed) ? typed : null, wrong } },
    now,
  );
}

type Outcome = 'right' | 'wrong' | 'used';
const isRight = (outcome: Outcome) => outcome === 'right';

/** The code is right, within the window, and of a step newer than the last one used. */
async function spendCode(tx: Executor, row: OperatorRow, code: string, key: Buffer, now: Date): Promise<Outcome> {
  const step = matchingStep(openSecret(key, sealedUnder(row.id), row.totpSecret), code, now);
  if (step === null) return 'wrong';
  // One statement decides: of two sign-ins with the same code, only one moves the step.
  const moved = await tx
    .update(operators)
    .set({ totpLastStep: step })
    .where(and(eq(operators.id, row.id), lt(operators.totpLastStep, step)))
    .returning({ id: operators.id });
  return moved.length ? 'right' : 'used';
}

/**
 * The operator of a console token, unless the session was ended, went unused for `idleMs`, or its
 * operator was disabled. Each call moves the session's last use (console calls are few).
 */
export async function operatorOfToken(
  db: Executor,
  token: string,
  now: Date,
  idleMs: number,
): Promise<OperatorCaller | null> {
  const [found] = await db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(
        eq(operatorSessions.tokenHash, hashToken(token)),
        isNull(operatorSessions.endedAt),
        isNull(operators.disabledAt),
      ),
    );
  if (!found) return null;
  if (now.getTime() - found.session.lastSeenAt.getTime() >= idleMs) {
    await db.update(operatorSessions).set({ endedAt: now }).where(eq(operatorSessions.id, found.session.id));
    return null;
  }
  await db.update(operatorSessions).set({ lastSeenAt: now }).where(eq(operatorSessions.id, found.session.id));
  const { operator } = found;
  return {
    id: operator.id,
    name: operator.name,
    role: operator.role as OperatorRole,
    mustChangePassword: operator.mustChangePassword,
    sessionId: found.session.id,
  };
}

export async function signOutOperator(tx: Executor, caller: OperatorCaller, address: string, now: Date): Promise<void> {
  // Written while the session is live, as every action of one is (appendAudit), then the session ends.
  await appendAudit(
    tx,
    actorOf(caller, address),
    'console.sign-out',
    `operator:${caller.name}`,
    { before: null, after: null },
    now,
  );
  await tx.update(operatorSessions).set({ endedAt: now }).where(eq(operatorSessions.id, caller.sessionId));
}

/**
 * The operator's current password verified and, when it is right, the new one hashed, before a password change's
 * transaction opens (PreparedSecrets; the route's `ahead` work): no transaction then waits for argon2id.
 * changeOperatorPassword decides as before, under the counter's row lock.
 */
export async function prepareOperatorPassword(
  db: Executor,
  caller: Pick<OperatorCaller, 'name'>,
  given: { password: string; newPassword: string },
  now: Date,
): Promise<PreparedSecrets> {
  const prepared = new PreparedSecrets();
  const row = await operatorNamed(db, caller.name);
  await prepared.verify(db, passwordCounter(caller.name), row?.passwordHash, given.password, now);
  if (prepared.allRight() && given.newPassword !== given.password) await prepared.hash(given.newPassword);
  return prepared;
}

/**
 * The current password, then a new one: the first sign-in's duty; the operator's other sessions end. `prepared`: the
 * passwords prepared before the call's transaction (prepareOperatorPassword), if they were.
 */
export async function changeOperatorPassword(
  db: Executor,
  caller: OperatorCaller,
  given: { password: string; newPassword: string },
  address: string,
  now: Date,
  prepared?: PreparedSecrets,
): Promise<OperatorView> {
  const row = (await operatorNamed(db, caller.name))!;
  await checkSecret(
    db,
    passwordCounter(caller.name),
    row.passwordHash,
    given.password,
    { text: serverTexts.wrongLoginPassword.id, field: 'password' },
    now,
    prepared,
  );
  if (given.newPassword === given.password) throw new Refusal(consoleTexts.consolePasswordSame.id);
  const passwordHash = prepared?.hashOf(given.newPassword) ?? (await hashSecret(given.newPassword));
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(operators)
      .set({ passwordHash, mustChangePassword: false })
      .where(eq(operators.id, caller.id))
      .returning();
    await tx
      .update(operatorSessions)
      .set({ endedAt: now })
      .where(
        and(
          eq(operatorSessions.operatorId, caller.id),
          ne(operatorSessions.id, caller.sessionId),
          isNull(operatorSessions.endedAt),
        ),
      );
    // The hashes stay out of the log: what changed is said, not what it is.
    await appendAudit(
      tx,
      actorOf(caller, address),
      'operator.password',
      `operator:${caller.name}`,
      { before: { must_change_password: row.mustChangePassword }, after: { must_change_password: false } },
      now,
    );
    return operatorView(after!);
  });
}
