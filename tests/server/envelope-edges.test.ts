// Answers given before the routes are the envelope too, in the caller's language: those of Node's
// HTTP parser (a control byte in a header, headers over the size limit, a Content-Length the body
// does not match, a body that never comes) and Fastify's own (bad JSON, an unknown body type, a body
// over the limit). Over a real socket: app.inject() never runs the parser.
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { translator } from '../../src/server/i18n.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { FALLBACK_LOCALE } from '../../src/api-contract/constants.ts';

/** Short, so a body that never comes is answered within the test. */
const REQUEST_TIMEOUT_MS = 400;

let h: Harness;
let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  h = await startHarness();
  app = await buildApp(
    testServices({ db: h.database.db, clock: h.clock, sender: { send: async () => undefined }, market: h.market }),
    testAppOptions({
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      authRateLimitPerMinute: 10_000,
      addressRateLimitPerMinute: 100_000,
      accountRateLimitPerMinute: 100_000,
    }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await h.close();
});

const zh = translator('zh');
const INVALID_ZH = { ret: 0, msg: zh(texts.invalidRequest), data: null };

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes raw bytes on a new connection (and half-closes it when asked); resolves with every answer
 * read and whether the server closed the connection before `waitMs`.
 */
function exchange(
  bytes: string,
  { halfClose = false, waitMs = 3000 } = {},
): Promise<{ answers: Answer[]; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = true;
    const timer = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answers: answersIn(Buffer.concat(chunks)), closedByServer });
    });
    socket.write(Buffer.from(bytes, 'latin1'));
    if (halfClose) socket.end();
  });
}

/** The HTTP/1.1 answers in a connection's bytes, each read by its Content-Length. */
function answersIn(bytes: Buffer): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) throw new Error(`not an HTTP answer: ${bytes.subarray(at).toString('latin1')}`);
    const [statusLine, ...lines] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    const body = bytes.subarray(end + 4, end + 4 + length).toString('utf8');
    answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    at = end + 4 + length;
  }
  return answers;
}

const form = 'username=demo&password=abc123';
const request = (head: string, body = '') => `${head}\r\nHost: localhost\r\n\r\n${body}`;
const post = (headers: string, body: string) =>
  request(`POST /api/users/login HTTP/1.1\r\nlang: zh\r\n${headers}`, body);

/** One answer, the envelope as JSON, and the connection closed by the server. */
async function refusedAndClosed(bytes: string, options?: { halfClose?: boolean }) {
  const { answers, closedByServer } = await exchange(bytes, options);
  expect(answers).toHaveLength(1);
  const [answer] = answers as [Answer];
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers.connection).toBe('close');
  expect(closedByServer).toBe(true);
  return { status: answer.status, json: JSON.parse(answer.body) as unknown };
}

it('the translations the answers are checked against are real ones', () => {
  expect(INVALID_ZH.msg).not.toBe(texts.invalidRequest.message);
  expect(translator(FALLBACK_LOCALE)(texts.invalidRequest)).not.toBe(texts.invalidRequest.message);
});

it('a control byte in a header answers 400 with the envelope in the language of the request', async () => {
  expect(
    await refusedAndClosed(request('GET /api/other/config?act=system HTTP/1.1\r\nlang: zh\r\nx-note: a\x01b')),
  ).toEqual({ status: 400, json: INVALID_ZH });
});

it('without a language the parser can read, the answer is in the default language', async () => {
  expect(await refusedAndClosed(request('GET /api/other/config?act=system HTTP/1.1\r\nx-note: a\x01b'))).toEqual({
    status: 400,
    json: { ret: 0, msg: translator(FALLBACK_LOCALE)(texts.invalidRequest), data: null },
  });
});

it('20 KB of headers answer 431 with the envelope', async () => {
  const padding = Array.from({ length: 20 }, (_, i) => `x-pad-${i}: ${'a'.repeat(1000)}`).join('\r\n');
  expect(
    await refusedAndClosed(request(`GET /api/other/config?act=system HTTP/1.1\r\nlang: zh\r\n${padding}`)),
  ).toEqual({ status: 431, json: INVALID_ZH });
});

it('a chunk extension over the size limit answers 413 with the envelope', async () => {
  const body = `5;${'a'.repeat(20_000)}\r\nhello\r\n0\r\n\r\n`;
  expect(
    await refusedAndClosed(post('content-type: application/x-www-form-urlencoded\r\ntransfer-encoding: chunked', body)),
  ).toEqual({ status: 413, json: INVALID_ZH });
});

it('both a Content-Length and chunks (a smuggling attempt) answer 400 with the envelope', async () => {
  const body = '5\r\nhello\r\n0\r\n\r\n';
  expect(
    await refusedAndClosed(
      post('content-type: application/x-www-form-urlencoded\r\ntransfer-encoding: chunked\r\ncontent-length: 5', body),
    ),
  ).toEqual({
    status: 400,
    json: INVALID_ZH,
  });
});

it('a Content-Length larger than the body: a body that never comes answers 408 with the envelope once the request time is up', async () => {
  const started = Date.now();
  expect(
    await refusedAndClosed(post('content-type: application/x-www-form-urlencoded\r\ncontent-length: 500', form)),
  ).toEqual({
    status: 408,
    json: { ret: 0, msg: zh(texts.http408), data: null },
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
});

it('a Content-Length larger than the body: a client that stops sending answers 400 with the envelope', async () => {
  expect(
    await refusedAndClosed(post('content-type: application/x-www-form-urlencoded\r\ncontent-length: 500', form), {
      halfClose: true,
    }),
  ).toEqual({
    status: 400,
    json: INVALID_ZH,
  });
});

it('a Content-Length smaller than the body: the rest is no request, and every answer on the connection is the envelope', async () => {
  const { answers, closedByServer } = await exchange(
    post('content-type: application/x-www-form-urlencoded\r\ncontent-length: 10', form),
  );
  expect(answers.length).toBeGreaterThanOrEqual(1);
  for (const answer of answers)
    expect(JSON.parse(answer.body)).toEqual({ ret: 0, msg: expect.stringMatching(/\S/), data: null });
  expect(answers.at(-1)).toMatchObject({ status: 400, body: JSON.stringify(INVALID_ZH) });
  expect(closedByServer).toBe(true);
});

it('a body that is not valid JSON answers 400 with the envelope', async () => {
  const { answers } = await exchange(post('content-type: application/json\r\ncontent-length: 12', '{"username":'));
  expect(answers.map(({ status, body }) => ({ status, json: JSON.parse(body) }))).toEqual([
    { status: 400, json: { ret: 0, msg: zh(texts.http400), data: null } },
  ]);
});

it('a body of a type the API does not read answers 415 with the envelope saying the request is not valid', async () => {
  const { answers } = await exchange(
    post('content-type: application/xml\r\ncontent-length: 8\r\nconnection: close', '<login/>'),
  );
  expect(answers.map(({ status, body }) => ({ status, json: JSON.parse(body) }))).toEqual([
    { status: 415, json: INVALID_ZH },
  ]);
});

it('a body over the limit answers 413 with the envelope before it is read', async () => {
  const { answers } = await exchange(
    post('content-type: application/x-www-form-urlencoded\r\ncontent-length: 2000000', form),
  );
  expect(answers.map(({ status, body }) => ({ status, json: JSON.parse(body) }))).toEqual([
    { status: 413, json: { ret: 0, msg: zh(serverTexts.requestTooLarge, { 0: 1 }), data: null } },
  ]);
});

it('a well-formed request on the same server still answers as usual', async () => {
  const { answers } = await exchange(
    request('GET /api/other/config?act=system HTTP/1.1\r\nlang: zh\r\nconnection: close'),
  );
  expect(answers).toHaveLength(1);
  expect(answers[0]!.status).toBe(200);
  expect(JSON.parse(answers[0]!.body)).toMatchObject({ ret: 1 });
});
