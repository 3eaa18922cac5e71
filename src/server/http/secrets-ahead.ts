// A route's secrets prepared before its transaction opens (handle.ts RouteOptions.ahead): the login or payment
// password a signed-in customer typed, verified against the stored hash, and the new password the call will store,
// hashed, so that argon2id never runs while a keyed call's idempotency key or a password counter's row is held.
import { PreparedSecrets, findUser } from '../domain/accounts.ts';
import { codeMatches } from '../domain/codes.ts';
import { hasSecondFactor } from '../domain/two-factor.ts';
import type { HandlerContext } from './context.ts';
import { Refusal } from '../domain/refusal.ts';

/**
 * The secrets a call's form carries, by what they are checked against: `login` the caller's login password, `pay` its
 * payment password; `fresh` the new secrets the call stores when it succeeds. An absent or empty one is not prepared.
 */
export interface SecretsOfCall {
  login?: string | undefined;
  pay?: string | undefined;
  fresh?: (string | undefined)[];
}

/**
 * The `ahead` work of a signed-in customer's route whose form carries secrets (`pick` names them; it may read, as
 * whether the caller has two-factor on, and must not write). Reads the caller's stored hashes on the pool, verifies
 * each secret named unless its counter is at the limit (PreparedSecrets.verify: the counter read without a lock), and
 * hashes the new ones only when one was verified and every one was right (PreparedSecrets.allRight); sets
 * `ctx.secrets`. It never refuses: the handler checks, in its order, with checkSecret deciding under the counter's row
 * lock as before, and a secret not prepared (a payment password when none is set, a hash changed meanwhile) is hashed
 * there as before. Raises only what a read of the database raises.
 */
export function secretsAhead<I>(
  pick: (input: I, ctx: HandlerContext) => SecretsOfCall | Promise<SecretsOfCall>,
): (input: I, ctx: HandlerContext) => Promise<void> {
  return async (input, ctx) => {
    const { login, pay, fresh = [] } = await pick(input, ctx);
    if (!login && !pay && !fresh.some(Boolean)) return;
    const now = ctx.clock.now();
    const prepared = new PreparedSecrets();
    const user = await findUser(ctx.db, ctx.caller.userId);
    if (login) await prepared.verifyLoginPassword(ctx.db, user, login, now);
    // Without a payment password set, the handler refuses before any check: nothing to verify.
    if (pay && user.paypassHash) await prepared.verifyPayPassword(ctx.db, user, pay, now);
    if (prepared.allRight()) for (const secret of fresh) if (secret) await prepared.hash(secret);
    ctx.secrets = prepared;
  };
}

/**
 * The `ahead` work of the calls that ask for the payment password only when the caller has two-factor off (turning the
 * address lock off, freezing and unfreezing the account): with it on, the second factor is asked instead and nothing is
 * hashed.
 */
export const payPasswordUnlessSecondFactor = secretsAhead(
  async ({ paypass }: { paypass?: string | undefined }, { db, caller }: HandlerContext) =>
    (await hasSecondFactor(db, caller.userId)) ? {} : { pay: paypass },
);

/** A sent code a call is proved by (`target` as codes.ts keys it, `sms:+66812345678`; null where the form's address
 * does not read, which the call refuses) and the new secrets it stores. */
export interface CodeProvedSecrets {
  target: string | null;
  code: string;
  fresh: string[];
}

/**
 * The `ahead` work of a call proved by a sent code (registering, a reset of the login password, a payment password
 * set by code): `pick` names the code and the new secrets; they are hashed only when there is a target and the code
 * matches its target's latest live code (codeMatches: read without a lock, no try used up), so a wrong or dead code
 * costs no hashing, as before. Sets `ctx.secrets`. It never refuses: the handler checks the code and uses it up (or
 * counts a wrong try) under its row's lock, in its order, and a secret not prepared is hashed there as before. Raises
 * only what a read of the database raises.
 */
export function hashedWhenCodeMatches<I>(
  pick: (input: I, ctx: HandlerContext) => CodeProvedSecrets | Promise<CodeProvedSecrets>,
): (input: I, ctx: HandlerContext) => Promise<void> {
  return async (input, ctx) => {
    const { target, code, fresh } = await pick(input, ctx);
    if (target === null || !code || !(await codeMatches(ctx.db, target, code, ctx.clock.now()))) return;
    const prepared = new PreparedSecrets();
    for (const secret of fresh) if (secret) await prepared.hash(secret);
    ctx.secrets = prepared;
  };
}

/**
 * Whether `check` (a handler's own check, run ahead to decide whether its work is worth doing) passes: false when it
 * refuses (a Refusal); anything else it raises is raised.
 */
export const passes = (check: () => Promise<unknown>): Promise<boolean> =>
  check().then(
    () => true,
    (error: unknown) => {
      if (error instanceof Refusal) return false;
      throw error;
    },
  );
