// Whether the signed-in user has two-factor authentication on, so the forms that then need a code
// (withdraw, add a bank card or wallet, payment password, phone) show the authenticator code field.
// One source, the status call: asked when such a form opens, updated by the two-factor page.
import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import { twoFactorStatus, type TwoFactorStatus } from '../api-contract/two-factor.ts';
import { cleanSecondFactor } from '../api-contract/fields.ts';
import { texts } from '../api-contract/texts.ts';
import { api, errorText } from './api.ts';
import { session } from './session.ts';

export const secondFactor = proxy({
  /** As the server last said it; null before its first answer. */
  status: null as TwoFactorStatus | null,
  /** The server asked a form of this session for a code (two-factor turned on on another device). */
  asked: false,
});

/** Asks the server; an answer for an earlier session is dropped. */
export async function loadSecondFactor(options: { loading?: boolean } = {}): Promise<void> {
  const token = session.token;
  if (!token) return;
  const status = await api(twoFactorStatus, undefined, { loading: options.loading ?? false });
  if (token !== session.token) return;
  secondFactor.status = status;
  secondFactor.asked = false;
}

/** On (true), off (false) or not known yet (null); asked for when the screen opens. */
export function useSecondFactorStatus(): boolean | null {
  const { status, asked } = useSnapshot(secondFactor);
  useEffect(() => {
    loadSecondFactor().catch(() => undefined);
  }, []);
  return asked || (status?.enabled ?? null);
}

/** True when this form must ask for a code (false until the server has answered). */
export const useSecondFactor = (): boolean => useSecondFactorStatus() ?? false;

/** What the form sends: the typed code without the spaces an app shows, only when a code is needed. */
export const otpField = (needed: boolean, typed: string): { otp?: string } =>
  needed ? { otp: cleanSecondFactor(typed) } : {};

/** Checked before sending: an empty code field when one is needed. */
export const secondFactorProblem = (needed: boolean, typed: string): string | null =>
  needed && !cleanSecondFactor(typed) ? i18n._(texts.enterAuthenticatorCode) : null;

/** A form's error text; a server asking for a code this device did not know of shows the field. */
export function secondFactorErrorText(error: unknown): string {
  const text = errorText(error);
  if (text === i18n._(texts.enterAuthenticatorCode)) secondFactor.asked = true;
  return text;
}

// Another session (logout, another user) starts unknown.
subscribeKey(session, 'token', () => {
  secondFactor.status = null;
  secondFactor.asked = false;
});
