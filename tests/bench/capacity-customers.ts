// The capacity bench's load generator, a process of its own (capacity.ts starts several): it plays
// the customers it is given, each as the app would behave on an open screen — the live price stream
// open (server-sent events on a socket of its own, from an address of its own on loopback, resumed
// with Last-Event-ID after a drop as a browser does), a list or balance refresh every 10–30 s, an
// option or contract order about once a minute (each with a new Idempotency-Key, as the app sends
// one) and now and then a page of history. Each customer's first action comes at a random point of
// its period, so the load is even from the start. Calls go over one keep-alive pool of this process.
// It counts while asked to measure: each call's time from sending to the answer's end by endpoint,
// its outcome (answered, refused with ret 0, failed, timed out), and each tick's lag from its
// recorded time (the event's id) to its arrival; and its own CPU time and event-loop delay, since on
// a small machine the generator competes with the server for the same cores.
// Messages (IPC): setup → add (answers `added`) → measure → report (answers `report`) … → stop.
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';
import { IDEMPOTENCY_HEADER } from '../../src/api-contract/envelope.ts';
import { balances, coinList } from '../../src/api-contract/markets.ts';
import { optionOrders, optionTotals, placeOption } from '../../src/api-contract/options.ts';
import { contractAmounts, contractOrders, placeContract } from '../../src/api-contract/contracts.ts';
import { accountEntries } from '../../src/api-contract/funds.ts';
import { callHeaders, needsIdempotencyKey } from '../../src/lib/call-core.ts';
import { Histogram, type HistogramData } from './capacity-probes.ts';

export type CallKind = 'read' | 'write' | 'history';

export interface Setup {
  type: 'setup';
  /** http://host:port of the server or balancer. */
  base: string;
  streamPath: string;
  /** Option products to order (id, coin) and contract pairs to buy (coin, a total above the pair's minimum). */
  products: { id: number; code: string }[];
  pairs: { code: string; total: string }[];
  /** Connections of this process's keep-alive pool for the calls. */
  callSockets: number;
  /** A call not answered in this long is a time-out. */
  timeoutMs: number;
}

export interface NewCustomer {
  token: string;
  /** The loopback address its stream connects from (null: the system's choice). */
  address: string | null;
}

/** One endpoint's figures over the measured window. */
export interface CallFigures {
  kind: CallKind;
  latency: HistogramData;
  ok: number;
  refused: number;
  errors: number;
  timeouts: number;
}

export interface Report {
  type: 'report';
  calls: Record<string, CallFigures>;
  /** Tick lags (ms), the deliveries counted and the step ids seen. */
  lag: HistogramData;
  deliveries: number;
  stepIds: number[];
  streams: number;
  drops: number;
  reconnectFailures: number;
  /** Why calls were refused or failed, with how often (the commonest first, a few). */
  reasons: [string, number][];
  /** CPU seconds of this process over the window, and its event-loop delay p99 and max (ms). */
  cpuSeconds: number;
  loopP99: number;
  loopMax: number;
}

let setup: Setup;
let agent: http.Agent;
let target: { host: string; port: number };
let stopping = false;

let measuring = false;
let measureStart = 0;
let calls = new Map<
  string,
  { kind: CallKind; latency: Histogram; ok: number; refused: number; errors: number; timeouts: number }
>();
let lag = new Histogram();
let deliveries = 0;
let stepIds = new Set<number>();
let drops = 0;
let reconnectFailures = 0;
let reasons = new Map<string, number>();
let cpuStart = process.cpuUsage();
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

const random = (min: number, max: number) => min + Math.random() * (max - min);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

interface Live extends NewCustomer {
  socket: Socket | null;
  /** The id of the last step it received: sent as Last-Event-ID when it reconnects. */
  lastId: number | null;
}
const customers: Live[] = [];

// ---- Calls ------------------------------------------------------------------------------------------

interface Call {
  name: string;
  kind: CallKind;
  endpoint: Endpoint;
  fields: () => Record<string, string>;
}

const page = (pages: number) => String(1 + Math.floor(Math.random() * pages));
const READS: Call[] = [
  { name: 'coin list', kind: 'read', endpoint: coinList, fields: () => ({}) },
  { name: 'balances', kind: 'read', endpoint: balances, fields: () => ({}) },
  { name: 'options holding', kind: 'read', endpoint: optionOrders, fields: () => ({ status: 'holding' }) },
  { name: 'option totals', kind: 'read', endpoint: optionTotals, fields: () => ({}) },
  { name: 'contracts open', kind: 'read', endpoint: contractOrders, fields: () => ({ status: 'open' }) },
  {
    name: 'contract amounts',
    kind: 'read',
    endpoint: contractAmounts,
    fields: () => ({ code: pick(setup.pairs).code }),
  },
];
const HISTORY: Call[] = [
  {
    name: 'option history',
    kind: 'history',
    endpoint: optionOrders,
    fields: () => ({ status: 'history', page: page(3) }),
  },
  {
    name: 'contract history',
    kind: 'history',
    endpoint: contractOrders,
    fields: () => ({ status: 'history', page: page(2) }),
  },
  { name: 'account entries', kind: 'history', endpoint: accountEntries, fields: () => ({ page: page(3) }) },
];
const OPTION: Call = {
  name: 'place option',
  kind: 'write',
  endpoint: placeOption,
  fields: () => {
    const product = pick(setup.products);
    return {
      code: product.code,
      direction: pick(['up', 'down']),
      product_id: String(product.id),
      amount: String(1 + Math.floor(Math.random() * 10)),
    };
  },
};
const CONTRACT: Call = {
  name: 'place contract',
  kind: 'write',
  endpoint: placeContract,
  fields: () => {
    const pair = pick(setup.pairs);
    return { code: pair.code, side: 'buy', type: 'market', total: pair.total };
  },
};

function figuresOf(call: Call) {
  let figures = calls.get(call.name);
  if (!figures)
    calls.set(
      call.name,
      (figures = { kind: call.kind, latency: new Histogram(), ok: 0, refused: 0, errors: 0, timeouts: 0 }),
    );
  return figures;
}

const note = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);

/** One call as the app makes it: the token, the language, a form body (GET: the query), a write's Idempotency-Key. */
function call(customer: Live, what: Call) {
  if (stopping) return;
  const form = new URLSearchParams(what.fields()).toString();
  const get = what.endpoint.method === 'GET';
  const headers: Record<string, string> = callHeaders('en', customer.token);
  if (needsIdempotencyKey(what.endpoint)) headers[IDEMPOTENCY_HEADER] = randomUUID();
  if (!get) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(form));
  }
  const started = performance.now();
  let settled = false;
  const settle = (outcome: 'ok' | 'refused' | 'errors' | 'timeouts', reason?: string) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (!measuring || started < measureStart) return;
    const figures = figuresOf(what);
    figures[outcome] += 1;
    if (outcome === 'ok' || outcome === 'refused') figures.latency.add(performance.now() - started);
    if (reason) note(`${what.name}: ${reason}`);
  };
  const request = http.request(
    {
      agent,
      ...target,
      method: what.endpoint.method,
      path: `/api${what.endpoint.path}${get && form ? `?${form}` : ''}`,
      headers,
    },
    (response) => {
      let head = '';
      response.on('data', (chunk: Buffer) => {
        if (head.length < 400) head += chunk.toString('utf8', 0, 400);
      });
      response.on('end', () => {
        const ret = head.match(/^\{"ret":(-?\d+)/)?.[1];
        const msg = head.match(/"msg":"([^"]{0,80})/)?.[1] ?? '';
        if (response.statusCode !== 200) settle('errors', `HTTP ${response.statusCode} ${msg}`);
        else if (ret === '1' || (!get && ret !== '0' && ret !== '-1' && ret !== undefined)) settle('ok');
        else if (ret === '0') settle('refused', `refused: ${msg}`);
        else settle('errors', `ret ${ret ?? '?'} ${msg}`);
      });
      response.on('error', (error) => settle('errors', error.message));
    },
  );
  const timer = setTimeout(() => {
    settle('timeouts');
    request.destroy();
  }, setup.timeoutMs);
  request.on('error', (error) => settle('errors', error.message));
  request.end(get ? undefined : form);
}

/** Runs `act` now and again every `min`–`max` ms, the first time at a random point within `first` ms. */
function every(first: number, min: number, max: number, act: () => void) {
  const run = () => {
    if (stopping) return;
    act();
    setTimeout(run, random(min, max));
  };
  setTimeout(run, random(0, first));
}

function behave(customer: Live) {
  every(20_000, 10_000, 30_000, () => call(customer, pick(READS)));
  every(60_000, 30_000, 90_000, () => call(customer, Math.random() < 0.75 ? OPTION : CONTRACT));
  every(180_000, 60_000, 300_000, () => call(customer, pick(HISTORY)));
}

// ---- The price stream -------------------------------------------------------------------------------

const ID = Buffer.from('id: ');
const TICKS = Buffer.from('\nevent: ticks\n');
const EVENT_END = Buffer.from('\n\n');
/** Every socket reads into this one buffer and is handled at once (no stream machinery): the generator stays light. */
const READ_BUFFER = Buffer.alloc(256 * 1024);

/**
 * Opens the customer's stream (resuming after its last step when it had one); resolves once the server answered 200.
 */
function openStream(customer: Live): Promise<void> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let rest: Buffer | null = null;
    // A new connection's first step is the snapshot of the latest prices, not a live delivery.
    let snapshot = customer.lastId === null;
    const onData = (read: Buffer) => {
      const at = Date.now();
      if (!answered) {
        if (!read.toString('latin1', 0, 12).startsWith('HTTP/1.1 200')) {
          socket.destroy();
          return reject(new Error(`the stream answered ${read.toString('latin1', 0, 40)}`));
        }
        answered = true;
        customer.socket = socket;
        resolve();
      }
      // Whole events only (one cut by a full read waits for its end); the chunked encoding's size lines do not matter.
      const data = rest ? Buffer.concat([rest, read]) : read;
      const end = data.lastIndexOf(EVENT_END) + 2;
      rest = end < 2 ? Buffer.from(data) : data.length - end > 2 ? Buffer.from(data.subarray(end)) : null;
      for (let from = data.indexOf(ID); from >= 0 && from < end; from = data.indexOf(ID, from + ID.length)) {
        let id = 0;
        let cursor = from + ID.length;
        for (let byte = data[cursor]!; byte >= 48 && byte <= 57; byte = data[++cursor]!) id = id * 10 + byte - 48;
        if (data.indexOf(TICKS, cursor) !== cursor) continue;
        customer.lastId = id;
        if (snapshot) {
          snapshot = false;
          continue;
        }
        if (!measuring) continue;
        lag.add(at - id);
        deliveries += 1;
        stepIds.add(id);
      }
    };
    const resume = customer.lastId === null ? '' : `last-event-id: ${customer.lastId}\r\n`;
    const socket = connect(
      {
        ...target,
        ...(customer.address ? { localAddress: customer.address } : {}),
        onread: {
          buffer: READ_BUFFER,
          callback: (length: number) => {
            onData(READ_BUFFER.subarray(0, length));
            return true;
          },
        },
      },
      () =>
        socket.write(
          `GET ${setup.streamPath} HTTP/1.1\r\nhost: ${target.host}:${target.port}\r\naccept: text/event-stream\r\n${resume}\r\n`,
        ),
    );
    // A server too busy to answer at all: the stream counts as failed to open (a browser would try again later).
    const late = setTimeout(() => {
      if (!answered) socket.destroy(new Error(`no answer in ${(3 * setup.timeoutMs) / 1000} s`));
    }, 3 * setup.timeoutMs);
    socket.on('error', (error) => {
      if (!answered) reject(error);
    });
    socket.on('close', () => {
      clearTimeout(late);
      if (!answered) return reject(new Error('the stream closed before answering'));
      customer.socket = null;
      if (stopping) return;
      if (measuring) drops += 1;
      // As a browser's EventSource: again after the stream's `retry` (3 s), from the last step it read.
      const again = () =>
        setTimeout(() => {
          if (!stopping)
            openStream(customer).catch(() => {
              if (measuring) reconnectFailures += 1;
              again();
            });
        }, 3_000);
      again();
    });
  });
}

// ---- Messages ---------------------------------------------------------------------------------------

/** Streams opened at once: a burst of thousands of connects overflows the listen backlog. */
const BATCH = 200;

async function add(fresh: NewCustomer[]) {
  const started = performance.now();
  let failed = 0;
  let firstError = '';
  for (let start = 0; start < fresh.length; start += BATCH) {
    await Promise.all(
      fresh.slice(start, start + BATCH).map(async (one) => {
        const customer: Live = { ...one, socket: null, lastId: null };
        try {
          await openStream(customer);
        } catch (error) {
          failed += 1;
          firstError ||= (error as Error).message;
          return;
        }
        customers.push(customer);
        behave(customer);
      }),
    );
  }
  process.send!({ type: 'added', ms: performance.now() - started, failed, firstError });
}

function report(): Report {
  measuring = false;
  const used = process.cpuUsage(cpuStart);
  return {
    type: 'report',
    calls: Object.fromEntries(
      [...calls].map(([name, figures]) => [name, { ...figures, latency: figures.latency.data() }]),
    ),
    lag: lag.data(),
    deliveries,
    stepIds: [...stepIds],
    streams: customers.filter((customer) => customer.socket).length,
    drops,
    reconnectFailures,
    reasons: [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 8),
    cpuSeconds: (used.user + used.system) / 1e6,
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
  };
}

process.on('message', (message: Setup | { type: 'add'; customers: NewCustomer[] } | { type: string }) => {
  if (message.type === 'setup') {
    setup = message as Setup;
    const url = new URL(setup.base);
    target = { host: url.hostname, port: Number(url.port || 80) };
    agent = new http.Agent({ keepAlive: true, maxSockets: setup.callSockets });
  } else if (message.type === 'add') void add((message as { customers: NewCustomer[] }).customers);
  else if (message.type === 'measure') {
    calls = new Map();
    lag = new Histogram();
    deliveries = 0;
    stepIds = new Set();
    drops = 0;
    reconnectFailures = 0;
    reasons = new Map();
    cpuStart = process.cpuUsage();
    loop.reset();
    measureStart = performance.now();
    measuring = true;
  } else if (message.type === 'report') process.send!(report());
  else if (message.type === 'stop') {
    stopping = true;
    for (const customer of customers) customer.socket?.destroy();
    agent?.destroy();
    // The customers' timers would keep it alive: it ends here.
    process.disconnect();
    process.exit(0);
  }
});
