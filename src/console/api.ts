// The console's API client: the API contract's console calls over fetch, with the API's wire format
// (form bodies, the token and lang headers, an Idempotency-Key on writes) and the envelope rules:
// ret 1 gives data, ret 0 fails with the server's msg, ret -1 ends the session the call was sent with and
// goes back to the sign-in page with that msg (a late answer for a session already ended here ends nothing).
// The wire format and the envelope rule are the app's too (lib/call-core.ts); the transport (plain fetch,
// no retries), the session and the messages are the console's.
import { i18n } from '@lingui/core';
import * as v from 'valibot';
import type { Endpoint, InputOf, ResultOf } from '../api-contract/endpoint.ts';
import { IDEMPOTENCY_HEADER } from '../api-contract/envelope.ts';
import { httpStatusText, texts } from '../api-contract/texts.ts';
import { callHeaders, formFields, needsIdempotencyKey, newUuid, readEnvelope } from '../lib/call-core.ts';
import { consoleLocale } from './i18n.ts';
import { consoleSession, endSession } from './session.ts';

/** A call that failed, with the text to show (the server's msg, or a check of the form). */
export class ConsoleError extends Error {
  declare readonly ret?: number;

  constructor(message: string, ret?: number) {
    super(message);
    this.ret = ret;
    this.name = 'ConsoleError';
  }
}

/** The headers of every call: the language of the answers and the operator's token (or the one a call is sent with). */
export const consoleHeaders = (token = consoleSession.token): Record<string, string> =>
  callHeaders(consoleLocale(), token);

/**
 * Calls a console endpoint and resolves with its data; the form is checked first with the API contract's own schema.
 */
export async function consoleApi<E extends Endpoint>(endpoint: E, input?: InputOf<E>): Promise<ResultOf<E>> {
  const checked = v.safeParse(endpoint.input, input ?? {});
  // The schema's messages are text ids (api-contract/fields.ts): the same words the server would answer.
  if (!checked.success) throw new ConsoleError(i18n._(checked.issues[0].message));
  const fields = new URLSearchParams(formFields(input));
  // The token the call goes out with: its ret -1 ends that session only, not one started since (sign-out, sign-in).
  const sentWith = consoleSession.token;
  const headers = consoleHeaders(sentWith);
  const post = endpoint.method === 'POST';
  if (needsIdempotencyKey(endpoint)) headers[IDEMPOTENCY_HEADER] = newUuid();
  const url = `/api${endpoint.path}${!post && fields.size ? `?${fields}` : ''}`;
  let response: Response;
  try {
    response = await fetch(url, { method: endpoint.method, headers, body: post ? fields : undefined });
  } catch {
    throw new ConsoleError(i18n._(texts.offline));
  }
  // The body is read whatever the status: the console shows the server's msg where it sent one.
  const outcome = readEnvelope<ResultOf<E>>(endpoint.method, await response.json().catch(() => null));
  if (outcome.ok) return outcome.data;
  if (outcome.sessionEnded && sentWith === consoleSession.token) endSession(outcome.msg);
  throw new ConsoleError(outcome.msg || i18n._(httpStatusText(response.status)), outcome.ret);
}

/** The text of any failure, for the page's error line. */
export const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : i18n._(texts.unknownError);
