// The contract, published: GET /api/openapi.json describes every endpoint src/contract declares
// (found by reading the folder), with its input schema, headers, security and the envelope.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';
import { openApiDocument } from '../../src/server/http/openapi.ts';
import { inputFields, type DeclaredEndpoint } from '../../src/contract/registry.ts';
import { login, uploadImage } from '../../src/contract/account.ts';
import { submitWithdraw } from '../../src/contract/funds.ts';
import { texts } from '../../src/contract/texts.ts';

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
    const op = document.paths?.[`/api${endpoint.path}`]?.[endpoint.method.toLowerCase()];
    if (!op) {
      missing.push(`${name}: ${endpoint.method} /api${endpoint.path}`);
      continue;
    }
    const described = new Set([...(op.parameters ?? []).map((parameter: Json) => parameter.name), ...propertyNames(op.requestBody)]);
    for (const field of inputFields(endpoint.input)) if (!described.has(field)) missing.push(`${name}: field ${field}`);
  }
  return missing;
}

/** The property names anywhere in a schema (objects, oneOf/anyOf options). */
function propertyNames(node: unknown, names = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return names;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value) Object.keys(value).forEach((name) => names.add(name));
    propertyNames(value, names);
  }
  return names;
}

it('reads every contract module: the registry holds the declarations the code imports', () => {
  expect(endpoints.length).toBeGreaterThan(40);
  for (const endpoint of [login, uploadImage, submitWithdraw]) expect(endpoints.some((declared) => declared.endpoint === endpoint)).toBe(true);
  expect(new Set(endpoints.map((declared) => declared.module))).toEqual(new Set(['account', 'certification', 'content', 'contracts', 'earn', 'funds', 'markets', 'messages', 'payouts', 'rewards', 'share', 'signin', 'support', 'welfare', 'blindbox', 'activities']));
});

it('describes every endpoint declared in src/contract, with each of its input fields', () => {
  expect(missingFrom(doc, endpoints)).toEqual([]);
  // The check bites: a document built without one declaration is caught.
  expect(missingFrom(openApiDocument(endpoints.filter((declared) => declared.endpoint !== submitWithdraw)), endpoints)).toEqual(['submitWithdraw: POST /api/users/extract']);
});

it('is an OpenAPI 3.1 document: operations with ids and responses, references that resolve', () => {
  expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
  const ids: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    expect(path).toMatch(/^\/api\//);
    for (const [method, op] of Object.entries(item as Json)) {
      expect(['get', 'post']).toContain(method);
      expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      ids.push(op.operationId);
    }
  }
  expect(new Set(ids).size).toBe(ids.length);
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of new Set(refs)) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
    const target = ref.slice(8, -1).replace(/^#\//, '').split('/').reduce<any>((node, key) => node?.[key], doc);
    expect(target, ref).toBeDefined();
  }
});

it('names the wire format: form body or query, multipart upload, token security, idempotency on writes, the envelope', () => {
  const loginOp = doc.paths['/api/users/login'].post;
  expect(loginOp.security).toEqual([]);
  expect(loginOp.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({ type: 'object', required: ['username', 'password'] });

  const withdraw = doc.paths['/api/users/extract'].post;
  expect(withdraw.security).toEqual([{ token: [] }]);
  expect(withdraw.parameters).toContainEqual({ $ref: '#/components/parameters/idempotencyKey' });
  expect(withdraw.requestBody.content['application/x-www-form-urlencoded'].schema.properties.amount).toMatchObject({ type: 'string', pattern: expect.any(String) });

  const records = doc.paths['/api/users/extract/record'].get;
  expect(records.parameters.map((parameter: Json) => parameter.name)).toEqual(expect.arrayContaining(['status', 'page']));
  expect(records.parameters).not.toContainEqual({ $ref: '#/components/parameters/idempotencyKey' });

  expect(doc.paths['/api/users/upload'].post.requestBody.content['multipart/form-data'].schema.properties.image).toMatchObject({ type: 'string' });
  expect(doc.paths['/api/users/register'].post.requestBody.content['application/x-www-form-urlencoded'].schema.oneOf).toHaveLength(2);

  expect(doc.components.securitySchemes.token).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'token' }));
  expect(doc.components.parameters.lang).toMatchObject({ name: 'lang', in: 'header' });
  expect(doc.components.parameters.idempotencyKey).toMatchObject({ name: 'idempotency-key', in: 'header' });
  expect(doc.components.schemas.Envelope).toMatchObject({ required: ['ret', 'msg', 'data'], properties: { ret: { enum: [1, 0, -1] } } });
});

it('lists the texts an answer can carry: all of them, and each operation\'s own validation texts', () => {
  for (const text of Object.values(texts)) expect(doc['x-texts'][text.id]).toBe(text.message);
  const refusals = doc.paths['/api/users/extract'].post['x-refusal-texts'].map((text: Json) => text.message);
  expect(refusals).toEqual(expect.arrayContaining([texts.enterAmount.message, texts.payPasswordFormat.message, texts.tokenInvalid.message, texts.unsupportedCharacters.message]));
});
