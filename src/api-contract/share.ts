// The invitation (the share link): the caller's invitation code, whether the invitation
// permission is active, and how many people registered with the code (and how many of them are
// certified). Our addition: the product names no call for it; `/other/config act=share` has the text.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { decimal, isoTime, shape, whole } from './answers.ts';
import { CursorPaged } from './envelope.ts';
import { cursor } from './fields.ts';
import { ROUTES } from './routes.ts';

/** What the referral reward pays in. */
export const REFERRAL_ASSET = 'USDT';
/** Friends a page of the referral list holds. */
export const REFERRAL_PAGE_SIZE = 20;

/**
 * The referral reward as the operator set it (console, "Referral reward"): `amount` of `asset` credited to the
 * inviter once per invited friend, when that friend's primary certification is verified. "0": the reward is off.
 */
export const ReferralRule = shape({ asset: v.string(), amount: decimal });
export type ReferralRule = v.InferOutput<typeof ReferralRule>;

export const InviteState = shape({
  /**
   * Sharing needs the invitation permission. Our rule: it is active once the user's
   * primary certification is verified, or when the operator grants it (`invite grant`).
   */
  permission: v.boolean(),
  /** The user's invitation code (the register page's `?invite=`). */
  code: v.string(),
  /** People who registered with the code and whose account is open (a closed account counts toward no reward). */
  invited: whole,
  /** Of those, how many have a verified primary certification. */
  certified: whole,
  /** 'Your account has not yet activated the invitation permission!' in the request language while not permitted;
   * else ''. */
  notice: v.string(),
  /** How the referral reward is computed now (the same setting that pays it). */
  reward: ReferralRule,
});
export type InviteState = v.InferOutput<typeof InviteState>;

export const inviteState = get('/users/invite', NoInput, returns(InviteState), { cache: 'user' });

/** The link a friend opens: the register page of this app (its own origin) with the code filled in. */
export const inviteLink = (origin: string, code: string) =>
  `${origin}/#${ROUTES.register}?invite=${encodeURIComponent(code)}`;

/** One ledger entry a friend's activity earned the inviter (today only `referral_reward`). */
export const ReferralEntry = shape({
  id: whole,
  /** The ledger kind (api-contract/ledger-kinds.ts names it). */
  kind: v.string(),
  asset: v.string(),
  /** Signed decimal, as the ledger holds it. */
  amount: v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/), v.examples(['5.00000000'])),
  created_at: isoTime,
});
export type ReferralEntry = v.InferOutput<typeof ReferralEntry>;

/** One person who registered with the caller's code, as the caller may see them: masked by the server. */
export const ReferredFriend = shape({
  /** The list's key: the friend's account number (the cursor names it anyway). */
  id: whole,
  /** The username masked (maskUsername): "de***o". */
  name: v.string(),
  /** The mobile number or e-mail masked (maskContact): "+66****678", "a***@mail.com"; '' when neither is known. */
  contact: v.string(),
  joined_at: isoTime,
  /** The friend's VIP level now (by cumulative recharge). */
  vip_level: whole,
  /** Whether the friend's primary certification is verified (what the referral reward waits for). */
  certified: v.boolean(),
  /** What the friend earned the caller, as the caller's ledger entries, oldest first. */
  earned: v.array(ReferralEntry),
});
export type ReferredFriend = v.InferOutput<typeof ReferredFriend>;

/** The people who registered with the caller's invitation code and whose account is open, newest first, by cursor;
 * kept offline like other lists (shown "as of"). Only the caller's own friends: there is no way to name another
 * account. */
export const referredFriends = get(
  '/users/invite/friends',
  v.object({ cursor }),
  returns(CursorPaged(ReferredFriend)),
  {
    cache: 'user',
  },
);

/** A decimal amount that turns the reward off: "0", "0.00". */
export const referralRewardOff = (rule: Pick<ReferralRule, 'amount'>) => /^0+(\.0+)?$/.test(rule.amount);
