// The API contract, published: GET /api/openapi.json describes every endpoint src/api-contract declares
// (found by reading the folder), with its input schema, headers, security and the envelope.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, tinyPng } from './helpers.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { openApiDocument } from '../../src/server/http/openapi.ts';
import { inputFields, type DeclaredEndpoint } from '../../src/api-contract/registry.ts';
import { login, uploadImage } from '../../src/api-contract/account.ts';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { DECIMAL, SIGNED_DECIMAL } from '../../src/api-contract/answers.ts';
import SwaggerParser from '@apidevtools/swagger-parser';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the published document is walked as plain JSON
type Json = Record<string, any>;

let h: Harness;
let endpoints: DeclaredEndpoint[];
let doc: Json;
beforeAll(async () => {
  h = await startHarness();
  endpoints = await declaredEndpoints();
  const response = await h.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  doc = response.json();
});
afterAll(() => h.close());

/** Every declared endpoint the document lacks, or describes without its input fields. */
function missingFrom(document: Json, declared: readonly DeclaredEndpoint[]): string[] {
  const missing: string[] = [];
  for (const { name, endpoint } of declared) {
    const op = document.paths?.[endpoint.path]?.[endpoint.method.toLowerCase()];
    if (!op) {
      missing.push(`${name}: ${endpoint.method} ${endpoint.path}`);
      continue;
    }
    const described = new Set([
      ...(op.parameters ?? []).map((parameter: Json) => parameter.name),
      ...propertyNames(op.requestBody),
    ]);
    for (const field of inputFields(endpoint.input)) if (!described.has(field)) missing.push(`${name}: field ${field}`);
  }
  return missing;
}

/** The property names anywhere in a schema (objects, oneOf/anyOf options). */
function propertyNames(node: unknown, names = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return names;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value)
      Object.keys(value).forEach((name) => names.add(name));
    propertyNames(value, names);
  }
  return names;
}

it('reads every contract module: the registry holds the declarations the code imports', () => {
  expect(endpoints.length).toBeGreaterThan(40);
  for (const endpoint of [login, uploadImage, submitWithdraw])
    expect(endpoints.some((declared) => declared.endpoint === endpoint)).toBe(true);
  expect(new Set(endpoints.map((declared) => declared.module))).toEqual(
    new Set([
      'account',
      'add-wallet',
      'certification',
      'content',
      'contracts',
      'earn',
      'funds',
      'statements',
      'trades',
      'liquidity',
      'lockup',
      'markets',
      'options',
      'settlement-ticks',
      'risk',
      'liabilities',
      'receipts',
      'messages',
      'payouts',
      'protection',
      'reality-check',
      'practice',
      'price-alerts',
      'write-outcome',
      'rewards',
      'sessions',
      'closure',
      'login-history',
      'share',
      'check-in',
      'support',
      'welfare',
      'blindbox',
      'activities',
      'two-factor',
      'notifications',
      'passkeys',
      'anti-phishing',
      'address-lock',
      'account-freeze',
      'console-freeze',
      'console',
      'console-content',
      'console-channels',
      'console-house',
      'console-products',
      'console-queues',
      'console-rewards',
      'console-service',
      'service-chat',
    ]),
  );
});

it('describes every endpoint declared in src/api-contract, with each of its input fields', () => {
  expect(missingFrom(doc, endpoints)).toEqual([]);
  // The check bites: a document built without one declaration is caught.
  expect(
    missingFrom(openApiDocument(endpoints.filter((declared) => declared.endpoint !== submitWithdraw)), endpoints),
  ).toEqual(['submitWithdraw: POST /users/extract']);
});

it('is an OpenAPI 3.1 document: operations with ids and responses, references that resolve', () => {
  expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    // Below the server's url /api: the path is what follows it.
    expect(path).toMatch(/^\/(?!api\/)/);
    for (const [method, op] of Object.entries(item as Json)) {
      expect(['get', 'post']).toContain(method);
      expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      ids.push(op.operationId);
    }
  }
  expect(new Set(ids).size).toBe(ids.length);
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of new Set(refs)) {
    const target = ref
      .slice(8, -1)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json | undefined>((node, key) => node?.[key] as Json | undefined, doc);
    expect(target, ref).toBeDefined();
  }
});

it('names the wire format: form body or query, multipart upload, token security, idempotency on writes, the envelope', () => {
  const loginOp = doc.paths['/users/login'].post;
  expect(loginOp.security).toEqual([]);
  expect(loginOp.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({
    type: 'object',
    required: ['username', 'password'],
  });

  const withdraw = doc.paths['/users/extract'].post;
  expect(withdraw.security).toEqual([{ token: [] }]);
  expect(withdraw.parameters).toContainEqual({ $ref: '#/components/parameters/idempotencyKey' });
  expect(withdraw.requestBody.content['application/x-www-form-urlencoded'].schema.properties.amount).toMatchObject({
    type: 'string',
    pattern: expect.any(String),
  });

  const records = doc.paths['/users/extract/record'].get;
  expect(records.parameters.map((parameter: Json) => parameter.name)).toEqual(
    expect.arrayContaining(['status', 'cursor']),
  );
  expect(records.parameters).not.toContainEqual({ $ref: '#/components/parameters/idempotencyKey' });

  expect(
    doc.paths['/users/upload'].post.requestBody.content['multipart/form-data'].schema.properties.image,
  ).toMatchObject({ type: 'string' });
  expect(
    doc.paths['/users/register'].post.requestBody.content['application/x-www-form-urlencoded'].schema.oneOf,
  ).toHaveLength(2);

  expect(doc.components.securitySchemes.token).toEqual(
    expect.objectContaining({ type: 'apiKey', in: 'header', name: 'token' }),
  );
  expect(doc.components.parameters.lang).toMatchObject({ name: 'lang', in: 'header' });
  expect(doc.components.parameters.idempotencyKey).toMatchObject({ name: 'idempotency-key', in: 'header' });
  expect(doc.components.schemas.Envelope).toMatchObject({
    required: ['ret', 'msg', 'data'],
    properties: { ret: { enum: [1, 0, -1] } },
  });
});

it("lists the texts an answer can carry: all of them, and each operation's own validation texts", () => {
  for (const text of Object.values(texts)) expect(doc['x-texts'][text.id]).toBe(text.message);
  const refusals = doc.paths['/users/extract'].post['x-refusal-texts'].map((text: Json) => text.message);
  expect(refusals).toEqual(
    expect.arrayContaining([
      texts.enterAmount.message,
      texts.payPasswordFormat.message,
      texts.tokenInvalid.message,
      texts.unsupportedCharacters.message,
    ]),
  );
});

it("says which request field a refusal is about: the optional field of the envelope, named from the operation's input", () => {
  for (const schema of [doc.components.schemas.Envelope, doc.components.schemas.Refusal]) {
    expect(schema.required).not.toContain('field');
    expect(schema.properties.field).toMatchObject({ type: 'string', description: expect.stringContaining('field') });
  }
  expect(doc.paths['/users/extract'].post['x-refusal-fields']).toEqual(
    expect.arrayContaining(['target_id', 'amount', 'paypass', 'otp']),
  );
  expect(doc.paths['/users/register'].post['x-refusal-fields']).toEqual(
    expect.arrayContaining(['phone', 'email', 'code', 'invite']),
  );
});

/** The 200 of an operation: its success envelope's data schema. */
const dataOf = (op: Json): Json => op.responses['200'].content['application/json'].schema.oneOf[0].properties.data;

it("describes every answer: data of each operation's ret 1 is the schema src/api-contract declares, strict, with patterns, nullables and ISO times", () => {
  for (const { name, endpoint } of endpoints) {
    const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
    expect(Object.keys(dataOf(op)).length, name).toBeGreaterThan(0);
    expect(op.responses['200'].content['application/json'].schema.oneOf[1]).toEqual({
      $ref: '#/components/schemas/Refusal',
    });
  }
  const quote = dataOf(doc.paths['/coin/lists'].get);
  expect(quote).toMatchObject({ type: 'object', required: ['lists', 'page', 'total'], additionalProperties: false });
  expect(quote.properties.lists.items).toMatchObject({
    additionalProperties: false,
    properties: { price: { type: 'string', pattern: expect.any(String) }, at: { type: 'string', format: 'date-time' } },
  });
  expect(new RegExp(quote.properties.lists.items.properties.change_24h.pattern).test('-1.25')).toBe(true);
  expect(new RegExp(quote.properties.lists.items.properties.price.pattern).test('abc')).toBe(false);
  const order = dataOf(doc.paths['/coin/order/add'].post);
  expect(order.properties.end_price.anyOf).toContainEqual({ type: 'null' });
  expect(order.required).toEqual(expect.arrayContaining(['end_price', 'outcome', 'settled_at']));
  expect(dataOf(doc.paths['/users/logout'].post)).toEqual({ type: 'null' });
  expect(doc.components.schemas.Refusal).toMatchObject({
    properties: { ret: { enum: [0, -1] }, data: { type: 'null' } },
  });
});

it('says what the server reads: form or JSON bodies, a body only where a field is required', async () => {
  const loginOp = doc.paths['/users/login'].post;
  expect(loginOp.requestBody.required).toBe(true);
  expect(loginOp.requestBody.content['application/json'].schema).toEqual(
    loginOp.requestBody.content['application/x-www-form-urlencoded'].schema,
  );
  const asJson = await h.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { 'content-type': 'application/json', lang: 'en' },
    payload: JSON.stringify({ username: 'nobody_here', password: 'wrong123' }),
  });
  expect(asJson.statusCode).toBe(200);
  expect(asJson.json()).toMatchObject({ ret: 0, msg: expect.any(String) });
  expect(asJson.json().msg).not.toBe(texts.enterUsernameAndPassword.message);

  for (const path of ['/users/logout', '/task/signin', '/blindbox/rotate'])
    expect(doc.paths[path].post.requestBody.required, path).toBe(false);
  // The server does without: each is done with no body at all (the logout last).
  const { token } = await customer(h);
  for (const path of ['/api/task/signin', '/api/blindbox/rotate', '/api/users/logout']) {
    const bare = await h.app.inject({ method: 'POST', url: path, headers: { token, lang: 'en' } });
    expect(bare.json(), path).toMatchObject({ ret: 1 });
  }
});

it('tells reads from writes: the K-lines by POST read only, the upload writes without an Idempotency-Key', () => {
  const klinesByPost = doc.paths['/coin/data/lists'].post;
  expect(klinesByPost.description).toContain('Reads only.');
  expect(klinesByPost.parameters).not.toContainEqual({ $ref: '#/components/parameters/idempotencyKey' });
  const upload = doc.paths['/users/upload'].post;
  expect(upload.description).not.toContain('Reads only');
  expect(upload.description).toContain('A write');
});

it("gives the contract order's price, quantity and total the pattern the server holds them to", async () => {
  const fields =
    doc.paths['/coin/trans/add'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties;
  for (const name of ['price', 'quantity', 'total']) {
    const pattern = new RegExp(fields[name].pattern);
    expect([pattern.test(''), pattern.test('12.5'), pattern.test('abc')], name).toEqual([true, true, false]);
  }
  const { token } = await customer(h, '1000');
  const refused = await h.call(
    placeContract,
    { code: 'BTC', side: 'buy', type: 'limit', price: 'abc', quantity: '1' },
    { token },
  );
  expect(refused).toMatchObject({ ret: 0, msg: texts.priceFormat.message });
});

it('declares the 413 of a body too large with the text it answers, which is not the picture’s', async () => {
  const big = await h.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
    payload: `username=${'a'.repeat(2 * 1024 * 1024)}&password=x`,
  });
  expect(big.statusCode).toBe(413);
  expect(big.json().msg).toBe('What you sent is too large (at most 1 MB)!');
  expect(doc.paths['/users/login'].post.responses['413'].description).toContain(
    'What you sent is too large (at most 1 MB)!',
  );
  const thai = await h.app.inject({
    method: 'POST',
    url: '/api/service/chat/send',
    headers: { 'content-type': 'application/json', lang: 'th' },
    payload: JSON.stringify({ body: 'ก'.repeat(1024 * 1024) }),
  });
  expect(thai.statusCode).toBe(413);
  expect(thai.json().msg).not.toMatch(/picture|รูป/i);
});

it('declares its servers, its licence, and the headers the server answers with: rate limits on every answer, the replay on writes', async () => {
  expect(doc.servers).toEqual([{ url: '/api', description: expect.any(String) }]);
  expect(doc.info.license).toEqual({ name: expect.any(String), identifier: expect.any(String) });
  // The server's url followed by a path is the URL that answers it.
  const [server] = doc.servers as Json[];
  const viaDocument = await h.app.inject({
    method: 'GET',
    url: `${server!.url}${Object.keys(doc.paths).find((path) => path === '/coin/lists')}`,
    headers: { lang: 'en' },
  });
  expect(viaDocument.json()).toMatchObject({ ret: 1 });
  const answered = await h.app.inject({ method: 'GET', url: '/api/coin/lists', headers: { lang: 'en' } });
  const limitHeaders = Object.keys(answered.headers).filter((name) => name.startsWith('x-ratelimit-'));
  expect(limitHeaders.length).toBeGreaterThan(0);
  const declared = doc.paths['/coin/lists'].get.responses['200'].headers;
  expect(Object.keys(declared).sort()).toEqual(limitHeaders.sort());
  for (const name of limitHeaders) expect(doc.components.headers[name]).toBeDefined();
  expect(doc.paths['/users/extract'].post.responses['200'].headers['idempotent-replay']).toEqual({
    $ref: '#/components/headers/idempotent-replay',
  });
  expect(doc.paths['/users/extract/record'].get.responses['200'].headers['idempotent-replay']).toBeUndefined();
  expect(doc.paths['/users/login'].post.responses['429'].headers['retry-after']).toEqual({
    $ref: '#/components/headers/retry-after',
  });
});

it('passes swagger-parser: a valid OpenAPI 3.1 document, every reference resolved', async () => {
  // validate() dereferences in place: it gets a copy, and any error it finds fails the test.
  await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  // The check bites: a licence with a name only (no SPDX identifier, no url) is refused.
  const nameOnly = { ...structuredClone(doc), info: { ...doc.info, license: { name: doc.info.license.name } } };
  await expect(SwaggerParser.validate(nameOnly as never)).rejects.toThrow(/license/);
});

/** Every node of a schema, with where it is. */
function* nodesOf(node: unknown, where: string): Generator<[Json, string]> {
  if (typeof node !== 'object' || node === null) return;
  yield [node as Json, where];
  for (const [key, child] of Object.entries(node)) if (key !== 'examples') yield* nodesOf(child, `${where}.${key}`);
}

it('gives every answer examples a mock can serve: each answer and each string in it, decimals as decimal strings', () => {
  const problems: string[] = [];
  let decimals = 0;
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const content = op.responses['200'].content?.['application/json'];
      if (!content) continue;
      const data = dataOf(op);
      if (!data.examples?.length && data.type !== 'null') problems.push(`${method} ${path}: no example`);
      if (content.example?.ret !== 1) problems.push(`${method} ${path}: no example envelope`);
      for (const [node, where] of nodesOf(data, `${method} ${path}`)) {
        if (node.type !== 'string') continue;
        if (!node.examples?.length) problems.push(`${where}: a string without an example`);
        else if (node.pattern && !node.examples.every((example: string) => new RegExp(node.pattern, 'u').test(example)))
          problems.push(`${where}: ${node.examples} against ${node.pattern}`);
        if (node.pattern === DECIMAL.source || node.pattern === SIGNED_DECIMAL.source) decimals += 1;
        if (node.examples?.includes('string')) problems.push(`${where}: "string"`);
      }
    }
  }
  expect(problems).toEqual([]);
  expect(decimals).toBeGreaterThan(20);
  const coin = dataOf(doc.paths['/coin/lists'].get).examples[0].lists[0];
  expect(coin.price).toMatch(DECIMAL);
  expect(coin.change_24h).toMatch(SIGNED_DECIMAL);
  expect(doc.paths['/coin/lists'].get.responses['200'].content['application/json'].example.data.lists[0].price).toMatch(
    DECIMAL,
  );
});

it('answers a picture over 5 MB as the document says: HTTP 200, ret 0, the translated text', async () => {
  const upload = doc.paths['/users/upload'].post;
  expect(upload.description).toContain(texts.uploadTooLarge.message);
  expect(upload['x-refusal-texts'].map((text: Json) => text.id)).toContain(texts.uploadTooLarge.id);
  expect(doc.paths['/users/login'].post.responses['413'].description).not.toMatch(/picture over \d+ MB;/);
  const { token } = await customer(h);
  const png = Buffer.from(tinyPng());
  const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length + 1024)]);
  const boundary = 'openapi-upload-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="image"; filename="big.png"\r\ncontent-type: image/png\r\n\r\n`,
    ),
    big,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const answer = await h.app.inject({
    method: 'POST',
    url: '/api/users/upload',
    headers: { token, lang: 'en', 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  expect(answer.statusCode).toBe(200);
  expect(answer.json()).toEqual({ ret: 0, msg: texts.uploadTooLarge.message, data: null });
});
