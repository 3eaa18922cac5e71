// @vitest-environment jsdom
// The app's language: stored choice, else the browser's, else Thai; zh for the lang header; jp is ja for Intl.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@lingui/core';
import {
  activateLocale,
  currentLocale,
  loadAreaMessages,
  intlLocale,
  isLocale,
  isRightToLeft,
  pickLocale,
  requestLanguage,
  warmIntl,
} from '../../src/lib/i18n.ts';
import { FALLBACK_LOCALE, LOCALES } from '../../src/api-contract/constants.ts';
import { startIntlWarm } from '../../src/lib/intl-formats.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { consoleTexts } from '../../src/api-contract/console-texts.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { exportTexts } from '../../src/api-contract/export-texts.ts';

afterEach(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  document.documentElement.lang = '';
  document.documentElement.dir = '';
});

describe('pickLocale', () => {
  it('the stored choice wins over the browser', () => {
    expect(pickLocale('ar', ['zh-CN', 'en-US'])).toBe('ar');
    expect(pickLocale('en', ['ja-JP'])).toBe('en');
  });

  it('a stored value that is not a locale is ignored', () => {
    expect(pickLocale('xx' as never, ['en-GB'])).toBe('en');
  });

  it('maps browser tags to app locales', () => {
    expect(pickLocale(null, ['ja-JP'])).toBe('jp');
    expect(pickLocale(null, ['ja'])).toBe('jp');
    expect(pickLocale(null, ['zh-TW'])).toBe('zh');
    expect(pickLocale(null, ['zh-Hans-CN'])).toBe('zh');
    expect(pickLocale(null, ['EN-us'])).toBe('en');
    expect(pickLocale(null, ['hi-IN'])).toBe('hi');
  });

  it('takes the first browser language the app has', () => {
    expect(pickLocale(null, ['de-DE', 'fr', 'ja-JP', 'en'])).toBe('jp');
  });

  it('falls back to Thai', () => {
    expect(FALLBACK_LOCALE).toBe('th');
    expect(pickLocale(null, ['de'])).toBe('th');
    expect(pickLocale(null, [])).toBe('th');
  });
});

describe('requestLanguage and intlLocale', () => {
  it("any Chinese tag asks the server for 'zh'", () => {
    expect(requestLanguage('zh-CN')).toBe('zh');
    expect(requestLanguage('zh-TW')).toBe('zh');
    expect(requestLanguage('zh')).toBe('zh');
  });

  it('other locales are sent as they are', () => {
    expect(requestLanguage('en')).toBe('en');
    expect(requestLanguage('jp')).toBe('jp');
    expect(requestLanguage('th')).toBe('th');
  });

  it("'jp' is 'ja' for Intl; the others are unchanged", () => {
    expect(intlLocale('jp')).toBe('ja');
    for (const locale of LOCALES.filter((l) => l !== 'jp')) expect(intlLocale(locale)).toBe(locale);
  });

  it('only ar is right to left', () => {
    expect(LOCALES.filter(isRightToLeft)).toEqual(['ar']);
  });

  it('isLocale knows the six locales', () => {
    expect(LOCALES).toEqual(['en', 'zh', 'th', 'jp', 'ar', 'hi']);
    expect(isLocale('jp')).toBe(true);
    expect(isLocale('ja')).toBe(false);
  });
});

describe('the active locale', () => {
  it('currentLocale follows Lingui, else falls back to Thai', () => {
    expect(currentLocale()).toBe('en');
    i18n.loadAndActivate({ locale: 'de', messages: {} });
    expect(currentLocale()).toBe('th');
  });

  it('activateLocale sets lang (ja for jp) and dir (rtl for ar)', async () => {
    await activateLocale('jp');
    expect(i18n.locale).toBe('jp');
    expect(document.documentElement.lang).toBe('ja');
    expect(document.documentElement.dir).toBe('ltr');
    await activateLocale('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
  });
});

describe('catalogs in parts (src/build/catalogs-by-area.ts)', () => {
  type Part = { messages: Record<string, unknown> };
  type Shell = Part & { areas: Record<string, () => Promise<Part>> };

  it("the shell part and the parts of the areas hold every text the app names, the shell's once", async () => {
    // What the app's code names, read from the sources (outside the server): an API contract text by
    // `texts.key` or its key as a string.
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('server') && file !== join('api-contract', 'texts.ts'))
      .map((file) => readFileSync(join('src', file), 'utf8'))
      .join('\n');
    const keyOf = new Map<string, string>(Object.entries(texts).map(([key, text]) => [text.id, key]));
    // The server's own texts, the data export's README and the operator console's (api-contract/server-texts.ts,
    // export-texts.ts, console-texts.ts): the server translates them; the app never names them.
    const serverOnlyIds = new Set<string>(
      [...Object.values(serverTexts), ...Object.values(exportTexts), ...Object.values(consoleTexts)].map(
        (text) => text.id,
      ),
    );
    const named = (key: string) => new RegExp(`\\btexts\\.${key}\\b|'${key}'`).test(sources);
    for (const locale of LOCALES) {
      const whole = (await import(`../../src/locales/${locale}/messages.po`)) as Part;
      const shell = (await import(`../../src/locales/${locale}/messages.po?area=shell`)) as Shell;
      const parts = await Promise.all(Object.values(shell.areas).map((load) => load()));
      const shellIds = Object.keys(shell.messages);
      const areaIds = new Set(parts.flatMap((part) => Object.keys(part.messages)));
      expect(areaIds.size).toBeGreaterThan(0);
      expect(
        shellIds.filter((id) => areaIds.has(id)),
        locale,
      ).toEqual([]);
      // The operator console's part (its own build, src/build/console-text.ts): its texts, which the app never loads.
      const consolePart = (await import(`../../src/locales/${locale}/messages.po?area=console`)) as Part;
      const consoleIds = new Set(Object.keys(consolePart.messages));
      for (const text of Object.values(consoleTexts))
        expect(consoleIds.has(text.id), `${locale} ${text.id}`).toBe(true);
      // Left out: only API contract texts no code of the app names (answers the server translates), and the console's
      // own.
      const left = Object.keys(whole.messages).filter(
        (id) => !shellIds.includes(id) && !areaIds.has(id) && !consoleIds.has(id),
      );
      expect(
        left.filter((id) => !serverOnlyIds.has(id) && (!keyOf.has(id) || named(keyOf.get(id)!))),
        locale,
      ).toEqual([]);
      // The data export's README (one text per column of the archive) is left out as a whole: not counted here.
      const readmeIds = new Set<string>(Object.values(exportTexts).map((text) => text.id));
      expect(left.filter((id) => !readmeIds.has(id)).length).toBeLessThan(Object.keys(texts).length);
    }
  }, 120_000);

  it('the shell part holds the texts of the start and few others', async () => {
    const locale = 'en';
    const shell = (await import(`../../src/locales/${locale}/messages.po?area=shell`)) as Shell;
    const ids = Object.keys(shell.messages);
    expect(ids).toEqual(
      expect.arrayContaining([texts.loading.id, texts.pageLoadFailed.id, texts.http500.id, texts.updateToLatest.id]),
    );
    expect(ids).not.toContain(texts.loginPasswordFormat.id);
    expect(ids.length).toBeLessThan(60);
  });

  it("a page's area adds its texts to the active language", async () => {
    await activateLocale('th');
    const atStart = Object.keys(i18n.messages).length;
    await loadAreaMessages('home');
    expect(i18n.locale).toBe('th');
    expect(Object.keys(i18n.messages).length).toBeGreaterThan(atStart);
  });

  it('every page of the route table brings the texts of its own folder', () => {
    const table = readFileSync('src/app/routes.ts', 'utf8');
    const pages = [...table.matchAll(/page\(\s*'([^']+)',\s*\(\)\s*=>\s*import\('\.\.\/features\/([^/]+)\//g)];
    expect(pages.length).toBe((table.match(/import\('/g) ?? []).length);
    for (const [, area, folder] of pages) expect(area).toBe(folder);
  });
});

describe('warmIntl', () => {
  it("starts a worker named after the app language's Intl tag (jp is ja), which formats a number and a date in it", async () => {
    const started: { url: string; options: WorkerOptions | undefined }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor(url: URL, options?: WorkerOptions) {
          started.push({ url: String(url), options });
        }
      },
    );
    try {
      warmIntl('jp');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(started).toHaveLength(1);
    expect(started[0]!.url).toMatch(/\/src\/lib\/intl-warm\.ts(\?|$)/);
    expect(started[0]!.options).toEqual({ type: 'module', name: 'ja' });

    const { NumberFormat, DateTimeFormat } = Intl;
    const made: unknown[] = [];
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof NumberFormat>) {
        super(...args);
        made.push(['number', args[0]]);
      }
    } as typeof NumberFormat;
    Intl.DateTimeFormat = class extends DateTimeFormat {
      constructor(...args: ConstructorParameters<typeof DateTimeFormat>) {
        super(...args);
        made.push(['date', args[0]]);
      }
    } as typeof DateTimeFormat;
    try {
      const { warmFormats } = await import('../../src/lib/intl-formats.ts');
      warmFormats('ja');
    } finally {
      Object.assign(Intl, { NumberFormat, DateTimeFormat });
    }
    expect(made).toEqual([
      ['number', 'ja'],
      ['date', 'ja'],
    ]);
  });

  it("starts none for a language this page's first screen already warmed, and one for another language", () => {
    const names: (string | undefined)[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor(_url: URL, options?: WorkerOptions) {
          names.push(options?.name);
        }
      },
    );
    try {
      // What the first screen's script does on a signed-in start, before the app's code arrives.
      startIntlWarm('th', (name) => new Worker('/assets/intl-warm.js', { type: 'module', name }));
      warmIntl('th');
      warmIntl('ar');
      warmIntl('ar');
    } finally {
      vi.unstubAllGlobals();
      delete document.documentElement.dataset.intlWarm;
    }
    expect(names).toEqual(['th', 'ar']);
  });

  it('does nothing where there is no worker', () => {
    vi.stubGlobal('Worker', undefined);
    try {
      expect(() => warmIntl('en')).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
