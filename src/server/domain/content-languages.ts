// Content in every language: what operators write for customers — the scroll notice, slides,
// station messages, activities, pages, and the names of lock-up products and blind box prizes —
// read in the request's language, else in English. An item's own row is its English version; the
// other languages' versions are rows of content_translations (pages keep every language in
// content_pages). The console and the operator command write a version through saveContentVersion,
// with its audit entry in the same transaction.
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import * as v from 'valibot';
import { decodeHTML } from 'entities';
import {
  contentBody,
  contentTitle,
  type ContentKind,
  type ContentVersion,
} from '../../api-contract/console-content.ts';
import { LOCALES, type Locale } from '../../api-contract/constants.ts';
import { sanitizeRichText } from '../../api-contract/rich-text.ts';
import { texts } from '../../api-contract/texts.ts';
import { hiddenCharacters, stackedMarks } from '../../api-contract/visible-text.ts';
import type { ContentPageKey } from '../../api-contract/support.ts';
import type { Executor } from '../db/connection.ts';
import {
  activities,
  boxPrizes,
  configEntries,
  contentPages,
  contentTranslations,
  lockupProducts,
  messages,
  slides,
} from '../db/schema.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { CONTENT_FALLBACK_LANG } from './content-pages.ts';
import { Refusal, type TextId } from './refusal.ts';

/** What a version says: a title and a body (a slide has only a title, the notice only a body). */
export interface Version {
  title: string;
  body: string;
}

/** The config entries customers read in their language, as 'act.key'. */
export const TRANSLATED_CONFIG = ['system.scroll_notice'] as const;
/** The notice's id in the console and the command. */
export const NOTICE_ID = 'scroll_notice';
const NOTICE_ITEM = 'system.scroll_notice';

/** The versions of `items` of one kind in `lang`, by item; none for English (the items' own rows). */
export async function versionsIn(
  db: Executor,
  kind: string,
  items: readonly string[],
  lang: string,
): Promise<Map<string, Version>> {
  if (lang === CONTENT_FALLBACK_LANG || items.length === 0) return new Map();
  const rows = await db
    .select()
    .from(contentTranslations)
    .where(
      and(
        eq(contentTranslations.kind, kind),
        eq(contentTranslations.lang, lang),
        inArray(contentTranslations.item, [...new Set(items)]),
      ),
    );
  return new Map(rows.map((row) => [row.item, { title: row.title, body: row.body }]));
}

/** A group's config entries with the translated ones in `lang` (the English value where it has none). */
export async function configEntriesIn(db: Executor, act: string, lang: string) {
  const rows = await db.select().from(configEntries).where(eq(configEntries.act, act));
  const versions = await versionsIn(
    db,
    'config',
    rows
      .map((row) => `${row.act}.${row.key}`)
      .filter((item) => (TRANSLATED_CONFIG as readonly string[]).includes(item)),
    lang,
  );
  return rows.map((row) => ({ ...row, value: versions.get(`${row.act}.${row.key}`)?.body ?? row.value }));
}

/** The active slides of a position, titles in `lang`. */
export async function activeSlidesIn(db: Executor, position: string, lang: string) {
  const rows = await db
    .select()
    .from(slides)
    .where(and(eq(slides.position, position), eq(slides.active, true)))
    .orderBy(asc(slides.sort), asc(slides.id));
  const versions = await versionsIn(
    db,
    'slide',
    rows.map((row) => String(row.id)),
    lang,
  );
  return rows.map((row) => ({ ...row, title: versions.get(String(row.id))?.title || row.title }));
}

/**
 * Rows naming what operators named (a lock-up product, a blind box prize, or what refers to one: an order, a draw) with
 * the name at `key` in `lang` where the item `idOf(row)` has a version, else as kept (English, or the name an order or
 * draw kept when it was made).
 */
export async function namedIn<R, K extends keyof R & string>(
  db: Executor,
  kind: 'lockup' | 'prize',
  rows: R[],
  key: K,
  idOf: (row: R) => number,
  lang: string,
): Promise<R[]> {
  const versions = await versionsIn(
    db,
    kind,
    rows.map((row) => String(idOf(row))),
    lang,
  );
  return rows.map((row) => {
    const name = versions.get(String(idOf(row)))?.title;
    return name ? { ...row, [key]: name } : row;
  });
}

/** Rows of a kind with their title and body (or content) in `lang`; a version's empty field keeps the English one. */
export async function inLanguage<R extends { id: number; title: string }>(
  db: Executor,
  kind: 'message' | 'activity',
  rows: R[],
  lang: string,
  bodyKey: keyof R & string,
): Promise<R[]> {
  const versions = await versionsIn(
    db,
    kind,
    rows.map((row) => String(row.id)),
    lang,
  );
  return rows.map((row) => {
    const version = versions.get(String(row.id));
    return version ? { ...row, title: version.title || row.title, [bodyKey]: version.body || row[bodyKey] } : row;
  });
}

const notFound = () => new Refusal(consoleTexts.consoleRecordNotFound.id);
const numericId = (id: string) => {
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  return Number(id);
};

/** An item's English version (its own row), or a refusal when there is no such item. */
async function englishOf(db: Executor, kind: ContentKind, id: string): Promise<Version> {
  if (kind === 'notice') {
    if (id !== NOTICE_ID) throw notFound();
    const [row] = await db
      .select()
      .from(configEntries)
      .where(and(eq(configEntries.act, 'system'), eq(configEntries.key, NOTICE_ID)));
    return { title: '', body: row?.value ?? '' };
  }
  if (kind === 'page') {
    const [row] = await db
      .select()
      .from(contentPages)
      .where(and(eq(contentPages.key, id), eq(contentPages.lang, CONTENT_FALLBACK_LANG)));
    if (!row) throw notFound();
    return { title: row.title, body: row.body };
  }
  if (kind === 'lockup' || kind === 'prize') {
    const table = kind === 'lockup' ? lockupProducts : boxPrizes;
    const [row] = await db
      .select({ name: table.name })
      .from(table)
      .where(eq(table.id, numericId(id)));
    if (!row) throw notFound();
    return { title: row.name, body: '' };
  }
  if (kind === 'message') {
    // A message to everyone only: one addressed to a customer is theirs as posted (a security notice carries their
    // anti-phishing code), neither shown to content operators nor rewritten; a correction is a new message.
    const [row] = await db
      .select({ title: messages.title, content: messages.content })
      .from(messages)
      .where(and(eq(messages.id, numericId(id)), isNull(messages.userId)));
    if (!row) throw notFound();
    return { title: row.title, body: row.content };
  }
  const table = { slide: slides, activity: activities }[kind];
  const [row] = await db
    .select()
    .from(table)
    .where(eq(table.id, numericId(id)));
  if (!row) throw notFound();
  return { title: row.title, body: 'body' in row ? row.body : '' };
}

/** Every language's version of one item, side by side: English first, `written` false where a language falls back. */
export async function contentVersions(db: Executor, kind: ContentKind, id: string): Promise<ContentVersion[]> {
  const english = await englishOf(db, kind, id);
  const others =
    kind === 'page'
      ? (await db.select().from(contentPages).where(eq(contentPages.key, id))).map((row) => ({
          lang: row.lang,
          title: row.title,
          body: row.body,
        }))
      : await db
          .select({ lang: contentTranslations.lang, title: contentTranslations.title, body: contentTranslations.body })
          .from(contentTranslations)
          .where(and(eq(contentTranslations.kind, itemKind(kind)), eq(contentTranslations.item, itemOf(kind, id))));
  return LOCALES.map((lang) => {
    if (lang === CONTENT_FALLBACK_LANG) return { lang, written: true, ...english };
    const version = others.find((row) => row.lang === lang);
    return version
      ? { lang, written: true, title: version.title, body: version.body }
      : { lang, written: false, title: '', body: '' };
  });
}

const itemKind = (kind: ContentKind) => (kind === 'notice' ? 'config' : kind);
const itemOf = (kind: ContentKind, id: string) => (kind === 'notice' ? NOTICE_ITEM : id);

/**
 * A title (`'title'`, one line) or a text (`'body'`, line breaks kept) as customers will read it, under the API
 * contract's rule for content (`contentTitle`, `contentBody`: composed, tidied, no invisible or direction-changing
 * character). The console's call is checked by the contract already; every other way in (the operator command, a
 * message's or an activity's English) comes through here.
 * Throws a Refusal with the rule's text ("Please remove invisible or direction-changing characters!").
 */
export function visibleContent(field: 'title' | 'body', text: string): string {
  const checked = v.safeParse(field === 'title' ? contentTitle : contentBody, text);
  if (!checked.success) throw new Refusal(checked.issues[0].message as TextId);
  return checked.output;
}

/**
 * Rich text (an activity's body) as it is kept: sanitised (api-contract/rich-text.ts) and held to the visible-text rule
 * as a browser will show it, with its character references decoded by HTML's whole table (the entities library, a
 * browser's own table: `&zwj;`, `&#x202E;` or `&rlm;` are the characters they name once shown), in text and attributes
 * alike. Throws the rule's Refusal ("Please remove invisible or direction-changing characters!", or texts.stackedMarks
 * for more than 30 combining marks in a row).
 */
export function visibleRichText(html: string): string {
  const kept = sanitizeRichText(visibleContent('body', html));
  const shown = decodeHTML(kept);
  if (hiddenCharacters(shown, { lines: true }).length) throw new Refusal(texts.hiddenCharacters.id);
  if (stackedMarks(shown)) throw new Refusal(texts.stackedMarks.id);
  return kept;
}

/**
 * A version as it is kept: title and text under the visible-text rule (no invisible or direction-changing character
 * reaches a customer), an activity's body sanitised, the notice's text one line, fields a kind has not emptied.
 */
function keptVersion(kind: ContentKind, version: Version): Version {
  const titleOnly = kind === 'slide' || kind === 'lockup' || kind === 'prize';
  const title = kind === 'notice' ? '' : visibleContent('title', version.title);
  const body = titleOnly
    ? ''
    : kind === 'activity'
      ? visibleRichText(version.body)
      : kind === 'notice'
        ? // One line that scrolls by: a line break or a tab is a space there, so it is kept as the space shown.
          visibleContent('body', version.body).replace(/\s+/gu, ' ')
        : visibleContent('body', version.body);
  if ((kind !== 'notice' && !title) || (!titleOnly && !body.trim()))
    throw new Refusal(consoleTexts.consoleContentIncomplete.id);
  return { title, body };
}

/**
 * Writes one language's version of an item (English: the item's own row, the fallback of the others)
 * and appends the audit entry, both in `tx`. Answers every language's version afterwards.
 */
export async function saveContentVersion(
  tx: Executor,
  actor: Actor,
  target: { kind: ContentKind; id: string; lang: Locale },
  version: Version,
  now: Date,
): Promise<ContentVersion[]> {
  const { kind, id, lang } = target;
  const before = await contentVersions(tx, kind, id);
  const kept = keptVersion(kind, version);
  // The English name is the one a prize table is written with (blindbox.ts parsePrizeTable): it must read back.
  if (kind === 'prize' && lang === CONTENT_FALLBACK_LANG && /[:;]/.test(kept.title))
    throw new Refusal(consoleTexts.consolePrizeNameMarks.id);
  if (kind === 'page') {
    await tx
      .insert(contentPages)
      .values({ key: id as ContentPageKey, lang, ...kept })
      .onConflictDoUpdate({ target: [contentPages.key, contentPages.lang], set: kept });
  } else if (lang !== CONTENT_FALLBACK_LANG) {
    await tx
      .insert(contentTranslations)
      .values({ kind: itemKind(kind), item: itemOf(kind, id), lang, ...kept })
      .onConflictDoUpdate({
        target: [contentTranslations.kind, contentTranslations.item, contentTranslations.lang],
        set: kept,
      });
  } else if (kind === 'notice') {
    await tx
      .insert(configEntries)
      .values({ act: 'system', key: NOTICE_ID, value: kept.body })
      .onConflictDoUpdate({ target: [configEntries.act, configEntries.key], set: { value: kept.body } });
  } else if (kind === 'slide') {
    await tx
      .update(slides)
      .set({ title: kept.title })
      .where(eq(slides.id, Number(id)));
  } else if (kind === 'lockup' || kind === 'prize') {
    const table = kind === 'lockup' ? lockupProducts : boxPrizes;
    await tx
      .update(table)
      .set({ name: kept.title })
      .where(eq(table.id, Number(id)));
  } else if (kind === 'message') {
    await tx
      .update(messages)
      .set({ title: kept.title, content: kept.body })
      .where(eq(messages.id, Number(id)));
  } else {
    await tx
      .update(activities)
      .set({ title: kept.title, body: kept.body })
      .where(eq(activities.id, Number(id)));
  }
  const after = await contentVersions(tx, kind, id);
  const pick = (versions: ContentVersion[]) => versions.find((one) => one.lang === lang) ?? null;
  await appendAudit(
    tx,
    actor,
    'content.version',
    `${kind}:${id}:${lang}`,
    { before: pick(before), after: pick(after) },
    now,
  );
  return after;
}

/** The items of a kind an operator can write versions of, with their English title (or text), newest messages first. */
export async function contentItems(db: Executor, kind: ContentKind): Promise<{ id: string; title: string }[]> {
  if (kind === 'notice') return [{ id: NOTICE_ID, title: (await englishOf(db, 'notice', NOTICE_ID)).body }];
  if (kind === 'page') {
    const rows = await db
      .select()
      .from(contentPages)
      .where(eq(contentPages.lang, CONTENT_FALLBACK_LANG))
      .orderBy(asc(contentPages.key));
    return rows.map((row) => ({ id: row.key, title: row.title }));
  }
  if (kind === 'slide')
    return (await db.select().from(slides).orderBy(asc(slides.position), asc(slides.sort), asc(slides.id))).map(
      (row) => ({ id: String(row.id), title: row.title }),
    );
  if (kind === 'activity')
    return (await db.select().from(activities).orderBy(asc(activities.sort), asc(activities.id))).map((row) => ({
      id: String(row.id),
      title: row.title,
    }));
  if (kind === 'lockup')
    return (await db.select().from(lockupProducts).orderBy(asc(lockupProducts.sort), asc(lockupProducts.id))).map(
      (row) => ({ id: String(row.id), title: row.name }),
    );
  // The prizes of the table in force (a table published later carries the versions of the names it keeps).
  if (kind === 'prize')
    return (
      await db
        .select()
        .from(boxPrizes)
        .where(eq(boxPrizes.active, true))
        .orderBy(asc(boxPrizes.sort), asc(boxPrizes.id))
    ).map((row) => ({ id: String(row.id), title: row.name }));
  // Station messages to everyone, the latest first: one addressed to a customer is theirs alone (englishOf).
  return (await db.select().from(messages).where(isNull(messages.userId)).orderBy(desc(messages.id)).limit(100)).map(
    (row) => ({
      id: String(row.id),
      title: row.title,
    }),
  );
}
