// @vitest-environment node
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReach } from '../../../src/build/reach.ts';
import { tree } from './helpers.ts';

const TEXTS = [
  'export const texts = {',
  "  loading: /*i18n*/ { id: 'e.loading', message: 'Loading' },",
  "  price: /*i18n*/ { id: 'e.price', message: 'Price' },",
  "  http404: /*i18n*/ { id: 'e.http404', message: 'Not found' },",
  "  unknownError: /*i18n*/ { id: 'e.unknownError', message: 'Error' },",
  '};',
].join('\n');

describe('readReach (src/build/reach.ts)', () => {
  const root = tree({
    'src/api-contract/texts.ts': TEXTS,
    'src/main.tsx':
      "import { texts } from './api-contract/texts.ts';\nimport './lib/api.ts';\nexport const l = texts.loading;\nconst n = () => import('./app/NotFound.tsx');",
    'src/lib/api.ts': 'export const call = () => httpStatusText(404);',
    'src/app/NotFound.tsx': 'export default 1;',
    'src/lib/prices.ts': "export const k = 'price';",
    'src/lib/login-only.ts': 'export const l = 1;',
    'src/features/home/HomePage.tsx': "import '../../lib/prices.ts';\nimport '../../lib/api.ts';",
    'src/features/markets/CoinListPage.tsx': "import '../../lib/prices.ts';\n// import '../../lib/login-only.ts';",
    'src/features/account/LoginPage.tsx': "import '../../lib/login-only.ts';",
  });
  const file = (path: string) => join(root, path);
  const reach = readReach(root);

  it('the shell is what main.tsx imports statically; with what it loads lazily, outside the areas', () => {
    expect([...reach.shell].sort()).toEqual([
      file('src/api-contract/texts.ts'),
      file('src/lib/api.ts'),
      file('src/main.tsx'),
    ]);
    expect(reach.shellAndLazy.has(file('src/app/NotFound.tsx'))).toBe(true);
    expect(reach.shell.has(file('src/app/NotFound.tsx'))).toBe(false);
  });

  it("an area is what its folder's files reach; the code two tab pages share beyond the shell is tabsShared", () => {
    expect([...reach.areas.keys()].sort()).toEqual(['account', 'home', 'markets']);
    expect(reach.areas.get('home')!.has(file('src/lib/prices.ts'))).toBe(true);
    expect(reach.areas.get('markets')!.has(file('src/lib/login-only.ts'))).toBe(false);
    expect([...reach.tabsShared]).toEqual([file('src/lib/prices.ts')]);
  });

  it('the texts each part names: by texts.key, by key as a string, and the status texts through httpStatusText', () => {
    expect(reach.keyById.get('e.price')).toBe('price');
    expect(reach.usesKey(reach.shell, 'loading')).toBe(true);
    expect(reach.usesKey(reach.shell, 'http404')).toBe(true);
    expect(reach.usesKey(reach.shell, 'unknownError')).toBe(true);
    expect(reach.usesKey(reach.shell, 'price')).toBe(false);
    expect(reach.usesKey(reach.areas.get('markets')!, 'price')).toBe(true);
  });
});
