// Installable: the web app manifest parses with every field the
// home screen needs, its icons and screenshots are real PNGs of the stated size, a service worker
// controls the page, and Chromium reports no installability error. Also measures the gzipped
// JavaScript the home route loads.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { expect, inject, it } from 'vitest';
import { PHONE, firstScreenSettled, launch, phoneContext, watchRequests } from './browser.ts';
import { controlledByServiceWorker, logIn, markAllRead } from './pwa.ts';

interface ManifestImage {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
  form_factor?: string;
}

/** Width × height from a PNG's IHDR chunk. */
const pngSize = (bytes: Buffer) => `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;

it('has a manifest with names, start URL, scope, standalone display, colours, icons and screenshots', async () => {
  const base = inject('baseUrl');
  const html = await (await fetch(`${base}/`)).text();
  const href = html.match(/<link rel="manifest" href="([^"]+)"/)?.[1];
  expect(href).toBeTruthy();
  const response = await fetch(new URL(href!, `${base}/`));
  expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  const manifest = JSON.parse(await response.text()) as Record<string, unknown> & {
    icons: ManifestImage[];
    screenshots: ManifestImage[];
  };
  expect(manifest).toMatchObject({
    name: expect.stringContaining('Coinvest'),
    short_name: 'Coinvest',
    description: expect.any(String),
    start_url: './',
    scope: './',
    display: 'standalone',
    theme_color: '#00bbfe',
    background_color: '#00bbfe',
  });
  expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  expect(manifest.screenshots.length).toBeGreaterThanOrEqual(2);
  for (const image of [...manifest.icons, ...manifest.screenshots]) {
    const file = await fetch(new URL(image.src, response.url));
    expect(file.status, image.src).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(pngSize(Buffer.from(await file.arrayBuffer())), image.src).toBe(image.sizes);
  }
  expect(manifest.screenshots.every((shot) => shot.form_factor === 'narrow')).toBe(true);
  // Apple's home screen reads the page's tags, not the manifest.
  expect(html).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"');
  expect(html).toContain('<meta name="theme-color" content="#00bbfe"');
  expect((await fetch(`${base}/icons/apple-touch-icon.png`)).status).toBe(200);
});

it('is installable: a service worker controls the page and Chromium reports no installability error', async () => {
  // An incognito context is never installable: use a real (temporary) profile.
  const profile = mkdtempSync(join(tmpdir(), 'coinvest-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    headless: true,
    viewport: PHONE,
    baseURL: inject('baseUrl'),
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await controlledByServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { errors, url } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[]; url: string };
    expect(url).toMatch(/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
    await expect
      .poll(
        async () =>
          (
            (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }
          ).installabilityErrors.map((error) => error.errorId),
        {
          timeout: 20_000,
        },
      )
      .toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

it('the same check does report problems: an incognito window is never installable', async () => {
  const browser = await launch();
  try {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors.map((error) => error.errorId)).toContain('in-incognito');
  } finally {
    await browser.close();
  }
});

it('measures the gzipped JavaScript the home route loads', async () => {
  await markAllRead('demo', 'demo1234');
  const browser = await launch();
  try {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await logIn(page, 'demo', 'demo1234');
    // A fresh tab opening home, as on a start: every script it loads counts.
    const tab = await context.newPage();
    const scripts = new Set<string>();
    const requests = watchRequests(tab);
    tab.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
    });
    await tab.goto('/#/pages/index/index');
    await tab.locator('.app:not([inert]) .home-page').waitFor();
    await firstScreenSettled(tab, requests);
    const files = [...scripts].filter((path) => !path.endsWith('/sw.js'));
    const sizes = files.map((path) => ({
      path,
      gzip: gzipSync(readFileSync(join(inject('webRoot'), path)), { level: 9 }).length,
    }));
    const total = sizes.reduce((sum, file) => sum + file.gzip, 0);
    expect(files.length).toBeGreaterThan(0);
    mkdirSync('test-results', { recursive: true });
    writeFileSync(
      join('test-results', 'home-js.json'),
      JSON.stringify({ totalGzipBytes: total, files: sizes }, null, 2),
    );
    console.log(`Home route: ${files.length} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
    await context.close();
  } finally {
    await browser.close();
  }
});
