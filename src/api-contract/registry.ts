// The API contract as a list: every exported value of an API contract module that is an Endpoint, named by
// its export. The OpenAPI document and the generated fuzz test both read it, so an endpoint
// declared later is published and attacked without anyone adding a line. No I/O here: the
// server's loader (src/server/http/declared-endpoints.ts) hands in the imported modules.
import type * as v from 'valibot';
import type { Endpoint } from './endpoint.ts';

export interface DeclaredEndpoint {
  /** The export's name: `login`, `submitWithdraw`. */
  name: string;
  /** The API contract module it is declared in, without extension: `account`. */
  module: string;
  endpoint: Endpoint;
}

/** True for what `get()` / `post()` of endpoint.ts declare. */
export function isEndpoint(value: unknown): value is Endpoint {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof Endpoint, unknown>>;
  const input = candidate.input as { kind?: unknown } | undefined;
  return (
    (candidate.method === 'GET' || candidate.method === 'POST') &&
    typeof candidate.path === 'string' &&
    candidate.path.startsWith('/') &&
    input?.kind === 'schema' &&
    typeof candidate.auth === 'boolean' &&
    typeof candidate.multipart === 'boolean' &&
    typeof candidate.readOnly === 'boolean'
  );
}

/** Every endpoint the modules export (an endpoint exported under two names counts once), by path and method. */
export function endpointsIn(modules: Record<string, Record<string, unknown>>): DeclaredEndpoint[] {
  const found = new Map<Endpoint, DeclaredEndpoint>();
  for (const [module, exports] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [name, value] of Object.entries(exports)) {
      if (isEndpoint(value) && !found.has(value)) found.set(value, { name, module, endpoint: value });
    }
  }
  return [...found.values()].sort(
    (a, b) => a.endpoint.path.localeCompare(b.endpoint.path) || a.endpoint.method.localeCompare(b.endpoint.method),
  );
}

type AnySchema = v.GenericSchema & {
  entries?: Record<string, v.GenericSchema>;
  options?: unknown[];
  wrapped?: v.GenericSchema;
};

/**
 * The object shapes an input schema accepts: one for a plain object (also inside v.pipe, which
 * keeps the object's entries), one per option of a variant or union.
 */
export function inputShapes(schema: v.GenericSchema): Record<string, v.GenericSchema>[] {
  const node = schema as AnySchema;
  if (node.entries) return [node.entries];
  if (Array.isArray(node.options))
    return node.options.flatMap((option) =>
      typeof option === 'object' && option !== null && 'kind' in option ? inputShapes(option as v.GenericSchema) : [],
    );
  if (node.wrapped) return inputShapes(node.wrapped);
  return [];
}

/** The names of every field an endpoint's input can carry, over all its shapes. */
export function inputFields(schema: v.GenericSchema): string[] {
  return [...new Set(inputShapes(schema).flatMap((shape) => Object.keys(shape)))];
}
