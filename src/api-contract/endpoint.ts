// The declaration helper: one object per endpoint, read by the PWA (api), the server (handle)
// and the tests. Bodies are form-encoded, so every input field arrives as a string.
import * as v from 'valibot';

export type Method = 'GET' | 'POST';
/**
 * What the PWA's service worker keeps of an endpoint's answers: `public`,
 * the same for everyone, in one shared cache (stale-while-revalidate); `user`, one user's reads, in
 * that user's own cache (network first, shown offline with "as of"); `never`, always the network
 * (the default, and the only choice for anything that writes).
 */
export type CachePolicy = 'public' | 'user' | 'never';
export type FormSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;
/**
 * Who may call an operator console endpoint (api-contract/console.ts): an operator of that role, or
 * 'operator' for any signed-in operator, even one who must still change the first password.
 */
export type ConsoleAccess = 'operator' | 'reviewer' | 'content' | 'admin';

export interface Endpoint<S extends FormSchema = FormSchema, R = unknown> {
  readonly method: Method;
  readonly path: string;
  readonly input: S;
  /** Needs a session token; an invalid one answers ret -1. */
  readonly auth: boolean;
  /** Multipart upload rather than a form body. */
  readonly multipart: boolean;
  /** A POST that only reads (such as /users/message): no Idempotency-Key, served from cache offline. */
  readonly readOnly: boolean;
  /**
   * How the service worker keeps its answers offline. The build lists the cached calls for the worker
   * and the page (api-contract/offline-cache.ts cachedCallsOf) and drops this from the PWA's endpoints.
   */
  readonly cache: CachePolicy;
  /** A console call: its token is an operator's session, not a customer's, and the role is checked on every call. */
  readonly console?: ConsoleAccess;
  /**
   * The schema of `data` in a successful answer (ret 1). Server side only: the PWA's build drops it
   * (src/build/api-contract-answers-server-only.ts), so there it is undefined.
   */
  readonly answer?: v.GenericSchema;
  /** Phantom: the type of `data` in a successful answer (the answer schema's output). */
  readonly result?: R;
}

export type InputOf<E> = E extends Endpoint<infer S, unknown> ? v.InferInput<S> : never;
export type ParsedOf<E> = E extends Endpoint<infer S, unknown> ? v.InferOutput<S> : never;
export type ResultOf<E> = E extends Endpoint<FormSchema, infer R> ? R : never;

interface Options {
  auth?: boolean;
  multipart?: boolean;
  readOnly?: boolean;
  cache?: CachePolicy;
  console?: ConsoleAccess;
}

/** The answer of an endpoint: the schema of its `data`, `post(path, Input, returns(Session))`. */
export type Answer<R> = v.GenericSchema<unknown, R>;
/**
 * Declares the schema of an endpoint's `data`. The PWA's build calls it without an argument (the
 * schemas stay on the server and in the tests), which the type does not show.
 */
export const returns = /*#__NO_SIDE_EFFECTS__*/ <R>(schema: Answer<R>): Answer<R> => schema;

const declare = <S extends FormSchema, R>(
  method: Method,
  path: string,
  input: S,
  answer: Answer<R> | undefined,
  options: Options,
): Endpoint<S, R> => ({
  method,
  path,
  input,
  answer,
  auth: options.auth ?? true,
  multipart: options.multipart ?? false,
  readOnly: options.readOnly ?? method === 'GET',
  cache: options.cache ?? 'never',
  console: options.console,
});

// Marked free of side effects: a bundle keeps only the endpoints (and their schemas) it uses.
export const get = /*#__NO_SIDE_EFFECTS__*/ <S extends FormSchema, R>(
  path: string,
  input: S,
  answer: Answer<R>,
  options: Options = {},
) => declare<S, R>('GET', path, input, answer, options);
export const post = /*#__NO_SIDE_EFFECTS__*/ <S extends FormSchema, R>(
  path: string,
  input: S,
  answer: Answer<R>,
  options: Options = {},
) => declare<S, R>('POST', path, input, answer, options);

/**
 * The names of the fields an input schema declares (every option's, for a variant such as registration's phone or
 * e-mail forms): the names a refusal's `field` may take (envelope.ts).
 */
export function inputFieldNames(schema: v.GenericSchema): string[] {
  const node = schema as { entries?: Record<string, unknown>; options?: v.GenericSchema[] };
  if (node.entries) return Object.keys(node.entries);
  return [...new Set(node.options?.flatMap(inputFieldNames) ?? [])];
}

/** An endpoint that takes no input. */
export const NoInput = v.object({});
