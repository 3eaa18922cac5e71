// Every statement with parameters is sent to PostgreSQL as a named (prepared) statement of its connection: drizzle
// builds the same text for the same query shape each time, and an unnamed statement is parsed, analysed and planned
// by PostgreSQL on every execution. Named, the connection parses it once and, once PostgreSQL finds a generic plan as
// good as the custom ones (after five executions), plans it once too. A transaction's statements gain as much as the
// pool's: db/prepared.ts could only prepare statements that run outside one.
// Bounded: a connection names at most NAMED_PER_CONNECTION distinct texts (the code's own: every value a caller sends
// is a parameter, never text); later texts go unnamed, so nothing grows with what callers send. A text without
// parameters goes as it is (the simple protocol, which may carry several statements: the migrations').
// Not for a pooler in transaction mode in front of PostgreSQL (a named statement belongs to one server connection):
// the server connects to PostgreSQL directly (src/server/README.md).
import type pg from 'pg';

/** Distinct statement texts a connection names at most; the server's code has about 400 (a capacity run used 120). */
export const NAMED_PER_CONNECTION = 500;

/** Makes every connection `pool` opens name its statements with parameters (see the top of this file). */
export function nameStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    /** Statement text → its name on this connection. */
    const named = new Map<string, string>();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      if (
        Array.isArray(values) &&
        values.length > 0 &&
        typeof config === 'object' &&
        config !== null &&
        typeof (config as pg.QueryConfig).text === 'string' &&
        (config as pg.QueryConfig).name === undefined &&
        typeof (config as { submit?: unknown }).submit !== 'function'
      ) {
        const { text } = config as pg.QueryConfig;
        let name = named.get(text);
        if (name === undefined && named.size < NAMED_PER_CONNECTION) {
          name = `s${named.size}`;
          named.set(text, name);
        }
        if (name !== undefined) return query({ ...config, name }, values, callback);
      }
      return query(config, values, callback);
    }) as typeof client.query;
  });
}
