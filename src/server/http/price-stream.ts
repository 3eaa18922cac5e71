// The live price stream (server-sent events). Every step's event carries its recorded time as id;
// a client reconnecting with Last-Event-ID first gets every step recorded since, then the live
// ones, with none twice and none missing; a heartbeat lets it notice a connection gone silent.
// Built for 10,000 clients a process: each step is framed once and the same bytes written to every
// live client (price-fanout.ts); nothing runs per client but that write.
import { CALENDAR_FIRST_DAY, CALENDAR_LAST_DAY } from '../../api-contract/calendar.ts';
import type { RouteModule } from './route-module.ts';
import { PRICE_STREAM_PATH, STREAM_REPLAY_STEPS, type TickEvent } from '../../api-contract/markets.ts';
import { REQUEST_ID_HEADER } from '../../api-contract/envelope.ts';
import { recordedSteps, stepEvents } from '../market/market.ts';
import { haltsFrame, priceFanout, stepFrame, stepId } from './price-fanout.ts';
import { countStreamClients } from '../observability/metrics.ts';

/** Rows read at once while resending missed steps (ten coins a step: about 500 steps). */
const REPLAY_PAGE = 5_000;

/** What the stream is: also all a HEAD request is answered. */
const STREAM_TYPE = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
};

/** Ids are the ms of recorded steps: one outside the calendar's range (api-contract/calendar.ts) was never sent. */
const FIRST_ID = Date.parse(`${CALENDAR_FIRST_DAY}T00:00:00Z`);
const LAST_ID = Date.parse(`${CALENDAR_LAST_DAY}T23:59:59.999Z`);

/** The id the client last saw: the Last-Event-ID header, or `?last=` from an EventSource opened anew; null for none or
 * one no step can have. */
function lastSeen(header: unknown, query: unknown): number | null {
  const value = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
  const id = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return id >= FIRST_ID && id <= LAST_ID ? id : null;
}

export const priceStreamRoute: RouteModule = ({ app, services: { market, db } }) => {
  const fanout = priceFanout(market);
  // The clients connected, at every scrape of the metrics.
  const uncount = countStreamClients(fanout.size);
  app.addHook('onClose', async () => {
    uncount();
    fanout.stop();
  });
  // An open stream would keep its connection (HTTP/1.1) or session (HTTP/2) and the server from closing.
  app.addHook('preClose', (done) => {
    fanout.endAll();
    done();
  });

  app.get(`/api${PRICE_STREAM_PATH}`, async (request, reply) => {
    // HEAD: the headers alone. Joining would hold a client no one reads, for as long as the connection lasts.
    if (request.method === 'HEAD') return reply.code(200).headers(STREAM_TYPE).send();
    reply.hijack();
    const out = reply.raw;
    // HTTP/2 forbids connection headers (Node throws on one): its streams share the connection anyway.
    out.writeHead(200, {
      ...STREAM_TYPE,
      ...(request.raw.httpVersionMajor < 2 ? { connection: 'keep-alive' } : {}),
      'x-accel-buffering': 'no',
      // Written past Fastify (hijacked): the request's id, as on every other answer.
      [REQUEST_ID_HEADER]: request.id,
    });
    out.write(`retry: 3000\n\n`);
    // What is halted now, before any price: a client never shows a halted coin's last price as live.
    out.write(haltsFrame(market.halted()));
    // Joins first and holds live steps while the missed ones are read: a step published meanwhile is
    // either in what the read finds (then dropped when released) or arrives after it.
    const client = fanout.join(
      out,
      lastSeen(request.headers['last-event-id'], (request.query as Record<string, unknown>).last),
    );
    out.on('close', () => fanout.leave(client));
    const send = (events: TickEvent[]) => {
      if (!client.closed) out.write(stepFrame(events));
    };

    try {
      if (client.sentThrough === null) {
        // A first connection: the latest price of every coin, named by the newest step it holds.
        const snapshot = market.latestEvents();
        if (snapshot.length) {
          client.sentThrough = stepId(snapshot);
          send(snapshot);
        } else out.write(`event: ticks\ndata: []\n\n`);
      } else {
        let steps = 0;
        for (let after = new Date(client.sentThrough); !client.closed;) {
          const page = await recordedSteps(db, after, REPLAY_PAGE);
          for (const step of page.steps) {
            if (++steps > STREAM_REPLAY_STEPS) break;
            send(stepEvents(step));
            after = step[0]!.at;
            client.sentThrough = after.getTime();
          }
          if (steps > STREAM_REPLAY_STEPS) {
            // Away too long to resend it all: the client reloads the prices and carries on live from here.
            const snapshot = market.latestEvents();
            client.sentThrough = snapshot.length ? stepId(snapshot) : client.sentThrough;
            if (!client.closed)
              out.write(`id: ${client.sentThrough}\nevent: reset\ndata: ${JSON.stringify(snapshot)}\n\n`);
            break;
          }
          if (!page.full) break;
        }
      }
    } catch (error) {
      request.log.error(error);
      fanout.leave(client);
      out.end();
      return;
    }
    fanout.release(client);
  });
};
