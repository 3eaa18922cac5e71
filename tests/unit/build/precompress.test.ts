// @vitest-environment node
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompress } from '../../../src/build/precompress.ts';
import { hook, tree } from './helpers.ts';

describe('precompress (src/build/precompress.ts)', () => {
  it('writes .br and .gz beside each compressible file of 1 KB or more, and nothing beside the others', async () => {
    const big = 'const a = 1;\n'.repeat(200);
    const root = tree({ 'dist/assets/app.js': big, 'dist/small.css': 'a{}', 'dist/icon.png': big });
    const plugin = precompress();
    hook(plugin.configResolved)({ root, build: { outDir: 'dist' } });
    await hook(plugin.closeBundle)();
    expect(brotliDecompressSync(readFileSync(join(root, 'dist/assets/app.js.br'))).toString()).toBe(big);
    expect(gunzipSync(readFileSync(join(root, 'dist/assets/app.js.gz'))).toString()).toBe(big);
    expect(
      ['dist/small.css.br', 'dist/small.css.gz', 'dist/icon.png.br', 'dist/icon.png.gz'].filter((file) =>
        existsSync(join(root, file)),
      ),
    ).toEqual([]);
  });
});
