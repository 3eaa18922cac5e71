// Serving like production: the built PWA precompressed (brotli, gzip; made by the build), and cache
// headers that let hashed assets live for good while the entry points revalidate. The https-only
// headers (HSTS, upgrade-insecure-requests) are security-headers.ts's.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import negotiate from '@fastify/accept-negotiator';
import { fileStamp, stampOfStat } from '../build-info.ts';

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

/** The build's hashed files (src/build: every script and stylesheet a page loads, their names carry their hash). */
const ASSETS_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The media types of the kinds of file the build hashes, as the file server sends them (its `mime` table: JavaScript
 * and CSS, UTF-8); a file of another kind is left to the file server.
 */
const ASSET_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** The encodings the build writes beside a file (precompress.ts) and their files' suffixes; most preferred first. */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
type Encoding = (typeof ENCODINGS)[number][0];
/** The build's names: letters, digits, `_`, `-` and dots (Rollup's hashes are base64url). */
const ROUTE_SAFE_NAME = /^[\w.-]+$/;

/**
 * One form of a hashed file held in memory: its file, what identified that file when it was read (inode, size,
 * modification time), its bytes, and the validators the file server would send for it.
 */
interface AssetForm {
  path: string;
  stamp: string;
  body: Buffer;
  etag: string;
  lastModified: string;
}

/** A hashed file held in memory: its media type, the file as built, and each precompressed form the build left. */
interface HeldAsset {
  type: string;
  plain: AssetForm;
  encoded: Map<Encoding, AssetForm>;
}

/** A file's form as the file server describes it: a weak ETag of its size and modification time (hex), that time. */
function formOf(path: string): AssetForm {
  const stat = statSync(path);
  return {
    path,
    stamp: stampOfStat(stat),
    body: readFileSync(path),
    etag: `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
    lastModified: stat.mtime.toUTCString(),
  };
}

/**
 * The build's hashed scripts and stylesheets, read when the server starts: a first visit and the service worker's
 * precache fetch some 420 of them, and the file server spent about 2 ms of the server's CPU on each (a directory
 * listing of the 1,100 files to check the name's spelling, then a stat, an open, a read and a close), measured
 * 2026-12-03; one from memory, checked by a stat, about 0.2 ms. Bounded by the build, never by what callers send:
 * about 6 MB for this app's 424 files and their compressed forms.
 */
export function heldAssets(root: string): Map<string, HeldAsset> {
  const held = new Map<string, HeldAsset>();
  const dir = join(root, ASSETS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return held;
  }
  const present = new Set(names);
  for (const name of names) {
    const type = ASSET_TYPES[extname(name)];
    // A route's path takes a name as it is: one with a character a route reads otherwise (`:`, `*`) stays the server's.
    if (!type || !ROUTE_SAFE_NAME.test(name)) continue;
    const encoded = new Map<Encoding, AssetForm>();
    for (const [encoding, suffix] of ENCODINGS)
      if (present.has(name + suffix)) encoded.set(encoding, formOf(join(dir, name + suffix)));
    held.set(name, { type, plain: formOf(join(dir, name)), encoded });
  }
  return held;
}

/**
 * Answers a held file as the file server would: the most preferred encoding the request accepts among the forms there
 * are (Accept-Encoding, `*` read as gzip), else the file as built; Vary: accept-encoding either way; the immutable
 * cache policy; 304 to a request that already holds this form (If-None-Match). What is sent is what the folder holds
 * now: the form's file is looked at first (one stat), read again if it changed, and left to the file server if it is
 * gone (a deploy that removed the old build's files: a page of the old version then finds its chunk missing and
 * reloads into the new one, as it did).
 */
function sendHeld(
  name: string,
  asset: HeldAsset,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
  reply: FastifyReply,
) {
  const offered = [...asset.encoded.keys()];
  const chosen =
    acceptEncoding && offered.length ? negotiate(acceptEncoding.toLowerCase().replace(/\*/g, 'gzip'), offered) : null;
  let form = (chosen && asset.encoded.get(chosen)) || asset.plain;
  const plain = form === asset.plain;
  const now = fileStamp(form.path);
  if (now === null) return reply.sendFile(`${ASSETS_DIR}/${name}`);
  if (now !== form.stamp) {
    try {
      form = formOf(form.path);
    } catch {
      // Gone between the look and the read.
      return reply.sendFile(`${ASSETS_DIR}/${name}`);
    }
    if (plain) asset.plain = form;
    else asset.encoded.set(chosen!, form);
  }
  for (const header of DOCUMENT_ONLY_HEADERS) reply.removeHeader(header);
  void reply
    .header('cache-control', IMMUTABLE)
    .header('vary', 'accept-encoding')
    .header('etag', form.etag)
    .header('last-modified', form.lastModified);
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === form.etag || tag.trim() === '*'))
    return reply.code(304).send();
  if (!plain) void reply.header('content-encoding', chosen!);
  return reply.type(asset.type).send(form.body);
}

/**
 * The built PWA. Hashed files under /assets/ are immutable; index.html, the service worker, the
 * manifest and icons are revalidated on every load (`no-cache`), so a new build reaches users. The hashed scripts and
 * stylesheets there at the start are answered from memory (heldAssets); any other file, by the file server.
 */
export async function servePwa(app: FastifyInstance, root: string) {
  // One route a file, as the file server's own `wildcard: false` does: any other path under /assets/ (a file the
  // build added since, a name spelled otherwise) reaches the file server and its checks as before, and so does a held
  // file's path once its file is gone.
  for (const [name, asset] of heldAssets(root)) {
    app.get(`/${ASSETS_DIR}/${name}`, (request, reply) =>
      sendHeld(name, asset, request.headers['accept-encoding'], request.headers['if-none-match'], reply),
    );
  }
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
      reply.header('cache-control', immutable ? IMMUTABLE : 'no-cache');
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
