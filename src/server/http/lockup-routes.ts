// Lock-up mining calls (our /lockup/* additions to the API; the regular balance is earn-routes.ts's).
// Thin: the rules live in domain/lockup.ts.
import { lockupOrders, lockupProduct, lockupProducts, lockupSubscribe } from '../../api-contract/lockup.ts';
import {
  activeLockupProducts,
  lockupOrdersOf,
  lockupProductById,
  subscribeLockup,
  toLockupOrder,
} from '../domain/lockup.ts';
import type { RouteModule } from './route-module.ts';

export const lockupRoutes: RouteModule = ({ route, services: { earnTimeZone: timeZone } }) => {
  route(lockupProducts, async (_input, { db }) => {
    const lists = await activeLockupProducts(db);
    return { lists, page: 1, total: lists.length };
  });
  route(lockupProduct, (input, { db }) => lockupProductById(db, Number(input.id)));
  route(lockupSubscribe, async (input, { db, caller, clock }) => {
    const now = clock.now();
    return toLockupOrder(
      await db.transaction((tx) =>
        subscribeLockup(tx, caller.userId, Number(input.product_id), input.amount, now, timeZone),
      ),
    );
  });
  route(lockupOrders, (input, { db, caller }) => lockupOrdersOf(db, caller.userId, input.status, input.cursor));
};
