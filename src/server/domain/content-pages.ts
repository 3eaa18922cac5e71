// Pages of text by key and language (company profile, intro, FAQ): the request language's
// version, else English.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { and, eq, inArray } from 'drizzle-orm';
import type { ContentPage, ContentPageKey } from '../../api-contract/support.ts';
import type { Executor } from '../db/connection.ts';
import { contentPages } from '../db/schema.ts';
import { Refusal } from './refusal.ts';

/** The language every page must have: what any other language falls back to. */
export const CONTENT_FALLBACK_LANG = 'en';

export async function contentPageFor(db: Executor, key: ContentPageKey, lang: string): Promise<ContentPage> {
  const rows = await db
    .select()
    .from(contentPages)
    .where(and(eq(contentPages.key, key), inArray(contentPages.lang, [...new Set([lang, CONTENT_FALLBACK_LANG])])));
  const row = rows.find((page) => page.lang === lang) ?? rows.find((page) => page.lang === CONTENT_FALLBACK_LANG);
  if (!row) throw new Refusal(serverTexts.contentPageMissing.id);
  return { key, lang: row.lang, title: row.title, body: row.body };
}

/** Writes one page in one language (the operator's `page` command), replacing what was there. */
export async function saveContentPage(
  db: Executor,
  page: { key: ContentPageKey; lang: string; title: string; body: string },
): Promise<void> {
  await db
    .insert(contentPages)
    .values(page)
    .onConflictDoUpdate({ target: [contentPages.key, contentPages.lang], set: { title: page.title, body: page.body } });
}
