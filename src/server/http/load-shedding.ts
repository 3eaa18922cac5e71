// What a process does with more calls than it can serve: it works on at most `maxInFlight` API calls at once and lets
// the next ones wait their turn, in order of arrival, for at most `maxWaitMs`. A call that waited that long, or that
// finds `maxWaiting` calls already waiting, is answered at once: HTTP 503 with Retry-After and the envelope's
// translated "busy" text, before any database work (the request limits, the session, the handler). The app's client
// waits the Retry-After and asks again with the same Idempotency-Key, so a write is still applied once.
// Without it an overloaded process takes every call, each one waits longer than its client will, and the process ends
// up working only on calls whose clients have gone: it answers none in time (measured: npm run bench -- capacity).
// A call whose client went away while it waited is dropped without being worked on. The price stream is not counted:
// it is one long answer per customer, not work. No response time is promised beyond capacity: the bench shows where
// that is (npm run bench -- capacity).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PRICE_STREAM_PATH } from '../../api-contract/markets.ts';

export interface SheddingLimits {
  /** API calls worked on at once in this process. */
  maxInFlight: number;
  /** Calls waiting for a turn; one more is answered busy at once. */
  maxWaiting: number;
  /** The longest wait for a turn (ms); past it, the call is answered busy. */
  maxWaitMs: number;
}

/** 16 at once: a call in flight mostly waits for one of the process's 10 pooled connections, so more at once only
 * lengthens that wait (the capacity bench at 10,000 customers: 64 at once answered 165 calls/s in time, 16 at once
 * 474/s with no time-out). 500 waiting: under overload a call learns within about 2 s that it should come back. 10 s
 * at most for a call in a burst of a slow moment: a phone waits 60 s for an answer. */
export const DEFAULT_SHEDDING: SheddingLimits = { maxInFlight: 16, maxWaiting: 500, maxWaitMs: 10_000 };

/** Seconds a busy answer asks the client to wait before asking again. */
export const BUSY_RETRY_AFTER_S = 1;

/** A call as the limit sees it: waiting for a turn, worked on, or over (answered, refused, or its client gone). One
 * object a call, its steps the shedder's own functions: no closure is made per request. */
interface Call {
  state: 'waiting' | 'working' | 'over';
  since: number;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Fastify's go-ahead for the next hook. */
  done: () => void;
}

/** Where a response keeps its call, for the one 'close' listener shared by every response. */
const CALL = Symbol('shed call');

/** What the process sheds, for its metrics. */
export interface SheddingState {
  inFlight: () => number;
  waiting: () => number;
  /** Calls answered busy since the start. */
  shed: () => number;
}

/**
 * Adds the limit to every API call of `app` (a hook of its own, before the request limits' and the handlers').
 * `busy(request, reply)` answers a call that gets no turn.
 */
export function shedLoad(
  app: FastifyInstance,
  limits: SheddingLimits,
  busy: (request: FastifyRequest, reply: FastifyReply) => void,
  now: () => number = () => performance.now(),
): SheddingState {
  const stream = `/api${PRICE_STREAM_PATH}`;
  let inFlight = 0;
  let shed = 0;
  /** Calls waiting whose clients are still there. */
  let waiting = 0;
  /** Every call queued, in order of arrival, from `head` on; those over are skipped as they come up. */
  const queue: (Call | undefined)[] = [];
  let head = 0;

  const leaveWaiting = (call: Call, state: Call['state']) => {
    if (call.state === 'waiting') waiting--;
    call.state = state;
  };
  /** Works on it (its turn has come). */
  const start = (call: Call) => {
    leaveWaiting(call, 'working');
    inFlight++;
    call.done();
  };
  /** Answers it busy. */
  const refuse = (call: Call) => {
    leaveWaiting(call, 'over');
    shed++;
    call.reply.header('retry-after', String(BUSY_RETRY_AFTER_S));
    busy(call.request, call.reply);
  };

  /** Takes the first queued call still waiting off the queue (leaving it 'waiting'), if any. */
  const dequeue = (): Call | undefined => {
    if (head > 1_024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    while (head < queue.length) {
      const call = queue[head]!;
      queue[head++] = undefined;
      if (call.state === 'waiting') return call;
    }
    return undefined;
  };

  /** A turn has come free: the longest waiting call takes it, unless it has waited too long. */
  const next = () => {
    while (inFlight < limits.maxInFlight) {
      const call = dequeue();
      if (!call) return;
      if (now() - call.since > limits.maxWaitMs) refuse(call);
      else start(call);
    }
  };

  /** 'close' comes once the answer is sent or the connection is gone, whichever is first (HTTP/1.1 and HTTP/2). */
  function closed(this: { [CALL]?: Call }) {
    const call = this[CALL]!;
    const worked = call.state === 'working';
    leaveWaiting(call, 'over');
    if (!worked) return;
    inFlight--;
    next();
  }

  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api/') || request.url.startsWith(stream)) return done();
    const call: Call = { state: 'waiting', since: now(), request, reply, done };
    waiting++;
    const raw = reply.raw as unknown as { [CALL]?: Call; on: (event: 'close', listener: () => void) => void };
    raw[CALL] = call;
    raw.on('close', closed);
    if (inFlight < limits.maxInFlight && waiting === 1) return start(call);
    if (waiting > limits.maxWaiting) return refuse(call);
    queue.push(call);
  });

  // A call waits at most maxWaitMs even when no turn comes free (every call in flight stuck on the database).
  const sweep = setInterval(
    () => {
      const oldest = now() - limits.maxWaitMs;
      for (let i = head; i < queue.length; i++) {
        const call = queue[i]!;
        if (call.state !== 'waiting') continue;
        if (call.since >= oldest) break;
        refuse(call);
      }
    },
    Math.max(50, Math.floor(limits.maxWaitMs / 4)),
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  return { inFlight: () => inFlight, waiting: () => waiting, shed: () => shed };
}
