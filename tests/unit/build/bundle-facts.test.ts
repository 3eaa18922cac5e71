// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bundleFacts, bundleFactsOf, precacheGroups } from '../../../src/build/bundle-facts.ts';
import { hook } from './helpers.ts';

const chunk = (fileName: string, imports: string[] = [], more: object = {}) => ({
  type: 'chunk',
  fileName,
  imports,
  viteMetadata: { importedCss: new Set(), importedAssets: new Set() },
  ...more,
});

describe('bundleFactsOf and precacheGroups (src/build/bundle-facts.ts)', () => {
  it("reads the first files and the catalog parts from the bundle, and tags the worker's manifest by them", () => {
    const bundle = {
      'assets/index-1.js': chunk('assets/index-1.js', ['assets/shell-1.js'], { isEntry: true }),
      'assets/shell-1.js': chunk('assets/shell-1.js'),
      'assets/HomePage-1.js': chunk('assets/HomePage-1.js', ['assets/tabs-1.js']),
      'assets/tabs-1.js': chunk('assets/tabs-1.js'),
      'assets/WalletPage-1.js': chunk('assets/WalletPage-1.js'),
      'assets/messages-th-1.js': chunk('assets/messages-th-1.js', [], {
        facadeModuleId: '/app/src/locales/th/messages.po?area=home',
      }),
      'assets/messages-th-2.js': chunk('assets/messages-th-2.js', [], {
        facadeModuleId: '/app/src/locales/th/messages.po?area=funds',
      }),
    };
    hook(bundleFactsOf().generateBundle)({}, bundle);
    expect([...bundleFacts.firstFiles].sort()).toEqual([
      'assets/HomePage-1.js',
      'assets/index-1.js',
      'assets/shell-1.js',
      'assets/tabs-1.js',
    ]);
    expect(bundleFacts.catalogParts.get('assets/messages-th-2.js')).toEqual({ locale: 'th', area: 'funds' });
    const entry = (url: string) => ({ url, revision: null, size: 1 });
    const { manifest } = precacheGroups(
      [
        'index.html',
        'assets/shell-1.js',
        'assets/WalletPage-1.js',
        'assets/messages-th-1.js',
        'assets/messages-th-2.js',
      ].map(entry),
    );
    expect(manifest).toEqual([
      entry('index.html'),
      entry('assets/shell-1.js'),
      { ...entry('assets/WalletPage-1.js'), later: true },
      { ...entry('assets/messages-th-1.js'), locale: 'th' },
      { ...entry('assets/messages-th-2.js'), later: true, locale: 'th' },
    ]);
  });
});
