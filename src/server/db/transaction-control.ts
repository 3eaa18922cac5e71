// A transaction's BEGIN and COMMIT sent in the round trips of the statements beside them, on PostgreSQL.
//
// Drizzle sends `begin` and `commit` each as a query of its own: two round trips of a transaction's that do nothing
// else, and under load each round trip also waits for its process's event loop while the transaction holds its locks.
// - BEGIN waits for the transaction's first statement: one without parameters goes with it as one simple-protocol
//   query (`begin; select …`), one with parameters in the same extended-protocol exchange (Parse, Bind and Execute of
//   the BEGIN, then the statement's own messages, one Sync: PostgreSQL's message flow lets any number of them precede
//   a Sync, and runs them in order). A transaction that sent nothing ends without a round trip.
// - A statement may wait for the COMMIT (atCommit): a keyed write stores its answer last (domain/idempotency.ts), and
//   sent with the COMMIT (`update …; commit`) it holds the customer's balance and the side's row of house_exposure one
//   round trip less.
// PostgreSQL runs a simple query's statements in order in the open transaction: when one fails, the rest of the query
// is skipped and the transaction stays aborted until the driver's ROLLBACK, so what a transaction writes still commits
// whole or not at all. Only statements without parameters can go so: their caller inlines values whose alphabet it has
// checked (hex, base64), never text a customer typed.
import pg from 'pg';

const BEGIN_WAITING = Symbol('BEGIN not sent yet');
const TAIL = Symbol('statement sent with the commit');
/** A connection of a pool made by shareRoundTrips. */
interface ControlledClient {
  /** The BEGIN of a transaction that has sent nothing yet; null when none waits. */
  [BEGIN_WAITING]?: string | null;
  /** A statement that waits for its transaction's COMMIT; null when none waits. */
  [TAIL]?: string | null;
}

/** Drizzle's transaction control as it sends it (drizzle-orm/node-postgres session.js). */
const COMMIT = /^commit$/i;
const ROLLBACK = /^rollback$/i;
const BEGIN = /^begin\b/i;

/** The answer of a query that sent BEGIN with a statement: node-postgres gives a result a statement, ours last. */
const lastResult = (results: unknown) => (Array.isArray(results) ? results[results.length - 1] : results);

/** What a query of transaction control answers when it sent nothing: nothing was there to begin or end. */
const nothingSent = (command: string) => ({ command, rowCount: null, oid: 0, fields: [], rows: [] });

/**
 * Makes every connection `pool` opens send a BEGIN with its transaction's first statement, and a statement given to
 * atCommit with the COMMIT (see the top of this file). A ROLLBACK or a BEGIN drops whatever still waits, so nothing
 * waits past its own transaction. Queries with a callback or a submittable go as they are, after a BEGIN still waiting.
 */
export function shareRoundTrips(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const controlled = client as pg.PoolClient & ControlledClient;
    controlled[BEGIN_WAITING] = null;
    controlled[TAIL] = null;
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    /** `config` with another text. */
    const withText = (config: unknown, text: string) =>
      typeof config === 'string' ? text : { ...(config as pg.QueryConfig), text };
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const text = typeof config === 'string' ? config : (config as pg.QueryConfig | null)?.text;
      if (
        typeof text !== 'string' ||
        callback !== undefined ||
        typeof values === 'function' ||
        typeof (config as { submit?: unknown }).submit === 'function'
      ) {
        // As it is, after a BEGIN still waiting: the driver sends its queries in the order they were asked, and a
        // failed BEGIN (a lost connection) fails this one too.
        const begin = controlled[BEGIN_WAITING];
        controlled[BEGIN_WAITING] = null;
        if (begin) void query(begin).catch(() => undefined);
        return query(config, values, callback);
      }
      const parameters = Array.isArray(values) && values.length > 0;
      const begin = controlled[BEGIN_WAITING];
      const tail = controlled[TAIL];
      if (!parameters && BEGIN.test(text)) {
        controlled[BEGIN_WAITING] = text;
        controlled[TAIL] = null;
        return Promise.resolve(nothingSent('BEGIN'));
      }
      // Transaction control has no parameters: a statement with them is never tested for it.
      const commit = !parameters && COMMIT.test(text);
      if (commit || (!parameters && ROLLBACK.test(text))) {
        controlled[BEGIN_WAITING] = null;
        controlled[TAIL] = null;
        const sent = [begin, commit ? tail : null, text].filter((part) => part !== null);
        // Nothing of the transaction was sent: nothing to end.
        if (begin !== null && sent.length === 2) return Promise.resolve(nothingSent(text.toUpperCase()));
        return query(withText(config, sent.join(';\n')), values);
      }
      if (begin === null) return query(config, values);
      controlled[BEGIN_WAITING] = null;
      // Marked for the innermost layer (sendBeginFirst), below the statement's naming and timing: one statement sent.
      if (parameters) return query({ ...(config as pg.QueryConfig), [BEGIN_FIRST]: begin }, values);
      // Both answers come back; the statement's is the last.
      return query(withText(config, `${begin};\n${text}`), values).then(lastResult);
    }) as typeof client.query;
  });
}

/** On a statement's config: the BEGIN to send ahead of it, in the same exchange. */
const BEGIN_FIRST = Symbol('BEGIN sent ahead of this statement');

/** The connection's side of node-postgres (pg/lib/connection.js) that a query submits its messages to. */
interface ProtocolConnection {
  parse(message: { text: string }): void;
  bind(message: object): void;
  execute(message: object): void;
  parsedStatements: Record<string, string>;
  on(event: 'parseComplete', listener: () => void): void;
  removeListener(event: 'parseComplete', listener: () => void): void;
}
/** The parts of pg's Query (pg/lib/query.js) used here, which its types do not declare. */
interface QueryInternals {
  name?: string;
  hasBeenParsed(connection: ProtocolConnection): boolean;
  prepare(connection: ProtocolConnection): void;
  handleError(error: Error, connection: ProtocolConnection): void;
  handleReadyForQuery(connection: ProtocolConnection): void;
}
const Query = pg.Query as unknown as new (config: pg.QueryConfig, values: unknown, callback: unknown) => QueryInternals;

/**
 * A statement with parameters and the BEGIN before it, sent as one extended-protocol exchange: the BEGIN's Parse
 * (unnamed), Bind and Execute, then the statement's Parse (unless its connection has it named already), Bind,
 * Describe and Execute, and one Sync. Answers as a multi-statement query does: the BEGIN's result, then the
 * statement's. node-postgres marks a named statement as parsed at the first ParseComplete of the exchange, which is
 * the BEGIN's: when the statement fails before its own ParseComplete came, that mark is taken back, so the next use
 * parses it again instead of naming a statement PostgreSQL never made.
 */
class BeginThenStatement extends Query {
  readonly #begin: string;
  #parseSent = false;
  #parsesCompleted = 0;
  readonly #countParse = () => void (this.#parsesCompleted += 1);
  constructor(begin: string, config: pg.QueryConfig, values: unknown, callback: unknown) {
    super(config, values, callback);
    this.#begin = begin;
  }
  override prepare(connection: ProtocolConnection) {
    this.#parseSent = !this.hasBeenParsed(connection);
    connection.on('parseComplete', this.#countParse);
    connection.parse({ text: this.#begin });
    connection.bind({});
    connection.execute({});
    super.prepare(connection);
  }
  override handleError(error: Error, connection: ProtocolConnection) {
    connection.removeListener('parseComplete', this.#countParse);
    if (this.name && this.#parseSent && this.#parsesCompleted < 2) delete connection.parsedStatements[this.name];
    super.handleError(error, connection);
  }
  override handleReadyForQuery(connection: ProtocolConnection) {
    connection.removeListener('parseComplete', this.#countParse);
    super.handleReadyForQuery(connection);
  }
}

/**
 * The innermost layer of shareRoundTrips, installed on `pool` before any other wrapper of its connections' `query`
 * (so the statement reaches it named and timed as any other): a statement marked with a waiting BEGIN is sent as a
 * BeginThenStatement, and answers with the statement's own result.
 */
export function sendBeginFirst(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const begin = (config as { [BEGIN_FIRST]?: string } | null)?.[BEGIN_FIRST];
      if (typeof begin !== 'string') return query(config, values, callback);
      const { [BEGIN_FIRST]: _sent, ...statement } = config as pg.QueryConfig & { [BEGIN_FIRST]?: string };
      return new Promise((resolve, reject) =>
        query(
          new BeginThenStatement(begin, statement, values, (error: Error | null, results: unknown) =>
            error ? reject(error) : resolve(lastResult(results)),
          ),
        ),
      );
    }) as typeof client.query;
  });
}

/**
 * Sends `statement` (SQL without parameters) with the COMMIT of `tx` instead of now, when `tx` is the outermost
 * transaction of a connection made by shareRoundTrips (PostgreSQL) with no statement waiting already; returns false
 * otherwise (the embedded database, a savepoint), and the caller sends it as usual. An error of the statement surfaces
 * as the commit's: the transaction's call rejects with it and nothing of the transaction is committed.
 */
export function atCommit(tx: unknown, statement: string): boolean {
  const transaction = tx as { nestedIndex?: number; session?: { client?: ControlledClient } };
  const client = transaction.session?.client;
  if (transaction.nestedIndex !== 0 || !client || client[TAIL] !== null) return false;
  client[TAIL] = statement;
  return true;
}
