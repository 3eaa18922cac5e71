import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { BUILD_ID_FILE } from '../server/build-info.ts';

/**
 * Writes the build's id (the one the app shows on Mine) to <outDir>/build-id.txt, so the server
 * serving this build can say which it is (the console's system page). Not precached by the worker.
 */
export function buildIdFile(id: string): Plugin {
  let outDir = 'dist';
  return {
    name: 'coinvest:build-id',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    closeBundle: { sequential: true, handler: () => writeFile(join(outDir, BUILD_ID_FILE), `${id}\n`) },
  };
}
