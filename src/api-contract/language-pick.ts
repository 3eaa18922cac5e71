// Which of its languages an app starts in, from a stored choice and the browser's languages: one rule for the customer
// app, its service worker, the operator console, and the server (which reads the browser's languages from a
// navigation's Accept-Language).
import { acceptHeader } from './accept-header.ts';
import type { Locale } from './constants.ts';

/** The language tag Intl and the `lang` attribute understand for one of the app's locales (the product's `jp` is
 * BCP 47's `ja`). */
export const intlLocale = (locale: Locale): string => (locale === 'jp' ? 'ja' : locale);

/**
 * The language a visit starts in: the stored choice if it is one of `locales`, else the first of the
 * browser's languages that is (by its base tag, any case: zh-Hant-TW is zh; the browser's ja is the
 * app's jp), else `fallback`.
 */
export function pickLanguage<L extends string>(
  locales: readonly L[],
  fallback: L,
  stored: unknown,
  browserLanguages: readonly string[],
): L {
  const known = (value: unknown): value is L => locales.includes(value as L);
  if (known(stored)) return stored;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    const locale = base === 'ja' ? 'jp' : base;
    if (known(locale)) return locale;
  }
  return fallback;
}

/** The languages of an Accept-Language header, most wanted first (as the browser's `navigator.languages`). */
export const acceptedLanguages = (header: string | undefined): string[] =>
  acceptHeader(header)
    .filter(({ token, weight }) => token !== '*' && weight > 0)
    .map(({ token }) => token);
