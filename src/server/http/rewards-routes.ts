// VIP levels (/users/ranks, /task/level) and points (/users/ptomoney and the point history) —
// the caller's own only. Certification is in certification-routes.ts.
import { levelProgress, pointRecords, redeemPoints, vipLevels } from '../../api-contract/rewards.ts';
import { findUser } from '../domain/accounts.ts';
import { pointHistory, redeem } from '../domain/points.ts';
import { listLevels, progressOf } from '../domain/vip.ts';
import type { RouteModule } from './route-module.ts';

export const rewardsRoutes: RouteModule = ({ route }) => {
  route(vipLevels, async (_input, { db }) => {
    const lists = await listLevels(db);
    return { lists, page: 1, total: lists.length };
  });
  route(levelProgress, async (_input, { db, caller }) =>
    progressOf((await findUser(db, caller.userId)).rechargeTotal, await listLevels(db)),
  );

  route(redeemPoints, (input, { db, caller, clock }) =>
    db.transaction((tx) => redeem(tx, caller.userId, input.number, clock.now())),
  );
  route(pointRecords, (input, { db, caller }) => pointHistory(db, caller.userId, input.cursor));
};
