// Server-side translation of the API contract's texts, from the same .po catalogs the PWA uses.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupI18n, type I18n, type MessageDescriptor } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { formatter } from '@lingui/format-po';
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../api-contract/constants.ts';
import { textById as contractTextById } from '../api-contract/texts.ts';
import { noticeTexts } from '../api-contract/notifications.ts';
import { consoleTexts } from '../api-contract/console-texts.ts';
import { serverTexts } from '../api-contract/server-texts.ts';
import { chatTexts } from '../api-contract/service-chat.ts';
import { triggerTexts } from '../api-contract/contract-triggers.ts';
import { alertTexts } from '../api-contract/price-alert-met.ts';
import { exportTexts } from '../api-contract/export-texts.ts';
import { intlLocale } from '../api-contract/language-pick.ts';
import Big from 'big.js';
import { writtenValues } from '../api-contract/decimal-values.ts';
import { Period, periodText } from '../api-contract/period-text.ts';
import { isolatedRuns, leftToRightValue } from './left-to-right-values.ts';

/** The API contract's texts, the server's own, the push notifications', the operator console's, the chat's, the
 * conditional orders', the price alerts' and the data export's README (the last seven kept out of the PWA's start). */
export const textById: Record<string, MessageDescriptor> = {
  ...contractTextById,
  ...Object.fromEntries(
    [
      ...Object.values(serverTexts),
      ...Object.values(noticeTexts),
      ...Object.values(consoleTexts),
      ...Object.values(chatTexts),
      ...Object.values(triggerTexts),
      ...Object.values(alertTexts),
      ...Object.values(exportTexts),
    ].map((text) => [text.id, text]),
  ),
};

const localesDir = join(dirname(fileURLToPath(import.meta.url)), '../locales');

/** The languages written right to left: their texts keep left-to-right values in isolates (left-to-right-values.ts). */
const RIGHT_TO_LEFT: readonly Locale[] = ['ar'];

/**
 * A locale's catalog, and for a right-to-left one the names of each text's values that the translation already set in
 * a left-to-right isolate with the words beside them (isolatedRuns): by text id.
 */
interface Catalog {
  i18n: I18n;
  inRuns: Map<string, Set<string>> | null;
}

function loadCatalogs(): Record<Locale, Catalog> {
  const po = formatter();
  const entries = LOCALES.map((locale) => {
    const i18n = setupI18n();
    const content = readFileSync(join(localesDir, locale, 'messages.po'), 'utf8');
    const catalog = po.parse(content, { locale, sourceLocale: 'en', filename: `${locale}.po` }) as Record<
      string,
      { translation?: string; message?: string }
    >;
    const inRuns = RIGHT_TO_LEFT.includes(locale) ? new Map<string, Set<string>>() : null;
    const messages = Object.fromEntries(
      Object.entries(catalog)
        .filter(([id]) => id in textById)
        .map(([id, entry]) => {
          let message = entry.translation || textById[id]!.message!;
          if (inRuns) {
            const isolated = isolatedRuns(message);
            message = isolated.message;
            if (isolated.inRuns.size) inRuns.set(id, isolated.inRuns);
          }
          return [id, compileMessage(message)];
        }),
    );
    i18n.loadAndActivate({ locale, messages });
    return [locale, { i18n, inRuns }] as const;
  });
  return Object.fromEntries(entries) as Record<Locale, Catalog>;
}

let catalogs: Record<Locale, Catalog> | null = null;

/** A value that is itself one of the catalogs' texts (a status's word, "Rejected") is said in the reader's language. */
const isText = (value: unknown): value is MessageDescriptor =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { id?: unknown }).id === 'string' &&
  textById[(value as { id: string }).id] === value;

/**
 * The request's `lang` header as one of our locales, by its language subtag (BCP 47; `_` read as `-`): zh-* → zh,
 * Japanese by its standard code `ja` (ja-JP too) or the product's `jp`, unknown → th (Thai is the fallback).
 */
export function requestLocale(header: string | undefined): Locale {
  const base = (header ?? '').toLowerCase().split(/[-_]/)[0]!;
  if (base === 'ja') return 'jp';
  return LOCALES.includes(base as Locale) ? (base as Locale) : FALLBACK_LOCALE;
}

export type Translate = (text: MessageDescriptor | string, values?: Record<string, unknown>) => string;

const translators = new Map<Locale, Translate>();

/**
 * One per locale; an API contract text without values is formatted once (every answer says 'Success'). A value given
 * as a big.js decimal is written with the reader's grouping (at most 8 decimals, ASCII digits,
 * Intl formatting the decimal's string exactly): "1,000,000", in Hindi "10,00,000"; a Period in the reader's words
 * ("24 hours"); a value that is a text of the catalogs translated too ("Rejected", "已拒绝"). In Arabic (right to left)
 * a value with the left-to-right words its translation writes beside it ("{0} USDT") is one left-to-right isolate, and
 * so is a value of left-to-right words alone ("Chrome on Android"): "10 USDT" never reads "USDT 10"
 * (left-to-right-values.ts). Other languages' texts carry no direction character.
 */
export function translator(locale: Locale): Translate {
  let translate = translators.get(locale);
  if (translate) return translate;
  catalogs ??= loadCatalogs();
  const { i18n, inRuns } = catalogs[locale];
  const plain = new Map<string, string>();
  const decimals = new Intl.NumberFormat(intlLocale(locale), { maximumFractionDigits: 8, numberingSystem: 'latn' });
  // Intl formats a decimal's string exactly (a number would lose digits past 15).
  const said = (value: unknown): unknown =>
    isText(value)
      ? translate!(value)
      : value instanceof Big
        ? decimals.format(value.toFixed() as unknown as number)
        : value instanceof Period
          ? periodText(value.ms, intlLocale(locale))
          : value;
  // In a right-to-left language a value the translation wrote alone is isolated when it is left-to-right words.
  const saidIn = (id: string) => {
    if (!inRuns) return said;
    const isolatedAlready = inRuns.get(id);
    return (value: unknown, name: string) => {
      const written = said(value);
      return isolatedAlready?.has(name) ? written : leftToRightValue(written);
    };
  };
  translate = (text, values) => {
    const descriptor = typeof text === 'string' ? (textById[text] ?? { id: text, message: text }) : text;
    if (values || descriptor.values || !(descriptor.id in textById))
      return i18n._({ ...descriptor, values: values && writtenValues(values, saidIn(descriptor.id)) });
    let answer = plain.get(descriptor.id);
    if (answer === undefined) plain.set(descriptor.id, (answer = i18n._({ ...descriptor })));
    return answer;
  };
  translators.set(locale, translate);
  return translate;
}
