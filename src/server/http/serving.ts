// Serving like production: the built PWA precompressed (brotli, gzip; made by the build), cache
// headers that let hashed assets live for good while the entry points revalidate, and the https-only
// headers (HSTS, upgrade-insecure-requests) only on requests that really came over https — sent over
// plain http they turn a phone on the LAN into a blank page (every script rewritten to https).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** One year, the longest HSTS age browsers keep; only ever sent over https. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The built PWA. Hashed files under /assets/ are immutable; index.html, the service worker, the
 * manifest and icons are revalidated on every load (`no-cache`), so a new build reaches users.
 */
export async function servePwa(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: true,
    // `file.js.br` / `file.js.gz` beside each file: sent with Content-Encoding and Vary: accept-encoding.
    preCompressed: true,
    // @fastify/static 10 passes the Fastify reply here, not Node's response (no setHeader).
    setHeaders(reply, path) {
      const file = path.replace(/\.(br|gz)$/, '');
      const immutable = /[\\/]assets[\\/]/.test(file);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (file.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json');
    },
  });
}

/** Whether the request reached us over https: a TLS socket, or a trusted proxy's X-Forwarded-Proto. */
export const overHttps = (request: FastifyRequest) => request.protocol === 'https';

/**
 * Adds HSTS and `upgrade-insecure-requests` to answers of requests that came over https. Helmet is
 * registered without both; `request.protocol` believes X-Forwarded-Proto only from trusted proxies.
 */
export function secureTransportHeaders(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (overHttps(request)) {
      reply.header('strict-transport-security', HSTS);
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string' && !policy.includes('upgrade-insecure-requests')) {
        reply.header('content-security-policy', `${policy};upgrade-insecure-requests`);
      }
    }
    done(null, payload);
  });
}
