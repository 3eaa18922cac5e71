// The earn call both kinds of mining share (/yuebao/balance): the liquidity balance, or with
// type=regular the lock-up side. Their own calls are liquidity-routes.ts and lockup-routes.ts; the
// rules live in domain/liquidity.ts and domain/lockup.ts.
import { earnBalance } from '../../api-contract/earn.ts';
import { liquidityBalanceOf } from '../domain/liquidity.ts';
import { regularBalanceOf } from '../domain/lockup.ts';
import type { RouteModule } from './route-module.ts';

export const earnRoutes: RouteModule = ({ route, services: { earnTimeZone: timeZone } }) => {
  route(earnBalance, async (input, { db, caller, clock }) =>
    input.type === 'regular'
      ? regularBalanceOf(db, caller.userId)
      : liquidityBalanceOf(db, caller.userId, clock.now(), timeZone),
  );
};
