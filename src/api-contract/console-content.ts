// The console's content calls, for the content role: what operators write for
// customers — the scroll notice, slides, station messages, activities, pages, and the names of lock-up products and
// blind box prizes — read side by side
// (every language's version of one item) and written one language at a time. English is the item's
// own version and what a language without one falls back to. Each write is one audit entry.
import * as v from 'valibot';
import { consoleTexts } from './console-texts.ts';
import { LOCALES } from './constants.ts';
import { get, post, returns } from './endpoint.ts';
import { texts } from './texts.ts';
import { shape } from './answers.ts';
import { visibleText } from './visible-text.ts';

/** What operators write for customers in every language: the lock-up products' and the blind box prizes' names too. */
export const CONTENT_KINDS = ['notice', 'slide', 'message', 'activity', 'page', 'lockup', 'prize'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const CONTENT_TITLE_MAX = 200;
export const CONTENT_BODY_MAX = 20_000;

const content = { console: 'content' } as const;
const kind = v.picklist(CONTENT_KINDS, texts.invalidRequest.id);
/** A record's id ('12'), the notice's 'scroll_notice' or a page's key ('faq'). */
const itemId = v.pipe(
  v.string(consoleTexts.consoleRecordNotFound.id),
  v.regex(/^[a-z0-9_]{1,32}$/, consoleTexts.consoleRecordNotFound.id),
);

/**
 * A version's title (a lock-up product's or a prize's name) as customers will read it: one line under the visible-text
 * rule (composed, spaces tidied, no invisible or direction-changing character), at most CONTENT_TITLE_MAX UTF-16 units.
 * Empty passes: whether a kind needs a title is the server's rule. The operator command is held to it too.
 */
export const contentTitle = v.pipe(visibleText(null), v.maxLength(CONTENT_TITLE_MAX, texts.invalidRequest.id));
/** A version's text: the visible-text rule with line breaks kept, at most CONTENT_BODY_MAX UTF-16 units. */
export const contentBody = v.pipe(
  visibleText(null, { lines: true }),
  v.maxLength(CONTENT_BODY_MAX, texts.invalidRequest.id),
);

export const ContentVersion = shape({
  lang: v.picklist(LOCALES),
  /** False: this language has no version and shows the English one. */
  written: v.boolean(),
  title: v.string(),
  body: v.string(),
});
export type ContentVersion = v.InferOutput<typeof ContentVersion>;

export const ContentItem = shape({ id: v.string(), title: v.string() });

/** The items of one kind, each with its English title (the notice: its text). */
export const consoleContentItems = get(
  '/console/content/items',
  v.object({ kind }),
  returns(v.array(ContentItem)),
  content,
);

/** One item's versions in every language, English first. */
export const consoleContentVersions = get(
  '/console/content/versions',
  v.object({ kind, id: itemId }),
  returns(v.array(ContentVersion)),
  content,
);

/** Writes one language's version (a slide: the title; the notice: the body); answers every language's version. */
export const consoleSaveContentVersion = post(
  '/console/content/version',
  v.object({
    kind,
    id: itemId,
    lang: v.picklist(LOCALES, texts.invalidRequest.id),
    title: v.optional(contentTitle, ''),
    body: v.optional(contentBody, ''),
  }),
  returns(v.array(ContentVersion)),
  content,
);
