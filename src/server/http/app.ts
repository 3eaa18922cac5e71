// The HTTP app: plugins, the envelope on every answer (404, 429 and crashes included), the
// contract's routes and, in production, the built PWA at `/`.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { REQUEST_ID_HEADER, RET_FAIL } from '../../contract/envelope.ts';
import { httpStatusText, texts } from '../../contract/texts.ts';
import { BODY_MAX_BYTES, LOCALES, UPLOAD_MAX_BYTES } from '../../contract/constants.ts';
import type { Services } from './context.ts';
import { envelope, router } from './handle.ts';
import { limitRequests } from './rate-limits.ts';
import { DEFAULT_SHEDDING, shedLoad, type SheddingLimits } from './load-shedding.ts';
import { keptAnswers } from './kept-answers.ts';
import { requestLocale, translator } from '../i18n.ts';
import { buildInfo, currentInlineScriptSources } from '../build-info.ts';
import { accountRoutes } from './account-routes.ts';
import { contentRoutes, slidesAnswer } from './content-routes.ts';
import { uploadRoutes } from './upload-routes.ts';
import { coinListAnswer, marketsRoutes } from './markets-routes.ts';
import { optionsRoutes } from './options-routes.ts';
import { riskRoutes } from './risk-routes.ts';
import { priceStreamRoute } from './price-stream.ts';
import { messagesRoutes } from './messages-routes.ts';
import { fundsRoutes } from './funds-routes.ts';
import { statementsRoutes } from './statements-routes.ts';
import { payoutsRoutes } from './payouts-routes.ts';
import { protectionRoutes } from './protection-routes.ts';
import { addressLockRoutes } from './address-lock-routes.ts';
import { priceAlertsRoutes } from './price-alerts-routes.ts';
import { twoFactorRoutes } from './two-factor-routes.ts';
import { antiPhishingRoutes } from './anti-phishing-routes.ts';
import { rewardsRoutes } from './rewards-routes.ts';
import { certificationRoutes } from './certification-routes.ts';
import { contractsRoutes } from './contracts-routes.ts';
import { practiceRoutes } from './practice-routes.ts';
import { earnRoutes } from './earn-routes.ts';
import { liquidityRoutes } from './liquidity-routes.ts';
import { lockupRoutes } from './lockup-routes.ts';
import { signInRoutes } from './signin-routes.ts';
import { sessionsRoutes } from './sessions-routes.ts';
import { notificationsRoutes } from './notifications-routes.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import type { RelyingPartyConfig } from '../domain/passkeys.ts';
import { welfareRoutes } from './welfare-routes.ts';
import { blindBoxRoutes } from './blindbox-routes.ts';
import { activitiesRoutes } from './activities-routes.ts';
import { shareRoutes } from './share-routes.ts';
import { supportRoutes } from './support-routes.ts';
import { consoleRoutes } from './console-routes.ts';
import { consoleContentRoutes } from './console-content-routes.ts';
import { serviceChatRoutes } from './service-chat-routes.ts';
import { consoleServiceRoutes } from './console-service-routes.ts';
import { consoleProductRoutes } from './console-product-routes.ts';
import { consoleHouseRoutes } from './console-house-routes.ts';
import { consoleRewardRoutes } from './console-reward-routes.ts';
import { consoleSystemRoutes } from './console-system-routes.ts';
import { openApiRoute } from './openapi.ts';
import { serveConsole, servePwa, STATIC_PATH_REFUSED } from './serving.ts';
import { serveFirstDocument } from './first-document.ts';
import { securityHeaders } from './security-headers.ts';
import { answerClientError } from './client-errors.ts';
import { limitSecureServer, secureServerOptions } from './secure-server.ts';
import { measureRequests, metricsRoute } from '../observability/http-metrics.ts';
import { createHealth, healthRoutes, type Health } from '../observability/health.ts';
import { countCallQueue, httpShed, readFrom } from '../observability/metrics.ts';
import { databaseReadings } from '../observability/readings.ts';
import type { ExchangeReading } from '../observability/feed-exchanges.ts';

export interface AppOptions {
  /** Requests per minute per IP on login, register and code calls. */
  authRateLimitPerMinute?: number;
  /** Requests per minute per IP of callers without a valid token (README: RATE_LIMIT_ADDRESS). */
  rateLimitPerMinute?: number;
  /** Requests per minute per logged-in account, whatever its address (README: RATE_LIMIT_ACCOUNT). */
  accountRateLimitPerMinute?: number;
  webRoot?: string | null;
  corsOrigins?: string[];
  /** Trust X-Forwarded-For from this many proxy hops (behind a load balancer); off by default. */
  trustProxyHops?: number;
  logger?: FastifyServerOptions['logger'];
  /** TLS_CERT / TLS_KEY: the server speaks https itself (a phone on the LAN can install the PWA), HTTP/2 and HTTP/1.1.
   * */
  tls?: { cert: Buffer; key: Buffer } | null;
  /** A request (headers and body) not received in full within this time is answered 408 and closed; 2 minutes by
   * default. */
  requestTimeoutMs?: number;
  /** PUSH_SERVICE_HOSTS: the push services a browser's subscription may point to (the major browsers' when not given).
   * */
  pushServiceHosts?: readonly string[];
  /** WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS: the site passkeys belong to; unset, the page's own host. */
  relyingParty?: RelyingPartyConfig;
  /** METRICS_TOKEN: GET /metrics answers a caller bearing it; unset, there is no /metrics (README: Watching the
   * server). */
  metricsToken?: string | null;
  /** False: no request is counted and there is no /metrics (the bench's measure without metrics). */
  metrics?: boolean;
  /** How many API calls the process works on at once and lets wait (load-shedding.ts); false: no limit. */
  shedding?: SheddingLimits | false;
  /** The process's readiness (/readyz): main.ts marks it stopping before the server closes. */
  health?: Health;
  /** The market index's exchanges as the metrics show them (observability/feed-exchanges.ts); none when not given. */
  feedExchanges?: (() => Promise<ExchangeReading[]>) | null;
}

/** Slow enough for a 5 MB picture over a poor mobile link; a body that never comes no longer holds a connection for
 * ever. */
const REQUEST_TIMEOUT_MS = 120_000;

export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node looks for requests past their time every so often (30 s by its default): a quarter of the
  // timeout at most. It ignores a request timeout shorter than the headers' (60 s by its default).
  const timeouts = {
    connectionsCheckingInterval: Math.min(30_000, Math.max(10, Math.floor(requestTimeout / 4))),
    headersTimeout: Math.min(60_000, requestTimeout),
  };
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustedHops(options.trustProxyHops ?? 0),
    // Every request's id (Fastify's `reqId` on each of its log lines), answered as x-request-id (below).
    requestIdHeader: false,
    genReqId: requestId(options.trustProxyHops ?? 0),
    bodyLimit: BODY_MAX_BYTES,
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
  const kept = keptAnswers(services.changes);
  // The coin list changes with every recorded step of ticks and every halt begun or ended, here or followed from
  // another process.
  const stopTicks = services.market.subscribe(() => kept.coinList.dropAll());
  const stopHalts = services.market.onHalts(() => kept.coinList.dropAll());
  app.addHook('onClose', async () => {
    stopTicks();
    stopHalts();
    kept.stop();
  });
  const translate = (request: { headers: Record<string, unknown> }) =>
    translator(requestLocale(request.headers.lang as string | undefined));

  securityHeaders(
    app,
    {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // And the built app's own inline scripts, by hash (below): no other inline script runs.
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          // The web-view page frames https pages; which hosts is the app's allowlist (contract/support.ts).
          frameSrc: ["'self'", 'https:'],
          // Only over https (added by securityHeaders): over plain http it blanks the app on a LAN host.
          upgradeInsecureRequests: null,
        },
      },
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    },
    currentInlineScriptSources(options.webRoot),
  );
  if (options.corsOrigins?.length) allowOrigins(app, options.corsOrigins);
  await app.register(formbody);
  // A multipart body reaches only the upload (registered with @fastify/multipart below); any other call reads it as
  // empty.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  if (options.metrics !== false) {
    measureRequests(app);
    const stopReadings = readFrom(databaseReadings(services.db, services.clock, options.feedExchanges));
    app.addHook('onClose', async () => stopReadings());
  }
  if (options.shedding !== false) {
    const queue = shedLoad(app, options.shedding ?? DEFAULT_SHEDDING, (request, reply) => {
      httpShed.inc();
      void reply.code(503).send(envelope(RET_FAIL, translate(request)(texts.serverBusy), null));
    });
    const uncount = countCallQueue(queue);
    app.addHook('onClose', async () => uncount());
  }
  limitRequests(app, services, kept, {
    perAddress: options.rateLimitPerMinute ?? 600,
    perAccount: options.accountRateLimitPerMinute ?? 600,
  });

  app.setErrorHandler((error: { statusCode?: number; rateLimited?: boolean; code?: string }, request, reply) => {
    const t = translate(request);
    // A static path the file server will not look up (`..` inside it, a name too long or with a NUL byte): no file.
    if (error.code === STATIC_PATH_REFUSED) return reply.code(404).send(envelope(RET_FAIL, t(texts.http404), null));
    const status = error.statusCode ?? 500;
    if (error.rateLimited) return reply.code(429).send(envelope(RET_FAIL, t(texts.tooManyAttempts), null));
    if (status >= 500) request.log.error(error);
    else request.log.info({ err: error }, 'request refused');
    // 415 (a body type the API does not read) has no §8 text of its own: "Unknown error" would say nothing.
    const text =
      status === 413
        ? texts.uploadTooLarge
        : status === 415
          ? texts.invalidRequest
          : httpStatusText(status >= 400 && status < 600 ? status : 500);
    return reply.code(status >= 400 && status < 600 ? status : 500).send(envelope(RET_FAIL, t(text), null));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(envelope(RET_FAIL, translate(request)(texts.http404), null)),
  );

  const route = router(app, services, kept);
  const authPerMinute = options.authRateLimitPerMinute ?? 60;
  accountRoutes(route, { authPerMinute });
  contentRoutes(route);
  // @fastify/multipart hooks every request of the instance it is registered on: only the upload's.
  await app.register(async (uploads) => {
    uploads.removeContentTypeParser('multipart/form-data');
    await uploads.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 } });
    uploadRoutes(uploads, router(uploads, services, kept), services, kept);
  });
  marketsRoutes(route, services.market);
  optionsRoutes(route, services.market);
  riskRoutes(route);
  priceStreamRoute(app, services.market, services.db);
  messagesRoutes(route);
  fundsRoutes(route);
  statementsRoutes(route);
  payoutsRoutes(route);
  protectionRoutes(route);
  addressLockRoutes(route);
  priceAlertsRoutes(route);
  twoFactorRoutes(route);
  antiPhishingRoutes(route);
  certificationRoutes(route);
  rewardsRoutes(route);
  contractsRoutes(route, services.market);
  practiceRoutes(route);
  earnRoutes(route, services.earnTimeZone);
  liquidityRoutes(route, services.earnTimeZone);
  lockupRoutes(route, services.earnTimeZone);
  signInRoutes(route);
  sessionsRoutes(route, services.sessionLimits);
  notificationsRoutes(route, options.pushServiceHosts);
  passkeyRoutes(route, {
    relyingParty: options.relyingParty ?? { id: null, origins: [] },
    corsOrigins: options.corsOrigins ?? [],
    perMinute: authPerMinute,
  });
  welfareRoutes(route);
  blindBoxRoutes(route);
  activitiesRoutes(route);
  shareRoutes(route);
  supportRoutes(route);
  consoleRoutes(route, { perMinute: authPerMinute });
  consoleContentRoutes(route);
  serviceChatRoutes(route);
  consoleServiceRoutes(route);
  consoleProductRoutes(route);
  consoleHouseRoutes(route);
  consoleRewardRoutes(route);
  consoleSystemRoutes(route);
  openApiRoute(app, (services.build ?? buildInfo(null, null)).version);
  healthRoutes(app, services.db, options.health ?? createHealth());
  if (options.metrics !== false) metricsRoute(app, options.metricsToken);

  if (options.webRoot && existsSync(options.webRoot)) {
    await serveFirstDocument(app, options.webRoot, async () => {
      const [coins, ...slides] = await Promise.all([
        coinListAnswer(services.market, kept),
        ...LOCALES.map((locale) => slidesAnswer(services.db, kept, 'home', locale)),
      ]);
      return {
        coins: coins.lists,
        slides: Object.fromEntries(LOCALES.map((locale, nth) => [locale, slides[nth]!.lists])),
      };
    });
    await servePwa(app, options.webRoot);
    serveConsole(app, options.webRoot);
  }
  return app;
}

/**
 * One line per answered request at the default level, with what was asked, the status and the
 * time taken; its arrival is logged only at debug (two lines a request cost more than a kept answer).
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
      .header('access-control-expose-headers', REQUEST_ID_HEADER);
    if (request.method !== 'OPTIONS') return done();
    reply
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'token, lang, idempotency-key, content-type')
      .header('access-control-max-age', '600')
      .code(204)
      .send();
  });
}
