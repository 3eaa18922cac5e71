// Database statements timed where they leave the process, on both drivers: each connection of the
// PostgreSQL pool (as it joins the pool), and the embedded PGlite's query and exec, inside its
// transactions too. Two clock reads and one histogram observation a statement; nothing when the
// timing is off (the bench's measure without metrics).
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { countPool, observeQuery, timing } from './metrics.ts';

type Query = (...args: unknown[]) => unknown;

/** `target[method]`, timed from the call to its answer: a promise's settling, or the callback's call (pg's pool). */
function timeMethod(target: object, method: string) {
  const record = target as Record<string, Query>;
  const original = record[method]!.bind(target);
  record[method] = (...args: unknown[]) => {
    if (!timing.queries) return original(...args);
    const startedAt = performance.now();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, ...rest: unknown[]) => {
        observeQuery(startedAt, Boolean(error));
        return (callback as Query)(error, ...rest);
      };
      return original(...args);
    }
    const result = original(...args);
    if (result instanceof Promise)
      result.then(
        () => observeQuery(startedAt, false),
        () => observeQuery(startedAt, true),
      );
    return result;
  };
}

/** Times every statement of the pool's connections and shows its use in the metrics; returns what stops the latter. */
export function timePool(pool: pg.Pool): () => void {
  pool.on('connect', (client) => timeMethod(client, 'query'));
  return countPool(pool as unknown as Parameters<typeof countPool>[0]);
}

/** Times the embedded database's statements, those of its transactions included. */
export function timePglite(client: PGlite) {
  timeMethod(client, 'query');
  timeMethod(client, 'exec');
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(work: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      timeMethod(tx, 'query');
      timeMethod(tx, 'exec');
      return work(tx);
    });
}
