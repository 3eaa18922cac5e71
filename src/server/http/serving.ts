// Serving like production: the built PWA precompressed (brotli, gzip; made by the build), and cache
// headers that let hashed assets live for good while the entry points revalidate. The https-only
// headers (HSTS, upgrade-insecure-requests) are security-headers.ts's.
import { statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** The operator console's build (src/build/console-build.ts), under the PWA's root. */
const CONSOLE_DIR = 'console';

/** @fastify/static's error for a path it refuses to look up (a `..` segment, a name the file system cannot check: too
 * long, a NUL byte): the app answers it as any other missing file (app.ts). */
export const STATIC_PATH_REFUSED = 'FST_STATIC_FORBIDDEN_PATH';

/** Security headers (security-headers.ts) that browsers read on documents and workers only. */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

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
    // No path with a dot segment: the build's folder for the server's own files (api-contract/first-data.ts) is one.
    dotfiles: 'ignore',
    // @fastify/static 10 passes the Fastify reply here, not Node's response (no setHeader).
    setHeaders(reply, path) {
      const file = path.replace(/\.(br|gz)$/, '');
      const immutable = /[\\/]assets[\\/]/.test(file);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      // A script, stylesheet, picture or font is no document: these headers only act on documents
      // (and the worker's script, which is not under /assets/). Each is ~0.7 KB less on every one of
      // the 60-odd files of a first visit and the 260 its worker fetches next, over HTTP/1.1.
      if (immutable) for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
      if (file.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json');
    },
  });
}

/**
 * The operator console at /console/: its files, and its index.html for /console and any
 * other path under it (its routes live in the hash). Online only: the PWA's worker keeps none of it.
 */
export function serveConsole(app: FastifyInstance, root: string) {
  const consoleRoot = join(root, CONSOLE_DIR);
  // A name too long for the file system (ENAMETOOLONG), a NUL byte or a file in the way (ENOTDIR) is no file either:
  // the console's page, never a 500.
  const isFile = (path: string) => {
    try {
      return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
    } catch {
      return false;
    }
  };
  if (!isFile(join(consoleRoot, 'index.html'))) return;
  const index = join(CONSOLE_DIR, 'index.html');
  app.get('/console', (_request, reply) => reply.redirect('/console/'));
  app.get<{ Params: { '*': string } }>('/console/*', (request, reply) => {
    const file = normalize(join(consoleRoot, request.params['*']));
    const inside = file.startsWith(consoleRoot + sep);
    return reply.sendFile(inside && isFile(file) ? join(CONSOLE_DIR, file.slice(consoleRoot.length + 1)) : index);
  });
}
