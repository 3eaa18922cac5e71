// Our addition: the withdrawal address lock. While it is on, a withdrawal goes only to a saved bank card or wallet
// that has waited out its cooling-off (never less than ADDRESS_LOCK_COOLING_HOURS, whatever the server's own payee
// cooling-off is). Turning it on is immediate; turning it off asks for the second factor (the payment password when
// the customer has no two-factor) and takes effect ADDRESS_LOCK_DELAY_HOURS later, cancellable until then. Each step
// is told to the customer by a security notice.
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { PAY_PASSWORD, otp } from './fields.ts';
import { texts } from './texts.ts';
import { isoTime, shape, whole } from './answers.ts';

/** How long a turning-off waits before it takes effect. */
export const ADDRESS_LOCK_DELAY_HOURS = 24;
/** The least cooling-off of a payee while the lock is on, even where new payees are usable at once. */
export const ADDRESS_LOCK_COOLING_HOURS = 24;

export const AddressLock = shape({
  on: v.boolean(),
  /** Since when it is on; null when off. */
  on_since: v.nullable(isoTime),
  /** A turning-off asked for takes effect at this time (the server's clock); null when none is waiting. */
  off_at: v.nullable(isoTime),
  /** Seconds until then when answered, rounded up (0: none waiting): a device counts down from its own clock. */
  off_seconds: whole,
});
export type AddressLock = v.InferOutput<typeof AddressLock>;

export const addressLock = get('/users/address-lock', NoInput, returns(AddressLock), { cache: 'user' });
/** Immediate; a turning-off waiting is cancelled by it too. */
export const lockAddresses = post('/users/address-lock/on', NoInput, returns(AddressLock));
export const UnlockAddressesInput = v.object({
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
/** Asks to turn it off: it stays on for ADDRESS_LOCK_DELAY_HOURS more. */
export const unlockAddresses = post('/users/address-lock/off', UnlockAddressesInput, returns(AddressLock));
/** Cancels a turning-off waiting: immediate, no second factor (it only keeps the protection). */
export const keepAddressLock = post('/users/address-lock/keep', NoInput, returns(AddressLock));
