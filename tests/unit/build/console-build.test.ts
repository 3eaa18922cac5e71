// @vitest-environment node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleBuild } from '../../../src/build/console-build.ts';
import { hook, tree } from './helpers.ts';

describe('consoleBuild (src/build/console-build.ts)', () => {
  it('builds src/console/index.html into <outDir>/console/, its files under /console/', async () => {
    const root = tree({
      'src/console/index.html':
        '<!doctype html>\n<html><body><script type="module" src="./main.tsx"></script></body></html>\n',
      'src/console/main.tsx': "document.body.append('console');\n",
    });
    const plugin = consoleBuild();
    hook(plugin.configResolved)({ root, build: { outDir: 'dist' } });
    await hook(plugin.closeBundle)();
    expect(readFileSync(join(root, 'dist/console/index.html'), 'utf8')).toMatch(
      /<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/,
    );
  }, 60_000);
});
