// The HTTP side of the metrics: every answered request counted by its route pattern (never the raw
// URL: one series per route, and `unmatched` for every path no route serves), method and status,
// its time in a histogram; and GET /metrics, behind a bearer token (METRICS_TOKEN). Without a token
// configured the route does not exist: /metrics answers the 404 envelope like any unknown path.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { RouteModule } from '../http/route-module.ts';
import { RET_FAIL } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { requestLocale, translator } from '../i18n.ts';
import { envelope } from '../http/handle.ts';
import { METRICS_CONTENT_TYPE, metricsText } from './cluster-metrics.ts';
import { httpDuration, httpRequests } from './metrics.ts';

export const METRICS_PATH = '/metrics';

/** Counts every answered request (added before the routes, so it sees every one, the 404s included). */
export function measureRequests(app: FastifyInstance) {
  // The labelled children, made once per route, method and status: a request costs two map lookups.
  const counted = new Map<string, ReturnType<typeof httpRequests.labels>>();
  const timed = new Map<string, ReturnType<typeof httpDuration.labels>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    const routeKey = `${method} ${route}`;
    const key = `${reply.statusCode} ${routeKey}`;
    let count = counted.get(key);
    if (!count) counted.set(key, (count = httpRequests.labels(route, method, String(reply.statusCode))));
    count.inc();
    let time = timed.get(routeKey);
    if (!time) timed.set(routeKey, (time = httpDuration.labels(route, method)));
    time.observe(reply.elapsedTime / 1000);
    done();
  });
}

/** The SHA-256 of a secret: compared in constant time whatever the lengths given. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/** GET /metrics for a caller sending `Authorization: Bearer <token>` (METRICS_TOKEN); 401 for any other; none without
 * a token. */
export const metricsRoute: RouteModule = ({ app, settings: { metricsToken: token } }) => {
  if (!token) return;
  const expected = digest(token);
  app.get(METRICS_PATH, async (request, reply) => {
    const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Digests of equal length, compared whole: no early exit on the first differing byte or on the length.
    const matches = timingSafeEqual(digest(given), expected);
    reply.header('cache-control', 'no-store');
    if (!matches) {
      const t = translator(requestLocale(request.headers.lang as string | undefined));
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send(envelope(RET_FAIL, t(texts.http401), null));
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await metricsText());
  });
};
