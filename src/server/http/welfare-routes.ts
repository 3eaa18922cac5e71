// Welfare tasks (our addition) — the caller's own only; the rules live in domain/welfare.ts.
import { claimWelfare, welfareTask, welfareTasks } from '../../api-contract/welfare.ts';
import { claimOnce, welfareTaskOf, welfareTasksOf } from '../domain/welfare.ts';
import type { RouteModule } from './route-module.ts';

export const welfareRoutes: RouteModule = ({ route }) => {
  route(welfareTasks, async (_input, { db, caller }) => ({ lists: await welfareTasksOf(db, caller.userId) }));
  route(welfareTask, (input, { db, caller }) => welfareTaskOf(db, caller.userId, input.code));
  route(claimWelfare, (input, { db, caller, clock }) => claimOnce(db, caller.userId, input.code, clock.now()));
};
