import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { SERVER_FILES_DIR } from '../api-contract/first-data.ts';

/**
 * Writes `.br` (brotli 11) and `.gz` (gzip 9) beside every compressible file of the build, after
 * the bundle and the service worker are written; the server sends them (@fastify/static preCompressed).
 */
export function precompress(): Plugin {
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
        // Not the server's own files (SERVER_FILES_DIR): never sent to a browser.
        const files = (await readdir(outDir, { recursive: true })).filter(
          (file) => /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/.test(file) && !file.startsWith(SERVER_FILES_DIR),
        );
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
