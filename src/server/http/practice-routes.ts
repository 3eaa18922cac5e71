// The practice account's calls (api-contract/practice.ts): thin; the rules live in domain/practice.ts. Practice orders
// go through the option and contract calls with account=practice.
import { practiceAccount, resetPractice } from '../../api-contract/practice.ts';
import { practiceAccountOf, resetPracticeAccount } from '../domain/practice.ts';
import type { RouteModule } from './route-module.ts';

export const practiceRoutes: RouteModule = ({ route }) => {
  route(practiceAccount, (_input, { db, caller, clock }) => practiceAccountOf(db, caller.userId, clock.now()));

  route(resetPractice, (_input, { db, caller, clock }) => resetPracticeAccount(db, caller.userId, clock.now()));
};
