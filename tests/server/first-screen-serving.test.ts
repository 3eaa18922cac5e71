// The page with the first screen in the visitor's language (src/build/first-screen.ts writes one per language): the
// server sends the one the app's cookie names, else the first of the browser's languages the app has, else Thai;
// precompressed like every page, revalidated, and varying by the cookie and the languages.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/contract/constants.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { documentLocale } from '../../src/server/http/serving.ts';
import { startHarness, type Harness } from './harness.ts';

let root: string;
let harness: Harness;
let app: FastifyInstance;

beforeAll(async () => {
  harness = await startHarness();
  root = mkdtempSync(join(tmpdir(), 'coinvest-first-screen-'));
  const pages: Record<string, string> = { 'index.html': '<html>boot splash</html>' };
  for (const locale of LOCALES) pages[`index.${locale}.html`] = `<html lang="${locale}">first screen</html>`;
  for (const [file, body] of Object.entries(pages)) {
    writeFileSync(join(root, file), body);
    writeFileSync(join(root, `${file}.gz`), gzipSync(body));
  }
  app = await buildApp(
    { db: harness.database.db, clock: harness.clock, sender: { send: async () => {} }, market: harness.market },
    { webRoot: root },
  );
});

afterAll(async () => {
  await app?.close();
  await harness.close();
  rmSync(root, { recursive: true, force: true });
});

const page = async (url: string, headers: Record<string, string>) => {
  const answer = await app.inject({ url, headers });
  return { status: answer.statusCode, body: answer.body, headers: answer.headers };
};

describe('the page of a language', () => {
  it("is the cookie's language, else the browser's, else Thai; index.html stays the boot splash", async () => {
    expect((await page('/', { cookie: 'a=1; locale=ar' })).body).toBe('<html lang="ar">first screen</html>');
    expect((await page('/', { cookie: 'locale=jp', 'accept-language': 'hi' })).body).toContain('"jp"');
    expect((await page('/index.html', { cookie: 'locale=jp' })).body).toBe('<html>boot splash</html>');
    expect((await page('/', { 'accept-language': 'de-DE, ja;q=0.8, hi;q=0.9' })).body).toContain('"hi"');
    expect((await page('/', { 'accept-language': 'zh-TW' })).body).toContain('"zh"');
    expect((await page('/', { cookie: 'locale=xx', 'accept-language': 'de' })).body).toContain('"th"');
    expect((await page('/', {})).body).toContain('"th"');
  });

  it('goes out precompressed and revalidated, varying by cookie, languages and encoding', async () => {
    const answer = await page('/', { cookie: 'locale=en', 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(String(answer.headers.vary).split(/,\s*/).sort()).toEqual(['accept-encoding', 'accept-language', 'cookie']);
    const gzipped = await app.inject({ url: '/', headers: { cookie: 'locale=en', 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe('<html lang="en">first screen</html>');
  });
});

describe('documentLocale (src/server/http/serving.ts)', () => {
  it('reads the weights of Accept-Language and maps ja to jp', () => {
    expect(documentLocale(undefined, 'fr;q=1, ja-JP;q=0.5, en;q=0.4')).toBe('jp');
    expect(documentLocale(undefined, 'en;q=0, ar')).toBe('ar');
    expect(documentLocale('locale=hi', 'en')).toBe('hi');
    expect(documentLocale('', '')).toBe('th');
  });
});
