// The earn call both kinds of mining share (/yuebao/balance): the liquidity balance, or with
// type=regular the lock-up side. Their own calls are liquidity-routes.ts and lockup-routes.ts; the
// rules live in domain/liquidity.ts and domain/lockup.ts.
import { earnBalance } from '../../contract/earn.ts';
import { DEFAULT_EARN_TIMEZONE } from '../../contract/earn-days.ts';
import { liquidityBalanceOf } from '../domain/liquidity.ts';
import { regularBalanceOf } from '../domain/lockup.ts';
import type { router } from './handle.ts';

export function earnRoutes(route: ReturnType<typeof router>, timeZone = DEFAULT_EARN_TIMEZONE) {
  route(earnBalance, async (input, { db, caller, clock }) =>
    input.type === 'regular'
      ? regularBalanceOf(db, caller.userId)
      : liquidityBalanceOf(db, caller.userId, clock.now(), timeZone),
  );
}
