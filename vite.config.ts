/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { lingui } from '@lingui/vite-plugin';
import { VitePWA } from 'vite-plugin-pwa';

const THEME = '#00bbfe';
/** Names the build on Mine and <html data-build> (the update test builds a second one with BUILD_ID). */
const BUILD_ID = process.env.BUILD_ID || new Date().toISOString().slice(0, 16).replace(/\D/g, '');

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
