// Serving like production: the built PWA precompressed (brotli, gzip; made by the build), and cache
// headers that let hashed assets live for good while the entry points revalidate. The https-only
// headers (HSTS, upgrade-insecure-requests) are security-headers.ts's.
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

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
