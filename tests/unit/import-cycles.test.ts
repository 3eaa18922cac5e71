// @vitest-environment node
// The lint's import-circle check (tests/import-cycles.ts, madge's graph): a circle of imports is refused whatever the
// imports bring, types only included, and modules that import each other in one direction only pass. Each case lays
// out a small tree of its own (a tsconfig.json like the project's, scripts under src/) and checks it as the lint does.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importCycles, shownCycle } from '../import-cycles.ts';

const TSCONFIG = {
  compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, noEmit: true },
  include: ['src'],
};

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** Writes `modules` (path under the root → text) and a tsconfig.json to a new folder: its path. */
function tree(modules: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  folders.push(root);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  for (const [path, text] of Object.entries(modules)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** The circles found in `modules`, as printed. */
const circles = async (modules: Record<string, string>) => (await importCycles(tree(modules))).cycles.map(shownCycle);

/** Runs the check as `npm run lint` does, in `root`: its exit code and what it printed on stderr. */
function runCheck(root: string) {
  const run = spawnSync(process.execPath, [resolve('tests/import-cycles.ts')], {
    cwd: root,
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr };
}

const ONE_WAY = {
  'src/route.ts': "import { unread } from './messages.ts';\nimport { chatUnread } from './chat.ts';\n",
  'src/messages.ts': "import type { Row } from './rows.ts';\nimport { readFileSync } from 'node:fs';\n",
  'src/chat.ts': "import type { Row } from './rows.ts';\nexport type { Row } from './rows.ts';\n",
  'src/rows.ts': "export type Row = { id: number };\nexport const load = () => import('./list.ts');\n",
  'src/list.ts': 'export const list = [1];\n',
};

describe('the import-circle check', () => {
  it('finds a circle closed by an `import type`', async () => {
    expect(
      await circles({
        'src/order.ts': "import { fee } from './fee.ts';\nexport const total = (n: number) => n + fee(n);\n",
        'src/fee.ts': "import type { Order } from './types.ts';\nexport const fee = (n: number) => n / 100;\n",
        'src/types.ts': "import type { total } from './order.ts';\nexport type Order = { amount: number };\n",
      }),
    ).toEqual(['src/fee.ts → src/types.ts → src/order.ts → src/fee.ts']);
  });

  it('finds a circle closed by an `export type … from`, and one through `typeof import()` or import()', async () => {
    expect(
      await circles({
        'src/order.ts': "import { fee } from './fee.ts';\nexport type Order = { amount: number };\n",
        'src/fee.ts': "export type { Order } from './order.ts';\nexport const fee = (n: number) => n / 100;\n",
      }),
    ).toEqual(['src/fee.ts → src/order.ts → src/fee.ts']);
    expect(
      await circles({
        'src/chat.ts': "type Detail = typeof import('./detail.ts');\nexport const chat = 1;\n",
        'src/detail.ts': "export const load = () => import('./chat.ts');\n",
      }),
    ).toEqual(['src/chat.ts → src/detail.ts → src/chat.ts']);
  });

  it('passes modules that import one way only, and follows no package', async () => {
    expect(await importCycles(tree(ONE_WAY))).toEqual({ cycles: [], unresolved: [], modules: 5 });
  });

  it('names an import that resolves to no file: its module could not be followed', async () => {
    const found = await importCycles(tree({ 'src/a.ts': "import { b } from './b-renamed.ts';\n" }));
    expect(found.unresolved).toEqual(['./b-renamed.ts']);
  });

  it('exits 1 and prints each circle as the lint runs it; exits 0 on one-way imports', () => {
    const circle = tree({
      'src/a.ts': "import { b } from './b.ts';\nexport const a = 1;\n",
      'src/b.ts': "import type { a } from './a.ts';\nexport const b = 2;\n",
    });
    expect(runCheck(circle)).toEqual({
      status: 1,
      stderr: 'Import circle (type imports count): src/a.ts → src/b.ts → src/a.ts\n',
    });
    expect(runCheck(tree(ONE_WAY))).toEqual({ status: 0, stderr: '' });
  });
});
