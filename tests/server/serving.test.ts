// Serving like production: the built files go out precompressed with the
// right Content-Encoding and Vary, hashed assets are immutable and the entry points revalidate;
// HSTS and upgrade-insecure-requests only reach requests that came over https (a TLS socket, or a
// trusted proxy's X-Forwarded-Proto) — over plain http they blank the app on a LAN host.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppOptions } from '../../src/server/http/app.ts';
import { startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';

const SCRIPT = `console.log(${JSON.stringify('coinvest '.repeat(400))});`;
let root: string;
let harness: Harness;
const apps: FastifyInstance[] = [];

/** A server of the same services as the harness, with these options and the fake build as web root. */
async function serve(options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  const app = await buildApp(
    testServices({
      db: harness.database.db,
      clock: harness.clock,
      sender: { send: async () => {} },
      market: harness.market,
    }),
    testAppOptions({ webRoot: root, ...options }),
  );
  apps.push(app);
  return app;
}

beforeAll(async () => {
  harness = await startHarness();
  // A build as `vite build` leaves it: hashed assets, entry points, and the .br/.gz copies.
  root = mkdtempSync(join(tmpdir(), 'coinvest-serving-'));
  mkdirSync(join(root, 'assets'));
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`,
    'assets/index-AbC123.js': SCRIPT,
    'sw.js': SCRIPT,
    'manifest.webmanifest': JSON.stringify({ name: 'Coinvest', description: 'x'.repeat(2000) }),
  };
  for (const [file, body] of Object.entries(files)) {
    writeFileSync(join(root, file), body);
    writeFileSync(join(root, `${file}.br`), brotliCompressSync(body));
    writeFileSync(join(root, `${file}.gz`), gzipSync(body));
  }
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await harness.close();
  rmSync(root, { recursive: true, force: true });
});

describe('precompressed files', () => {
  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip, the plain file otherwise', async () => {
    const app = await serve();
    const brotli = await app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);
    expect(brotli.rawPayload.length).toBeLessThan(SCRIPT.length / 10);

    const gzip = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);
  });

  it('keeps hashed assets for good and revalidates index.html, the service worker and the manifest', async () => {
    const app = await serve();
    const get = (url: string) => app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect((await get('/assets/index-AbC123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/index.html', '/sw.js', '/manifest.webmanifest']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(JSON.parse(brotliDecompressSync(manifest.rawPayload).toString()).name).toBe('Coinvest');
    expect((await get('/')).headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers a hashed file held in memory exactly as the file server answers one the build added after the start', async () => {
    // The same bytes and times under two names: one there at the start (held), one written after it (the file server).
    const when = new Date('2026-12-01T10:00:00Z');
    const touch = (file: string) => utimesSync(join(root, file), when, when);
    for (const suffix of ['', '.br', '.gz']) touch(`assets/index-AbC123.js${suffix}`);
    const app = await serve();
    for (const suffix of ['', '.br', '.gz']) {
      writeFileSync(
        join(root, `assets/later-XyZ789.js${suffix}`),
        readFileSync(join(root, `assets/index-AbC123.js${suffix}`)),
      );
      touch(`assets/later-XyZ789.js${suffix}`);
    }
    const kept = (headers: Record<string, unknown>) => {
      const { date: _date, 'x-request-id': _id, 'accept-ranges': _ranges, connection: _connection, ...rest } = headers;
      return rest;
    };
    for (const accepted of ['gzip, deflate, br, zstd', 'gzip', 'br;q=0, gzip', '*', 'identity', undefined]) {
      const headers = accepted === undefined ? {} : { 'accept-encoding': accepted };
      for (const method of ['GET', 'HEAD'] as const) {
        const held = await app.inject({ method, url: '/assets/index-AbC123.js', headers });
        const served = await app.inject({ method, url: '/assets/later-XyZ789.js', headers });
        expect(held.statusCode, `${method} ${accepted}`).toBe(200);
        expect(kept(held.headers), `${method} ${accepted}`).toEqual(kept(served.headers));
        expect(held.rawPayload.equals(served.rawPayload), `${method} ${accepted}`).toBe(true);
      }
    }
    // A request that holds this form already: not sent again.
    const first = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br' } });
    const again = await app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // A name the build did not write, or spelled otherwise: not found, as before.
    for (const url of ['/assets/index-abc123.js', '/assets/missing-AbC123.js', '/assets/index-AbC123.js.map']) {
      expect((await app.inject({ url, headers: { 'accept-encoding': 'br' } })).statusCode, url).toBe(404);
    }
  });

  it('sends what the folder holds now: a file changed since the start is read again, a file removed is not found', async () => {
    const app = await serve();
    const get = (encoding: string) =>
      app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': encoding } });
    expect((await get('br')).statusCode).toBe(200);
    // Written again with other bytes (a build that reuses a name): the new bytes, with their own validators.
    const changed = `${SCRIPT}// changed`;
    writeFileSync(join(root, 'assets/index-AbC123.js.br'), brotliCompressSync(changed));
    const after = await get('br');
    expect(brotliDecompressSync(after.rawPayload).toString()).toBe(changed);
    expect(after.headers.etag).toBe((await get('br')).headers.etag);
    // A deploy removed the old build's files: not found, whichever form is asked for.
    const gone = ['', '.br', '.gz'].map((suffix) => join(root, `assets/index-AbC123.js${suffix}`));
    const kept = gone.map((file) => readFileSync(file));
    for (const file of gone) rmSync(file);
    try {
      for (const encoding of ['br', 'gzip', 'identity']) expect((await get(encoding)).statusCode, encoding).toBe(404);
    } finally {
      gone.forEach((file, index) => writeFileSync(file, index === 1 ? brotliCompressSync(SCRIPT) : kept[index]!));
    }
  });
});

describe('security headers', () => {
  it('go on documents, the worker and answers; a hashed script carries only those a script obeys', async () => {
    const app = await serve();
    const get = (url: string) => app.inject({ url, headers: { 'accept-encoding': 'br' } });
    for (const url of ['/', '/index.html', '/sw.js']) {
      const { headers } = await get(url);
      expect(String(headers['content-security-policy']), url).toContain("frame-ancestors 'self'");
      expect(headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
    // An API answer is JSON, no document: the short set for APIs, stricter (nothing loads or frames it).
    for (const url of ['/api/other/config?act=system', '/api/nothing-here']) {
      const { headers } = await get(url);
      expect(
        Object.fromEntries(
          Object.entries(headers).filter(
            ([name]) => !/^(x-request-id|x-ratelimit|content-(type|length|encoding)|vary|date|connection)/.test(name),
          ),
        ),
        url,
      ).toEqual({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
      });
    }
    const { headers } = await get('/assets/index-AbC123.js');
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['cross-origin-opener-policy']).toBeUndefined();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('https-only headers', () => {
  const httpsOnly = (headers: Record<string, unknown>) => ({
    hsts: headers['strict-transport-security'] !== undefined,
    upgrade: String(headers['content-security-policy']).includes('upgrade-insecure-requests'),
  });

  it('are absent over plain http, so a phone opening http://<LAN address>:8080 loads the scripts', async () => {
    const app = await serve();
    for (const url of ['/', '/assets/index-AbC123.js', '/api/other/config?act=system', '/api/nothing-here']) {
      const response = await app.inject({ url, headers: { host: '192.168.1.20:8080' } });
      expect(httpsOnly(response.headers), url).toEqual({ hsts: false, upgrade: false });
      if (url === '/') expect(String(response.headers['content-security-policy']), url).toContain("script-src 'self'");
      if (url.startsWith('/api/'))
        expect(response.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("are sent behind a trusted proxy that says https, and not on an untrusted client's word", async () => {
    const proxied = await serve({ trustProxyHops: 1 });
    const behindProxy = await proxied.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(httpsOnly(behindProxy.headers)).toEqual({ hsts: true, upgrade: true });
    expect(behindProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(httpsOnly((await proxied.inject({ url: '/', headers: { 'x-forwarded-proto': 'http' } })).headers)).toEqual({
      hsts: false,
      upgrade: false,
    });

    const direct = await serve();
    expect(httpsOnly((await direct.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } })).headers)).toEqual({
      hsts: false,
      upgrade: false,
    });
  });

  it('are sent when the server speaks TLS itself (TLS_CERT / TLS_KEY)', async () => {
    const fixtures = join(import.meta.dirname, '..', 'fixtures', 'tls');
    const app = await serve({
      tls: { cert: readFileSync(join(fixtures, 'cert.pem')), key: readFileSync(join(fixtures, 'key.pem')) },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const response = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const request = httpsRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/api/other/config?act=system',
            ca: readFileSync(join(fixtures, 'cert.pem')),
            servername: 'localhost',
          },
          (answer) => {
            let body = '';
            answer.on('data', (chunk) => (body += chunk));
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }));
          },
        );
        request.on('error', reject);
        request.end();
      },
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).ret).toBe(1);
    // HSTS; an API answer loads nothing, so its policy has nothing to upgrade (documents' do: the proxy test above).
    expect(httpsOnly(response.headers)).toEqual({ hsts: true, upgrade: false });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
