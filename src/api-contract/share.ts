// The invitation (the share link): the caller's invitation code, whether the invitation
// permission is active, and how many people registered with the code (and how many of them are
// certified). Our addition: the product names no call for it; `/other/config act=share` has the text.
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { shape, whole } from './answers.ts';
import { ROUTES } from './routes.ts';

export const InviteState = shape({
  /**
   * Sharing needs the invitation permission. Our rule: it is active once the user's
   * primary certification is verified, or when the operator grants it (`invite grant`).
   */
  permission: v.boolean(),
  /** The user's invitation code (the register page's `?invite=`). */
  code: v.string(),
  /** People who registered with the code. */
  invited: whole,
  /** Of those, how many have a verified primary certification. */
  certified: whole,
  /** 'Your account has not yet activated the invitation permission!' in the request language while not permitted;
   * else ''. */
  notice: v.string(),
});
export type InviteState = v.InferOutput<typeof InviteState>;

export const inviteState = get('/users/invite', NoInput, returns(InviteState), { cache: 'user' });

/** The link a friend opens: the register page of this app (its own origin) with the code filled in. */
export const inviteLink = (origin: string, code: string) =>
  `${origin}/#${ROUTES.register}?invite=${encodeURIComponent(code)}`;
