// The sign-in history (api-contract/login-history.ts): the caller's own sign-ins and failed attempts; the rule lives
// in domain/login-history.ts.
import { loginHistory } from '../../api-contract/login-history.ts';
import { listLoginHistory } from '../domain/login-history.ts';
import type { RouteModule } from './route-module.ts';

export const loginHistoryRoutes: RouteModule = ({ route }) => {
  route(loginHistory, (input, { db, caller, clock }) => listLoginHistory(db, caller.userId, input.cursor, clock.now()));
};
