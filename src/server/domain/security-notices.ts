// The station messages that tell a customer their account's security changed (ASVS 2.2.3, 2.5.5): a
// new device signed in, a passkey added or removed, the login password changed or reset, two-factor
// turned on or off, new recovery codes, the phone or e-mail changed. Each says when, in a time every
// reader can place, and what to do if it was not them; in the request's language.
import { serverTexts } from '../../contract/server-texts.ts';
import type { MessageDescriptor } from '@lingui/core';
import type { Executor } from '../db/connection.ts';
import type { Translate } from '../i18n.ts';
import { postMessage } from './messages.ts';

/** '2026-11-22 08:00 UTC': a moment every reader can place, whatever their zone. */
export const utcMinute = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export type SecurityChange =
  'password' | 'twoFactorOn' | 'twoFactorOff' | 'recoveryCodes' | 'passkeyRemoved' | 'phone' | 'email';

const notices: Record<SecurityChange, { title: MessageDescriptor; content: MessageDescriptor }> = {
  password: { title: serverTexts.passwordChangedTitle, content: serverTexts.passwordChanged },
  twoFactorOn: { title: serverTexts.twoFactorOnTitle, content: serverTexts.twoFactorOn },
  twoFactorOff: { title: serverTexts.twoFactorOffTitle, content: serverTexts.twoFactorOff },
  recoveryCodes: { title: serverTexts.recoveryCodesRenewedTitle, content: serverTexts.recoveryCodesRenewed },
  passkeyRemoved: { title: serverTexts.passkeyRemovedTitle, content: serverTexts.passkeyRemoved },
  phone: { title: serverTexts.contactChangedTitle, content: serverTexts.phoneChanged },
  email: { title: serverTexts.contactChangedTitle, content: serverTexts.emailChanged },
};

export async function noticeSecurityChange(
  db: Executor,
  userId: number,
  change: SecurityChange,
  now: Date,
  t: Translate,
): Promise<void> {
  const { title, content } = notices[change];
  await postMessage(db, { to: userId, title: t(title), content: t(content, { 0: utcMinute(now) }) }, now);
}
