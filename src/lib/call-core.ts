// The wire format of a call to the API, shared by the customer app (lib/api.ts) and the
// operator console (console/api.ts): the fields of a form body or query string, the Idempotency-Key
// a write carries, what an answer's envelope means, and the language the call asks in. No state of
// either app lives here, and it imports only the API contract, so the console takes it without taking
// the app's stores; each API client adds its own transport, session and messages.
import type { Endpoint, Method } from '../api-contract/endpoint.ts';
import { LANG_HEADER, RET_FAIL, RET_OK, RET_TOKEN_INVALID, TOKEN_HEADER } from '../api-contract/envelope.ts';

/** The input of a call as form fields: every value as text (decimal strings stay as written), undefined ones left out.
 * */
export const formFields = (input: object | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(input ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );

/** The headers of every call: JSON answers, the language they come in, and the session's token when there is one. */
export function callHeaders(locale: string, token: string | null | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', [LANG_HEADER]: requestLanguage(locale) };
  if (token) headers[TOKEN_HEADER] = token;
  return headers;
}

/**
 * A write carries an Idempotency-Key, one for every attempt of it, so the server applies it once:
 * any call that is not read-only, whatever its method (a few legacy GET calls write).
 */
export const needsIdempotencyKey = (endpoint: Pick<Endpoint, 'readOnly'>): boolean => !endpoint.readOnly;

/**
 * A random UUID v4, made from crypto.getRandomValues: crypto.randomUUID exists only in secure
 * contexts (https, localhost), and the app and the console also run on a plain-http LAN host.
 */
export function newUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What an answer means for the call that asked. */
export type Outcome<T> =
  /** The call succeeded: its data. */
  | { ok: true; data: T }
  /**
   * The call failed with the server's msg ('' when it sent none: the API client says what to show); ret -1
   * (`sessionEnded`) also ends the session. `ret` is undefined when the answer was no envelope. `field`: the request
   * field a refusal is about, when the answer names one (the envelope's `field`).
   */
  | { ok: false; ret: number | undefined; msg: string; sessionEnded: boolean; field?: string };

/**
 * Every answer is { ret, msg, data }. A GET fails on any ret other than 1; a POST fails on ret 0
 * or -1 (any other ret gives its data). ret -1 means the token is invalid: the session ends.
 */
export function readEnvelope<T>(method: Method, envelope: unknown): Outcome<T> {
  if (!envelope || typeof envelope !== 'object' || !('ret' in envelope))
    return { ok: false, ret: undefined, msg: '', sessionEnded: false };
  const { ret, msg, data, field } = envelope as { ret: unknown; msg?: unknown; data?: unknown; field?: unknown };
  const text = typeof msg === 'string' ? msg : '';
  if (ret === RET_TOKEN_INVALID) return { ok: false, ret, msg: text, sessionEnded: true };
  const failed = method === 'GET' ? ret !== RET_OK : ret === RET_FAIL;
  if (failed)
    return {
      ok: false,
      ret: typeof ret === 'number' ? ret : undefined,
      msg: text,
      sessionEnded: false,
      field: typeof field === 'string' ? field : undefined,
    };
  return { ok: true, data: data as T };
}

/**
 * Whether an answer is a failed call, for the record support reads (Diagnostics: "Last failed calls"): an HTTP error,
 * or an envelope that fails (`readEnvelope`: ret 0, ret -1, a GET's ret other than 1).
 */
export const failedAnswer = (method: Method, status: number, envelope: unknown): boolean =>
  status >= 400 || (envelope !== undefined && !readEnvelope(method, envelope).ok);

/** The lang header of a call: zh for any Chinese locale, otherwise the locale itself. */
export const requestLanguage = (locale: string) => (locale.toLowerCase().startsWith('zh') ? 'zh' : locale);
