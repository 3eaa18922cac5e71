// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { apiContractTextIdsOnly } from '../../../src/build/api-contract-text-ids-only.ts';
import { hook } from './helpers.ts';

describe('apiContractTextIdsOnly (src/build/api-contract-text-ids-only.ts)', () => {
  const transform = hook(apiContractTextIdsOnly().transform);

  it('keeps only the id of each descriptor marked for Lingui, in any layout; nothing else of the file changes', () => {
    const code = [
      "import type { MessageDescriptor } from '@lingui/core';",
      'export const texts = {',
      "  loading: /*i18n*/ { id: 'e.loading', message: 'Loading, it\\'s \"soon\"' },",
      '  uploadLimit: /*i18n*/ {',
      "    id: 'e.uploadLimit',",
      '    message:',
      "      'Too many pictures ({0})',",
      '  },',
      "  unmarked: { id: 'e.unmarked', message: 'Kept' },",
      '} satisfies Record<string, MessageDescriptor>;',
    ].join('\n');
    const { code: out } = transform(code, '/app/src/api-contract/texts.ts');
    expect(out).toBe(
      [
        "import type { MessageDescriptor } from '@lingui/core';",
        'export const texts = {',
        "  loading: /*i18n*/ { id: 'e.loading' },",
        '  uploadLimit: /*i18n*/ {',
        "    id: 'e.uploadLimit' },",
        "  unmarked: { id: 'e.unmarked', message: 'Kept' },",
        '} satisfies Record<string, MessageDescriptor>;',
      ].join('\n'),
    );
  });

  it('leaves every other file alone', () => {
    expect(
      transform("const a = /*i18n*/ { id: 'x', message: 'y' };", '/app/src/api-contract/server-texts.ts'),
    ).toBeNull();
  });
});
