// With TLS_CERT / TLS_KEY the server speaks HTTP/2 (a first open of a route asks for a dozen scripts
// at once, which HTTP/1.1 queues on six connections) and still answers HTTP/1.1 over the same port:
// the PWA's files precompressed with their cache headers, the API (form posts, uploads), the price
// stream, the security headers and the per-address rate limit hold over both; the server's time limit
// on a request's body holds for HTTP/2 streams too, and it closes with streams still open. Without
// TLS it stays plain HTTP/1.1.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type ClientHttp2Session, type OutgoingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/server/http/app.ts';
import { PRICE_STREAM_PATH } from '../../src/api-contract/markets.ts';
import { startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { PASSWORD, registerByPhone, tinyPng } from './helpers.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'tls');
const CA = readFileSync(join(fixtures, 'cert.pem'));
const SCRIPT = `console.log(${JSON.stringify('coinvest '.repeat(400))});`;
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
/** Short, so a body that never comes is seen within the test; every other request here is whole at once. */
const REQUEST_TIMEOUT_MS = 1500;

let h: Harness;
let root: string;
let secure: FastifyInstance;
let plain: FastifyInstance;
let secureBase: string;
let plainBase: string;
let h2: ClientHttp2Session;
let me: { phone: string; token: string };

beforeAll(async () => {
  h = await startHarness();
  root = mkdtempSync(join(tmpdir(), 'coinvest-http2-'));
  mkdirSync(join(root, 'assets'));
  for (const [file, body] of Object.entries({ 'index.html': INDEX, 'assets/index-AbC123.js': SCRIPT })) {
    writeFileSync(join(root, file), body);
    writeFileSync(join(root, `${file}.br`), brotliCompressSync(body));
    writeFileSync(join(root, `${file}.gz`), gzipSync(body));
  }
  const services = testServices({
    db: h.database.db,
    clock: h.clock,
    sender: { send: async () => {} },
    market: h.market,
  });
  secure = await buildApp(
    services,
    testAppOptions({
      webRoot: root,
      tls: { cert: CA, key: readFileSync(join(fixtures, 'key.pem')) },
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    }),
  );
  plain = await buildApp(services, testAppOptions({ webRoot: root }));
  secureBase = await secure.listen({ port: 0, host: '127.0.0.1' });
  plainBase = await plain.listen({ port: 0, host: '127.0.0.1' });
  h2 = connect(secureBase, { ca: CA, servername: 'localhost' });
  me = await registerByPhone(h);
  // A recorded step: the price stream's first message carries its prices.
  await h.tick();
});

afterAll(async () => {
  h2?.destroy();
  await secure?.close();
  await plain?.close();
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Answer {
  status: number;
  /** The protocol the answer came over: '2.0' or '1.1'. */
  version: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request over the shared HTTP/2 session, answered when its stream ends. `stall`: the body is written
 * but never ended, and the answer is whatever came when the server closed the stream.
 */
function overHttp2(
  path: string,
  headers: OutgoingHttpHeaders = {},
  body?: Buffer | string,
  { stall = false } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = h2.request({ ':path': path, ':method': body === undefined ? 'GET' : 'POST', ...headers });
    const chunks: Buffer[] = [];
    let head: IncomingHttpHeaders = {};
    stream.on('response', (answer) => (head = answer as IncomingHttpHeaders));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on(stall ? 'close' : 'end', () =>
      resolve({ status: Number(head[':status']), version: '2.0', headers: head, body: Buffer.concat(chunks) }),
    );
    stream.on('error', reject);
    if (stall) stream.write(body);
    else stream.end(body);
  });
}

/** One request over HTTP/1.1: https to the TLS server (which is offered no h2), or plain http. */
function overHttp1(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ca: CA,
      servername: 'localhost',
      agent: false as const,
    };
    const send = base.startsWith('https:') ? httpsRequest : httpRequest;
    const request = send(new URL(path, base), options, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          version: answer.httpVersion,
          headers: answer.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

const json = (answer: Answer) =>
  JSON.parse(answer.body.toString()) as { ret: number; msg: string; data: Record<string, unknown> | null };
const clients = [
  [
    'HTTP/2',
    (path: string, headers?: Record<string, string>, body?: Buffer | string) => overHttp2(path, headers, body),
  ],
  [
    'HTTP/1.1 over https',
    (path: string, headers?: Record<string, string>, body?: Buffer | string) =>
      overHttp1(secureBase, path, headers, body),
  ],
] as const;

it('offers h2 by ALPN and answers a client that offers only http/1.1 on the same port', async () => {
  if (!h2.alpnProtocol) await new Promise((resolve) => h2.once('connect', resolve));
  expect(h2.alpnProtocol).toBe('h2');
  const alpn = await new Promise<string | false | null>((resolve, reject) => {
    const socket = tlsConnect(
      {
        host: '127.0.0.1',
        port: Number(new URL(secureBase).port),
        ca: CA,
        servername: 'localhost',
        ALPNProtocols: ['http/1.1'],
      },
      () => {
        resolve(socket.alpnProtocol);
        socket.end();
      },
    );
    socket.on('error', reject);
  });
  expect(alpn).toBe('http/1.1');
  expect((await overHttp2('/')).version).toBe('2.0');
  expect((await overHttp1(secureBase, '/')).version).toBe('1.1');
});

it.each(clients)(
  'over %s: index.html revalidated, a hashed asset in brotli kept for good, the https security headers, no connection headers',
  async (_, get) => {
    const index = await get('/', { 'accept-encoding': 'br' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(index.body).toString()).toBe(INDEX);
    expect(index.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(index.headers['content-security-policy']).toContain('upgrade-insecure-requests');

    const asset = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers.vary).toMatch(/accept-encoding/i);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(asset.body).toString()).toBe(SCRIPT);
    if (index.version === '2.0') for (const answer of [index, asset]) expect(answer.headers.connection).toBeUndefined();
  },
);

it.each(clients)(
  'over %s: the API answers its envelope, a form post signs in and a multipart upload is kept',
  async (_, call) => {
    const config = await call('/api/other/config?act=system', { lang: 'en' });
    expect(config.status).toBe(200);
    expect(json(config)).toMatchObject({ ret: 1, msg: 'Success' });
    expect(json(await call('/api/nothing-here', { lang: 'en' }))).toEqual({
      ret: 0,
      msg: expect.any(String),
      data: null,
    });

    const signedIn = await call(
      '/api/users/login',
      { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ username: me.phone, password: PASSWORD }).toString(),
    );
    expect(json(signedIn)).toMatchObject({ ret: 1, data: { token: expect.any(String) } });
    const token = json(signedIn).data!.token as string;

    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(tinyPng())], { type: 'image/png' }), 'me.png');
    const encoded = new Response(form);
    const uploaded = await call(
      '/api/users/upload',
      { lang: 'en', token, 'content-type': encoded.headers.get('content-type')! },
      Buffer.from(await encoded.arrayBuffer()),
    );
    expect(json(uploaded)).toMatchObject({ ret: 1, data: { url: expect.stringMatching(/^\/api\/uploads\//) } });
    const served = await call(json(uploaded).data!.url as string, { token });
    expect(served.headers['content-type']).toBe('image/png');
    expect(new Uint8Array(served.body)).toEqual(tinyPng());
  },
);

it('counts HTTP/2 and HTTP/1.1 calls from one address against the same budget', async () => {
  const remaining = async (answer: Promise<Answer>) => Number((await answer).headers['x-ratelimit-remaining']);
  const first = await remaining(overHttp2('/api/other/config?act=system'));
  expect(await remaining(overHttp1(secureBase, '/api/other/config?act=system'))).toBe(first - 1);
  expect(await remaining(overHttp2('/api/other/config?act=system'))).toBe(first - 2);
});

const TIMED_OUT = { ret: 0, msg: 'Request timed out', data: null };
const STALLED_HEAD = { lang: 'en', 'content-type': 'application/x-www-form-urlencoded', 'content-length': '100' };

it('answers 408 to an HTTP/2 request whose body never comes, resets that stream and keeps the session', async () => {
  const started = Date.now();
  const answer = await overHttp2('/api/users/login', STALLED_HEAD, 'username=someone', { stall: true });
  expect(answer.status).toBe(408);
  expect(json(answer)).toEqual(TIMED_OUT);
  expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
  expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS + 2000);
  expect((await overHttp2('/')).status).toBe(200);
});

it('answers 408 to an HTTP/1.1 request whose body never comes, on the HTTP/2 server too', async () => {
  const said = await new Promise<string>((resolve, reject) => {
    const socket = tlsConnect(
      {
        host: '127.0.0.1',
        port: Number(new URL(secureBase).port),
        ca: CA,
        servername: 'localhost',
        ALPNProtocols: ['http/1.1'],
      },
      () =>
        socket.write(
          `POST /api/users/login HTTP/1.1\r\nHost: localhost\r\n${Object.entries(STALLED_HEAD)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('')}\r\nusername=someone`,
        ),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  expect(said).toMatch(/^HTTP\/1\.1 408 /);
  expect(JSON.parse(said.slice(said.indexOf('\r\n\r\n') + 4))).toEqual(TIMED_OUT);
});

/** Opens the price stream and resolves with what it said once a step's prices arrived, and a way to wait for its end.
 * */
function openPriceStream(open: (onData: (chunk: Buffer) => void, onEnd: () => void) => void) {
  let text = '';
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const prices = new Promise<string>((resolve) =>
    open(
      (chunk) => {
        text += chunk.toString();
        if (/event: ticks\ndata: \[\{"code"/.test(text)) resolve(text);
      },
      () => ended(),
    ),
  );
  return { prices, end };
}

it('streams prices over HTTP/2 and HTTP/1.1, and closing the server ends both streams', async () => {
  let h2Headers: IncomingHttpHeaders = {};
  const viaHttp2 = openPriceStream((onData, onEnd) => {
    const stream = h2.request({ ':path': `/api${PRICE_STREAM_PATH}` });
    stream.on('response', (headers) => (h2Headers = headers as IncomingHttpHeaders));
    stream.on('data', onData);
    stream.on('close', onEnd);
  });
  let h1Answer!: { version: string; type: string | undefined };
  const viaHttp1 = openPriceStream((onData, onEnd) => {
    httpsRequest(
      new URL(`/api${PRICE_STREAM_PATH}`, secureBase),
      { ca: CA, servername: 'localhost', agent: false },
      (answer) => {
        h1Answer = { version: answer.httpVersion, type: answer.headers['content-type'] };
        answer.on('data', onData);
        answer.on('close', onEnd);
      },
    ).end();
  });
  for (const said of [await viaHttp2.prices, await viaHttp1.prices]) {
    const step = JSON.parse(/event: ticks\ndata: (.*)\n/.exec(said)![1]!) as { code: string; price: string }[];
    expect(step.find((tick) => tick.code === 'BTC')?.price).toMatch(/^\d+(\.\d+)?$/);
  }
  expect(h2Headers[':status']).toBe(200);
  expect(h2Headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(h1Answer).toEqual({ version: '1.1', type: 'text/event-stream; charset=utf-8' });

  // SIGTERM's path (start.ts stop → app.close()): open streams and sessions would hold it for ever. The close ends,
  // which the server does only once every connection is gone, and both streams end.
  await secure.close();
  await Promise.all([viaHttp2.end, viaHttp1.end]);
});

it('without TLS, plain HTTP/1.1 as before: files, API, price stream', async () => {
  const index = await overHttp1(plainBase, '/', { 'accept-encoding': 'br' });
  expect(index.version).toBe('1.1');
  expect(brotliDecompressSync(index.body).toString()).toBe(INDEX);
  expect(index.headers['strict-transport-security']).toBeUndefined();
  expect(json(await overHttp1(plainBase, '/api/other/config?act=system'))).toMatchObject({ ret: 1 });
  const stream = openPriceStream((onData, onEnd) => {
    httpRequest(new URL(`/api${PRICE_STREAM_PATH}`, plainBase), (answer) => {
      answer.on('data', onData);
      answer.on('close', onEnd);
    }).end();
  });
  expect(await stream.prices).toContain('event: ticks');
  await plain.close();
  await stream.end;
});
