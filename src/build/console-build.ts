import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { catalogsByArea } from './catalogs-by-area.ts';
import { apiContractAnswersServerOnly } from './api-contract-answers-server-only.ts';

/**
 * The operator console: its own entry, src/console/index.html, built in the same `vite build`
 * into <outDir>/console/ and served under /console/. A second build rather than a second input of
 * this one: in one module graph what both entries import (React, the API contract) would be split into
 * chunks the customer app shares (its start chunk's exports would change, or the console would load
 * and run the app's start chunk), and the 'shell' group takes every module an entry starts with. Apart,
 * no module of the console is in the app's chunks and the app's chunks stay byte for byte the same.
 * The service worker does not precache it (globIgnores) and sends its requests to the network.
 */
export function consoleBuild(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'coinvest:console-build',
    apply: 'build',
    configResolved: (config) => void ((root = config.root), (outDir = resolve(config.root, config.build.outDir))),
    // Before precompress ('post'), which then compresses the console's files too.
    closeBundle: {
      sequential: true,
      async handler() {
        const { build } = await import('vite');
        await build({
          configFile: false,
          root: join(root, 'src/console'),
          base: '/console/',
          publicDir: false,
          logLevel: 'warn',
          plugins: [
            react({ babel: { plugins: ['@lingui/babel-plugin-lingui-macro'] } }),
            lingui(),
            catalogsByArea(),
            apiContractAnswersServerOnly(),
          ],
          build: { outDir: join(outDir, 'console'), emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 400 },
        });
      },
    },
  };
}
