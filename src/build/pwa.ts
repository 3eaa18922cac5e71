import { VitePWA } from 'vite-plugin-pwa';
import { precacheGroups } from './bundle-facts.ts';
import { cachedCalls } from './cached-calls.ts';

const THEME = '#00bbfe';

/** The service worker (sw/sw.ts) with its precache manifest, and the web app manifest. */
export function pwa() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'sw',
    filename: 'sw.ts',
    registerType: 'prompt',
    injectRegister: false,
    // The shell: every route chunk, styles, fonts, svg; the manifest's icons are added by the plugin.
    // The worker is built apart: it needs its own instance of the plugin that lists the cached calls.
    // Not the operator console (dist/console/): online only, apart from the app.
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,svg,woff2}'],
      globIgnores: ['console/**'],
      // Hashed names need no revision: the worker's install may take them from the HTTP cache, where the first visit
      // left them.
      dontCacheBustURLsMatching: /^assets\//,
      manifestTransforms: [precacheGroups],
      buildPlugins: { vite: [cachedCalls()] },
    },
    // The manifest's large icons are the browser's to fetch when the app is installed, not the worker's to keep: only
    // the one a notification shows and the home-screen icon.
    includeManifestIcons: false,
    includeAssets: ['icons/apple-touch-icon.png', 'icons/icon-192.png'],
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
        {
          src: 'screenshots/markets.png',
          sizes: '390x844',
          type: 'image/png',
          form_factor: 'narrow',
          label: 'Live prices on Markets',
        },
        {
          src: 'screenshots/option.png',
          sizes: '390x844',
          type: 'image/png',
          form_factor: 'narrow',
          label: 'Trade a short-term option',
        },
      ],
      orientation: 'portrait',
      categories: ['finance'],
    },
  });
}
