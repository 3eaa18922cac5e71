// What Node's HTTP parser refuses before Fastify sees a request (a control byte in a header, headers
// over the size limit, a Content-Length or chunk it cannot read, a body that never comes) is
// answered with the envelope too, in the request's language when its headers or bytes show one,
// and the connection is closed.
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { LANG_HEADER, RET_FAIL } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { requestLocale, translator } from '../i18n.ts';
import { envelope } from './handle.ts';

/** How long a refused connection stays open so the client reads the answer (closing on unread bytes would reset it
 * first). */
const LINGER_MS = 1000;

/** Node's own statuses for its parser's errors (its default clientError answer); anything else is a bad request. */
const STATUS_OF_CODE: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

type ParserError = Error & { code?: string; rawPacket?: unknown };
/** Node's socket of an HTTP connection: `_httpMessage` is the answer in progress on it, with the request it answers. */
type HttpSocket = Socket & { _httpMessage?: { headersSent?: boolean; req?: { headers: IncomingHttpHeaders } } | null };

export const answerClientError: NonNullable<FastifyServerOptions['clientErrorHandler']> = (
  error: ParserError,
  socket: HttpSocket,
) => {
  // A reset connection has no one to answer; an answered one gets no second answer for its later bytes.
  if (error.code === 'ECONNRESET' || socket.destroyed || socket.writableEnded) return;
  // An answer already on its way on this connection must not be cut into (Node's own rule).
  if (!socket.writable || socket._httpMessage?.headersSent) return void socket.destroy(error);
  const status = STATUS_OF_CODE[error.code ?? ''] ?? 400;
  // The language of the request being read (its headers were), else of the bytes the parser refused.
  const lang = socket._httpMessage?.req?.headers[LANG_HEADER];
  const t = translator(requestLocale(typeof lang === 'string' ? lang : languageOf(error.rawPacket)));
  const body = JSON.stringify(envelope(RET_FAIL, t(status === 408 ? texts.http408 : texts.invalidRequest), null));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  const cut = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(cut));
};

/** The `lang` header among the bytes the parser refused, when they hold one (a timeout has none). */
function languageOf(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  return /^lang[ \t]*:[ \t]*([A-Za-z_-]{1,20})/im.exec(raw.subarray(0, 64 * 1024).toString('latin1'))?.[1];
}
