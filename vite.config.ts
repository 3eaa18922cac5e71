/// <reference types="vitest/config" />
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
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

export default defineConfig({
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  plugins: [
    react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
    lingui(),
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
  build: { target: 'es2022', chunkSizeWarningLimit: 400 },
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
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
