// What became of a customer's write whose answer was lost (api-contract/write-outcome.ts), read from its
// Idempotency-Key's stored answer (domain/idempotency.ts).
import { texts } from '../../api-contract/texts.ts';
import { writeOutcome } from '../../api-contract/write-outcome.ts';
import { idempotencyScope, writeOutcomeOf, writeScope } from '../domain/idempotency.ts';
import { Refusal } from '../domain/refusal.ts';
import { declaredEndpoints } from './declared-endpoints.ts';
import type { RouteModule } from './route-module.ts';

/** The paths of the customer writes that take an Idempotency-Key (signed in, not read-only, not an upload). */
let customerWrites: Promise<Set<string>> | null = null;
const customerWritePaths = () =>
  (customerWrites ??= declaredEndpoints().then(
    (declared) =>
      new Set(
        declared
          .map(({ endpoint }) => endpoint)
          .filter((endpoint) => endpoint.auth && !endpoint.readOnly && !endpoint.multipart && !endpoint.console)
          .map((endpoint) => endpoint.path),
      ),
  ));

export const writeOutcomeRoutes: RouteModule = ({ route }) => {
  route(writeOutcome, async ({ path, key }, { db, caller, clock }) => {
    if (!(await customerWritePaths()).has(path)) throw new Refusal(texts.invalidRequest.id);
    const outcome = await writeOutcomeOf(db, idempotencyScope(writeScope(caller.userId, path), key), clock.now());
    return { state: outcome.state, msg: outcome.msg, received_at: outcome.receivedAt?.toISOString() ?? null };
  });
};
