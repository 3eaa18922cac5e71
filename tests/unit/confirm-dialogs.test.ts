// A confirmation's two buttons must read differently in every language: "Cancel" beside "Revoke" was "إلغاء" twice in
// Arabic (and the same word twice in Hindi and Thai), so a customer could not tell keeping an order from revoking it.
// Every ConfirmDialog of the app is found in the sources; its labels are looked up in the six catalogs.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { readCatalog as read } from './catalog-files.ts';

/** Each ConfirmDialog in src/features: its confirming label and its dismissing one (Cancel unless `keep` names one). */
function dialogs(): { file: string; confirm: string; keep: string }[] {
  const found = [];
  for (const file of readdirSync('src/features', { recursive: true }) as string[]) {
    if (!file.endsWith('.tsx')) continue;
    const source = readFileSync(join('src/features', file), 'utf8');
    for (const [block] of source.matchAll(/<ConfirmDialog\b[\s\S]*?\n\s*>/g)) {
      const label = (prop: string) => block.match(new RegExp(`${prop}=\\{<Trans>([^<]+)</Trans>\\}`))?.[1];
      const confirm = label('confirm');
      if (confirm) found.push({ file, confirm, keep: label('keep') ?? 'Cancel' });
    }
  }
  return found;
}

it('finds the app’s confirmations, the order revocation among them', () => {
  const found = dialogs();
  expect(found.length).toBeGreaterThanOrEqual(10);
  expect(found).toContainEqual(expect.objectContaining({ confirm: 'Revoke order', keep: 'Keep order' }));
});

describe.each(LOCALES)('in the %s catalog', (locale) => {
  const catalog = read(locale);
  it('a confirmation’s two buttons never read the same', () => {
    const same = dialogs().filter(({ confirm, keep }) => {
      const said = (id: string) => (catalog[id]?.translation || id).trim().toLocaleLowerCase();
      return said(confirm) === said(keep);
    });
    expect(same).toEqual([]);
  });
});
