// The station messages that tell a customer their account's security changed, so a change they did not make is
// noticed while it can still be undone: a new device signed in, a passkey added or removed, the login password
// changed or reset, the payment password set or changed, two-factor turned on or off, new recovery codes, the phone
// or e-mail changed. Each says when, in a time every reader can place, and what to do if it was not them; in every
// language, each customer reading it in theirs.
// The customer's anti-phishing code, when they set one, stands in a fixed place of every such notice:
// its first line, `🛡 Your anti-phishing code: …` (api-contract/anti-phishing-line.ts), the notice's own text
// below it. The line is written with the notice, so it shows the code the customer had then.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { antiPhishingLine } from '../../api-contract/anti-phishing-line.ts';
import type { MessageDescriptor } from '@lingui/core';
import type { Executor } from '../db/connection.ts';
import { translator, type Translate } from '../i18n.ts';
import { postMessage, type MessageText } from './messages.ts';
import { LOCALES } from '../../api-contract/constants.ts';
import { CONTENT_FALLBACK_LANG } from './content-pages.ts';
import { antiPhishingCodeOf } from './anti-phishing.ts';
import { enqueue } from './delivery.ts';
import type { Locale } from '../../api-contract/constants.ts';

/** '2026-11-22 08:00 UTC': a moment every reader can place, whatever their zone. */
export const utcMinute = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export type SecurityChange =
  | 'password'
  | 'payPasswordSet'
  | 'payPasswordChanged'
  | 'twoFactorOn'
  | 'twoFactorOff'
  | 'recoveryCodes'
  | 'passkeyRemoved'
  | 'phone'
  | 'email'
  | 'addressLockOn'
  | 'addressLockOffAsked'
  | 'addressLockOff'
  | 'antiPhishingSet'
  | 'antiPhishingRemoved';

const notices: Record<SecurityChange, { title: MessageDescriptor; content: MessageDescriptor }> = {
  password: { title: serverTexts.passwordChangedTitle, content: serverTexts.passwordChanged },
  payPasswordSet: { title: serverTexts.payPasswordSetTitle, content: serverTexts.payPasswordSet },
  payPasswordChanged: { title: serverTexts.payPasswordChangedTitle, content: serverTexts.payPasswordChanged },
  twoFactorOn: { title: serverTexts.twoFactorOnTitle, content: serverTexts.twoFactorOn },
  twoFactorOff: { title: serverTexts.twoFactorOffTitle, content: serverTexts.twoFactorOff },
  recoveryCodes: { title: serverTexts.recoveryCodesRenewedTitle, content: serverTexts.recoveryCodesRenewed },
  passkeyRemoved: { title: serverTexts.passkeyRemovedTitle, content: serverTexts.passkeyRemoved },
  phone: { title: serverTexts.contactChangedTitle, content: serverTexts.phoneChanged },
  email: { title: serverTexts.contactChangedTitle, content: serverTexts.emailChanged },
  addressLockOn: { title: serverTexts.addressLockOnTitle, content: serverTexts.addressLockOn },
  addressLockOffAsked: { title: serverTexts.addressLockOffAskedTitle, content: serverTexts.addressLockOffAsked },
  addressLockOff: { title: serverTexts.addressLockOffTitle, content: serverTexts.addressLockOff },
  antiPhishingSet: { title: serverTexts.antiPhishingSetTitle, content: serverTexts.antiPhishingSet },
  antiPhishingRemoved: { title: serverTexts.antiPhishingRemovedTitle, content: serverTexts.antiPhishingRemoved },
};

export async function noticeSecurityChange(
  db: Executor,
  userId: number,
  change: SecurityChange,
  now: Date,
): Promise<void> {
  const { title, content } = notices[change];
  await postSecurityNotice(
    db,
    userId,
    (tl) => ({ title: tl(title), content: tl(content, { 0: utcMinute(now) }) }),
    now,
  );
}

/**
 * Tells the phone number or e-mail address an account had (`former`, E.164 or an address) that the account moved
 * away from it, by SMS or e-mail through the outbox (delivery.ts), in `language` (the request's): the station
 * message alone is read on the account, which whoever moved it now holds. Queued in `db`, with the change.
 */
export async function tellFormerContact(
  db: Executor,
  userId: number,
  channel: 'sms' | 'email',
  former: string,
  language: Locale,
  now: Date,
): Promise<void> {
  const tl = translator(language);
  const { title, content } = notices[channel === 'sms' ? 'phone' : 'email'];
  const text = tl(content, { 0: utcMinute(now) });
  // An e-mail carries the customer's anti-phishing code first, as their code mails do; `payload` marks such a body, so
  // the operator's list of the outbox leaves that line out (code-message.ts bodyForOperator).
  const code = channel === 'email' ? await antiPhishingCodeOf(db, userId) : null;
  await enqueue(
    db,
    {
      channel,
      target: former,
      kind: 'contact_changed',
      userId,
      language,
      subject: tl(title),
      body: code ? `${antiPhishingLine(tl(serverTexts.antiPhishingLabel), code)}\n\n${text}` : text,
      payload: code ? { antiPhishing: true } : null,
    },
    now,
  );
}

/** A notice written in the language of `t`: its title and text. */
export type NoticeWriter = (t: Translate) => MessageText;

/**
 * Posts a security notice (these, a new sign-in, a passkey or a payee added): its text under the customer's
 * anti-phishing code line when they have a code, as it is without one (no empty line). It is written in every
 * language the app speaks, so the customer reads it in the language they read the app in then, not the one of the
 * request that caused it (a push: in each subscription's language).
 */
export async function postSecurityNotice(db: Executor, userId: number, write: NoticeWriter, now: Date): Promise<void> {
  const code = await antiPhishingCodeOf(db, userId);
  const written = (tl: Translate): MessageText => {
    const notice = write(tl);
    const content = code
      ? `${antiPhishingLine(tl(serverTexts.antiPhishingLabel), code)}\n${notice.content}`
      : notice.content;
    return { title: notice.title, content };
  };
  const versions = Object.fromEntries(
    LOCALES.filter((lang) => lang !== CONTENT_FALLBACK_LANG).map((lang) => [lang, written(translator(lang))]),
  );
  await postMessage(db, { to: userId, ...written(translator(CONTENT_FALLBACK_LANG)), versions }, now);
}
