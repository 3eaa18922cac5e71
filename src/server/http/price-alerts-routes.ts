// Price alerts (api-contract/price-alerts.ts): list, add and delete, each the caller's own (domain/price-alerts.ts).
import { addPriceAlert, deletePriceAlert, priceAlerts } from '../../api-contract/price-alerts.ts';
import * as alerts from '../domain/price-alerts.ts';
import type { RouteModule } from './route-module.ts';

export const priceAlertsRoutes: RouteModule = ({ route }) => {
  route(priceAlerts, (_input, { db, caller }) => alerts.listPriceAlerts(db, caller.userId));
  route(addPriceAlert, (input, { db, caller, clock }) => alerts.addPriceAlert(db, caller.userId, input, clock.now()));
  route(deletePriceAlert, async ({ id }, { db, caller }) => {
    await alerts.deletePriceAlert(db, caller.userId, Number(id));
    return null;
  });
};
