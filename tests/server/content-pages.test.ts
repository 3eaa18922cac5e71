// Pages of text (company profile, intro, FAQ) in the request language, English when that language
// has none; the operator's `page` command; the web-view allowlist in the system config and the
// content security policy that lets the web-view frame an https page.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { ops, opsOk } from './funds-helpers.ts';
import { config } from '../../src/api-contract/content.ts';
import { allowedWebViewUrl, contentPage, webViewHosts } from '../../src/api-contract/support.ts';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { DEMO_CONFIG, seedDemo } from '../../src/server/db/seed.ts';
import { DEMO_PAGES } from '../../src/server/db/seed-content.ts';
import { contentPages } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
});
afterAll(() => h.close());

const page = (key: string, lang?: string, query: Record<string, string> = {}) =>
  h.call(contentPage, { key, ...query }, lang ? { lang } : {});

it('seeds about, intro and a short FAQ in all six languages', async () => {
  for (const key of ['about', 'intro', 'faq'] as const) {
    expect(Object.keys(DEMO_PAGES[key]).sort()).toEqual([...LOCALES].sort());
    for (const lang of LOCALES) {
      expect(await page(key, lang)).toMatchObject({ ret: 1, data: { key, lang, ...DEMO_PAGES[key][lang]! } });
    }
  }
  const questions = DEMO_PAGES.faq.en!.body.split('\n\n');
  expect(questions.length).toBeGreaterThanOrEqual(3);
  expect(questions.length).toBeLessThanOrEqual(5);
  for (const entry of questions) expect(entry.split('\n')[0]).toMatch(/\?$/);
});

it('reads the request language like every call: any zh locale is Chinese, ja is Japanese', async () => {
  expect((await page('about', 'zh-TW')).data.lang).toBe('zh');
  expect((await page('about', 'zh-Hans-CN')).data.title).toBe(DEMO_PAGES.about.zh!.title);
  expect((await page('intro', 'ja')).data.lang).toBe('jp');
  // The app also names it in the query (so a cached answer belongs to one language); the query wins.
  expect((await page('about', 'en', { lang: 'ar' })).data).toMatchObject({
    lang: 'ar',
    title: DEMO_PAGES.about.ar!.title,
  });
});

it('falls back to English when the language has no page', async () => {
  await h.database.db.delete(contentPages).where(and(eq(contentPages.key, 'intro'), eq(contentPages.lang, 'hi')));
  expect((await page('intro', 'hi')).data).toEqual({ key: 'intro', lang: 'en', ...DEMO_PAGES.intro.en! });
  expect((await page('about', 'hi')).data.lang).toBe('hi');
});

it('a page missing in every language is refused with a readable text; an unknown key or language is a bad request', async () => {
  await h.database.db.delete(contentPages).where(eq(contentPages.key, 'faq'));
  expect(await page('faq', 'en')).toEqual({ ret: 0, msg: 'This page has no content yet.', data: null });
  expect(await page('terms', 'en')).toMatchObject({ ret: 0, data: null });
  expect(await page('about', 'en', { lang: 'de' })).toMatchObject({ ret: 0, data: null });
});

it('the operator replaces a page in one language from a text file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'page-'));
  const file = join(dir, 'faq.txt');
  writeFileSync(file, 'How do I invite a friend?\r\nOpen the share page.\r\n');
  expect(await opsOk(h, 'page', 'faq', 'en', 'Help', file)).toBe('Page faq (en) "Help" saved: 46 characters.');
  expect((await page('faq', 'th')).data).toEqual({
    key: 'faq',
    lang: 'en',
    title: 'Help',
    body: 'How do I invite a friend?\nOpen the share page.',
  });
  expect(await ops(h, 'page', 'faq', 'de', 'Hilfe', file)).toEqual({
    ok: false,
    output: 'The language: use one of en, zh, th, jp, ar, hi.',
  });
  expect((await ops(h, 'page', 'faq', 'en', 'Help', join(dir, 'missing.txt'))).output).toMatch(
    /^Cannot read .*missing\.txt \(ENOENT\)\.$/,
  );
  // What customers read keeps to the visible-text rule, title and text; nothing is saved. A file's byte order mark
  // is no text.
  const hidden = { ok: false, output: 'Please remove invisible or direction-changing characters!' };
  const spoofed = join(dir, 'spoofed.txt');
  writeFileSync(spoofed, 'ถาม\u200Bตอบ');
  expect(await ops(h, 'page', 'faq', 'th', 'คำถาม', spoofed)).toEqual(hidden);
  expect(await ops(h, 'page', 'about', 'ar', '\u202Bعن Coinvest', file)).toEqual(hidden);
  expect((await page('faq', 'th')).data.lang).toBe('en');
  const marked = join(dir, 'marked.txt');
  writeFileSync(marked, '\uFEFFคำถามที่พบบ่อย');
  await opsOk(h, 'page', 'faq', 'th', 'คำถาม', marked);
  expect((await page('faq', 'th')).data).toMatchObject({ lang: 'th', body: 'คำถามที่พบบ่อย' });
});

it('/other/config act=about still answers the company profile', async () => {
  expect((await h.call(config, { act: 'about' })).data).toEqual(DEMO_CONFIG.about);
});

it('the system config lists the web-view hosts; the service link is empty or on the list, over https', async () => {
  const system = (await h.call(config, { act: 'system' })).data;
  const hosts = webViewHosts(system.webview_hosts);
  expect(hosts.length).toBeGreaterThan(0);
  for (const host of hosts) expect(allowedWebViewUrl(`https://${host}/`, hosts)?.hostname).toBe(host);
  const service = system.service_url ?? '';
  expect(service === '' || allowedWebViewUrl(service, hosts) !== null).toBe(true);
});

it('the content security policy lets the web-view frame https pages, and no one frame the app', async () => {
  // The documents' policy (an API answer carries the short one for APIs).
  const res = await h.app.inject({ method: 'GET', url: '/index.html' });
  const policy = String(res.headers['content-security-policy']);
  expect(policy).toContain("frame-src 'self' https:");
  expect(policy).toContain("frame-ancestors 'self'");
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("script-src 'self'");
});

it('the operator sets the service link and the web-view hosts; mistakes change nothing', async () => {
  expect(await opsOk(h, 'service')).toBe(
    'Service link: none (the service page shows the FAQ only). Web-view hosts: developer.mozilla.org, en.wikipedia.org.',
  );
  expect(
    await opsOk(h, 'service', 'hosts=Help.Example.com, developer.mozilla.org', 'url=https://help.example.com/chat'),
  ).toBe(
    'Service link: https://help.example.com/chat (opens in the web-view). Web-view hosts: help.example.com, developer.mozilla.org.',
  );
  expect((await h.call(config, { act: 'system' })).data).toMatchObject({
    service_url: 'https://help.example.com/chat',
    webview_hosts: 'help.example.com,developer.mozilla.org',
  });
  expect(await opsOk(h, 'service', 'url=http://chat.example.net/')).toBe(
    'Service link: http://chat.example.net/ (opens in a new tab: not an https page of a listed host). Web-view hosts: help.example.com, developer.mozilla.org.',
  );
  expect((await ops(h, 'service', 'url=javascript:alert(1)')).ok).toBe(false);
  expect((await ops(h, 'service', 'hosts=evil.com/path')).ok).toBe(false);
  expect((await ops(h, 'service', 'hosts=a.com@b.com')).ok).toBe(false);
  expect(await opsOk(h, 'service', 'url=none')).toMatch(/^Service link: none/);
  expect((await h.call(config, { act: 'system' })).data).toMatchObject({
    service_url: '',
    webview_hosts: 'help.example.com,developer.mozilla.org',
  });
});
