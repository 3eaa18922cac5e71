// Serving like production: the built PWA precompressed (brotli, gzip; made by the build), and cache
// headers that let hashed assets live for good while the entry points revalidate. The https-only
// headers (HSTS, upgrade-insecure-requests) are security-headers.ts's.
import { statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { FALLBACK_LOCALE, LOCALE_COOKIE, LOCALES, pickLanguage, type Locale } from '../../contract/constants.ts';

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

// A name too long for the file system (ENAMETOOLONG), a NUL byte or a file in the way (ENOTDIR) is no file either:
// the console's page, never a 500.
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

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
      // A script, stylesheet, picture or font is no document: these headers only act on documents
      // (and the worker's script, which is not under /assets/). Each is ~0.7 KB less on every one of
      // the 60-odd files of a first visit and the 260 its worker fetches next, over HTTP/1.1.
      if (immutable) for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
      if (file.endsWith('.webmanifest')) reply.header('content-type', 'application/manifest+json');
    },
  });
  // The page with the first screen in the visitor's language (src/build/first-screen.ts), where the build made one.
  const pages = new Set(LOCALES.filter((locale) => isFile(join(root, `index.${locale}.html`))));
  if (pages.size === 0) return;
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    const locale = documentLocale(request.headers.cookie, request.headers['accept-language']);
    reply.header('vary', 'cookie, accept-language');
    return reply.sendFile(pages.has(locale) ? `index.${locale}.html` : 'index.html');
  };
  // index.html itself stays the boot splash: the service worker keeps it as such.
  app.get('/', page);
}

/**
 * The language of the page a visitor is sent: the app's own (the cookie it writes, lib/i18n.ts), else the first of
 * the browser's languages the app has (by their weight), else the fallback — the app's rule (lib/locale-pick.ts).
 */
export function documentLocale(cookie: string | undefined, acceptLanguage: string | undefined): Locale {
  const chosen = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`).exec(cookie ?? '')?.[1];
  // The browser's languages in the order it prefers them: by weight, then as listed; q=0 means "not this one".
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const weight = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
      const q = weight ? Number(weight.slice(2)) : 1;
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(({ tag, q }) => tag && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
  return pickLanguage(LOCALES, FALLBACK_LOCALE, chosen, tags);
}

/**
 * The operator console at /console/: its files, and its index.html for /console and any
 * other path under it (its routes live in the hash). Online only: the PWA's worker keeps none of it.
 */
export function serveConsole(app: FastifyInstance, root: string) {
  const consoleRoot = join(root, CONSOLE_DIR);
  if (!isFile(join(consoleRoot, 'index.html'))) return;
  const index = join(CONSOLE_DIR, 'index.html');
  app.get('/console', (_request, reply) => reply.redirect('/console/'));
  app.get<{ Params: { '*': string } }>('/console/*', (request, reply) => {
    const file = normalize(join(consoleRoot, request.params['*']));
    const inside = file.startsWith(consoleRoot + sep);
    return reply.sendFile(inside && isFile(file) ? join(CONSOLE_DIR, file.slice(consoleRoot.length + 1)) : index);
  });
}
