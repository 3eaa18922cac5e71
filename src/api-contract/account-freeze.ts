// Our addition: the customer freezes their own account, like blocking a bank card. One tap, confirmed with the second
// factor (the payment password when the customer has no two-factor): every session ends, and from that moment no
// order (options, contracts, liquidity, lock-up), no withdrawal and no payee change (bank cards, wallets, turning the
// address lock off) is accepted, and a withdrawal still in review is held (not paid out) until the account is
// unfrozen. The customer still signs in, to see the balances and to unfreeze. Unfreezing asks for the same secret and
// takes effect ACCOUNT_UNFREEZE_DELAY_HOURS later (like a loosening of the customer's own limits), cancellable until
// then. Operators see frozen accounts and cannot unfreeze one.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { PAY_PASSWORD, otp } from './fields.ts';
import { texts } from './texts.ts';
import { isoTime, shape, whole } from './answers.ts';

/** How long an unfreezing waits before it takes effect. */
export const ACCOUNT_UNFREEZE_DELAY_HOURS = 24;

export const AccountFreeze = shape({
  frozen: v.boolean(),
  /** Since when it is frozen; null when not. */
  frozen_since: v.nullable(isoTime),
  /** An unfreezing asked for takes effect at this time (the server's clock); null when none is waiting. */
  unfreeze_at: v.nullable(isoTime),
  /** Seconds until then when answered, rounded up (0: none waiting): a device counts down from its own clock. */
  unfreeze_seconds: whole,
});
/** The account's freeze as the customer reads it. */
export type AccountFreeze = v.InferOutput<typeof AccountFreeze>;

/**
 * What holds a withdrawal in review while the customer's account is frozen (approving it is refused, rejecting it
 * still returns the funds): since when the account is frozen, and when an unfreezing asked for takes effect (null:
 * none asked). The customer's withdrawal details and the console's withdrawal page both say it.
 */
export const PayoutHold = shape({ frozen_since: isoTime, unfreeze_at: v.nullable(isoTime) });
export type PayoutHold = v.InferOutput<typeof PayoutHold>;

/** The secret that confirms a freeze or an unfreeze: the second factor when it is on, else the payment password. */
export const FreezeSecretInput = v.object({
  /** The authenticator or recovery code, when the user has two-factor on. */
  otp,
  /** The payment password, when the user has two-factor off. */
  paypass: v.optional(
    v.pipe(
      v.string(texts.payPasswordFormat.id),
      v.regex(new RegExp(`^$|${PAY_PASSWORD.source}`), texts.payPasswordFormat.id),
    ),
    '',
  ),
});

/** The caller's freeze (kept for offline reading: a frozen customer sees it without a network). */
export const accountFreeze = get('/users/freeze', NoInput, returns(AccountFreeze), { cache: 'user' });
/**
 * Freezes the account at once and ends every session, the caller's too (the answer is the last thing that session
 * reads). Freezing a frozen account keeps it frozen and cancels an unfreezing waiting.
 */
export const freezeAccount = post('/users/freeze/on', FreezeSecretInput, returns(AccountFreeze));
/** Asks to unfreeze: it stays frozen for ACCOUNT_UNFREEZE_DELAY_HOURS more; asking again keeps the first time. */
export const unfreezeAccount = post('/users/freeze/off', FreezeSecretInput, returns(AccountFreeze));
/** Cancels an unfreezing waiting: immediate, no secret (it only keeps the protection). */
export const keepAccountFrozen = post('/users/freeze/keep', NoInput, returns(AccountFreeze));
