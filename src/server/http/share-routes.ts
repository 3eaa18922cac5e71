// The caller's invitation (our /users/invite): the code, the permission sharing needs, and the counts.
import { inviteState } from '../../api-contract/share.ts';
import { texts } from '../../api-contract/texts.ts';
import { inviteFigures } from '../domain/share.ts';
import type { RouteModule } from './route-module.ts';

export const shareRoutes: RouteModule = ({ route }) => {
  route(inviteState, async (_input, { db, caller, t }) => {
    const { permission, code, invited, certified } = await inviteFigures(db, caller.userId);
    return { permission, code, invited, certified, notice: permission ? '' : t(texts.inviteNotActivated) };
  });
};
