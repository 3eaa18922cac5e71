// With TLS_CERT / TLS_KEY the server speaks HTTP/2 (ALPN h2) and still answers HTTP/1.1: a first
// open of a route asks for a dozen scripts at once, which HTTP/1.1 queues on six connections.
// Node's HTTP/2 server takes none of the HTTP/1.1 limits from its options and has none of its own
// for a request's time, so both are set here, and its sessions are closed when the app closes.
import { constants, type Http2SecureServer, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { FastifyInstance } from 'fastify';
import { RET_FAIL } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { requestLocale, translator } from '../i18n.ts';
import { envelope } from './handle.ts';

export interface ServerLimits {
  /** A request (headers and body) not received in full within this time is answered 408 and dropped. */
  requestTimeout: number;
  headersTimeout: number;
  /** How often Node looks for HTTP/1.1 requests past their time. */
  connectionsCheckingInterval: number;
}

/** An idle HTTP/1.1 connection is closed after this long (Fastify's own default for its HTTP/1.1 servers). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** Fastify's options for TLS: HTTP/2, and HTTP/1.1 for clients that do not offer h2. */
export const secureServerOptions = (tls: { cert: Buffer; key: Buffer }) => ({
  http2: true as const,
  https: { allowHTTP1: true, ...tls },
});

/** How the server says what it speaks (the startup line). */
export const protocolsOf = (tls: boolean) => (tls ? 'HTTP/2 and HTTP/1.1' : 'HTTP/1.1');

/**
 * The HTTP/1.1 limits the plain server takes from its options, and a request time limit for HTTP/2
 * streams; on close, every HTTP/2 session is told to go away (GOAWAY): its requests in flight end,
 * then it closes (Node 20's server.close() waits for them for as long as they stay open).
 */
export function limitSecureServer(app: FastifyInstance, limits: ServerLimits) {
  const server = app.server as unknown as Http2SecureServer & ServerLimits & { keepAliveTimeout: number };
  server.requestTimeout = limits.requestTimeout;
  server.headersTimeout = limits.headersTimeout;
  server.connectionsCheckingInterval = limits.connectionsCheckingInterval;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('stream', (stream, headers) => {
    const timer = setTimeout(() => endUnfinishedRequest(stream, headers.lang), limits.requestTimeout).unref();
    stream.once('close', () => clearTimeout(timer));
  });
  const sessions = new Set<Http2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  app.addHook('preClose', (done) => {
    for (const session of sessions) session.close();
    done();
  });
}

/** A stream whose request body has not all come: 408 (the envelope, as over HTTP/1.1) when nothing was answered yet,
 * then the stream is reset. */
function endUnfinishedRequest(stream: ServerHttp2Stream, lang: string | string[] | undefined) {
  if (stream.destroyed || stream.closed) return;
  const state = stream.state.state;
  if (state !== constants.NGHTTP2_STREAM_STATE_OPEN && state !== constants.NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL)
    return;
  if (!stream.headersSent) {
    const body = JSON.stringify(
      envelope(RET_FAIL, translator(requestLocale(typeof lang === 'string' ? lang : undefined))(texts.http408), null),
    );
    stream.respond({
      ':status': 408,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    stream.end(body);
  }
  // RFC 9113, section 8.1: an answer before the whole request, then RST_STREAM NO_ERROR so the client stops sending.
  stream.close(constants.NGHTTP2_NO_ERROR);
}
