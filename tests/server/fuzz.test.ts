// A generated attack on the whole API contract: every endpoint declared in src/api-contract (read from the
// folder, so one added later is covered without a line added here), every field of its input,
// hostile values of every kind, wrong content types and odd headers, anonymous and logged in (an endpoint that needs
// a session is refused before its input is read: anonymous, it gets a sample). On PostgreSQL only (the server-pg
// project): the same SQL runs on the embedded database, whose own driver the smoke set and the end-to-end journeys
// exercise.
// Every answer must be the envelope and never a 5xx; every answer that is not ret 1 must have
// written nothing; at the end the ledger still equals the balances.
import { afterAll, beforeAll, beforeEach, expect, it, type TestContext } from 'vitest';
import * as v from 'valibot';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse as InjectResponse } from 'fastify';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, customer, expectLedgerBalanced, grant, newEmail, refused, tinyPng } from './helpers.ts';
import {
  addCard,
  addTronWallet,
  cryptoRecharge,
  newBankNumber,
  newHash,
  newTronAddress,
  uploadedPicture,
  withdrawn,
} from './funds-helpers.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { inputShapes, type DeclaredEndpoint } from '../../src/api-contract/registry.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { createSession } from '../../src/server/domain/sessions.ts';
import { POINTS } from '../../src/api-contract/rewards.ts';
import { UPLOAD_FIELD } from '../../src/api-contract/account.ts';
import { PRICE_STREAM_PATH } from '../../src/api-contract/markets.ts';

const UNSUPPORTED = 'Please remove unsupported characters and try again!';

/** Hostile strings, one per kind; each field of each endpoint gets every one of them. */
const HOSTILE: Record<string, string> = {
  nul: 'ab\u0000cd',
  nulOnly: '\u0000',
  loneHighSurrogate: 'ab\uD800cd',
  loneLowSurrogate: '\uDC00',
  long100kB: 'a'.repeat(100_000),
  longDigits100kB: '9'.repeat(100_000),
  exponentHuge: '1e308',
  exponentTiny: '1e-7',
  nan: 'NaN',
  infinity: 'Infinity',
  negativeInfinity: '-Infinity',
  negativeZero: '-0',
  decimals30: '0.123456789012345678901234567890',
  hex: '0x10',
  padded: ' 10 ',
  rtlOverride: '\u202Eabc123',
  sqlQuote: "' or 1=1 --",
  sqlDrop: '1; drop table users',
  html: '<script>alert(1)</script><img src=x onerror=alert(1)>',
  negative: '-1',
  hugeInteger: '99999999999999999999999999999',
  int32Overflow: '2147483648',
  empty: '',
  blank: '   ',
  combining: '👍\u0301\u200D',
};
const CARRIES_UNSUPPORTED = new Set(['nul', 'nulOnly', 'loneHighSurrogate', 'loneLowSurrogate']);
/**
 * An endpoint that needs a session, called without one, is refused before its input is read: three kinds show that
 * no value gets past that refusal (or makes it fail).
 */
const BEFORE_THE_SESSION = new Set(['nul', 'long100kB', 'sqlQuote']);
/** The hostile kinds one walk sends to a field of `endpoint`. */
function hostileFor(endpoint: DeclaredEndpoint['endpoint'], token: string | undefined): [string, string][] {
  const kinds = Object.entries(HOSTILE);
  if (endpoint.auth && token === undefined) return kinds.filter(([kind]) => BEFORE_THE_SESSION.has(kind));
  return kinds;
}
/**
 * A lone surrogate has no UTF-8 spelling: percent-encoded as WTF-8 (%ED%A0%80) the form and query
 * parser leaves the escape undecoded (plain ASCII arrives), so only a JSON body can deliver one.
 */
const FORM_DELIVERS_UNSUPPORTED = new Set(['nul', 'nulOnly']);
/** JSON bodies can carry what a form cannot: numbers, booleans, null, objects, arrays. */
const HOSTILE_JSON: Record<string, unknown> = {
  jsonNumberHuge: 1e308,
  jsonNegativeZero: -0,
  jsonTrue: true,
  jsonNull: null,
  jsonObject: { $gt: '' },
  jsonArray: ['1', '2'],
  jsonNested: { a: { b: { c: ['\u0000'] } } },
};

/**
 * Where the cheapest valid value of a field is not the one that gets past the handler's own checks
 * (depth, not coverage: a field without a hint is attacked all the same). An optional field with a
 * hint is sent in the baseline too. Completed with the user's own values in beforeAll.
 */
const HINTS: Record<string, string[]> = {
  amount: ['20'],
  number: ['100'],
  code: ['BTC'],
  // A push subscription (api-contract/notifications.ts): a push service's https address, a P-256 key and an auth
  // secret.
  off: ['option_settled'],
  endpoint: ['https://push.example.com/send/fuzz'],
  p256dh: ['BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM'],
  auth: ['tBHItJI5svbpez7KI4CCXg'],
  // A statement's period (api-contract/statements.ts): two days and a time zone.
  from: ['2026-11-01'],
  to: ['2026-11-30'],
  tz: ['Asia/Bangkok'],
  // What became of a lost write (api-contract/write-outcome.ts): a customer write's path.
  path: ['/lockup/subscribe'],
  // ...and when the device first sent it (ISO 8601, UTC).
  sent_at: ['2026-11-22T08:00:00.000Z'],
  // A small balances' conversion (api-contract/asset-amounts.ts ASSET_AMOUNTS): the coins and amounts confirmed.
  amounts: ['BTC:0.00000898'],
};

interface Sent {
  label: string;
  /** The value carries NUL or a lone surrogate that reaches the parsed input. */
  unsupported?: boolean;
}

let h: Harness;
let endpoints: DeclaredEndpoint[];
let user: { token: string; phone: string; id: number };
let pool: string[];
let requests = 0;
/** How many requests were followed by a fingerprint (a compared table was written). */
let fingerprints = 0;
const problems: string[] = [];
/** The newest audit entry when the fingerprint was last taken. */
let auditSeen = 0;
const started = Date.now();
/** FUZZ_STATS=1 prints how each endpoint answered: proof that the walk gets past validation. */
const stats = new Map<string, number>();

/**
 * The walks send some 30,000 requests in all: on PostgreSQL the whole file took 58 s beside the other suites (under
 * `npm run coverage`), a walk longer beside the end-to-end files (tests/run.ts). The limit catches a hang; it times
 * nothing. On a slow machine (one core 1,312 MB/s SHA-256) the logged-in walk took 36 s alone and over 240 s beside
 * the end-to-end files: 600 s.
 */
const WALK = { timeout: 600_000 };

/** Aborted once the running test has ended (passed, failed or over its time limit): inject() sends nothing after. */
let testEnded: AbortSignal | undefined;

/**
 * A test body that stops with its test. Past a test's time limit vitest goes on to the next test while the body runs
 * on: a walk would go on sending, and the next test would find writes it did not make ("wrote to" problems that are
 * not the server's). So every request first checks that its test is still running (`testEnded`: vitest's own signal,
 * which it aborts at the time limit, or the test's end), and the test's end waits for the body to stop, so nothing of
 * it is in flight when the next test starts. The body's own failure is the test's; what it throws once the test has
 * ended (the abort itself) reports nothing new.
 */
function untilTestEnds(body: () => Promise<void>): (context: TestContext) => Promise<void> {
  return (context) => {
    const ended = new AbortController();
    testEnded = AbortSignal.any([context.signal, ended.signal]);
    const running = body();
    context.onTestFinished(async () => {
      ended.abort();
      await running.catch(() => undefined);
    });
    return running;
  };
}

/** Sends one request to the app and counts it, unless its test has ended: then it throws the end's reason. */
function inject(options: InjectOptions): Promise<InjectResponse> {
  testEnded?.throwIfAborted();
  requests++;
  return h.app.inject(options);
}

// ---- The database fingerprint ---------------------------------------------------------------

/** Pure bookkeeping that a refusal may legitimately write: login/code attempt counters, request counters (PostgreSQL),
 * idempotency keys, the feed's lease; and the sign-in history, which records a known account's wrong password on
 * purpose (domain/login-history.ts). */
const BOOKKEEPING = new Set(['attempt_counters', 'request_counters', 'idempotency_keys', 'leases', 'login_history']);
/** A wrong code counts a failed try on the code's row (brute-force guard): compared by rows, not content. */
const ROWS_ONLY = new Set(['verification_codes']);
const tables: { name: string; content: boolean }[] = [];

/**
 * Cheap: a counter that every statement writing a compared table moves (a statement trigger on each
 * of them, installed in beforeAll; a sequence, so even a write rolled back moves it). Unchanged means
 * no compared table was written in between. The bookkeeping tables do not move it: on PostgreSQL
 * every request writes request_counters, and a transaction id would have the whole fingerprint taken
 * after every request.
 */
async function writeMark(): Promise<string> {
  const [row] = rowsOf<{ mark: string }>(
    await h.database.db.execute(sql`select last_value::text || ':' || is_called::text as mark from fuzz_writes`),
  );
  return row!.mark;
}

async function lastAuditId(): Promise<number> {
  const [row] = rowsOf<{ id: number | null }>(await h.database.db.execute(sql`select max(id) as id from audit_log`));
  return Number(row?.id ?? 0);
}

/** The statement trigger on each compared table that moves writeMark(). */
async function watchWrites() {
  await h.database.db.execute(sql`create sequence fuzz_writes`);
  await h.database.db.execute(
    sql.raw(
      `create function fuzz_wrote() returns trigger language plpgsql as $$ begin perform nextval('fuzz_writes'); return null; end $$`,
    ),
  );
  for (const { name } of tables) {
    await h.database.db.execute(
      sql`create trigger fuzz_wrote after insert or update or delete or truncate on ${sql.identifier(name)} for each statement execute function fuzz_wrote()`,
    );
  }
}

/** Every business table's row count and a digest of its content, plus the sum of every balance. */
async function fingerprint(): Promise<Record<string, string>> {
  const parts = tables.map(({ name, content }) => {
    const table = sql.identifier(name);
    return content
      ? sql`select ${name} as name, count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as value from ${table} t`
      : sql`select ${name} as name, count(*)::text as value from ${table} t`;
  });
  parts.push(
    sql`select 'balances:sum' as name, coalesce(sum(available), 0)::text || '/' || coalesce(sum(frozen), 0)::text as value from balances`,
  );
  const rows = rowsOf<{ name: string; value: string }>(await h.database.db.execute(sql.join(parts, sql` union all `)));
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

let known: { mark: string; print: Record<string, string> };
async function refreshKnown() {
  const mark = await writeMark();
  known = { mark, print: await fingerprint() };
  auditSeen = await lastAuditId();
}

// ---- Sending --------------------------------------------------------------------------------

/**
 * Percent-encoding that can spell a lone surrogate (as WTF-8 bytes), which encodeURIComponent refuses. A text without
 * any surrogate is encoded whole: the same bytes as one character at a time, without a call per character of the
 * 100 kB values.
 */
function encode(text: string): string {
  if (!/[\uD800-\uDFFF]/.test(text)) return encodeURIComponent(text);
  let out = '';
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (point >= 0xd800 && point <= 0xdfff) {
      out += [0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}
const formOf = (pairs: [string, string][]) => pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');

interface RequestSpec {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

/** Sends one request and checks what every answer owes: the envelope, no 5xx, no write on a refusal. */
async function send(spec: RequestSpec, sent: Sent): Promise<InjectResponse> {
  const response = await inject({
    method: spec.method,
    url: spec.url,
    headers: { lang: 'en', ...spec.headers },
    payload: spec.payload,
  });
  const where = `${spec.method} ${spec.url.slice(0, 80)} [${sent.label}] → HTTP ${response.statusCode}`;
  let body: { ret?: unknown; msg?: unknown; data?: unknown; field?: unknown } | null = null;
  try {
    body = response.json();
  } catch {
    problems.push(`${where}: not JSON: ${response.body.slice(0, 120)}`);
  }
  if (response.statusCode >= 500) problems.push(`${where}: ${response.body.slice(0, 200)}`);
  if (
    body &&
    !(
      // A refusal about one field of the request also names it (`field`, a name the endpoint's input declares).
      (Object.keys(body).sort().join() === 'data,msg,ret' ||
        (Object.keys(body).sort().join() === 'data,field,msg,ret' &&
          body.ret === 0 &&
          typeof body.field === 'string' &&
          body.field !== '')) &&
      [1, 0, -1].includes(body.ret as number) &&
      typeof body.msg === 'string' &&
      body.msg !== ''
    )
  ) {
    problems.push(`${where}: not an envelope: ${response.body.slice(0, 200)}`);
  }
  if (sent.unsupported && body?.ret !== -1 && body?.msg !== UNSUPPORTED)
    problems.push(`${where}: NUL or a lone surrogate was not refused: ${response.body.slice(0, 200)}`);

  if (process.env.FUZZ_STATS) {
    const key = `${sent.label.split(/[. ]/)[0]} ${body?.ret}: ${String(body?.msg).slice(0, 60)}`;
    stats.set(key, (stats.get(key) ?? 0) + 1);
  }
  const mark = await writeMark();
  if (mark !== known.mark) {
    fingerprints++;
    const print = await fingerprint();
    if (body?.ret !== 1) {
      let changed = Object.keys({ ...known.print, ...print }).filter((name) => known.print[name] !== print[name]);
      // A refused operator sign-in is audited (who tried, from where): the one write a refusal owes.
      if (spec.url.startsWith('/api/console/sign-in') && changed.includes('audit_log')) {
        const actions = rowsOf<{ action: string }>(
          await h.database.db.execute(sql`select action from audit_log where id > ${auditSeen} order by id`),
        ).map((row) => row.action);
        if (actions.length && actions.every((action) => action.startsWith('operator.sign-in.')))
          changed = changed.filter((name) => name !== 'audit_log');
      }
      if (changed.length)
        problems.push(`${where}: answered ${JSON.stringify(body).slice(0, 120)} but wrote to ${changed.join(', ')}`);
    }
    known = { print, mark };
    auditSeen = await lastAuditId();
  }
  if (body?.ret === -1 && spec.headers?.token === user.token) await renewSession();
  return response;
}

/** A call that revoked the session (logout, a password change) leaves the walk a fresh one. */
async function renewSession() {
  user.token = await createSession(h.database.db, user.id);
  await refreshKnown();
}

// ---- Inputs ---------------------------------------------------------------------------------

/** Literal and picklist values a field schema names itself (the discriminator of a variant, a filter). */
function namedValues(schema: unknown): string[] {
  const node = schema as { type?: string; literal?: unknown; options?: unknown[]; wrapped?: unknown };
  if (node.type === 'literal' && typeof node.literal === 'string') return [node.literal];
  if (node.type === 'picklist' && Array.isArray(node.options))
    return node.options.filter((option): option is string => typeof option === 'string');
  if (node.wrapped) return namedValues(node.wrapped);
  return [];
}

/**
 * A valid form for one shape of an input: each required field gets the first value its own schema
 * accepts; then, while the whole input still fails a rule across fields (a wallet address that
 * must match its chain), one field at a time tries its other accepted values.
 */
function baseline(input: v.GenericSchema, shape: Record<string, v.GenericSchema>, name: string): [string, string][] {
  const choices = new Map<string, string[]>();
  for (const [field, schema] of Object.entries(shape)) {
    const optional = v.safeParse(schema, undefined).success;
    if (optional && !HINTS[field]) continue; // left out unless attacked
    const accepted = [...namedValues(schema), ...(HINTS[field] ?? []), ...pool].filter(
      (candidate) => v.safeParse(schema, candidate).success,
    );
    if (!accepted.length && optional) continue;
    if (!accepted.length) throw new Error(`${name}: no sample value passes field "${field}"; add one to the pool`);
    choices.set(field, accepted);
  }
  const form = Object.fromEntries([...choices].map(([field, accepted]) => [field, accepted[0]!]));
  const passes = (candidate: Record<string, string>) => v.safeParse(input, candidate).success;
  for (const [field, accepted] of choices) {
    if (passes(form)) break;
    form[field] = accepted.find((value) => passes({ ...form, [field]: value })) ?? form[field]!;
  }
  return Object.entries(form);
}

/** Every shape of an endpoint's input with its fields; an endpoint without input is attacked through an unknown field.
 * */
function shapesOf(declared: DeclaredEndpoint) {
  const shapes = inputShapes(declared.endpoint.input);
  return (shapes.length ? shapes : [{}]).map((shape) => {
    const fields = Object.keys(shape);
    return { base: baseline(declared.endpoint.input, shape, declared.name), fields: fields.length ? fields : ['x'] };
  });
}

const replace = (pairs: [string, string][], field: string, value: string): [string, string][] => [
  ...pairs.filter(([key]) => key !== field),
  [field, value],
];

function request(
  declared: DeclaredEndpoint,
  form: string,
  headers: Record<string, string>,
  contentType = 'application/x-www-form-urlencoded',
): RequestSpec {
  const { method, path } = declared.endpoint;
  const url = `/api${path}`;
  return method === 'GET'
    ? { method, url: form ? `${url}?${form}` : url, headers }
    : { method, url, headers: { ...headers, 'content-type': contentType }, payload: form };
}

/** Each field gets every hostile value (form or query; JSON too on a POST) with the other fields valid. */
async function attackFields(declared: DeclaredEndpoint, token?: string) {
  const { endpoint, name } = declared;
  const headers: Record<string, string> = token ? { token } : {};
  const parsedInput = !endpoint.multipart && (!endpoint.auth || token !== undefined);
  for (const { base, fields } of shapesOf(declared)) {
    for (const field of fields) {
      for (const [kind, value] of hostileFor(endpoint, token)) {
        const label = `${name}.${field}=${kind}${token ? ' logged in' : ''}`;
        await send(request(declared, formOf(replace(base, field, value)), headers), {
          label,
          unsupported: parsedInput && FORM_DELIVERS_UNSUPPORTED.has(kind),
        });
      }
      const repeated = formOf([
        ...base.filter(([key]) => key !== field),
        [field, base.find(([key]) => key === field)?.[1] ?? '1'],
        [field, '2'],
      ]);
      await send(request(declared, repeated, headers), {
        label: `${name}.${field} repeated${token ? ' logged in' : ''}`,
      });
      if (endpoint.multipart) await attackMultipart(declared, token);
      if (endpoint.method !== 'POST') continue;
      const json = Object.fromEntries(base);
      for (const [kind, value] of Object.entries({ ...pick(HOSTILE, CARRIES_UNSUPPORTED), ...HOSTILE_JSON })) {
        const label = `${name}.${field}=${kind} as JSON${token ? ' logged in' : ''}`;
        const payload = JSON.stringify({ ...json, [field]: value });
        const unsupported = parsedInput && (CARRIES_UNSUPPORTED.has(kind) || kind === 'jsonNested');
        await send(
          { ...request(declared, '', headers), headers: { ...headers, 'content-type': 'application/json' }, payload },
          { label, unsupported },
        );
      }
    }
  }
}

const pick = (record: Record<string, string>, keys: Set<string>) =>
  Object.fromEntries(Object.entries(record).filter(([key]) => keys.has(key)));

/**
 * The GET endpoints that receive every body below, one open to all and one that needs a session; the other GET
 * endpoints receive one. Fastify never reads a GET's body (GET is one of its bodyless methods: no content-type parser
 * runs) and handle.ts takes a GET's input from the query alone, so on a GET every body is the same request to the
 * app: the query, with a header nothing reads.
 */
const everyBodyGet = new Set<DeclaredEndpoint>();
/** On a GET outside everyBodyGet, the body sent: one that would be refused if it were ever parsed. */
const GET_BODY = 'invalid JSON';

/** The valid form sent in every wrong way a client (or an attacker) can send a body. */
async function attackContentTypes(declared: DeclaredEndpoint, token?: string) {
  const headers: Record<string, string> = token ? { token } : {};
  const base = shapesOf(declared)[0]!.base;
  const form = formOf(base);
  const { method, path } = declared.endpoint;
  const url = `/api${path}`;
  const multipart = new Response(
    Object.entries(Object.fromEntries(base)).reduce(
      (data, [key, value]) => (data.append(key, value), data),
      new FormData(),
    ),
  );
  const bodies: [string, Record<string, string>, string | Buffer | undefined][] = [
    ['JSON', { 'content-type': 'application/json' }, JSON.stringify(Object.fromEntries(base))],
    [
      'JSON with a duplicate key',
      { 'content-type': 'application/json' },
      `{${base.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)},${JSON.stringify(key)}:"x"`).join(',')}}`,
    ],
    ['JSON array', { 'content-type': 'application/json' }, '[1,2,3]'],
    ['JSON string', { 'content-type': 'application/json' }, '"\\u0000"'],
    ['JSON null', { 'content-type': 'application/json' }, 'null'],
    [
      'JSON __proto__',
      { 'content-type': 'application/json' },
      '{"__proto__":{"ret":1},"constructor":{"prototype":{"ret":1}}}',
    ],
    ['invalid JSON', { 'content-type': 'application/json' }, '{"a":'],
    ['deep JSON', { 'content-type': 'application/json' }, `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['text/plain', { 'content-type': 'text/plain' }, form],
    ['text/plain with NUL', { 'content-type': 'text/plain' }, 'a\u0000b'],
    [
      'multipart',
      { 'content-type': multipart.headers.get('content-type')! },
      Buffer.from(await multipart.arrayBuffer()),
    ],
    ['multipart without boundary', { 'content-type': 'multipart/form-data' }, 'garbage'],
    ['no content type', {}, form],
    ['empty JSON body', { 'content-type': 'application/json' }, ''],
    ['empty form body', { 'content-type': 'application/x-www-form-urlencoded' }, ''],
    [
      'form in latin1',
      { 'content-type': 'application/x-www-form-urlencoded; charset=latin1' },
      Buffer.concat([Buffer.from(form), Buffer.from('&x=\xe9\xff', 'latin1')]),
    ],
    [
      'form with invalid UTF-8',
      { 'content-type': 'application/x-www-form-urlencoded' },
      Buffer.concat([Buffer.from(form), Buffer.from([0x26, 0x78, 0x3d, 0xc3, 0x28, 0xff])]),
    ],
    [
      'JSON in UTF-16',
      { 'content-type': 'application/json; charset=utf-16' },
      Buffer.from(JSON.stringify(Object.fromEntries(base)), 'utf16le'),
    ],
    ['XML', { 'content-type': 'application/xml' }, '<a/>'],
    ['bad percent escapes', { 'content-type': 'application/x-www-form-urlencoded' }, `${form}&x=%E0%A4%A&y=%&z=%zz`],
  ];
  for (const [label, extra, payload] of bodies) {
    if (method === 'GET' && !everyBodyGet.has(declared) && label !== GET_BODY) continue;
    const sent = { label: `${declared.name} ${label}${token ? ' logged in' : ''}` };
    if (method === 'GET')
      await send({ method, url: `${url}${form ? `?${form}` : ''}`, headers: { ...headers, ...extra }, payload }, sent);
    else await send({ method, url, headers: { ...headers, ...extra }, payload }, sent);
  }
  if (method === 'GET') {
    for (const [label, query] of [
      ['bad percent escapes in the query', `${form}&x=%E0%A4%A&y=%&z=%zz`],
      ['lone surrogate as %uD800', `${form}&x=%uD800`],
      ['repeated query keys', `${form}&${form}`],
      ['bracketed query keys', `a[b]=1&a[c][d]=2&${form}`],
    ] as const) {
      await send(
        { method, url: `${url}?${query}`, headers },
        { label: `${declared.name} ${label}${token ? ' logged in' : ''}` },
      );
    }
  }
}

/** A multipart body written by hand, so names, file names and types can carry anything. */
function multipartBody(
  parts: { name: string; filename?: string; type?: string; content: string | Uint8Array }[],
  boundary = 'fuzzboundary',
) {
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
    ),
    Buffer.from(part.content),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A multipart endpoint (the picture upload): hostile field names, file names, part types and broken bodies. */
async function attackMultipart(declared: DeclaredEndpoint, token?: string) {
  const headers: Record<string, string> = token ? { token } : {};
  const png = tinyPng();
  const bodies: [string, { payload: Buffer; contentType: string }][] = [];
  for (const [kind, value] of Object.entries(HOSTILE)) {
    bodies.push([
      `file name ${kind}`,
      multipartBody([{ name: UPLOAD_FIELD, filename: value, type: 'image/png', content: png }]),
    ]);
    bodies.push([
      `field name ${kind}`,
      multipartBody([{ name: value, filename: 'a.png', type: 'image/png', content: png }]),
    ]);
    bodies.push([
      `part type ${kind}`,
      multipartBody([{ name: UPLOAD_FIELD, filename: 'a.png', type: value, content: png }]),
    ]);
    bodies.push([
      `text field ${kind} first`,
      multipartBody([
        { name: 'x', content: value },
        { name: UPLOAD_FIELD, filename: 'a.png', type: 'image/png', content: png },
      ]),
    ]);
    bodies.push([
      `file content ${kind}`,
      multipartBody([{ name: UPLOAD_FIELD, filename: 'a.png', type: 'image/png', content: value }]),
    ]);
  }
  const whole = multipartBody([{ name: UPLOAD_FIELD, filename: 'a.png', type: 'image/png', content: png }]);
  bodies.push(
    [
      'two files',
      multipartBody([
        { name: UPLOAD_FIELD, filename: 'a.png', type: 'image/png', content: png },
        { name: UPLOAD_FIELD, filename: 'b.png', type: 'image/png', content: png },
      ]),
    ],
    ['empty file', multipartBody([{ name: UPLOAD_FIELD, filename: 'a.png', type: 'image/png', content: '' }])],
    ['no parts', multipartBody([])],
    ['cut short', { ...whole, payload: whole.payload.subarray(0, whole.payload.length - 30) }],
    ['another boundary', { ...whole, contentType: 'multipart/form-data; boundary=other' }],
  );
  for (const [label, body] of bodies) {
    await send(
      {
        method: 'POST',
        url: `/api${declared.endpoint.path}`,
        headers: { ...headers, 'content-type': body.contentType },
        payload: body.payload,
      },
      { label: `${declared.name} multipart ${label}${token ? ' logged in' : ''}` },
    );
  }
}

/** Headers of the wire format with odd bytes and huge values. */
async function attackHeaders(declared: DeclaredEndpoint, token?: string) {
  const form = formOf(shapesOf(declared)[0]!.base);
  const odd: [string, Record<string, string>][] = [
    ['token latin1', { token: 'abc\u00e9\u00ff' }],
    ['token 100 kB', { token: 'a'.repeat(100_000) }],
    ['token SQL', { token: "' or 1=1 --" }],
    ['token NUL', { token: 'abc\u0000def' }],
    ['token repeated', { token: `${user.token}, ${user.token}` }],
    ['lang latin1', { lang: '\u00ff\u00fe' }],
    ['lang 100 kB', { lang: 'z'.repeat(100_000) }],
    ['lang SQL', { lang: "zh'; drop table users --" }],
    ['idempotency-key latin1', { 'idempotency-key': 'key-\u00e9\u00ff' }],
    ['idempotency-key 100 kB', { 'idempotency-key': 'k'.repeat(100_000) }],
    ['idempotency-key SQL', { 'idempotency-key': "' or 1=1 --" }],
    ['idempotency-key empty', { 'idempotency-key': '' }],
    ['idempotency-key NUL', { 'idempotency-key': 'key\u0000x' }],
  ];
  for (const [label, extra] of odd) {
    const headers = { ...(token ? { token } : {}), ...extra };
    await send(request(declared, form, headers), { label: `${declared.name} ${label}${token ? ' logged in' : ''}` });
  }
}

// ---- Setup ----------------------------------------------------------------------------------

beforeAll(async () => {
  h = await startHarness();
  endpoints = await declaredEndpoints();
  for (const auth of [false, true])
    everyBodyGet.add(endpoints.find(({ endpoint }) => endpoint.method === 'GET' && endpoint.auth === auth)!);
  await h.tick();
  user = await customer(h, '5000');
  await grant(h, user.id, '100000', POINTS);
  const card = await addCard(h, user.token);
  const wallet = await addTronWallet(h, user.token);
  const picture = await uploadedPicture(h, user.token);
  await cryptoRecharge(h, user.token, '50');
  await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '20' });
  Object.assign(HINTS, {
    username: [user.phone],
    oldpass: [PASSWORD],
    oldpaypass: [PAYPASS],
    target_id: [String(card.id)],
  });
  await h.tick(); // a fresh price, so option orders get past the price check
  // Valid values, cheapest first; each field takes the first one its own schema accepts.
  pool = [
    'BTC',
    '1',
    String(card.id),
    user.phone,
    newEmail(),
    PASSWORD,
    PAYPASS,
    picture,
    newTronAddress(),
    newHash(),
    'Somchai Jaidee',
    'KASI0001234',
    newBankNumber(),
    'AB123456',
    'THB',
  ];

  const listed = rowsOf<{ name: string }>(
    await h.database.db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  for (const { name } of listed) {
    if (BOOKKEEPING.has(name)) continue;
    const [counted] = rowsOf<{ n: string }>(
      await h.database.db.execute(sql`select count(*)::text as n from ${sql.identifier(name)}`),
    );
    // Big market tables (ticks, candles) are compared by rows: no request may add or remove one.
    tables.push({ name, content: !ROWS_ONLY.has(name) && Number(counted!.n) <= 5000 });
  }
  await watchWrites();
  await refreshKnown();
}, 120_000);

beforeEach(() => {
  problems.length = 0;
});

afterAll(async () => {
  if (process.env.FUZZ_STATS)
    console.log(
      [...stats]
        .sort()
        .map(([key, n]) => `${n}\t${key}`)
        .join('\n'),
    );
  console.log(
    `fuzz: ${requests} requests (${fingerprints} followed by a write) to ${endpoints?.length ?? 0} declared endpoints in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await h?.close();
});

// ---- The walk -------------------------------------------------------------------------------

it(
  "finds the API contract's endpoints and every one of them is served",
  untilTestEnds(async () => {
    expect(endpoints.length).toBeGreaterThan(40);
    for (const declared of endpoints) {
      const response = await send(request(declared, '', declared.endpoint.auth ? { token: user.token } : {}), {
        label: `${declared.name} is served`,
      });
      expect(response.statusCode, `${declared.endpoint.method} ${declared.endpoint.path} is not served`).not.toBe(404);
    }
  }),
);

it(
  'the write detector sees a write that a refusal did not own',
  untilTestEnds(async () => {
    await h.database.db.execute(sql`update users set nickname = 'changed behind the walk' where id = ${user.id}`);
    await send(
      request(
        endpoints.find((declared) => declared.name === 'login')!,
        formOf([['username', '']]),
        {},
      ),
      { label: 'detector check' },
    );
    expect(problems).toEqual([expect.stringContaining('but wrote to users')]);
    problems.length = 0;
  }),
);

it(
  'refuses NUL where it answered HTTP 500: login, nickname, card name, wallet alias, certification name',
  untilTestEnds(async () => {
    const byName = (name: string) => endpoints.find((declared) => declared.name === name)!;
    const cases: [string, [string, string][], string | undefined][] = [
      [
        'login',
        [
          ['username', 'de\u0000mo'],
          ['password', PASSWORD],
        ],
        undefined,
      ],
      ['editProfile', [['nickname', 'Som\u0000chai']], user.token],
      [
        'addBankCard',
        [
          ['real_name', 'Som\u0000chai'],
          ['ifsc', 'KASI0001234'],
          ['bank_code', 'KBANK'],
          ['bank_number', newBankNumber()],
          ['phone', '0812345678'],
          ['email', 'a@example.com'],
        ],
        user.token,
      ],
      [
        'addWallet',
        [
          ['alias', 'My\u0000TRON'],
          ['currency', 'USDT'],
          ['chain', 'TRC20'],
          ['address', newTronAddress()],
        ],
        user.token,
      ],
      [
        'submitCertification',
        [
          ['level', 'primary'],
          ['doc_type', 'passport'],
          ['name', 'Som\u0000chai'],
          ['number', 'AB123456'],
          ['image', pool[7]!],
        ],
        user.token,
      ],
    ];
    for (const [name, pairs, token] of cases) {
      const response = await send(request(byName(name), formOf(pairs), token ? { token } : {}), {
        label: `${name} with NUL`,
        unsupported: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ret: 0, msg: UNSUPPORTED, data: null });
    }
    // A lone surrogate can only arrive in JSON; it is refused the same way.
    const json = await send(
      {
        method: 'POST',
        url: '/api/users/edit',
        headers: { token: user.token, 'content-type': 'application/json' },
        payload: JSON.stringify({ nickname: 'Som\uD800chai' }),
      },
      { label: 'editProfile with a lone surrogate', unsupported: true },
    );
    expect(json.json()).toEqual({ ret: 0, msg: UNSUPPORTED, data: null });
    // Found by the walk: a verification code alone used to reach the database as an empty update (HTTP 500).
    const codeOnly = await send(request(byName('editProfile'), formOf([['code', '123456']]), { token: user.token }), {
      label: 'editProfile with a code only',
    });
    expect(codeOnly.json()).toEqual(refused('Please fill in the information and try again!'));
    expect(problems).toEqual([]);
  }),
);

it(
  'every field of every endpoint, anonymous: an envelope, never a 5xx, nothing written on a refusal',
  WALK,
  untilTestEnds(async () => {
    for (const declared of endpoints) await attackFields(declared);
    expect(problems).toEqual([]);
  }),
);

it(
  'every field of every endpoint, logged in with money, a card, a wallet and a picture',
  WALK,
  untilTestEnds(async () => {
    for (const declared of endpoints) await attackFields(declared, user.token);
    expect(problems).toEqual([]);
  }),
);

it(
  'wrong content types and odd headers on every endpoint, anonymous and logged in',
  WALK,
  untilTestEnds(async () => {
    for (const declared of endpoints) {
      for (const token of [undefined, user.token]) {
        await attackContentTypes(declared, token);
        await attackHeaders(declared, token);
      }
    }
    expect(problems).toEqual([]);
  }),
);

it(
  'the routes outside the API contract: pictures, the price stream, the OpenAPI document, unknown paths',
  untilTestEnds(async () => {
    const picture = pool[7]!;
    const ids = [
      picture.slice('/api/uploads/'.length),
      '%00',
      'a%00bcdefghijk',
      '%ED%A0%80',
      'x'.repeat(10_000),
      '..%2F..%2Fetc%2Fpasswd',
      "'%20or%201=1%20--",
      '-1',
      '99999999999999999999',
    ];
    for (const id of ids) {
      for (const headers of [{}, { token: user.token }, { token: 'a'.repeat(100_000), lang: '\u00ff' }]) {
        const response = await inject({ method: 'GET', url: `/api/uploads/${id}`, headers });
        if (response.statusCode >= 500)
          problems.push(`GET /api/uploads/${id.slice(0, 40)} → HTTP ${response.statusCode}`);
        if (response.statusCode !== 200 && response.json().ret !== 0)
          problems.push(`GET /api/uploads/${id.slice(0, 40)}: not an envelope`);
      }
    }
    for (const [url, headers] of [
      [PRICE_STREAM_PATH, {}],
      [`${PRICE_STREAM_PATH}?code=%00&x=%ED%A0%80`, { 'last-event-id': '\u00ff%00' }],
      [PRICE_STREAM_PATH, { 'last-event-id': '99999999999999999999999' }],
      [PRICE_STREAM_PATH, { 'last-event-id': "' or 1=1 --", token: 'a'.repeat(10_000) }],
      [PRICE_STREAM_PATH, { 'last-event-id': '-1' }],
    ] as const) {
      const response = await inject({ method: 'GET', url: `/api${url}`, headers, payloadAsStream: true });
      if (response.statusCode >= 500) problems.push(`GET /api${url} → HTTP ${response.statusCode}`);
      response.stream().destroy();
    }
    for (const headers of [{}, { token: 'a'.repeat(100_000), lang: '\u00ff', 'idempotency-key': '\u00ff' }]) {
      const response = await inject({ method: 'GET', url: '/api/openapi.json?x=%00&x=%ED%A0%80', headers });
      if (response.statusCode !== 200 || response.json().openapi === undefined)
        problems.push(`GET /api/openapi.json → HTTP ${response.statusCode}`);
    }
    for (const url of [
      '/api/%00',
      '/api/%ED%A0%80',
      `/api/${'x'.repeat(10_000)}`,
      '/api/users/info/../../etc/passwd',
      '/api/users/login?%00=%00',
    ]) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const) {
        await send({ method: method as 'GET', url, headers: { token: user.token } }, { label: 'unknown path' });
      }
    }
    expect(problems).toEqual([]);
  }),
);

it('the ledger still equals the balances after the walk', async () => {
  await expectLedgerBalanced(h);
});
