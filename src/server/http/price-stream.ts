// The live price stream (server-sent events). Every step's event carries its recorded time as id;
// a client reconnecting with Last-Event-ID first gets every step recorded since, then the live
// ones, with none twice and none missing; a heartbeat lets it notice a connection gone silent.
import type { FastifyInstance } from 'fastify';
import { PRICE_STREAM_PATH, STREAM_HEARTBEAT_MS, STREAM_REPLAY_STEPS, type TickEvent } from '../../contract/markets.ts';
import type { Db } from '../db/connection.ts';
import { recordedSteps, stepEvents, type Market } from '../market/market.ts';

/** Rows read at once while resending missed steps (ten coins a step: about 500 steps). */
const REPLAY_PAGE = 5_000;

const stepId = (events: TickEvent[]) => Math.max(...events.map((event) => Date.parse(event.at)));

/** The id the client last saw: the Last-Event-ID header, or `?last=` from an EventSource opened anew. */
function lastSeen(header: unknown, query: unknown): number | null {
  const value = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

export function priceStreamRoute(app: FastifyInstance, market: Market, db: Db) {
  app.get(`/api${PRICE_STREAM_PATH}`, async (request, reply) => {
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    let closed = false;
    const send = (events: TickEvent[], json = JSON.stringify(events)) => {
      if (!closed) out.write(`id: ${stepId(events)}\nevent: ticks\ndata: ${json}\n\n`);
    };

    // Listen first and hold live steps while the missed ones are read: a step published meanwhile is
    // either in what the read finds (then dropped here) or arrives after it.
    let sentThrough = lastSeen(request.headers['last-event-id'], (request.query as Record<string, unknown>).last);
    let held: { events: TickEvent[]; json: string }[] | null = [];
    const unsubscribe = market.subscribe((events, json) => {
      if (!events.length) return;
      if (held) return void held.push({ events, json });
      if (sentThrough !== null && stepId(events) <= sentThrough) return;
      sentThrough = stepId(events);
      send(events, json);
    });
    const heartbeat = setInterval(() => !closed && out.write(`event: heartbeat\ndata: ${Date.now()}\n\n`), STREAM_HEARTBEAT_MS);
    request.raw.on('close', () => {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
    });
    out.write(`retry: 3000\n\n`);

    try {
      if (sentThrough === null) {
        // A first connection: the latest price of every coin, named by the newest step it holds.
        const snapshot = market.latestEvents();
        if (snapshot.length) {
          sentThrough = stepId(snapshot);
          send(snapshot);
        } else out.write(`event: ticks\ndata: []\n\n`);
      } else {
        let steps = 0;
        for (let after = new Date(sentThrough); !closed; ) {
          const page = await recordedSteps(db, after, REPLAY_PAGE);
          for (const step of page.steps) {
            if (++steps > STREAM_REPLAY_STEPS) break;
            send(stepEvents(step));
            after = step[0]!.at;
            sentThrough = after.getTime();
          }
          if (steps > STREAM_REPLAY_STEPS) {
            // Away too long to resend it all: the client reloads the prices and carries on live from here.
            const snapshot = market.latestEvents();
            sentThrough = snapshot.length ? stepId(snapshot) : sentThrough;
            if (!closed) out.write(`id: ${sentThrough}\nevent: reset\ndata: ${JSON.stringify(snapshot)}\n\n`);
            break;
          }
          if (!page.full) break;
        }
      }
    } catch (error) {
      request.log.error(error);
      out.end();
      return;
    }
    for (const step of held) if (sentThrough === null || stepId(step.events) > sentThrough) (sentThrough = stepId(step.events)), send(step.events, step.json);
    held = null;
  });
}
