// @vitest-environment node
// The lint's import-cycle rule (eslint-import-cycle.js): a circle of imports is refused whatever the imports bring,
// types only included, and modules that import each other in one direction only pass. Each case writes its modules to
// a folder of its own and lints one of them as the project's lint does (the same parser and resolver).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter, type Rule } from 'eslint';
import { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { afterEach, describe, expect, it } from 'vitest';

const { noImportCycle } = (await import(pathToFileURL(resolve('eslint-import-cycle.js')).href)) as {
  noImportCycle: Rule.RuleModule;
};

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** Writes `modules` (name → text) to a new folder and lints `linted` there: the messages and where each stands. */
function lint(modules: Record<string, string>, linted: string) {
  const folder = mkdtempSync(join(tmpdir(), 'import-cycle-'));
  folders.push(folder);
  for (const [name, text] of Object.entries(modules)) writeFileSync(join(folder, name), text);
  const linter = new Linter({ cwd: folder });
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser as Linter.Parser },
      plugins: { project: { rules: { 'no-import-cycle': noImportCycle } } },
      settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
      rules: { 'project/no-import-cycle': 'error' },
    },
  ];
  return linter
    .verify(modules[linted]!, config, { filename: join(folder, linted) })
    .map(({ line, message }) => ({ line, message }));
}

describe('the import-cycle rule', () => {
  it('refuses a circle closed by a type-only import, on the import that starts it', () => {
    const modules = {
      'order.ts': "import { fee } from './fee.ts';\nexport const total = (n: number) => n + fee(n);\n",
      'fee.ts': "import type { Order } from './types.ts';\nexport const fee = (n: number) => n / 100;\n",
      'types.ts': "export type { total } from './order.ts';\nexport type Order = { amount: number };\n",
    };
    expect(lint(modules, 'order.ts')).toEqual([
      { line: 1, message: 'Import cycle (type imports count): fee.ts:1 → types.ts:1 → this file.' },
    ]);
    expect(lint(modules, 'fee.ts')).toEqual([
      { line: 1, message: 'Import cycle (type imports count): types.ts:1 → order.ts:1 → this file.' },
    ]);
  });

  it('counts `typeof import(…)` and a dynamic import() as imports', () => {
    const modules = {
      'chat.ts': "type Detail = typeof import('./detail.ts');\nexport const chat = 1;\n",
      'detail.ts': "export const load = () => import('./chat.ts');\n",
    };
    expect(lint(modules, 'chat.ts')).toEqual([
      { line: 1, message: 'Import cycle (type imports count): detail.ts:1 → this file.' },
    ]);
  });

  it('passes modules that import one way only, and follows no package', () => {
    const modules = {
      'route.ts': "import { unread } from './messages.ts';\nimport { chatUnread } from './chat.ts';\n",
      'messages.ts': "import type { Row } from './rows.ts';\nimport { readFileSync } from 'node:fs';\n",
      'chat.ts': "import type { Row } from './rows.ts';\nimport * as v from 'valibot';\n",
      'rows.ts': 'export type Row = { id: number };\n',
    };
    expect(lint(modules, 'route.ts')).toEqual([]);
    expect(lint(modules, 'messages.ts')).toEqual([]);
  });
});
