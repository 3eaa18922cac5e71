// The console's system page (contract/console.ts consoleSystem), admins only: one read-only snapshot of
// the feed, settlement, the outbox, the books' check, the processes and the house's exposure
// (domain/system-view.ts), and which version and build answered.
import { consoleSystem } from '../../contract/console.ts';
import { buildInfo } from '../build-info.ts';
import { PROCESS_ID } from '../domain/server-processes.ts';
import { systemView } from '../domain/system-view.ts';
import { DEFAULT_RECONCILE_EVERY_MS } from '../jobs/reconciliation.ts';
import type { router } from './handle.ts';

export function consoleSystemRoutes(route: ReturnType<typeof router>) {
  route(consoleSystem, (_input, { db, clock, market, build, reconcileEveryMs }) => {
    const running = build ?? buildInfo(null, null);
    return db.transaction(
      (tx) =>
        systemView(tx, {
          now: clock.now(),
          realNow: new Date(),
          simulated: market.source.simulated,
          process: { id: PROCESS_ID, version: running.version, build: running.build },
          reconcileEveryMs: reconcileEveryMs ?? DEFAULT_RECONCILE_EVERY_MS,
        }),
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  });
}
