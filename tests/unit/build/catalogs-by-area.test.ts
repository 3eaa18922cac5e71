// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { catalogsByArea } from '../../../src/build/catalogs-by-area.ts';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { hook } from './helpers.ts';

describe('catalogsByArea (src/build/catalogs-by-area.ts)', () => {
  const plugin = catalogsByArea();
  const load = hook(plugin.load).bind({ addWatchFile: () => {} });
  const catalog = resolve('src/locales/en/messages.po');

  it('answers a part of a catalog only (a .po file with ?area=)', async () => {
    expect(await load(catalog)).toBeNull();
    expect(await load('/app/src/x.ts?area=home')).toBeNull();
  });

  it("the shell's part holds its texts and a loader of every area's part; an area's part holds its texts", async () => {
    const shell = await load(`${catalog}?area=shell`);
    expect(shell.moduleType).toBe('js');
    expect(shell.code).toContain(`"home": () => import(${JSON.stringify(`${catalog}?area=home`)})`);
    const home = await load(`${catalog}?area=home`);
    expect(home.code).not.toContain('export const areas');
    const consolePart = await load(`${catalog}?area=console`);
    expect(consolePart.code).not.toContain('export const areas');
  }, 60_000);

  it("a text of code the shell loads itself is in the shell's part, though areas use it too", async () => {
    // The navigation bar's "Back": the not-found page (loaded by the shell) shows it as much as any area's page.
    const shell = await load(`${catalog}?area=shell`);
    expect(shell.code).toContain(`\\"${generateMessageId('Back')}\\"`);
  }, 60_000);
});
