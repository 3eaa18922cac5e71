// Change notices: the triggers of migration 0010 call pg_notify('coinvest_changes', …) on every
// write to a table the server keeps answers of in memory, so each process hears of every change,
// whoever made it. A notice is a table name ('slides': anything in it may have changed) or a table
// and the users whose rows changed ('sessions:12,40'). '*' means anything may have changed: the
// channel was (re)opened or lost. While the channel cannot vouch for having heard everything
// (`live()` false), nothing cached in memory may be trusted. A change made through this process's own
// connections is heard before its commit returns, so a caller always reads their own writes.
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

export const CHANGES_CHANNEL = 'coinvest_changes';
export const EVERYTHING = '*';
/** How the listening connection shows in pg_stat_activity. */
export const CHANGES_LISTENER = 'coinvest change notices';

/** PostgreSQL: a round trip on the listening connection this often proves nothing was missed. */
const HEARTBEAT_MS = 250;
/** Trust lasts this long after the last heartbeat that was answered was sent. */
const TRUST_MS = 1_000;
const RECONNECT_MS = 500;

export interface Changes {
  /** True while every change committed so far has reached this process (or is about to, within TRUST_MS). */
  live(): boolean;
  subscribe(listener: (notice: string) => void): () => void;
  close(): Promise<void>;
}

function listeners() {
  const set = new Set<(notice: string) => void>();
  return {
    deliver: (notice: string) => {
      for (const listener of set) listener(notice);
    },
    subscribe(listener: (notice: string) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
}

/** The embedded database: notices are delivered during the writer's commit, in this process. */
export function embeddedChanges(client: PGlite): Changes {
  const { deliver, subscribe } = listeners();
  let listening = false;
  let closed = false;
  const stop = client.listen(CHANGES_CHANNEL, deliver).then((unlisten) => {
    listening = !closed;
    deliver(EVERYTHING);
    return unlisten;
  });
  return {
    live: () => listening,
    subscribe,
    async close() {
      closed = true;
      listening = false;
      if (!client.closed) await (await stop)();
    },
  };
}

/**
 * PostgreSQL: every pooled connection LISTENs as well (the pool's `Client`), so the notice of a
 * change made through it arrives on it before its commit's answer (PostgreSQL sends a session its
 * own notices too). A connection is handed out only once it listens.
 */
export function listeningConnections() {
  const { deliver, subscribe } = listeners();
  class ListeningClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('notification', (message) => {
        if (message.channel === CHANGES_CHANNEL) deliver(message.payload ?? EVERYTHING);
      });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ((error: Error) => void) | ((error: null, client: pg.Client) => void)): void;
    override connect(
      callback?: ((error: Error) => void) | ((error: null, client: pg.Client) => void),
    ): Promise<pg.Client> | void {
      const listening = super
        .connect()
        .then(() => this.query(`LISTEN ${CHANGES_CHANNEL}`))
        .then(() => this as pg.Client);
      if (!callback) return listening;
      const done = callback as (error: Error | null, client?: pg.Client) => void;
      listening.then(
        (client) => done(null, client),
        (error: Error) => done(error),
      );
    }
  }
  return { Client: ListeningClient, subscribe };
}

/**
 * PostgreSQL: one connection of its own LISTENs for changes made by other processes (a pooled one
 * would be busy with queries). It is pinged every HEARTBEAT_MS; a lost or silent connection ends
 * trust within TRUST_MS and is replaced, and the new one starts by announcing EVERYTHING (notices
 * sent meanwhile are lost).
 */
export function postgresChanges(
  url: string,
  ownNotices: ReturnType<typeof listeningConnections>['subscribe'],
  log: (error: unknown) => void = () => {},
): Changes {
  const { deliver, subscribe } = listeners();
  const stopOwn = ownNotices(deliver);
  let client: pg.Client | null = null;
  /** performance.now() when the last answered heartbeat was sent. */
  let vouchedAt = -Infinity;
  /** The heartbeat in flight, if any. */
  let ping: { client: pg.Client; sentAt: number } | null = null;
  let closed = false;

  const drop = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    vouchedAt = -Infinity;
    deliver(EVERYTHING);
    lost.end().catch(() => {});
    if (!closed) setTimeout(connect, RECONNECT_MS);
  };

  async function connect() {
    if (closed || client) return;
    const candidate = new pg.Client({ connectionString: url, application_name: CHANGES_LISTENER });
    candidate.on('notification', (message) => deliver(message.payload ?? EVERYTHING));
    candidate.on('error', (error) => {
      log(error);
      drop(candidate);
    });
    candidate.on('end', () => drop(candidate));
    try {
      const sentAt = performance.now();
      await candidate.connect();
      await candidate.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (closed) return void (await candidate.end());
      client = candidate;
      // Whatever was kept before this connection listened may have changed unheard.
      deliver(EVERYTHING);
      vouchedAt = sentAt;
    } catch (error) {
      log(error);
      candidate.end().catch(() => {});
      if (!closed) setTimeout(connect, RECONNECT_MS);
    }
  }

  // Notices committed before a query was sent reach the connection before its answer does.
  const heartbeat = setInterval(() => {
    const current = client;
    if (!current) return;
    if (ping?.client === current) {
      if (performance.now() - ping.sentAt > 2 * TRUST_MS) drop(current);
      return;
    }
    const sent = { client: current, sentAt: performance.now() };
    ping = sent;
    current
      .query('SELECT 1')
      .then(() => {
        if (client === current) vouchedAt = sent.sentAt;
      })
      .catch(() => drop(current))
      .finally(() => {
        if (ping === sent) ping = null;
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  void connect();

  return {
    live: () => client !== null && performance.now() - vouchedAt < TRUST_MS,
    subscribe,
    async close() {
      closed = true;
      stopOwn();
      clearInterval(heartbeat);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
