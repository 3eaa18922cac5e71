// The HTTP app: plugins, the envelope on every answer (404, 429 and crashes included), and every route module
// (routes.ts): the API contract's endpoints and, in production, the built PWA at `/`.
import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import formbody from '@fastify/formbody';
import { parseFormEncoded } from './form-encoding.ts';
import type { HelmetOptions } from 'helmet';
import { IDEMPOTENCY_BUSY_HEADER, REQUEST_ID_HEADER, RET_FAIL } from '../../api-contract/envelope.ts';
import { httpStatusText, texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { BODY_MAX_BYTES } from '../../api-contract/constants.ts';
import type { Services } from './context.ts';
import { envelope, router } from './handle.ts';
import { MERGE_MS, limitRequests, type RateLimited } from './rate-limits.ts';
import { Period } from '../../api-contract/period-text.ts';
import { shedLoad } from './load-shedding.ts';
import { cachedAnswers } from './cached-answers.ts';
import { requestLocale, translator } from '../i18n.ts';
import { currentInlineScriptSources } from '../build-info.ts';
import { ROUTE_MODULES } from './routes.ts';
import type { AppSettings } from './settings.ts';
import { STATIC_PATH_REFUSED } from './serving.ts';
import { securityHeaders } from './security-headers.ts';
import { answerClientError } from './client-errors.ts';
import { limitSecureServer, secureServerOptions } from './secure-server.ts';
import { measureRequests } from '../observability/http-metrics.ts';
import { createHealth, type Health } from '../observability/health.ts';
import { countCallQueue, httpShed, readFrom } from '../observability/metrics.ts';
import { databaseReadings } from '../observability/readings.ts';
import type { ExchangeReading } from '../observability/feed-exchanges.ts';

/**
 * How the app is built: its settings from the configuration (settings.ts: start.ts passes a configured server's, the
 * tests an unconfigured one's), and what the process gives it besides.
 */
export interface AppOptions extends AppSettings {
  logger?: FastifyServerOptions['logger'];
  /** TLS_CERT / TLS_KEY, read: the server speaks https itself (a phone on the LAN can install the PWA), HTTP/2 and
   * HTTP/1.1. */
  tls?: { cert: Buffer; key: Buffer } | null;
  /** A request (headers and body) not received in full within this time is answered 408 and closed; 2 minutes by
   * default. */
  requestTimeoutMs?: number;
  /** False: no request is counted and there is no /metrics (the bench's measure without metrics). */
  metrics?: boolean;
  /** The process's readiness (/readyz): start.ts marks it stopping before the server closes. */
  health?: Health;
  /** How often the general request budgets counted in this process are merged into the shared table on PostgreSQL
   * (rate-limits.ts), in ms; MERGE_MS (a second) by default; null: only when `app.mergeRequestCounts()` is called and
   * on close (the tests that say what each process has heard). */
  requestCountsMergeMs?: number | null;
  /** The market index's exchanges as the metrics show them (observability/feed-exchanges.ts); none when not given. */
  feedExchanges?: (() => Promise<ExchangeReading[]>) | null;
}

/** Slow enough for a 5 MB picture over a poor mobile link; a body that never comes no longer holds a connection for
 * ever. */
const REQUEST_TIMEOUT_MS = 120_000;

/** The security headers of every answer (security-headers.ts adds HSTS and upgrade-insecure-requests over https). */
const SECURITY_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // And the built app's own inline scripts, by hash (buildApp): no other inline script runs.
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      // The web-view page frames https pages; which hosts is the app's allowlist (api-contract/support.ts).
      frameSrc: ["'self'", 'https:'],
      // Only over https (added by securityHeaders): over plain http it blanks the app on a LAN host.
      upgradeInsecureRequests: null,
    },
  },
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
};

/**
 * The app on `services`, with every route module of routes.ts registered in order; not yet listening. Requests are
 * answered in the envelope whatever happens (404, 408, 413, 415, 429, 503 when busy, a crash).
 */
export async function buildApp(services: Services, options: AppOptions): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node looks for requests past their time every so often (30 s by its default): a quarter of the
  // timeout at most. It ignores a request timeout shorter than the headers' (60 s by its default).
  const timeouts = {
    connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(requestTimeout / 4))),
    headersTimeout: Math.min(60_000, requestTimeout),
  };
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustedHops(options.trustProxyHops),
    // Every request's id (Fastify's `reqId` on each of its log lines), answered as x-request-id (below).
    requestIdHeader: false,
    genReqId: requestId(options.trustProxyHops),
    bodyLimit: BODY_MAX_BYTES,
    // A router option since Fastify 5 (at the top level it is deprecated: FSTDEP022, printed at every start).
    routerOptions: { querystringParser: parseFormEncoded },
    requestTimeout,
    frameworkErrors: malformedUrl,
    clientErrorHandler: answerClientError,
    logController: new RequestLog(),
    // Typed as the HTTP/1.1 server: HTTP/2's compatibility API gives handlers the same request and reply.
    ...(options.tls ? (secureServerOptions(options.tls) as object) : { http: timeouts }),
  }) as unknown as FastifyInstance;
  if (options.tls) limitSecureServer(app, { requestTimeout, ...timeouts });
  // First of all hooks: a 404, a refusal by the rate limits, a crash and a static file carry it too.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  const cache = cachedAnswers(services.changes);
  // The coin list changes with every recorded step of ticks and every halt begun or ended, here or followed from
  // another process.
  const stopTicks = services.market.subscribe(() => cache.coinList.dropAll());
  const stopHalts = services.market.onHalts(() => cache.coinList.dropAll());
  app.addHook('onClose', async () => {
    stopTicks();
    stopHalts();
    cache.stop();
  });
  const translate = (request: { headers: Record<string, unknown> }) =>
    translator(requestLocale(request.headers.lang as string | undefined));

  securityHeaders(app, SECURITY_HEADERS, currentInlineScriptSources(options.webRoot));
  if (options.corsOrigins.length) allowOrigins(app, options.corsOrigins);
  await app.register(formbody, { parser: parseFormEncoded });
  // A multipart body reaches only the upload (upload-routes.ts registers @fastify/multipart in its own scope); any
  // other call reads it as empty.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  if (options.metrics !== false) {
    measureRequests(app);
    const stopReadings = readFrom(databaseReadings(services.db, services.clock, options.feedExchanges));
    app.addHook('onClose', async () => stopReadings());
  }
  if (options.shedding !== false) {
    const queue = shedLoad(app, options.shedding, (request, reply) => {
      httpShed.inc();
      void reply.code(503).send(envelope(RET_FAIL, translate(request)(texts.serverBusy), null));
    });
    const uncount = countCallQueue(queue);
    app.addHook('onClose', async () => uncount());
  }
  const requestCounts = limitRequests(app, services, cache, {
    perAddress: options.addressRateLimitPerMinute,
    perAccount: options.accountRateLimitPerMinute,
    mergeEveryMs: options.requestCountsMergeMs === undefined ? MERGE_MS : options.requestCountsMergeMs,
  });
  app.decorate('mergeRequestCounts', requestCounts.merge);

  app.setErrorHandler((error: { statusCode?: number; code?: string } & Partial<RateLimited>, request, reply) => {
    const t = translate(request);
    // A static path the file server will not look up (`..` inside it, a name too long or with a NUL byte): no file.
    if (error.code === STATIC_PATH_REFUSED) return reply.code(404).send(envelope(RET_FAIL, t(texts.http404), null));
    const status = error.statusCode ?? 500;
    if (error.rateLimited)
      return reply
        .code(429)
        .send(envelope(RET_FAIL, t(serverTexts.tooManyAttemptsWait, { 0: new Period(error.retryAfterMs ?? 0) }), null));
    if (status >= 500) request.log.error(error);
    else request.log.info({ err: error }, 'request refused');
    // 415 (a body type the API does not read) has no HTTP status text of its own: "Unknown error" would say nothing.
    // A 413 is a form or JSON body over BODY_MAX_BYTES (a picture's size is the upload's own refusal, with its text).
    if (status === 413)
      return reply
        .code(413)
        .send(envelope(RET_FAIL, t(serverTexts.requestTooLarge, { 0: BODY_MAX_BYTES / 1024 / 1024 }), null));
    const text = status === 415 ? texts.invalidRequest : httpStatusText(status >= 400 && status < 600 ? status : 500);
    return reply.code(status >= 400 && status < 600 ? status : 500).send(envelope(RET_FAIL, t(text), null));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(envelope(RET_FAIL, translate(request)(texts.http404), null)),
  );

  // Built without metrics (options.metrics false): no /metrics whatever the token.
  const settings = options.metrics === false ? { ...options, metricsToken: null } : options;
  const scope = {
    app,
    route: router(app, services, cache),
    services,
    cache,
    settings,
    health: options.health ?? createHealth(),
  };
  for (const register of ROUTE_MODULES) await register(scope);
  return app;
}

/**
 * One line per answered request at the default level, with what was asked, the status and the
 * time taken; its arrival is logged only at debug (two lines a request cost more than a cached answer).
 */
class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** A path that is not valid percent-encoding, or a parameter over the router's length: the envelope, not Fastify's own
 * body. */
const malformedUrl: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, reply) => {
  // The option's generic reply type takes no status chosen at run time; the plain reply does.
  void (reply as FastifyReply)
    .header(REQUEST_ID_HEADER, request.id)
    .code(error.statusCode ?? 400)
    .send(
      envelope(RET_FAIL, translator(requestLocale(request.headers.lang as string | undefined))(texts.http400), null),
    );
};

/** What a trusted proxy's x-request-id may be: letters, digits and '-', at most 64 (a UUID, a load balancer's id). */
const WELL_FORMED_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The id of a request: a trusted proxy's well-formed x-request-id (behind TRUST_PROXY_HOPS, so the proxy's log and
 * ours name the request alike), else a new random one. A client's own is never believed without a proxy: it could
 * pass itself off as another's request in the log.
 */
function requestId(trustedProxyHops: number) {
  return (request: { headers: Record<string, string | string[] | undefined> }): string => {
    const given = request.headers[REQUEST_ID_HEADER];
    return trustedProxyHops > 0 && typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID();
  };
}

/** X-Forwarded-For is believed only for the configured number of proxy hops (none by default). */
const trustedHops = (hops: number) => (hops > 0 ? (_address: string, hop: number) => hop < hops : false);

/** For a PWA hosted on another origin (VITE_API_BASE): answer its preflight and allow it. */
function allowOrigins(app: FastifyInstance, origins: string[]) {
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (!origin || !(origins.includes(origin) || origins.includes('*'))) return done();
    reply
      .header('access-control-allow-origin', origin)
      .header('vary', 'origin')
      .header('access-control-expose-headers', `${REQUEST_ID_HEADER}, ${IDEMPOTENCY_BUSY_HEADER}`);
    if (request.method !== 'OPTIONS') return done();
    reply
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'token, lang, idempotency-key, content-type')
      .header('access-control-max-age', '600')
      .code(204)
      .send();
  });
}
