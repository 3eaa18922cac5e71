// The caller's invitation (our /users/invite): the code, the permission sharing needs, the counts and the referral
// reward's rule; and the caller's invited friends (/users/invite/friends), a page at a time.
import { inviteState, referredFriends } from '../../api-contract/share.ts';
import { texts } from '../../api-contract/texts.ts';
import { inviteFigures } from '../domain/share.ts';
import { referralRule, referredFriendsOf } from '../domain/referrals.ts';
import type { RouteModule } from './route-module.ts';

export const shareRoutes: RouteModule = ({ route }) => {
  route(inviteState, async (_input, { db, caller, t }) => {
    const [{ permission, code, invited, certified }, reward] = await Promise.all([
      inviteFigures(db, caller.userId),
      referralRule(db),
    ]);
    return { permission, code, invited, certified, notice: permission ? '' : t(texts.inviteNotActivated), reward };
  });
  route(referredFriends, (input, { db, caller }) => referredFriendsOf(db, caller.userId, input.cursor));
};
