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
import { namedIn } from '../domain/content-languages.ts';
import type { RouteModule } from './route-module.ts';

// Products and orders carry the product's name in the request's language where operators wrote one.
export const lockupRoutes: RouteModule = ({ route, services: { earnTimeZone: timeZone } }) => {
  route(lockupProducts, async (_input, { db, locale }) => {
    const lists = await namedIn(db, 'lockup', await activeLockupProducts(db), 'name', (row) => row.id, locale);
    return { lists, page: 1, total: lists.length };
  });
  route(lockupProduct, async (input, { db, locale }) => {
    const [product] = await namedIn(
      db,
      'lockup',
      [await lockupProductById(db, Number(input.id))],
      'name',
      (row) => row.id,
      locale,
    );
    return product!;
  });
  route(lockupSubscribe, async (input, { db, caller, clock, locale }) => {
    const now = clock.now();
    const order = toLockupOrder(
      await db.transaction((tx) =>
        subscribeLockup(tx, caller.userId, Number(input.product_id), input.amount, now, timeZone, {
          days: input.days === undefined ? undefined : Number(input.days),
          dailyRate: input.daily_rate,
        }),
      ),
    );
    const [named] = await namedIn(db, 'lockup', [order], 'name', (row) => row.product_id, locale);
    return named!;
  });
  route(lockupOrders, async (input, { db, caller, locale }) => {
    const page = await lockupOrdersOf(db, caller.userId, input.status, input.cursor);
    return { ...page, lists: await namedIn(db, 'lockup', page.lists, 'name', (row) => row.product_id, locale) };
  });
};
