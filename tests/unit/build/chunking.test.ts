// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { STARTUP_CHUNKS } from '../../../src/build/chunks.ts';
import { chunking } from '../../../src/build/chunking.ts';
import { tree } from './helpers.ts';

describe('chunking (src/build/chunking.ts, chunks.ts)', () => {
  const root = tree({
    'src/api-contract/texts.ts': 'export const texts = {};',
    'src/main.tsx': 'export {};',
    'src/lib/prices.ts': 'export {};',
    'src/features/home/HomePage.tsx': "import '../../lib/prices.ts';",
    'src/features/markets/CoinListPage.tsx': "import '../../lib/prices.ts';",
  });
  const { modulePreload, rolldownOptions } = chunking(root);

  it('the chunks a visit starts with are the tab pages, login and the startup dialog', () => {
    expect(
      ['assets/HomePage-a1.js', 'assets/LoginPage-b_2.js', 'assets/FirstUnreadDialog-c3.js'].every((file) =>
        STARTUP_CHUNKS.test(file),
      ),
    ).toBe(true);
    expect(['assets/WalletPage-a1.js', 'assets/HomePage-a1.css'].some((file) => STARTUP_CHUNKS.test(file))).toBe(false);
  });

  it('only index.html and the chunks a visit starts with keep their preload lists', () => {
    const resolve = (
      modulePreload as {
        resolveDependencies: (file: string, deps: string[], context: { hostType: string }) => string[];
      }
    ).resolveDependencies;
    expect(resolve('index.html', ['a.js'], { hostType: 'html' })).toEqual(['a.js']);
    expect(resolve('assets/HomePage-1.js', ['a.js'], { hostType: 'js' })).toEqual(['a.js']);
    expect(resolve('assets/WalletPage-1.js', ['a.js'], { hostType: 'js' })).toEqual([]);
  });

  it('the start group takes all but the entry module; the tabs group the code two tab pages share beyond the shell', () => {
    const output = rolldownOptions!.output as {
      codeSplitting: { groups: { name: string; test: (id: string) => boolean }[] };
    };
    const [shell, tabs] = output.codeSplitting.groups;
    expect([shell!.name, tabs!.name]).toEqual(['shell', 'tabs']);
    expect(shell!.test(`${root}/src/main.tsx`) || shell!.test(`${root}/index.html`)).toBe(false);
    expect(shell!.test(`${root}/src/lib/prices.ts`)).toBe(true);
    expect(tabs!.test(`${root}/src/lib/prices.ts`)).toBe(true);
    expect(tabs!.test(`${root}/src/main.tsx`)).toBe(false);
  });
});
