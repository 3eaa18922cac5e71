// The app's translation catalogs as tests read them: src/locales/<locale>/messages.po, parsed by Lingui's PO format.
import { readFileSync } from 'node:fs';
import { formatter } from '@lingui/format-po';

/** A catalog's entries by message id (or source text): the English message and the locale's translation. */
export type Catalog = Record<string, { message?: string; translation?: string }>;

/** The catalog of `locale` ('en', 'zh', 'jp', 'ar', 'th' or 'hi'), read from the working tree. */
export const readCatalog = (locale: string): Catalog =>
  formatter().parse(readFileSync(`src/locales/${locale}/messages.po`, 'utf8'), {
    locale,
    sourceLocale: 'en',
    filename: `${locale}.po`,
  }) as Catalog;
