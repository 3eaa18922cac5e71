// @vitest-environment node
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractTextKeys, isStatusKey, sourceFacts } from '../../../src/build/source.ts';
import { tree } from './helpers.ts';

describe('sourceFacts (src/build/source.ts)', () => {
  it("reads a file's imports, lazy imports, texts and strings from its syntax tree, not from its comments", () => {
    const file = '/app/src/lib/a.tsx';
    const facts = sourceFacts(
      file,
      [
        "import type { A } from './types.ts';",
        "import { type B, c } from './c.ts';",
        "import './look.css';",
        "import React from 'react';",
        "export type { D } from './d.ts';",
        "export * from '../e.ts';",
        "// import('./in-a-comment.ts'), texts.inAComment",
        "const Page = () => import('./page.tsx');",
        'export const x = <b title="quoted">{texts.loading.id}</b>;',
        "export const y = httpStatusText(404), z = 'named';",
      ].join('\n'),
    );
    expect(facts.imports).toEqual(['/app/src/lib/c.ts', '/app/src/e.ts']);
    expect(facts.lazy).toEqual(['/app/src/lib/page.tsx']);
    expect([...facts.textsRead]).toEqual(['loading']);
    expect(facts.strings.has('named') && facts.strings.has('quoted') && !facts.strings.has('inAComment')).toBe(true);
    expect(facts.callsHttpStatusText).toBe(true);
    expect(sourceFacts(file, 'export const a = 1;').callsHttpStatusText).toBe(false);
  });

  it('throws on a file it cannot parse', () => {
    expect(() => sourceFacts('/app/src/x.ts', 'export const = ;')).toThrow('/app/src/x.ts');
  });

  it("reads the API contract's text keys by id, in any layout", () => {
    const root = tree({
      'texts.ts': [
        'export const texts = {',
        "  loading: /*i18n*/ { id: 'e.loading', message: 'Loading' },",
        '  uploadLimit: /*i18n*/ {',
        "    id: 'e.uploadLimit',",
        "    message: 'Too many',",
        '  },',
        '} as const satisfies Record<string, unknown>;',
        "export const other = { x: { id: 'not.a.text' } };",
      ].join('\n'),
    });
    expect([...contractTextKeys(join(root, 'texts.ts'))]).toEqual([
      ['e.loading', 'loading'],
      ['e.uploadLimit', 'uploadLimit'],
    ]);
    expect(['http404', 'http500', 'http', 'httpX', 'unknownError'].filter(isStatusKey)).toEqual(['http404', 'http500']);
  });
});
