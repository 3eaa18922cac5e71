/// <reference types="vitest/config" />
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import { getConfig } from '@lingui/conf';
import { createCompiledCatalog, getCatalogForFile, getCatalogs } from '@lingui/cli/api';
import { VitePWA } from 'vite-plugin-pwa';

const THEME = '#00bbfe';
/** Names the build on Mine and <html data-build> (the update test builds a second one with BUILD_ID). */
const BUILD_ID = process.env.BUILD_ID || new Date().toISOString().slice(0, 16).replace(/\D/g, '');

/**
 * Writes `.br` (brotli 11) and `.gz` (gzip 9) beside every compressible file of the build, after
 * the bundle and the service worker are written; the server sends them (@fastify/static preCompressed).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const [brotli, gzipped] = [promisify(brotliCompress), promisify(gzip)];
  return {
    name: 'coinvest:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    // 'post' and sequential: after vite-plugin-pwa's closeBundle has written sw.js.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await readdir(outDir, { recursive: true })).filter((file) => /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/.test(file));
        for (const file of files) {
          const body = await readFile(join(outDir, file));
          if (body.length < 1024) continue;
          const params = { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length };
          const [br, gz] = await Promise.all([brotli(body, { params }), gzipped(body, { level: 9 })]);
          // A copy that saves nothing is not worth a second file (the server falls back to the original).
          if (br.length < body.length) await writeFile(join(outDir, `${file}.br`), br);
          if (gz.length < body.length) await writeFile(join(outDir, `${file}.gz`), gz);
        }
      },
    },
  };
}

/**
 * Splits each language's catalog by product area, so a page brings only its own texts:
 * `messages.po?area=shell` holds the texts of everything outside src/features/ (the shell, ui, lib
 * and the contract) plus a loader of every area's part; `messages.po?area=<feature>` holds the texts
 * whose origin is in src/features/<feature>/ (features never import each other, so that is all of
 * them). The .po files stay one per language for translators and the server.
 */
function catalogsByArea(): Plugin {
  const config = getConfig({ cwd: process.cwd() });
  const areaOf = (file: string) => file.match(/^src\/features\/([^/]+)\//)?.[1] ?? 'shell';
  return {
    name: 'coinvest:catalogs-by-area',
    enforce: 'pre',
    async load(id) {
      const [file = '', query = ''] = id.split('?');
      const area = new URLSearchParams(query).get('area');
      if (!file.endsWith('.po') || !area) return null;
      const found = getCatalogForFile(relative(config.rootDir ?? process.cwd(), file), await getCatalogs(config));
      if (!found) throw new Error(`${file} is not a catalog of lingui.config.ts`);
      this.addWatchFile(file);
      const { catalog, locale } = found;
      const origins = (await catalog.read(locale)) ?? {};
      const { fallbackLocales, sourceLocale = 'en' } = config;
      const { messages } = await catalog.getTranslations(locale, { fallbackLocales: fallbackLocales || {}, sourceLocale });
      const areasOf = (messageId: string) => new Set((origins[messageId]?.origin ?? []).map(([origin]) => areaOf(origin)));
      // A text the shell uses (or of unknown origin) is loaded at start: no area repeats it.
      const atStart = (messageId: string) => areasOf(messageId).size === 0 || areasOf(messageId).has('shell');
      const inArea = (messageId: string) => (area === 'shell' ? atStart(messageId) : !atStart(messageId) && areasOf(messageId).has(area));
      const part = Object.fromEntries(Object.entries(messages).filter(([messageId]) => inArea(messageId)));
      const { source, errors } = createCompiledCatalog(locale, part, { namespace: 'es' });
      if (errors.length) throw new Error(`${file}: ${errors.map((error) => `${error.id}: ${error.error}`).join('; ')}`);
      if (area !== 'shell') return { code: source, moduleType: 'js' };
      const areas = [...new Set(Object.keys(messages).flatMap((messageId) => [...areasOf(messageId)]))].filter((name) => name !== 'shell').sort();
      const loaders = areas.map((name) => `${JSON.stringify(name)}: () => import(${JSON.stringify(`${file}?area=${name}`)})`);
      return { code: `${source}\nexport const areas = {${loaders.join(', ')}};`, moduleType: 'js' };
    },
  };
}

/**
 * The contract's texts keep their English for the server and the catalogs; the built PWA reads every
 * text from the compiled catalogs (the source language's included), so the bundle keeps only the ids,
 * as the Lingui macro does for the texts of the pages.
 */
function contractTextIdsOnly(): Plugin {
  return {
    name: 'coinvest:contract-text-ids-only',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/src/contract/texts.ts')) return null;
      // Any layout (an earlier transform may have reformatted the file): /*i18n*/ { id: '…', message: '…' }.
      const descriptor = /(\/\*i18n\*\/\s*\{\s*id:\s*(?:'[^']+'|"[^"]+"))\s*,\s*message:\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*\}/g;
      return { code: code.replace(descriptor, '$1 }'), map: null };
    },
  };
}

export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  plugins: [
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
    catalogsByArea(),
    contractTextIdsOnly(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // The shell: every route chunk, styles, fonts, svg; the manifest's icons are added by the plugin.
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,woff2}'] },
      includeAssets: ['icons/apple-touch-icon.png'],
      manifest: {
        id: './',
        name: 'Coinvest — crypto investment and trading',
        short_name: 'Coinvest',
        description: 'Trade options, follow markets and manage your crypto assets.',
        start_url: './',
        scope: './',
        display: 'standalone',
        theme_color: THEME,
        background_color: THEME,
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: 'screenshots/markets.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: 'Live prices on Markets' },
          { src: 'screenshots/option.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: 'Trade a short-term option' },
        ],
        orientation: 'portrait',
        categories: ['finance'],
      },
    }),
    precompress(),
  ],
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    // What every start needs goes in one file: one request, and one gzip stream compresses better
    // than the dozen small shared chunks the splitter would make of it.
    // (The entry module stays in the entry chunk, which must run it.)
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'], test: (id) => !/[\\/]src[\\/]main\.tsx$|index\.html$/.test(id) }] } } },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // The embedded database's own backup and restore: PGlite only.
          exclude: ['tests/server/backup.test.ts'],
          globalSetup: ['tests/server/global-setup-pg.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // The size budgets run on their own (npm run test:budgets) until the build meets them.
          exclude: ['tests/e2e/budgets.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'budgets',
          environment: 'node',
          include: ['tests/e2e/budgets.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
