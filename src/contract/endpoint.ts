// The declaration helper: one object per endpoint, read by the PWA (api), the server (handle)
// and the tests. Bodies are form-encoded, so every input field arrives as a string.
import * as v from 'valibot';

export type Method = 'GET' | 'POST';
export type FormSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

export interface Endpoint<S extends FormSchema = FormSchema, R = unknown> {
  readonly method: Method;
  readonly path: string;
  readonly input: S;
  /** Needs a session token; an invalid one answers ret -1. */
  readonly auth: boolean;
  /** Multipart upload rather than a form body. */
  readonly multipart: boolean;
  /** A POST that only reads (§7 /users/message): no Idempotency-Key, served from cache offline. */
  readonly readOnly: boolean;
  /** Phantom: the type of `data` in a successful answer. */
  readonly result?: R;
}

export type InputOf<E> = E extends Endpoint<infer S, unknown> ? v.InferInput<S> : never;
export type ParsedOf<E> = E extends Endpoint<infer S, unknown> ? v.InferOutput<S> : never;
export type ResultOf<E> = E extends Endpoint<FormSchema, infer R> ? R : never;

interface Options {
  auth?: boolean;
  multipart?: boolean;
  readOnly?: boolean;
}

/** Names the result type of an endpoint: `post(path, Input, result<Token>())`. */
export const result = <R>() => undefined as unknown as R;

const declare = <S extends FormSchema, R>(method: Method, path: string, input: S, options: Options): Endpoint<S, R> => ({
  method,
  path,
  input,
  auth: options.auth ?? true,
  multipart: options.multipart ?? false,
  readOnly: options.readOnly ?? method === 'GET',
});

// Marked free of side effects: a bundle keeps only the endpoints (and their schemas) it uses.
export const get = /*#__NO_SIDE_EFFECTS__*/ <S extends FormSchema, R>(path: string, input: S, _result: R, options: Options = {}) =>
  declare<S, R>('GET', path, input, options);
export const post = /*#__NO_SIDE_EFFECTS__*/ <S extends FormSchema, R>(path: string, input: S, _result: R, options: Options = {}) =>
  declare<S, R>('POST', path, input, options);

/** An endpoint that takes no input. */
export const NoInput = v.object({});
