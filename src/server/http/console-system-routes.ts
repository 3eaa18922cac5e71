// The console's system page (api-contract/console.ts consoleSystem), admins only: one read-only snapshot of
// the feed, settlement, the outbox, the books' check, the processes and the house's exposure
// (domain/system-view.ts), and which version and build answered.
import { consoleSystem } from '../../api-contract/console.ts';
import { PROCESS_ID } from '../domain/server-processes.ts';
import { systemView } from '../domain/system-view.ts';
import type { RouteModule } from './route-module.ts';

export const consoleSystemRoutes: RouteModule = ({ route }) => {
  route(consoleSystem, (_input, { db, clock, market, build, reconcileEveryMs }) => {
    return db.transaction(
      (tx) =>
        systemView(tx, {
          now: clock.now(),
          realNow: new Date(),
          simulated: market.source.simulated,
          process: { id: PROCESS_ID, version: build.version, build: build.build },
          reconcileEveryMs,
        }),
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  });
};
