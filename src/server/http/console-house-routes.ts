// The console's House calls (api-contract/console-house.ts): the admin reads the caps, the open exposure and
// the house's result (domain/house-result.ts, in one snapshot so its figures agree with each other) and
// changes the caps through domain/house-limits.ts, each change with its audit entry in one transaction.
import { HOUSE_CAPS, consoleChangeHouseCaps, consoleHouse } from '../../api-contract/console-house.ts';
import { setHouseCapsAs } from '../domain/house-limits.ts';
import { houseView } from '../domain/house-result.ts';
import { actorOf } from '../domain/operators.ts';
import type { RouteModule } from './route-module.ts';

export const consoleHouseRoutes: RouteModule = ({ route }) => {
  route(consoleHouse, (_input, { db, clock, earnTimeZone }) =>
    db.transaction((tx) => houseView(tx, clock.now(), earnTimeZone), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    }),
  );
  route(consoleChangeHouseCaps, (input, { db, operator, ip, clock }) => {
    // The caps sent, as the `cap=value` changes the rule takes (an emptied field is sent, and refused there).
    const changes = HOUSE_CAPS.filter((cap) => input[cap] !== undefined).map((cap) => `${cap}=${input[cap]}`);
    return db.transaction((tx) => setHouseCapsAs(tx, actorOf(operator, ip), changes, clock.now()));
  });
};
