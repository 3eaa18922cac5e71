// Operator commands of what customers read, per language: the scroll notice, the
// slides' titles and station messages. Without --lang a text is the English version, what every
// language without its own shows; `--lang th` writes the Thai one. A version is written by the same
// function as the console's (domain/content-languages.ts), with its audit entry as the operator 'ops'.
import { LOCALES, type Locale } from '../../api-contract/constants.ts';
import type { ContentKind } from '../../api-contract/console-content.ts';
import { findUserByLogin } from '../domain/accounts.ts';
import { COMMAND_LINE, appendAudit } from '../domain/audit-log.ts';
import {
  NOTICE_ID,
  contentItems,
  contentVersions,
  saveContentVersion,
  visibleContent,
  type Version,
} from '../domain/content-languages.ts';
import { CONTENT_FALLBACK_LANG } from '../domain/content-pages.ts';
import { postMessage } from '../domain/messages.ts';
import { UsageError, idOf, table, type Command, type OperatorContext } from './command-kit.ts';

export const CONTENT_USAGE = `  message <all|username> "<title>" "<content>" [--lang <xx> "<title>" "<content>"]…
                                                a station message to every user or to one, in English (the
                                                fallback) and in any other language given (${LOCALES.join(' ')})
  message id=<id> --lang <xx> "<title>" "<content>"
                                                write one language's version of a message posted to all users
  notice [--lang <xx>] ["<text>"]               the scroll notice's versions, or write one (English without --lang)
  slides                                        the slides, by position
  slide <id> [--lang <xx>] "<title>"            write a slide's title in one language (English without --lang)`;

/** The language of a `--lang xx` at the start of `args`, and what follows it; English when there is none. */
export function languageOf(args: string[]): { lang: Locale; rest: string[]; given: boolean } {
  if (args[0] !== '--lang') return { lang: CONTENT_FALLBACK_LANG, rest: args, given: false };
  const lang = args[1] ?? '';
  if (!(LOCALES as readonly string[]).includes(lang))
    throw new UsageError(`--lang takes one of: ${LOCALES.join(', ')}.`);
  return { lang: lang as Locale, rest: args.slice(2), given: true };
}

/** Writes one version in its own transaction with its audit entry. */
async function writeVersion(ctx: OperatorContext, kind: ContentKind, id: string, lang: Locale, version: Version) {
  await ctx.db.transaction((tx) => saveContentVersion(tx, COMMAND_LINE, { kind, id, lang }, version, ctx.now));
}

/** "title" "content" pairs, each after a --lang xx. */
function versionsOf(args: string[]): { lang: Locale; title: string; content: string }[] {
  const out: { lang: Locale; title: string; content: string }[] = [];
  let rest = args;
  while (rest.length) {
    const { lang, rest: after, given } = languageOf(rest);
    const [title = '', content = '', ...more] = after;
    if (!given || !title.trim() || !content.trim())
      throw new UsageError('Give each other language as --lang <xx> "<title>" "<content>".');
    if (lang === CONTENT_FALLBACK_LANG || out.some((one) => one.lang === lang))
      throw new UsageError(`Give ${lang} once, and English first without --lang.`);
    out.push({ lang, title: title.trim(), content: content.trim() });
    rest = more;
  }
  return out;
}

const versionsTable = (versions: Awaited<ReturnType<typeof contentVersions>>, field: 'title' | 'body') =>
  table(
    versions.map((version) => ({ lang: version.lang, text: version.written ? version[field] : '(shows the English)' })),
    '',
  );

export const contentCommands: Record<string, Command> = {
  async message(ctx, [to, ...args]) {
    if (to?.startsWith('id=')) {
      const id = idOf(to.slice(3));
      const { lang, rest, given } = languageOf(args);
      const [title = '', content = '', ...extra] = rest;
      if (!given || !title.trim() || !content.trim() || extra.length)
        throw new UsageError('Usage: message id=<id> --lang <xx> "<title>" "<content>".');
      await writeVersion(ctx, 'message', String(id), lang, { title, body: content });
      return `Message ${id}: the ${lang} version is written.`;
    }
    const [title = '', content = '', ...others] = args;
    // Unquoted words would silently split into title and content: ask for the quotes instead.
    if (!to || !title.trim() || !content.trim() || (others.length && others[0] !== '--lang'))
      throw new UsageError(
        'Usage: message <all|username> "<title>" "<content>" (quote the title and the content; neither may be empty).',
      );
    const versions = versionsOf(others);
    const user = to === 'all' ? null : await findUserByLogin(ctx.db, to);
    if (to !== 'all' && !user) throw new UsageError(`No user "${to}".`);
    const visible = (text: { title: string; content: string }) => ({
      title: visibleContent('title', text.title),
      content: visibleContent('body', text.content),
    });
    const row = await ctx.db.transaction(async (tx) => {
      const english = visible({ title, content });
      // Every language is posted with the message, as written here: a message to one customer is not rewritten
      // afterwards (content-languages.ts), and one to everyone may have versions written later.
      const others = Object.fromEntries(versions.map((version) => [version.lang, visible(version)]));
      const posted = await postMessage(tx, { to: user?.id ?? null, ...english, versions: others }, ctx.now);
      const after = {
        to: user ? `user:${user.id}` : 'all',
        title: posted.title,
        content: posted.content,
        ...(versions.length ? { versions: others } : {}),
      };
      await appendAudit(tx, COMMAND_LINE, 'message.post', `message:${posted.id}`, { before: null, after }, ctx.now);
      return posted;
    });
    const languages = versions.length ? ` in en, ${versions.map((version) => version.lang).join(', ')}` : '';
    return `Message ${row.id} "${row.title}" posted to ${user ? `${user.username} (user ${user.id})` : 'all users'}${languages}.`;
  },

  async notice(ctx, args) {
    const { lang, rest } = languageOf(args);
    const [text, ...extra] = rest;
    if (text === undefined) return versionsTable(await contentVersions(ctx.db, 'notice', NOTICE_ID), 'body');
    if (!text.trim() || extra.length) throw new UsageError('Usage: notice [--lang <xx>] "<text>" (quote the text).');
    await writeVersion(ctx, 'notice', NOTICE_ID, lang, { title: '', body: text });
    return `The scroll notice's ${lang} version is written.`;
  },

  async slides({ db }) {
    return table(await contentItems(db, 'slide'), 'No slides.');
  },

  async slide(ctx, [id, ...args]) {
    const slideId = idOf(id);
    const { lang, rest } = languageOf(args);
    const [title = '', ...extra] = rest;
    if (!title.trim() || extra.length)
      throw new UsageError('Usage: slide <id> [--lang <xx>] "<title>" (quote the title).');
    await writeVersion(ctx, 'slide', String(slideId), lang, { title, body: '' });
    return `Slide ${slideId}: the ${lang} title is written.`;
  },
};
