// The contract, published: an OpenAPI 3.1 document built from every endpoint declared in
// src/contract (the valibot schemas through @valibot/to-json-schema), the envelope, the headers and
// the texts an answer's msg can carry. Served at GET /api/openapi.json; nothing here is written by
// hand per endpoint, so a new declaration is in the document as soon as it exists.
import type { FastifyInstance } from 'fastify';
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { IDEMPOTENCY_HEADER, LANG_HEADER, RET_FAIL, RET_OK, RET_TOKEN_INVALID, TOKEN_HEADER } from '../../contract/envelope.ts';
import { FALLBACK_LOCALE, LOCALES, UPLOAD_MAX_BYTES } from '../../contract/constants.ts';
import { UPLOAD_FIELD, UPLOAD_TYPES } from '../../contract/account.ts';
import { PRICE_STREAM_PATH } from '../../contract/markets.ts';
import { textById, texts } from '../../contract/texts.ts';
import type { DeclaredEndpoint } from '../../contract/registry.ts';
import { declaredEndpoints } from './declared-endpoints.ts';

export const OPENAPI_PATH = '/api/openapi.json';

type Json = Record<string, unknown>;

/** An input schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), describing what is sent. */
function jsonSchemaOf(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12', typeMode: 'input' }) as Json;
  return json;
}

/** The ids of the texts an input's own rules answer with, read from the schema's messages. */
function validationTexts(schema: unknown, found = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (typeof schema !== 'object' || schema === null || seen.has(schema) || schema instanceof RegExp) return found;
  seen.add(schema);
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('~')) continue;
    if (key === 'message' && typeof value === 'string' && value in textById) found.add(value);
    else validationTexts(value, found, seen);
  }
  return found;
}

const ENVELOPE: Json = {
  type: 'object',
  description: `Every answer (spec §7). ret ${RET_OK}: done, data holds the result; ret ${RET_FAIL}: refused, msg says why (translated per the lang header) and nothing was written; ret ${RET_TOKEN_INVALID}: the token is missing, expired or revoked (log in again). Lists are under data.lists.`,
  required: ['ret', 'msg', 'data'],
  properties: {
    ret: { enum: [RET_OK, RET_FAIL, RET_TOKEN_INVALID] },
    msg: { type: 'string' },
    data: { description: 'The result on ret 1; null otherwise.' },
  },
  additionalProperties: false,
};

const envelopeResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } });

/** What every operation may answer besides its own 200. */
const COMMON_RESPONSES = {
  '200': envelopeResponse('The envelope: ret 1 with data, ret 0 with the reason of a refusal, or ret -1 when the token is not valid.'),
  '400': envelopeResponse('The body or the URL could not be read (invalid JSON, malformed percent-encoding).'),
  '413': envelopeResponse('The body is over the size limit.'),
  '415': envelopeResponse('The body has a content type the API does not read.'),
  '429': envelopeResponse(`Too many requests from this address or account: "${texts.tooManyAttempts.message}"`),
  '500': envelopeResponse('A fault of the server; the envelope still carries a readable msg.'),
};

const textRef = (id: string) => ({ id, message: textById[id]!.message });

function operation(declared: DeclaredEndpoint): Json {
  const { endpoint, name, module } = declared;
  const schema = jsonSchemaOf(endpoint.input);
  const isWrite = !endpoint.readOnly && !endpoint.multipart;
  const parameters: Json[] = [{ $ref: '#/components/parameters/lang' }];
  if (isWrite) parameters.push({ $ref: '#/components/parameters/idempotencyKey' });
  const op: Json = {
    operationId: name,
    tags: [module],
    summary: `${name} (${module})`,
    description: [
      endpoint.auth ? 'Needs the session token (header `token`); without a valid one it answers ret -1.' : 'Open to anyone (no token).',
      isWrite ? 'A write: send an Idempotency-Key so a retry is applied once and the first answer is replayed.' : 'Reads only.',
      endpoint.multipart ? `Multipart upload of one picture in field \`${UPLOAD_FIELD}\` (${UPLOAD_TYPES.join(', ')}, at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB).` : '',
    ]
      .filter(Boolean)
      .join(' '),
    security: endpoint.auth ? [{ token: [] }] : [],
    parameters,
    responses: COMMON_RESPONSES,
    'x-refusal-texts': [...new Set([...validationTexts(endpoint.input), texts.invalidRequest.id, texts.unsupportedCharacters.id, ...(endpoint.auth ? [texts.tokenInvalid.id] : [])])].map(textRef),
  };
  if (endpoint.multipart) {
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', required: [UPLOAD_FIELD], properties: { [UPLOAD_FIELD]: { type: 'string', contentMediaType: 'image/*', contentEncoding: 'binary' } } } } },
    };
  } else if (endpoint.method === 'GET') {
    parameters.push(...queryParameters(schema));
  } else {
    op.requestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema } } };
  }
  return op;
}

/** A GET's input as query parameters: one per field of an object, else the whole object in form style. */
function queryParameters(schema: Json): Json[] {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (schema.type !== 'object' || !properties) return [{ name: 'input', in: 'query', style: 'form', explode: true, schema }];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

/** The routes outside the contract's declarations that a client still uses. */
const OTHER_PATHS: Json = {
  '/api/uploads/{id}': {
    get: {
      operationId: 'uploadedPicture',
      tags: ['account'],
      summary: 'A picture by the URL /users/upload answered',
      description: 'Public pictures (avatars) are served to anyone; private ones (certification documents, transfer receipts) only with the owner\'s token. Anything else (no token, another user\'s token, an unknown id) answers the same 404 envelope, so an answer never tells whether an id exists.',
      security: [{}, { token: [] }],
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{10,64}$' } }],
      responses: {
        '200': { description: 'The picture: `cache-control: public, max-age=31536000, immutable` for a public one, `private, no-store` for a private one.', content: Object.fromEntries(UPLOAD_TYPES.map((type) => [type, { schema: { type: 'string', contentEncoding: 'binary' } }])) },
        '404': envelopeResponse(`"${texts.pictureUnavailable.message}"`),
      },
    },
  },
  [`/api${PRICE_STREAM_PATH}`]: {
    get: {
      operationId: 'priceStream',
      tags: ['markets'],
      summary: 'Live prices as server-sent events',
      description: 'One `ticks` event per feed step, data a JSON array of {code, price, at}; a snapshot of the latest prices first. The prices are simulated unless the server says otherwise (coin list `simulated`).',
      security: [],
      responses: { '200': { description: 'An endless event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
    },
  },
};

/** The document for a list of declared endpoints (the server passes every one of src/contract). */
export function openApiDocument(endpoints: readonly DeclaredEndpoint[], version = '1'): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const declared of endpoints) {
    const path = `/api${declared.endpoint.path}`;
    (paths[path] ??= {})[declared.endpoint.method.toLowerCase()] = operation(declared);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Coinvest API',
      version,
      description: [
        'The contract shared by the Coinvest PWA and its reference server, generated from src/contract.',
        'Bodies are form-encoded (application/x-www-form-urlencoded; every field a string), GET inputs are query parameters, the picture upload is multipart.',
        `Every answer is the envelope {ret, msg, data}. msg is translated per the \`${LANG_HEADER}\` header (${LOCALES.join(', ')}; zh-* → zh; anything else → ${FALLBACK_LOCALE}).`,
        'A refusal (ret 0) writes nothing. Strings with NUL or an unpaired UTF-16 surrogate are refused in every field.',
        'The texts msg can carry are listed in x-texts (ids: v. validation, spec §5; e. answers of the calls; r./m. spec §8); each operation lists its own validation texts in x-refusal-texts.',
      ].join('\n\n'),
    },
    paths: { ...paths, ...OTHER_PATHS },
    components: {
      schemas: { Envelope: ENVELOPE },
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: TOKEN_HEADER, description: 'The session token that login or register answered.' } },
      parameters: {
        lang: { name: LANG_HEADER, in: 'header', required: false, schema: { type: 'string', examples: [...LOCALES] }, description: 'The language of msg.' },
        idempotencyKey: {
          name: IDEMPOTENCY_HEADER,
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: 128 },
          description: 'A unique key per intended write: a retry with the same key and body is applied once and answers the first answer again.',
        },
      },
    },
    'x-texts': Object.fromEntries(Object.values(texts).map((text) => [text.id, text.message])),
  };
}

/** GET /api/openapi.json: the document of every endpoint src/contract declares, built once. */
export function openApiRoute(app: FastifyInstance) {
  let document: Promise<Json> | null = null;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= declaredEndpoints().then((endpoints) => openApiDocument(endpoints, process.env.npm_package_version ?? '1'));
    return reply.header('cache-control', 'no-cache').send(await document);
  });
}
