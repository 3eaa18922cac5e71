// The customer's own limits and time-out: read them, change one setting, cancel a loosening that waits; and the
// reality check beside the reminder (the money of this session and today). Each
// change runs in one transaction that holds the customer's protection row (domain/protection.ts), and answers the
// protection as then in force.
import { cancelProtectionLoosening, protection, setProtection } from '../../api-contract/protection.ts';
import { cancelLoosening, changeProtection, protectionOf } from '../domain/protection.ts';
import { realityCheck } from '../../api-contract/reality-check.ts';
import { realityCheckOf, sessionStart } from '../domain/reality-check.ts';
import type { RouteModule } from './route-module.ts';

export const protectionRoutes: RouteModule = ({ route }) => {
  route(protection, async (_input, { db, caller, clock }) => protectionOf(db, caller.userId, clock.now()));
  route(realityCheck, (input, { db, caller, clock }) => {
    const now = clock.now();
    return realityCheckOf(db, caller.userId, sessionStart(Number(input.since), caller.signedInAt, now), input.tz, now);
  });
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
