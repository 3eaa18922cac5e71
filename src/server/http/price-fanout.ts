// The price stream's clients in one process, and what they are sent without asking: each step the
// market publishes is framed once and the same bytes are written to every live client, straight to
// its socket (10,000 clients cost 10,000 writes, not 10,000 serialisations and chunk framings);
// heartbeats go out in ten groups half a second apart, never all 10,000 in one burst, and only to a client sent
// nothing for HEARTBEAT_QUIET_MS: while steps flow (one a second) a heartbeat would say nothing a step did not, and
// each is a write to the socket (at 10,000 clients, 2,000 a second of 12,000). A client that stops reading is cut off
// (MAX_UNREAD_BYTES).
// A step or halt reaches WRITES_PER_TURN clients at a time, the event loop let go in between, in the order published.
import type { ServerResponse } from 'node:http';
import { HALTS_EVENT, STREAM_HEARTBEAT_MS, type TickEvent } from '../../api-contract/markets.ts';
import type { Market } from '../market/market.ts';

const HEARTBEAT_GROUPS = 10;
/**
 * A client's group comes round every STREAM_HEARTBEAT_MS; it is sent a heartbeat then unless it was sent something in
 * the last half of that (ms). On a quiet market that is every STREAM_HEARTBEAT_MS as before; once steps stop, the
 * first heartbeat comes at most 1.5 × STREAM_HEARTBEAT_MS (7.5 s) after the last step, within the client's
 * STREAM_STALL_MS (15 s) with room to spare.
 */
export const HEARTBEAT_QUIET_MS = STREAM_HEARTBEAT_MS / 2;
/**
 * Clients written one event before the event loop is let go. Each write is a system call: written in one go, a step to
 * a process's 2,500 clients held its loop about 40 ms each second (a CPU profile at 5,000 customers), and every call
 * and database answer arriving meanwhile waited that long, its transaction's connection and locks held.
 */
export const WRITES_PER_TURN = 500;

/** A step's id: its recorded time (the newest of its ticks), the same in every server process. */
export function stepId(events: TickEvent[]): number {
  let newest = 0;
  for (const event of events) newest = Math.max(newest, Date.parse(event.at));
  return newest;
}

export const stepFrame = (events: TickEvent[], json = JSON.stringify(events)) =>
  `id: ${stepId(events)}\nevent: ticks\ndata: ${json}\n\n`;

/** The coins halted now, as the stream says it (no id: it is a state, not a step to resume after). */
export const haltsFrame = (halted: Iterable<string>) =>
  `event: ${HALTS_EVENT}\ndata: ${JSON.stringify([...halted].sort())}\n\n`;

/** An event as written to every client: as is, and as one chunk of a chunked response. */
interface Frame {
  plain: Buffer;
  chunk: Buffer;
}

function frame(text: string): Frame {
  const plain = Buffer.from(text);
  return { plain, chunk: Buffer.concat([Buffer.from(`${plain.length.toString(16)}\r\n`), plain, Buffer.from('\r\n')]) };
}

/**
 * What a client may leave unread before it is cut off: one that stops reading (a phone asleep with
 * its connection still open, a hostile client) would otherwise have every step kept for it in the
 * server's memory. Cut off, its browser reconnects with the last id it read and is resent the rest.
 */
export const MAX_UNREAD_BYTES = 256 * 1024;

/**
 * Straight to the socket when the response is chunked and owns it (its own writes go there too, so
 * the order holds); else through the response (HTTP/1.0, a pipelined request still queued). False
 * when the client has left more than MAX_UNREAD_BYTES unread.
 */
function write(client: StreamClient, bytes: Frame, now: number): boolean {
  const { out } = client;
  client.writtenAt = now;
  const socket = out.chunkedEncoding ? out.socket : null;
  if (socket) socket.write(bytes.chunk);
  else out.write(bytes.plain);
  return (socket ?? out).writableLength <= MAX_UNREAD_BYTES;
}

export interface StreamClient {
  readonly out: ServerResponse;
  /** The id of the last step sent to it; null: none yet. */
  sentThrough: number | null;
  /** Live steps kept back while the missed ones are resent; null once it is live. */
  held: { id: number; frame: Frame }[] | null;
  closed: boolean;
  readonly group: number;
  /** When it was last written to (the fan-out's monotonic clock, ms): no heartbeat while that is recent. */
  writtenAt: number;
}

/**
 * The stream's clients of one process, fed from `market`. `clock` (ms) times the heartbeats' quiet: monotonic
 * (performance.now), so a step of the wall clock (an NTP correction, a resumed machine) neither silences nor floods
 * them; a test passes its fake clock.
 */
export function priceFanout(market: Market, clock: () => number = () => performance.now()) {
  const clients = new Set<StreamClient>();
  const groups = Array.from({ length: HEARTBEAT_GROUPS }, () => new Set<StreamClient>());
  /** The group whose heartbeat went out last: a client joining it hears its first one in 5 s. */
  let lastGroup = 0;

  const heartbeat = setInterval(() => {
    lastGroup = (lastGroup + 1) % HEARTBEAT_GROUPS;
    const group = groups[lastGroup]!;
    if (!group.size) return;
    const now = clock();
    let beat: Frame | null = null;
    for (const client of group) {
      if (now - client.writtenAt < HEARTBEAT_QUIET_MS) continue;
      beat ??= frame(`event: heartbeat\ndata: ${Date.now()}\n\n`);
      if (!write(client, beat, now)) cutOff(client);
    }
  }, STREAM_HEARTBEAT_MS / HEARTBEAT_GROUPS);
  heartbeat.unref();

  /** A step to send (its id), or a halt (no id: every client gets it, one still being resent included). */
  interface Broadcast {
    frame: Frame;
    id: number | null;
  }
  const queued: Broadcast[] = [];
  /** The broadcast being written and the clients it has still to reach: the live set's own iterator, so a client
   * that joins meanwhile is reached too and one that left is skipped. */
  let current: { broadcast: Broadcast; rest: Iterator<StreamClient> } | null = null;
  let turn: NodeJS.Immediate | null = null;

  function deliver({ frame, id }: Broadcast, client: StreamClient, now: number) {
    if (id === null) {
      if (!write(client, frame, now)) cutOff(client);
    } else if (client.held) client.held.push({ id, frame });
    // A step the client already got (in its snapshot or replay, or published out of order): not again.
    else if (client.sentThrough === null || id > client.sentThrough) {
      client.sentThrough = id;
      if (!write(client, frame, now)) cutOff(client);
    }
  }

  /** Writes up to WRITES_PER_TURN clients, the broadcasts one after the other; the rest in a later turn. */
  function pump() {
    turn = null;
    let writes = 0;
    const now = clock();
    while (writes < WRITES_PER_TURN) {
      if (!current) {
        const broadcast = queued.shift();
        if (!broadcast) return;
        current = { broadcast, rest: clients.values() };
      }
      const next = current.rest.next();
      if (next.done) current = null;
      else {
        deliver(current.broadcast, next.value, now);
        writes++;
      }
    }
    turn = setImmediate(pump);
  }

  /** Sends `broadcast` after those before it; the first turn at once (a few hundred clients: all of them). */
  function send(broadcast: Broadcast) {
    queued.push(broadcast);
    if (!turn) pump();
  }

  const unsubscribe = market.subscribe((events, json) => {
    if (events.length) send({ frame: frame(stepFrame(events, json)), id: stepId(events) });
  });

  // A halt begun or ended goes to every client, a client still being resent its missed steps included.
  const stopHalts = market.onHalts((halted) => send({ frame: frame(haltsFrame(halted)), id: null }));

  function leave(client: StreamClient) {
    client.closed = true;
    clients.delete(client);
    groups[client.group]!.delete(client);
  }

  /** A client that reads too slowly: it goes, and so does its connection. */
  function cutOff(client: StreamClient) {
    leave(client);
    client.out.destroy();
  }

  return {
    /** A new client, once its response has begun: it hears every step from now on, held back until release(). */
    join(out: ServerResponse, sentThrough: number | null): StreamClient {
      const client: StreamClient = {
        out,
        sentThrough,
        held: [],
        closed: false,
        group: lastGroup,
        writtenAt: -Infinity,
      };
      clients.add(client);
      groups[client.group]!.add(client);
      return client;
    },
    /** After its snapshot or replay: sends the held steps it does not have yet, then live ones as they come. */
    release(client: StreamClient) {
      const held = client.held ?? [];
      client.held = null;
      if (client.closed) return;
      const now = clock();
      for (const step of held) {
        if (client.sentThrough !== null && step.id <= client.sentThrough) continue;
        client.sentThrough = step.id;
        if (!write(client, step.frame, now)) return cutOff(client);
      }
    },
    leave,
    /** Ends every client's stream (the server is stopping): their browsers reconnect, resuming from the last id they
     * read. */
    endAll() {
      for (const client of [...clients]) {
        leave(client);
        client.out.end();
      }
    },
    /** Clients connected now. */
    size: () => clients.size,
    stop() {
      clearInterval(heartbeat);
      if (turn) clearImmediate(turn);
      turn = current = null;
      queued.length = 0;
      unsubscribe();
      stopHalts();
    },
  };
}
