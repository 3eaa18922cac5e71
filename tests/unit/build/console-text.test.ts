// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { consoleText } from '../../../src/build/console-text.ts';
import { tree } from './helpers.ts';

describe('consoleText (src/build/console-text.ts)', () => {
  it('takes the console’s own texts and the API contract texts its code or its contract names', () => {
    const root = tree({
      'src/api-contract/texts.ts': [
        'export const texts = {',
        "  named: /*i18n*/ { id: 'c.named', message: 'Named' },",
        "  byContract: /*i18n*/ { id: 'c.byContract', message: 'By contract' },",
        "  http403: /*i18n*/ { id: 'c.http403', message: 'Forbidden' },",
        "  inComment: /*i18n*/ { id: 'c.inComment', message: 'Only in a comment' },",
        "  appOnly: /*i18n*/ { id: 'c.appOnly', message: 'App only' },",
        '};',
      ].join('\n'),
      'src/api-contract/console.ts': 'export const x = texts.byContract;',
      'src/console/Page.tsx': '// texts.inComment\nexport const Page = () => <p>{texts.named.id}</p>;',
    });
    const origins = {
      own: { origin: [['src/console/Page.tsx', 3]] },
      theirs: { origin: [['src/features/home/HomePage.tsx', 1]] },
    } as Record<string, { origin: [string, number][] }>;
    const inConsole = consoleText(origins, root);
    expect(
      ['c.named', 'c.byContract', 'c.http403', 'c.inComment', 'c.appOnly', 'own', 'theirs'].filter(inConsole),
    ).toEqual(['c.named', 'c.byContract', 'c.http403', 'own']);
  });
});
