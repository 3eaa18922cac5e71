// The customer's own limits and time-out: read them, change one setting, cancel a loosening that waits. Each
// change runs in one transaction that holds the customer's protection row (domain/protection.ts), and answers the
// protection as then in force.
import { cancelProtectionLoosening, protection, setProtection } from '../../api-contract/protection.ts';
import { cancelLoosening, changeProtection, protectionOf } from '../domain/protection.ts';
import type { RouteModule } from './route-module.ts';

export const protectionRoutes: RouteModule = ({ route }) => {
  route(protection, async (_input, { db, caller, clock }) => protectionOf(db, caller.userId, clock.now()));
  route(setProtection, async (input, { db, caller, clock }) => {
    const now = clock.now();
    return db.transaction(async (tx) => {
      await changeProtection(tx, caller.userId, input.setting, input.value, now);
      return protectionOf(tx, caller.userId, now);
    });
  });
  route(cancelProtectionLoosening, async (input, { db, caller, clock }) => {
    const now = clock.now();
    return db.transaction(async (tx) => {
      await cancelLoosening(tx, caller.userId, input.setting, now);
      return protectionOf(tx, caller.userId, now);
    });
  });
};
