// Helmet's security headers, worked out once at start: the policy never varies by request, and
// @fastify/helmet built its middleware anew for every request (a tenth of a cached answer's time).
// HSTS and `upgrade-insecure-requests` go only on answers to requests that came over https: sent
// over plain http they turn a phone on the LAN into a blank page (every script rewritten to https).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** One year, the longest HSTS age browsers keep; only ever sent over https. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * An API call's answer is JSON, never a document: the short set OWASP's REST security guidance gives for API answers
 * (no content may load or frame it, no type sniffing, no referrer, same-origin reads). The documents' set is 0.9 KB
 * on every answer, and the size of an answer is most of what a loopback call costs the kernel.
 */
const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};
const API_HEADERS_SECURE = { ...API_HEADERS, 'strict-transport-security': HSTS };

/** Whether the request reached us over https: a TLS socket, or a trusted proxy's X-Forwarded-Proto. */
export const overHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * Sets the headers on every answer from one onRequest hook: helmet's (`options`) on documents and files, the short
 * API set on `/api/` answers. Pass options without HSTS and `upgrade-insecure-requests`: both are added here for
 * https requests (`request.protocol` believes X-Forwarded-Proto only from trusted proxies).
 */
const NO_SOURCES: readonly string[] = [];

export function securityHeaders(
  app: FastifyInstance,
  options: HelmetOptions,
  /**
   * More `script-src` sources, asked again on every request for a file (a build deployed under the running server):
   * the same array until they change.
   */
  moreScriptSources: () => readonly string[] = () => NO_SOURCES,
) {
  const headersFor = (sources: readonly string[]) => {
    const plain: Record<string, string> = {};
    const response = {
      setHeader: (name: string, value: string | number) => void (plain[name.toLowerCase()] = String(value)),
      removeHeader: () => {},
    };
    const policy = options.contentSecurityPolicy;
    const directives = typeof policy === 'object' ? policy.directives : undefined;
    const withSources: HelmetOptions =
      directives && sources.length
        ? {
            ...options,
            contentSecurityPolicy: {
              ...(policy as object),
              directives: { ...directives, scriptSrc: [...((directives.scriptSrc as string[]) ?? []), ...sources] },
            },
          }
        : options;
    helmet(withSources)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
      if (error) throw error;
    });
    const csp = plain['content-security-policy'];
    const secure: Record<string, string> = {
      ...plain,
      ...(csp !== undefined && !csp.includes('upgrade-insecure-requests')
        ? { 'content-security-policy': `${csp};upgrade-insecure-requests` }
        : {}),
      'strict-transport-security': HSTS,
    };
    return { plain, secure };
  };
  let sources = moreScriptSources();
  let headers = headersFor(sources);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/')) {
      reply.headers(overHttps(request) ? API_HEADERS_SECURE : API_HEADERS);
      return done();
    }
    const now = moreScriptSources();
    if (now !== sources) headers = headersFor((sources = now));
    reply.headers(overHttps(request) ? headers.secure : headers.plain);
    done();
  });
}
