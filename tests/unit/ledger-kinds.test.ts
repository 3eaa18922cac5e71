// Every movement named: each kind of ledger entry the server can post and each asset of the ledger's own making reads
// as a real name in all six languages, on the account details, in the statement's CSV file, in the point record and
// in the console (whose catalog part must carry the names too).
import { afterAll, describe, expect, it } from 'vitest';
import { i18n, type Messages } from '@lingui/core';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { LIQUIDITY_ASSET, REGULAR_ASSET } from '../../src/api-contract/earn.ts';
import {
  ASSET_LABELS,
  LEDGER_KINDS,
  LEDGER_KIND_LABELS,
  PRACTICE_ASSET_LABEL,
  assetName,
} from '../../src/api-contract/ledger-kinds.ts';
import { POINTS } from '../../src/api-contract/rewards.ts';
import { assetLabel, kindLabel } from '../../src/features/funds/account-details-store.ts';
import { statementCsv } from '../../src/features/funds/statement-csv.ts';
import { pointKindLabel } from '../../src/features/rewards/rewards-store.ts';

type Part = { messages: Messages };
type Shell = Part & { areas: Record<string, () => Promise<Part>> };
/** A language's whole catalog, its console part, or the part of one area of the app (through the shell's loaders). */
async function catalog(locale: string, area: '' | 'console' | 'funds' | 'rewards' = ''): Promise<Messages> {
  if (area === 'console')
    return ((await import(`../../src/locales/${locale}/messages.po?area=console`)) as Part).messages;
  if (area === '') return ((await import(`../../src/locales/${locale}/messages.po`)) as Part).messages;
  const shell = (await import(`../../src/locales/${locale}/messages.po?area=shell`)) as Shell;
  return (await shell.areas[area]!()).messages;
}

afterAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

const OWN_ASSETS = [LIQUIDITY_ASSET, REGULAR_ASSET, POINTS];

describe.each(LOCALES)('in %s', (locale) => {
  it('every kind the server can post and every asset of its own has a name that is not its code', async () => {
    i18n.loadAndActivate({ locale, messages: await catalog(locale) });
    for (const kind of LEDGER_KINDS) {
      const name = kindLabel(kind);
      expect(name.trim(), `${locale} ${kind}`).not.toBe('');
      expect(name, `${locale} ${kind}`).not.toBe(kind);
      expect(name, `${locale} ${kind}`).not.toBe(LEDGER_KIND_LABELS[kind].id);
      expect(pointKindLabel(kind)).toBe(name);
    }
    for (const asset of OWN_ASSETS) {
      const name = assetLabel(asset);
      expect(name.trim(), `${locale} ${asset}`).not.toBe('');
      expect(name, `${locale} ${asset}`).not.toBe(asset);
    }
    expect(assetLabel('practice:USDT')).toContain('USDT');
    expect(assetLabel('practice:USDT')).not.toBe('practice:USDT');
    // A coin's code is its name in every language.
    expect(assetLabel('USDT')).toBe('USDT');
    expect(assetLabel('BTC')).toBe('BTC');
  });

  it("the statement's CSV file names each entry's kind and the asset in the language", async () => {
    i18n.loadAndActivate({ locale, messages: await catalog(locale) });
    const csv = statementCsv(
      {
        asset: LIQUIDITY_ASSET,
        from: '2026-11-01',
        to: '2026-11-01',
        time_zone: 'UTC',
        starts_at: '2026-11-01T00:00:00.000Z',
        ends_at: '2026-11-02T00:00:00.000Z',
        opening: '0',
        entries: [
          {
            id: 1,
            amount: '10',
            balance: '10',
            kind: 'yuebao_in',
            reference: 'yuebao:1',
            created_at: '2026-11-01T01:00:00.000Z',
          },
        ],
        closing: '10',
        next: null,
      },
      {
        locale: 'en',
        languageName: locale,
        timeZone: 'UTC',
        generatedAt: new Date('2026-11-02T00:00:00Z'),
        kindLabel,
        assetLabel,
        texts: Object.fromEntries(
          ['title', 'language', 'timeZone', 'numberFormat', 'asset', 'period', 'generatedAt', 'opening', 'closing']
            .concat(['time', 'kind', 'amount', 'balance', 'reference'])
            .map((key) => [key, key]),
        ) as never,
      },
    );
    expect(csv).toContain(`"${kindLabel('yuebao_in')}"`);
    expect(csv).toContain(`"${assetLabel(LIQUIDITY_ASSET)}"`);
    expect(csv).not.toContain('yuebao_in');
    expect(csv).not.toContain(`"${LIQUIDITY_ASSET}"`);
  });
});

it("the console's catalog part (English, Chinese, Thai) carries every name", async () => {
  const ids = [...Object.values(LEDGER_KIND_LABELS), ...Object.values(ASSET_LABELS), PRACTICE_ASSET_LABEL].map(
    (text) => text.id,
  );
  for (const locale of ['en', 'zh', 'th']) {
    const part = await catalog(locale, 'console');
    expect(
      ids.filter((id) => !(id in part)),
      locale,
    ).toEqual([]);
    i18n.loadAndActivate({ locale, messages: part });
    expect(assetName(REGULAR_ASSET, (text) => i18n._(text))).not.toBe(REGULAR_ASSET);
  }
}, 60_000);

it('the areas that show entries (account details and statement; point record) carry every name', async () => {
  for (const locale of LOCALES)
    for (const area of ['funds', 'rewards'] as const) {
      const part = await catalog(locale, area);
      const missing = Object.values(LEDGER_KIND_LABELS)
        .map((text) => text.id)
        .filter((id) => !(id in part));
      expect(missing, `${locale} ${area}`).toEqual([]);
    }
}, 60_000);
