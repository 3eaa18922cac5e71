// Operator commands of the invitation permission (sharing needs it) and of the pages of text (company
// profile, intro, FAQ per language). Granting and revoking name a reason; revoking tells the
// customer in a station message. None of them touches money; each change is an audit entry of
// the operator 'ops'.
import { CONTENT_PAGE_KEYS, allowedWebViewUrl } from '../../api-contract/support.ts';
import { LOCALES } from '../../api-contract/constants.ts';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { contentPages } from '../db/schema.ts';
import { findUserByLogin } from '../domain/accounts.ts';
import { COMMAND_LINE, appendAudit } from '../domain/audit-log.ts';
import { postMessage } from '../domain/messages.ts';
import { requireReason } from '../domain/reviews.ts';
import { saveContentPage } from '../domain/content-pages.ts';
import { visibleContent } from '../domain/content-languages.ts';
import { serviceLink, setServiceUrl, setWebViewHosts } from '../domain/service-link.ts';
import { grantInvitePermission, inviteFigures, revokeInvitePermission } from '../domain/share.ts';
import { UsageError, keyValues, readTextFile, reasonOf, type Command } from './command-kit.ts';

function choice<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${what}: use one of ${allowed.join(', ')}.`);
  return value as T;
}

export const SHARE_USAGE = `  invite grant <username> "<reason>"           activate the invitation permission (a verified primary
                                                certification activates it too)
  invite revoke <username> "<reason>"          withdraw the operator's grant; the customer sees the reason
  invite show <username>                        the permission, why, and the people invited
  page <about|intro|faq> <en|zh|th|jp|ar|hi> "<title>" <file.txt>
                                                replace a page of text in one language (plain text, blank
                                                lines between paragraphs; FAQ: a question line, then its answer)
  service [url=<https://…>|url=none] [hosts=<host,host>]
                                                show or set the customer service link and the hosts the web-view
                                                may open (https only; the link opens in the web-view when its host
                                                is listed, else in a new tab)`;

/** The longest page of text accepted. */
const PAGE_MAX_CHARS = 20_000;

export const shareCommands: Record<string, Command> = {
  async invite({ db, now }, [action = '', login, ...rest]) {
    choice(action, ['grant', 'revoke', 'show'] as const, 'invite');
    const user = login ? await findUserByLogin(db, login) : undefined;
    if (!user)
      throw new UsageError(login ? `No user "${login}".` : 'Name the user: invite <grant|revoke|show> <username> …');
    if (action === 'show') {
      if (rest.length) throw new UsageError('Usage: invite show <username>');
      const figures = await inviteFigures(db, user.id);
      const why = [
        figures.grantedBy.certification && 'primary certification verified',
        figures.grantedBy.operator && 'granted by the operator',
      ]
        .filter(Boolean)
        .join(', ');
      return `${user.username} (user ${user.id}), code ${figures.code}: invitation permission ${figures.permission ? `active (${why})` : 'not active'}; invited ${figures.invited}, certified ${figures.certified}.`;
    }
    // A rejection's rule (the console's): a revocation's reason reaches the customer in a station message.
    const reason = requireReason(reasonOf(rest));
    // Each change is audited (operator 'ops') in its own transaction: the permission before and after.
    const permission = async (tx: Executor) => (await inviteFigures(tx, user.id)).grantedBy;
    if (action === 'grant') {
      const granted = await db.transaction(async (tx) => {
        const before = await permission(tx);
        if (!(await grantInvitePermission(tx, user.id, reason, now))) return false;
        const change = { before, after: { ...(await permission(tx)), reason } };
        await appendAudit(tx, COMMAND_LINE, 'invite.grant', `user:${user.id}`, change, now);
        return true;
      });
      return granted
        ? `Invitation permission granted to ${user.username} (user ${user.id}): ${reason}`
        : `${user.username} already has the operator's grant; nothing changed.`;
    }
    const revoked = await db.transaction(async (tx) => {
      const before = await permission(tx);
      if (!(await revokeInvitePermission(tx, user.id))) return false;
      await postMessage(tx, { to: user.id, title: 'Invitation permission withdrawn', content: reason }, now);
      const change = { before, after: { ...(await permission(tx)), reason } };
      await appendAudit(tx, COMMAND_LINE, 'invite.revoke', `user:${user.id}`, change, now);
      return true;
    });
    if (!revoked) throw new UsageError(`${user.username} has no operator's grant to revoke.`);
    const figures = await inviteFigures(db, user.id);
    const still = figures.permission ? ' Their verified primary certification still grants it.' : '';
    return `Operator's invitation grant of ${user.username} (user ${user.id}) revoked; they were told: ${reason}.${still}`;
  },

  async service({ db, now }, args) {
    const changes = keyValues(args, ['url', 'hosts'] as const);
    if (changes.hosts !== undefined || changes.url !== undefined)
      await db.transaction(async (tx) => {
        const before = await serviceLink(tx);
        if (changes.hosts !== undefined) await setWebViewHosts(tx, changes.hosts);
        if (changes.url !== undefined) await setServiceUrl(tx, changes.url === 'none' ? '' : changes.url.trim());
        const change = { before, after: await serviceLink(tx) };
        await appendAudit(tx, COMMAND_LINE, 'service.link', 'service-link', change, now);
      });
    const { url, hosts } = await serviceLink(db);
    const opens = !url
      ? 'the service page shows the FAQ only'
      : allowedWebViewUrl(url, hosts)
        ? 'opens in the web-view'
        : 'opens in a new tab: not an https page of a listed host';
    return `Service link: ${url || 'none'} (${opens}). Web-view hosts: ${hosts.join(', ') || 'none'}.`;
  },

  async page({ db, now }, [key = '', lang = '', title = '', file, ...extra]) {
    if (!file || extra.length || !title.trim())
      throw new UsageError('Usage: page <about|intro|faq> <lang> "<title>" <file.txt> (quote the title).');
    const pageKey = choice(key, CONTENT_PAGE_KEYS, 'The page');
    const pageLang = choice(lang, LOCALES, 'The language');
    let body: string;
    try {
      body = readTextFile(file).replace(/\r\n/g, '\n').trim();
    } catch (error) {
      throw new UsageError(`Cannot read ${file} (${(error as { code?: string }).code ?? 'error'}).`);
    }
    if (!body) throw new UsageError(`${file} is empty.`);
    if (body.length > PAGE_MAX_CHARS)
      throw new UsageError(`${file} has ${body.length} characters; at most ${PAGE_MAX_CHARS}.`);
    // What customers read: the visible-text rule, as on the Content page (it refuses in English here).
    const page = { title: visibleContent('title', title), body: visibleContent('body', body) };
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ title: contentPages.title, body: contentPages.body })
        .from(contentPages)
        .where(and(eq(contentPages.key, pageKey), eq(contentPages.lang, pageLang)));
      await saveContentPage(tx, { key: pageKey, lang: pageLang, ...page });
      const change = { before: before ?? null, after: page };
      await appendAudit(tx, COMMAND_LINE, 'page.save', `page:${pageKey}:${pageLang}`, change, now);
    });
    return `Page ${pageKey} (${pageLang}) "${page.title}" saved: ${page.body.length} characters.`;
  },
};
