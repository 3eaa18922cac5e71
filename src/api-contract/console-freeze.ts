// Our addition: the console's read-only list of the accounts their customers froze (api-contract/account-freeze.ts).
// An operator sees who is frozen and whether an unfreezing waits; no console call unfreezes an account, because only
// the customer, with their second factor or payment password, may.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { isoTime, shape, whole } from './answers.ts';

/** One frozen account. */
export const FrozenAccount = shape({
  user_id: whole,
  username: v.string(),
  frozen_since: isoTime,
  /** The customer asked to unfreeze: it takes effect at this time. Null when none waits. */
  unfreeze_at: v.nullable(isoTime),
});
/** One frozen account as the console lists it. */
export type FrozenAccount = v.InferOutput<typeof FrozenAccount>;

/** Every account frozen now, the most recently frozen first (read only). */
export const consoleFrozenAccounts = get('/console/customers/frozen', NoInput, returns(v.array(FrozenAccount)), {
  console: 'reviewer',
});
