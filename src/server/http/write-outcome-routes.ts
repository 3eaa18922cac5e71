// What became of a customer's write whose answer was lost (api-contract/write-outcome.ts), read from its
// Idempotency-Key's stored answer (domain/idempotency.ts).
import { texts } from '../../api-contract/texts.ts';
import { keyMayBeDeleted } from '../../api-contract/constants.ts';
import { writeOutcome } from '../../api-contract/write-outcome.ts';
import {
  idempotencyScope,
  writeOutcomeForEndedSession,
  writeOutcomeOf,
  writeScope,
  type KeyOutcome,
} from '../domain/idempotency.ts';
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

const answered = (outcome: KeyOutcome) => ({
  state: outcome.state,
  msg: outcome.msg,
  received_at: outcome.receivedAt?.toISOString() ?? null,
});

export const writeOutcomeRoutes: RouteModule = ({ route }) => {
  route(
    writeOutcome,
    async ({ path, key, sent_at }, { db, caller, clock }) => {
      if (!(await customerWritePaths()).has(path)) throw new Refusal(texts.invalidRequest.id);
      const scopedKey = idempotencyScope(writeScope(caller.userId, path), key);
      // Real time, as the device's clock that says when it sent: a test server's clock may run ahead of both, and the
      // retention job deletes a key only once real time and the clock have both passed its horizon.
      // An app from before sent_at: any key it asks about may be past the horizon.
      const mayBeDeleted = sent_at === undefined || keyMayBeDeleted(Date.parse(sent_at), Date.now());
      const outcome = await writeOutcomeOf(db, scopedKey, clock.now(), { mayBeDeleted });
      // That app has no word for `expired`: "ask again" keeps its write until its next start asks with sent_at.
      if (sent_at === undefined && outcome.state === 'expired') return answered({ ...outcome, state: 'in_progress' });
      return answered(outcome);
    },
    {
      // A session ended by its own write (the account closed, the password changed) may still ask about that write.
      forEndedSession: async ({ path, key }, { db, session }) => {
        if (!(await customerWritePaths()).has(path)) return null;
        const scopedKey = idempotencyScope(writeScope(session.userId, path), key);
        const outcome = await writeOutcomeForEndedSession(db, scopedKey, session.sessionId);
        return outcome && answered(outcome);
      },
    },
  );
};
