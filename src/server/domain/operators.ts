// Operator accounts and console sessions, apart from the customers': a name, one role, a
// password hashed like customers' (to change at the first sign-in) and a mandatory authenticator.
// Its secret is sealed with the server's two-factor key under the operator's id negated (customers'
// ids are positive: a sealed secret copied between the two tables does not open). A used code step
// cannot be used again, guessing is bounded by the same counters as customers', and a session
// ends after CONSOLE_IDLE_MINUTES without a call or at sign-out. Every change is audited.
import { serverTexts } from '../../contract/server-texts.ts';
import { consoleTexts } from '../../contract/console-texts.ts';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, lt, ne } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { operatorSessions, operators } from '../db/schema.ts';
import { texts } from '../../contract/texts.ts';
import {
  COMMAND_LINE_OPERATOR,
  OPERATOR_NAME,
  OPERATOR_ROLES,
  type OperatorRole,
  type OperatorView,
} from '../../contract/console.ts';
import { checkSecret, hashSecret } from './accounts.ts';
import { clearAttempts, countAttempt, holdCounter, isLimited } from './attempts.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { DEFAULT_FOUR_EYES_USDT } from './operator-reviews.ts';
import { hashToken } from './sessions.ts';
import { Refusal } from './refusal.ts';
import { base32Encode, matchingStep, otpauthUri } from './totp.ts';
import { SECOND_FACTOR_LIMIT, TWO_FACTOR_ISSUER } from './two-factor.ts';
import { openSecret, sealSecret } from './two-factor-key.ts';

/** CONSOLE_IDLE_MINUTES: a console session ends this long after its last call; FOUR_EYES_USDT: above it a withdrawal
 * needs two approvers. */
export interface ConsoleSettings {
  idleMs: number;
  fourEyesUsdt: string;
}
export const DEFAULT_CONSOLE_SETTINGS: ConsoleSettings = { idleMs: 30 * 60_000, fourEyesUsdt: DEFAULT_FOUR_EYES_USDT };
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
const codeCounter = (operatorId: number) => `console-code:${operatorId}`;
export const actorOf = (operator: Pick<OperatorCaller, 'id' | 'name'>, address: string): Actor => ({
  operatorId: operator.id,
  name: operator.name,
  address,
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
  if (!OPERATOR_NAME.test(name) || name === COMMAND_LINE_OPERATOR)
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

/** Disables an operator (never the caller): their sessions end at once; the account and its audit entries stay. */
export async function disableOperator(tx: Executor, actor: Actor, name: string, now: Date) {
  if (name === actor.name) throw new Refusal(consoleTexts.consoleDisableSelf.id);
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
  await appendAudit(
    tx,
    actor,
    'operator.disable',
    `operator:${name}`,
    { before: shown(before), after: shown(after) },
    now,
  );
  return shown(after);
}

/** Name, password, then the authenticator's code: a new console session's token (only its hash is kept). */
export async function signInOperator(
  db: Executor,
  given: { name: string; password: string; code: string },
  key: Buffer,
  address: string,
  now: Date,
): Promise<{ token: string; operator: OperatorView }> {
  const row = await operatorNamed(db, given.name);
  // An unknown name spends the same time and counts against the same limit as a wrong password.
  await checkSecret(
    db,
    passwordCounter(given.name),
    row?.passwordHash,
    given.password,
    consoleTexts.consoleSignInWrong.id,
    now,
  );
  if (!row) throw new Refusal(consoleTexts.consoleSignInWrong.id);
  if (row.disabledAt) throw new Refusal(consoleTexts.consoleOperatorDisabled.id);
  await spendCode(db, row, given.code, key, now);
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

type Outcome = 'right' | 'wrong' | 'used' | 'limited';

/** The code is right, within the window, and of a step newer than the last one used; a wrong or replayed one is
 * counted. */
async function spendCode(db: Executor, row: OperatorRow, code: string, key: Buffer, now: Date): Promise<void> {
  const counter = codeCounter(row.id);
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    await holdCounter(tx, counter, SECOND_FACTOR_LIMIT, now);
    if (await isLimited(tx, counter, SECOND_FACTOR_LIMIT, now)) return 'limited';
    const step = matchingStep(openSecret(key, sealedUnder(row.id), row.totpSecret), code, now);
    let result: Outcome = 'wrong';
    if (step !== null) {
      // One statement decides: of two sign-ins with the same code, only one moves the step.
      const moved = await tx
        .update(operators)
        .set({ totpLastStep: step })
        .where(and(eq(operators.id, row.id), lt(operators.totpLastStep, step)))
        .returning({ id: operators.id });
      result = moved.length ? 'right' : 'used';
    }
    if (result === 'right') await clearAttempts(tx, counter);
    else await countAttempt(tx, counter, SECOND_FACTOR_LIMIT, now);
    return result;
  });
  // Refused after the commit: the counted try stays counted.
  if (outcome === 'limited') throw new Refusal(texts.tooManyAttempts.id);
  if (outcome === 'used') throw new Refusal(serverTexts.authenticatorCodeUsed.id);
  if (outcome === 'wrong') throw new Refusal(texts.authenticatorCodeWrong.id);
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
  await tx.update(operatorSessions).set({ endedAt: now }).where(eq(operatorSessions.id, caller.sessionId));
  await appendAudit(
    tx,
    actorOf(caller, address),
    'console.sign-out',
    `operator:${caller.name}`,
    { before: null, after: null },
    now,
  );
}

/** The current password, then a new one: the first sign-in's duty; the operator's other sessions end. */
export async function changeOperatorPassword(
  db: Executor,
  caller: OperatorCaller,
  given: { password: string; newPassword: string },
  address: string,
  now: Date,
): Promise<OperatorView> {
  const row = (await operatorNamed(db, caller.name))!;
  await checkSecret(
    db,
    passwordCounter(caller.name),
    row.passwordHash,
    given.password,
    serverTexts.wrongLoginPassword.id,
    now,
  );
  if (given.newPassword === given.password) throw new Refusal(consoleTexts.consolePasswordSame.id);
  const passwordHash = await hashSecret(given.newPassword);
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
