// The console's door to the server: the contract's console calls over fetch, with the wire format of
// §7 (form bodies, the token and lang headers, an Idempotency-Key on writes) and the envelope rules:
// ret 1 gives data, ret 0 fails with the server's msg, ret -1 ends the session and goes back to the
// sign-in page with that msg. Apart from lib/api.ts, which carries the customer app's stores.
import { i18n } from '@lingui/core';
import * as v from 'valibot';
import type { Endpoint, InputOf, ResultOf } from '../contract/endpoint.ts';
import { IDEMPOTENCY_HEADER, LANG_HEADER, RET_OK, RET_TOKEN_INVALID, TOKEN_HEADER, type Envelope } from '../contract/envelope.ts';
import { httpStatusText, texts } from '../contract/texts.ts';
import { consoleLocale } from './i18n.ts';
import { consoleSession, endSession } from './session.ts';

/** A call that failed, with the text to show (the server's msg, or a check of the form). */
export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly ret?: number,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

/** The headers of every call: the language of the answers and the operator's token. */
export function consoleHeaders(): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', [LANG_HEADER]: consoleLocale() };
  if (consoleSession.token) headers[TOKEN_HEADER] = consoleSession.token;
  return headers;
}

/** Calls a console endpoint and resolves with its data; the form is checked first with the contract's own schema. */
export async function consoleApi<E extends Endpoint>(endpoint: E, input?: InputOf<E>): Promise<ResultOf<E>> {
  const checked = v.safeParse(endpoint.input, input ?? {});
  // The schema's messages are text ids (contract/fields.ts): the same words the server would answer.
  if (!checked.success) throw new ConsoleError(i18n._(checked.issues[0].message));
  const fields = new URLSearchParams(
    Object.entries((input ?? {}) as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );
  const headers = consoleHeaders();
  const post = endpoint.method === 'POST';
  if (post && !endpoint.readOnly) headers[IDEMPOTENCY_HEADER] = idempotencyKey();
  const url = `/api${endpoint.path}${!post && fields.size ? `?${fields}` : ''}`;
  let response: Response;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body: post ? fields : undefined });
  } catch {
    throw new ConsoleError(i18n._(texts.offline));
  }
  const envelope = (await response.json().catch(() => null)) as Envelope<ResultOf<E>> | null;
  if (!envelope) throw new ConsoleError(i18n._(httpStatusText(response.status)));
  if (envelope.ret === RET_OK) return envelope.data;
  if (envelope.ret === RET_TOKEN_INVALID) endSession(envelope.msg);
  throw new ConsoleError(envelope.msg || i18n._(httpStatusText(response.status)), envelope.ret);
}

/** A random UUID v4; crypto.randomUUID exists only on https or localhost, and a console on the LAN is plain http. */
function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The text of any failure, for the page's error line. */
export const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : i18n._(texts.unknownError));
