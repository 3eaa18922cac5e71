// The API contract, published: an OpenAPI 3.1 document built from every endpoint declared in
// src/api-contract (the valibot schemas of inputs and answers through @valibot/to-json-schema), the
// envelope, the headers and the texts an answer's msg can carry. Served at GET /api/openapi.json; nothing here is
// written by
// hand per endpoint, so a new declaration is in the document as soon as it exists.
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import type { RouteModule } from './route-module.ts';
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import {
  IDEMPOTENCY_BUSY_HEADER,
  IDEMPOTENCY_HEADER,
  LANG_HEADER,
  RET_FAIL,
  RET_OK,
  RET_TOKEN_INVALID,
  TOKEN_HEADER,
} from '../../api-contract/envelope.ts';
import {
  BODY_MAX_BYTES,
  FALLBACK_LOCALE,
  LOCALES,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_PIXELS,
} from '../../api-contract/constants.ts';
import { UPLOAD_FIELD, UPLOAD_TYPES } from '../../api-contract/account.ts';
import { UPLOAD_URL } from '../../api-contract/fields.ts';
import { PRICE_STREAM_PATH } from '../../api-contract/markets.ts';
import { texts } from '../../api-contract/texts.ts';
import { textById } from '../i18n.ts';
import type { DeclaredEndpoint } from '../../api-contract/registry.ts';
import { inputFieldNames, type Endpoint } from '../../api-contract/endpoint.ts';
import { declaredEndpoints } from './declared-endpoints.ts';

/** Where the API is: the server's url in the document, every path below it. */
const API_PREFIX = '/api';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

type Json = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1): an input as it is sent, an answer as it is written. */
function jsonSchemaOf(schema: v.GenericSchema, typeMode: 'input' | 'output' = 'input'): Json {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, {
    errorMode: 'ignore',
    target: 'draft-2020-12',
    typeMode,
  }) as Json;
  return json;
}

/** The headers of the wire format's answers, by name (components.headers). */
const REPLAY_HEADER = 'idempotent-replay';
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
const RETRY_AFTER_HEADER = 'retry-after';
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const HEADERS: Json = {
  [REPLAY_HEADER]: {
    description:
      'Sent with "true" when a write with an Idempotency-Key already applied answers its first answer again (nothing is applied twice).',
    schema: { type: 'string', const: 'true' },
  },
  [IDEMPOTENCY_BUSY_HEADER]: {
    description:
      'Sent with "true" on the refusal "still being processed" (ret 0) of a write whose Idempotency-Key a copy still running holds: no outcome yet. Keep the key, and ask /users/write-outcome or send the same write again with it later.',
    schema: { type: 'string', const: 'true' },
  },
  'x-ratelimit-limit': {
    description:
      'Requests allowed per one-minute window to this caller: its account with a valid token, else its address (login, register and the codes: always per address).',
    schema: { type: 'integer', minimum: 1 },
  },
  'x-ratelimit-remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'x-ratelimit-reset': {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer', minimum: 0 },
  },
  [RETRY_AFTER_HEADER]: {
    description:
      'On 429: seconds until the window ends and calls are counted again. On 503: seconds to wait before asking again.',
    schema: { type: 'integer', minimum: 0 },
  },
};
/** Every API answer is counted against a limit and says where the caller stands. */
const RATE_LIMITED = Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, headerRef(name)]));

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

/** The envelope's `field`: on a refusal about one field of the request, that field's name. */
const REFUSED_FIELD: Json = {
  type: 'string',
  description: `Only on ret ${RET_FAIL}, and only when the refusal is about one field of the request: that field's name as the operation's input names it (one of its x-refusal-fields), so a form shows msg under that field. Absent otherwise; a client may ignore it and show msg as before.`,
  examples: ['amount'],
};

const ENVELOPE: Json = {
  type: 'object',
  description: `Every answer. ret ${RET_OK}: done, data holds the result; ret ${RET_FAIL}: refused, msg says why (translated per the lang header) and nothing was written, and field names the request field it is about, if one; ret ${RET_TOKEN_INVALID}: the token is missing, expired or revoked (log in again). Lists are under data.lists.`,
  required: ['ret', 'msg', 'data'],
  properties: {
    ret: { enum: [RET_OK, RET_FAIL, RET_TOKEN_INVALID] },
    msg: { type: 'string' },
    data: { description: 'The result on ret 1; null otherwise.' },
    field: REFUSED_FIELD,
  },
  additionalProperties: false,
};

/** An answer that carries no data: a refusal (ret 0), an invalid token (ret -1), or any answer but 200. */
const REFUSAL: Json = {
  type: 'object',
  description: `ret ${RET_FAIL}: refused, msg says why and nothing was written, and field (when present) names the request field the refusal is about; ret ${RET_TOKEN_INVALID}: the token is missing, expired or revoked. data is null.`,
  required: ['ret', 'msg', 'data'],
  properties: {
    ret: { enum: [RET_FAIL, RET_TOKEN_INVALID] },
    msg: { type: 'string' },
    data: { type: 'null' },
    field: REFUSED_FIELD,
  },
  additionalProperties: false,
};

const envelopeResponse = (description: string, headers: Json = RATE_LIMITED) => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' } } },
});

/** What every operation may answer besides its own 200. */
const COMMON_RESPONSES = {
  '400': envelopeResponse('The body or the URL could not be read (invalid JSON, malformed percent-encoding).'),
  '413': envelopeResponse(
    `A form or JSON body over ${BODY_MAX_BYTES / 1024 / 1024} MB, refused before it is read; msg is "${serverTexts.requestTooLarge.message.replace('{0}', String(BODY_MAX_BYTES / 1024 / 1024))}". (A picture over ${UPLOAD_MAX_BYTES / 1024 / 1024} MB is bad input of the upload: HTTP 200, ret 0, msg "${texts.uploadTooLarge.message}".)`,
  ),
  '415': envelopeResponse('The body has a content type the API does not read.'),
  '429': envelopeResponse(
    `Too many requests from this address or account: "${serverTexts.tooManyAttemptsWait.message.replace('{0}', '42 seconds')}" (the time left until the minute's window ends in whole seconds rounded up, as retry-after says it)`,
    {
      ...RATE_LIMITED,
      [RETRY_AFTER_HEADER]: headerRef(RETRY_AFTER_HEADER),
    },
  ),
  '500': envelopeResponse('A fault of the server; the envelope still carries a readable msg.'),
  '503': envelopeResponse(
    `The server is busy (more calls than it works on at once, and the call found too many waiting or waited too long): nothing was done; ask again after retry-after, a write with the same Idempotency-Key. msg: "${texts.serverBusy.message}"`,
    { [RETRY_AFTER_HEADER]: headerRef(RETRY_AFTER_HEADER) },
  ),
};

/** The 200 of one operation: ret 1 with the endpoint's answer as data, or a refusal. */
function okResponse(answer: v.GenericSchema | undefined, isWrite: boolean): Json {
  const success = {
    type: 'object',
    required: ['ret', 'msg', 'data'],
    properties: {
      ret: { const: RET_OK },
      msg: { type: 'string', examples: [''] },
      data: answer ? withExamples(jsonSchemaOf(answer, 'output')) : {},
    },
    additionalProperties: false,
  };
  // The answer a mock serves: ret 1 with data built from the examples of its fields.
  const example = { ret: RET_OK, msg: '', data: answer ? firstExample(success.properties.data) : null };
  return {
    description:
      'The envelope: ret 1 with data, ret 0 with the reason of a refusal, or ret -1 when the token is not valid.',
    headers: isWrite
      ? {
          ...RATE_LIMITED,
          [REPLAY_HEADER]: headerRef(REPLAY_HEADER),
          [IDEMPOTENCY_BUSY_HEADER]: headerRef(IDEMPOTENCY_BUSY_HEADER),
        }
      : RATE_LIMITED,
    content: {
      'application/json': { schema: { oneOf: [success, { $ref: '#/components/schemas/Refusal' }] }, example },
    },
  };
}

/**
 * Fills `examples` in every node of an answer schema that has none, from the inside out: a field
 * keeps the examples its schema declares (a decimal as a decimal string, a time as an ISO time),
 * an object is the object of its properties' examples, a list holds one item. So every answer a
 * mock built from the document serves has the shape and the kinds of values the server writes.
 */
function withExamples(schema: Json, name = 'text'): Json {
  const has = Array.isArray(schema.examples) && schema.examples.length > 0;
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) options.forEach((option) => withExamples(option, name));
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties) for (const [key, property] of Object.entries(properties)) withExamples(property, key);
  if (schema.items && typeof schema.items === 'object') withExamples(schema.items as Json, name);
  for (const key of ['additionalProperties', 'propertyNames'] as const)
    if (schema[key] && typeof schema[key] === 'object') withExamples(schema[key] as Json, 'key');
  // null has one value: a mock serves it without an example.
  if (has || schema.type === 'null') return schema;
  const example = exampleOf(schema, options, properties, name);
  if (example !== undefined) schema.examples = [example];
  return schema;
}

/** Examples of the patterned strings of answers whose schema declares none (a test fails on one missing here). */
const PATTERN_EXAMPLES: Record<string, string> = {
  '^\\d+(?:\\.\\d+)?%$': '12.5%',
  '^otpauth://totp/': 'otpauth://totp/Coinvest:reviewer1?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Coinvest',
  '^\\d{4}-(0[1-9]|1[0-2])$': '2026-11',
  '^•••• \\d{4}$': '•••• 4321',
  '^[A-Za-z0-9_-]{87}$': 'B'.repeat(87),
  '^[A-Z2-7]{5}-[A-Z2-7]{5}$': 'ABCDE-23456',
  '^[A-Z2-7]{32}$': 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  [UPLOAD_URL.source]: `${API_PREFIX}/uploads/k3Jd9sQ2xZ`,
};

/** The first example a schema node declares, if any. */
const firstExample = (schema: unknown): unknown =>
  ((schema as Json | undefined)?.examples as unknown[] | undefined)?.[0];

function exampleOf(
  schema: Json,
  options: Json[] | undefined,
  properties: Record<string, Json> | undefined,
  name: string,
): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  // A nullable field shows its value, not null.
  if (options) return firstExample(options.find((option) => option.type !== 'null') ?? options[0]) ?? null;
  // A record (an id → value map): one entry.
  const value = firstExample(schema.additionalProperties);
  if (!properties && value !== undefined) return { [String(firstExample(schema.propertyNames) ?? 'key')]: value };
  if (properties)
    return Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, firstExample(property)]));
  switch (schema.type) {
    case 'array': {
      const item = firstExample(schema.items);
      return item === undefined ? [] : [item];
    }
    case 'string':
      if (schema.format === 'date-time') return '2026-11-23T08:30:00.000Z';
      if (schema.format === 'date') return '2026-11-23';
      // A free text shows its field's name; a patterned one needs an example that matches.
      return schema.pattern ? PATTERN_EXAMPLES[schema.pattern as string] : name;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
  }
  return undefined;
}

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
      endpoint.auth
        ? 'Needs the session token (header `token`); without a valid one it answers ret -1.'
        : 'Open to anyone (no token).',
      endpoint.console
        ? `Operator console: the token is an operator's console session${endpoint.console === 'operator' ? '' : ` of the role \`${endpoint.console}\`, its first password changed`}, never a customer's.`
        : '',
      isWrite
        ? 'A write: send an Idempotency-Key so a retry is applied once and the first answer is replayed.'
        : endpoint.multipart
          ? 'A write that takes no Idempotency-Key: each call stores the picture it carries and answers a new URL.'
          : 'Reads only.',
      endpoint.multipart
        ? `Multipart upload of one picture in field \`${UPLOAD_FIELD}\` (${UPLOAD_TYPES.join(', ')}, at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB and ${UPLOAD_MAX_PIXELS / 1_000_000} megapixels, nothing but the picture in the body). A larger picture is bad input like any other: HTTP 200, ret 0, msg "${texts.uploadTooLarge.message}"; anything but a picture: ret 0, msg "${texts.uploadNotImage.message}".`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    security: endpoint.auth ? [{ token: [] }] : [],
    parameters,
    responses: { '200': okResponse(endpoint.answer, isWrite), ...COMMON_RESPONSES },
    'x-refusal-texts': [
      ...new Set([
        ...validationTexts(endpoint.input),
        texts.invalidRequest.id,
        texts.unsupportedCharacters.id,
        ...(endpoint.auth ? [texts.tokenInvalid.id] : []),
        ...consoleRefusals(endpoint),
        ...(endpoint.multipart
          ? [texts.uploadTooLarge.id, serverTexts.uploadTooManyPixels.id, texts.uploadNotImage.id]
          : []),
      ]),
    ].map(textRef),
    // The names a refusal's `field` may take: the input's own fields.
    'x-refusal-fields': inputFieldNames(endpoint.input),
  };
  if (endpoint.multipart) {
    op.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: [UPLOAD_FIELD],
            properties: {
              [UPLOAD_FIELD]: {
                type: 'string',
                contentMediaType: 'image/*',
                contentEncoding: 'binary',
                description:
                  'A whole JPEG, PNG, WebP or GIF file. It is kept without its metadata (EXIF with the GPS position, ' +
                  'XMP, IPTC, comments and text chunks) and without anything after its end; its image data is kept ' +
                  'byte for byte, with the EXIF orientation alone when it is not 1. A file whose blocks run past its ' +
                  'end is refused as not a picture.',
              },
            },
          },
        },
      },
    };
  } else if (endpoint.method === 'GET') {
    parameters.push(...queryParameters(schema));
  } else {
    // JSON is read as well as the form, with the same fields (strings). A call without a required
    // field (logout, the daily check-in, the seed rotation) needs no body at all.
    const required = !(schema.type === 'object' && !(schema.required as string[] | undefined)?.length);
    op.requestBody = {
      required,
      content: { 'application/x-www-form-urlencoded': { schema }, 'application/json': { schema } },
    };
  }
  return op;
}

/** A GET's input as query parameters: one per field of an object, else the whole object in form style. */
function queryParameters(schema: Json): Json[] {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (schema.type !== 'object' || !properties)
    return [{ name: 'input', in: 'query', style: 'form', explode: true, schema }];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

/** The routes outside the API contract's declarations that a client still uses. */
const OTHER_PATHS: Json = {
  '/uploads/{id}': {
    get: {
      operationId: 'uploadedPicture',
      tags: ['account'],
      summary: 'A picture by the URL /users/upload answered',
      description:
        "Every picture (certification documents, transfer receipts, the avatar) is served only with the owner's token (or a reviewer's console token). Anything else (no token, another user's token, an unknown id) answers the same 404 envelope, so an answer never tells whether an id exists.",
      security: [{}, { token: [] }],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{10,64}$' } },
      ],
      responses: {
        '200': {
          description:
            'The picture: `cache-control: public, max-age=31536000, immutable` for a public one, `private, no-store` for a private one.',
          content: Object.fromEntries(
            UPLOAD_TYPES.map((type) => [type, { schema: { type: 'string', contentEncoding: 'binary' } }]),
          ),
        },
        '404': envelopeResponse(`"${texts.pictureUnavailable.message}"`),
        '429': COMMON_RESPONSES['429'],
      },
    },
  },
  [PRICE_STREAM_PATH]: {
    get: {
      operationId: 'priceStream',
      tags: ['markets'],
      summary: 'Live prices as server-sent events',
      description:
        'One `ticks` event per feed step, data a JSON array of {code, price, at}; a snapshot of the latest prices first. The prices are simulated unless the server says otherwise (coin list `simulated`).',
      security: [],
      responses: {
        '200': {
          description: 'An endless event stream.',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
      },
    },
  },
};

/** The document for a list of declared endpoints (the server passes every one of src/api-contract). */
export function openApiDocument(endpoints: readonly DeclaredEndpoint[], version = '1'): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const declared of endpoints) {
    const path = declared.endpoint.path;
    (paths[path] ??= {})[declared.endpoint.method.toLowerCase()] = operation(declared);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Coinvest API',
      version,
      // package.json is private and names no licence: nothing is granted beyond using the API.
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
      description: [
        'The API contract shared by the Coinvest PWA and its reference server, generated from src/api-contract.',
        `Bodies are form-encoded (application/x-www-form-urlencoded) or JSON, every field a string, at most ${BODY_MAX_BYTES / 1024 / 1024} MB; GET inputs are query parameters; the picture upload is multipart.`,
        "Each operation's 200 describes data of a ret 1 answer (the answer schema of src/api-contract); every other answer carries data null.",
        `Every API answer carries the rate-limit headers (${RATE_LIMIT_HEADERS.join(', ')}); a 429 also retry-after. A write replayed for its Idempotency-Key says so in ${REPLAY_HEADER}.`,
        `Every answer is the envelope {ret, msg, data}. msg is translated per the \`${LANG_HEADER}\` header (${LOCALES.join(', ')}; zh-* → zh; anything else → ${FALLBACK_LOCALE}).`,
        'A refusal (ret 0) writes nothing. Strings with NUL or an unpaired UTF-16 surrogate are refused in every field.',
        "A refusal about one field of the request also carries field, that field's name as the operation's input names it (listed in its x-refusal-fields): {ret: 0, msg, data: null, field}. A client that does not read it shows msg as before.",
        'The texts msg can carry are listed in x-texts (ids: v. validation; e. answers of the calls; r. the request helper and HTTP statuses; m. other messages); each operation lists its own validation texts in x-refusal-texts.',
      ].join('\n\n'),
    },
    // OpenAPI appends a path to the server's url as it stands: /api + /coin/lists is the URL a client calls.
    servers: [
      {
        url: API_PREFIX,
        description: `Relative to the origin that serves this document (${OPENAPI_PATH}): every call is at ${API_PREFIX} + its path.`,
      },
    ],
    paths: { ...paths, ...OTHER_PATHS },
    components: {
      schemas: { Envelope: ENVELOPE, Refusal: REFUSAL },
      headers: HEADERS,
      securitySchemes: {
        token: {
          type: 'apiKey',
          in: 'header',
          name: TOKEN_HEADER,
          description: 'The session token that login or register answered.',
        },
      },
      parameters: {
        lang: {
          name: LANG_HEADER,
          in: 'header',
          required: false,
          schema: { type: 'string', examples: [...LOCALES] },
          description: 'The language of msg.',
        },
        idempotencyKey: {
          name: IDEMPOTENCY_HEADER,
          in: 'header',
          required: false,
          schema: { type: 'string', maxLength: 128 },
          description:
            'A unique key per intended write: a retry with the same key and body is applied once and answers the first answer again.',
        },
      },
    },
    'x-texts': Object.fromEntries(Object.values(texts).map((text) => [text.id, text.message])),
  };
}

/** GET /api/openapi.json: the document of every endpoint src/api-contract declares, built once. */
export const openApiRoute: RouteModule = ({ app, services: { build } }) => {
  let document: Promise<Json> | null = null;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    // The API's version is the server's (package.json).
    document ??= declaredEndpoints().then((endpoints) => openApiDocument(endpoints, build.version));
    return reply.header('cache-control', 'no-cache').send(await document);
  });
};

/** What a console call answers before its handler runs: a role that is not the call's, a first password not changed
 * yet. */
const consoleRefusals = (endpoint: Endpoint) =>
  endpoint.console && endpoint.console !== 'operator'
    ? [consoleTexts.consoleRoleRefused.id, consoleTexts.consoleChangePasswordFirst.id]
    : [];
