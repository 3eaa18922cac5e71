// Which of its languages an app starts in, from a stored choice and the browser's languages: one rule for the customer
// app, its service worker, the operator console, and the server (which reads the browser's languages from a
// navigation's Accept-Language).

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
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, nth) => {
      const [tag = '', ...params] = part.split(';').map((item) => item.trim());
      const q = params.find((param) => param.startsWith('q='));
      return { tag, weight: q === undefined ? 1 : Number(q.slice(2)), nth };
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.nth - b.nth)
    .map(({ tag }) => tag);
}
