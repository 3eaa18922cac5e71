/// <reference types="vitest/config" />
// The build of the app and of the operator console, and the test projects. Each plugin of the build is in a file
// of its own in src/build (with its test in tests/unit/build); the test projects are declared in tests/projects.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { bundleFactsOf } from './src/build/bundle-facts.ts';
import { chunking } from './src/build/chunking.ts';
import { consoleBuild } from './src/build/console-build.ts';
import { buildIdFile } from './src/build/build-id.ts';
import { firstScreens } from './src/build/first-screens.ts';
import { paintBeforeScripts } from './src/build/paint-before-scripts.ts';
import { precompress } from './src/build/precompress.ts';
import { pwa } from './src/build/pwa.ts';
import { sourcePlugins } from './src/build/source-plugins.ts';
import { stylesInline } from './src/build/styles-inline.ts';
import { testProjects } from './tests/projects.ts';

/** Names the build on Mine and <html data-build> (the update test builds a second one with BUILD_ID). */
const BUILD_ID = process.env.BUILD_ID || new Date().toISOString().slice(0, 16).replace(/\D/g, '');

export default defineConfig({
  resolve: {
    // wouter's shim of useSyncExternalStore for React before 18: React's own hook (src/lib/sync-external-store.ts).
    // wouter's default location hooks: the app's hash route (src/lib/wouter-location.ts).
    alias: [
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: fileURLToPath(new URL('src/lib/sync-external-store.ts', import.meta.url)),
      },
      {
        find: /^\.\/use-browser-location\.js$/,
        replacement: fileURLToPath(new URL('src/lib/wouter-location.ts', import.meta.url)),
      },
    ],
  },
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  plugins: [
    ...sourcePlugins(),
    stylesInline(),
    paintBeforeScripts(),
    firstScreens(),
    bundleFactsOf(),
    pwa(),
    // The operator console's own build (src/console/index.html into dist/console/), then the compressed copies of both.
    consoleBuild(),
    // build-id.txt: the server reads which build it serves (src/server/build-info.ts).
    buildIdFile(BUILD_ID),
    precompress(),
  ],
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: { target: 'es2022', chunkSizeWarningLimit: 400, ...chunking() },
  test: {
    // tests/slowest-reporter.ts: the ten slowest files at the end (over both runs of `npm test`).
    reporters: ['default', './tests/slowest-reporter.ts'],
    projects: testProjects,
    // `npm run coverage`: the app's and the server's code (src/, not the catalogs) under the unit and server suites,
    // as V8 counts it in the test workers (a server process a test starts is not counted). It is summed in
    // coverage/coverage-summary.json per file, so two runs can be compared file by file.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.{ts,tsx}'],
      exclude: ['src/locales/**', '**/*.d.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
});
