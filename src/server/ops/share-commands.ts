// Operator commands of the invitation permission (§5, §6) and of the pages of text (company
// profile, intro, FAQ per language). Granting and revoking name a reason; revoking tells the
// customer in a station message. None of them touches money.
import { readFileSync } from 'node:fs';
import { CONTENT_PAGE_KEYS, allowedWebViewUrl } from '../../contract/support.ts';
import { LOCALES } from '../../contract/constants.ts';
import { findUserByLogin } from '../domain/accounts.ts';
import { postMessage } from '../domain/messages.ts';
import { saveContentPage } from '../domain/content-pages.ts';
import { serviceLink, setServiceUrl, setWebViewHosts } from '../domain/service-link.ts';
import { grantInvitePermission, inviteFigures, revokeInvitePermission } from '../domain/share.ts';
import { UsageError, keyValues, reasonOf, type Command } from './command-kit.ts';

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
    const reason = reasonOf(rest).trim();
    if (action === 'grant') {
      const granted = await grantInvitePermission(db, user.id, reason, now);
      return granted
        ? `Invitation permission granted to ${user.username} (user ${user.id}): ${reason}`
        : `${user.username} already has the operator's grant; nothing changed.`;
    }
    const revoked = await revokeInvitePermission(db, user.id);
    if (!revoked) throw new UsageError(`${user.username} has no operator's grant to revoke.`);
    await postMessage(db, { to: user.id, title: 'Invitation permission withdrawn', content: reason }, now);
    const figures = await inviteFigures(db, user.id);
    const still = figures.permission ? ' Their verified primary certification still grants it.' : '';
    return `Operator's invitation grant of ${user.username} (user ${user.id}) revoked; they were told: ${reason}.${still}`;
  },

  async service({ db }, args) {
    const changes = keyValues(args, ['url', 'hosts'] as const);
    if (changes.hosts !== undefined) await setWebViewHosts(db, changes.hosts);
    if (changes.url !== undefined) await setServiceUrl(db, changes.url === 'none' ? '' : changes.url.trim());
    const { url, hosts } = await serviceLink(db);
    const opens = !url
      ? 'the service page shows the FAQ only'
      : allowedWebViewUrl(url, hosts)
        ? 'opens in the web-view'
        : 'opens in a new tab: not an https page of a listed host';
    return `Service link: ${url || 'none'} (${opens}). Web-view hosts: ${hosts.join(', ') || 'none'}.`;
  },

  async page({ db }, [key = '', lang = '', title = '', file, ...extra]) {
    if (!file || extra.length || !title.trim())
      throw new UsageError('Usage: page <about|intro|faq> <lang> "<title>" <file.txt> (quote the title).');
    const pageKey = choice(key, CONTENT_PAGE_KEYS, 'The page');
    const pageLang = choice(lang, LOCALES, 'The language');
    let body: string;
    try {
      body = readFileSync(file, 'utf8').replace(/\r\n/g, '\n').trim();
    } catch (error) {
      throw new UsageError(`Cannot read ${file} (${(error as { code?: string }).code ?? 'error'}).`);
    }
    if (!body) throw new UsageError(`${file} is empty.`);
    if (body.length > PAGE_MAX_CHARS)
      throw new UsageError(`${file} has ${body.length} characters; at most ${PAGE_MAX_CHARS}.`);
    await saveContentPage(db, { key: pageKey, lang: pageLang, title: title.trim(), body });
    return `Page ${pageKey} (${pageLang}) "${title.trim()}" saved: ${body.length} characters.`;
  },
};
