// Two-factor authentication: set up (a secret, shown as a QR code and as text, turned on
// by a first code), the ten recovery codes shown once, new ones, turning off. The on/off status
// lives in lib/two-factor.ts, where the forms that need a code read it. Nothing here is kept on the
// device: neither the secret nor a recovery code ever reaches storage.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import * as v from 'valibot';
import {
  authenticatorCode,
  beginTwoFactor,
  confirmTwoFactor,
  disableTwoFactor,
  renewRecoveryCodes,
  type TwoFactorSetup,
} from '../../api-contract/two-factor.ts';
import { cleanSecondFactor } from '../../api-contract/fields.ts';
import { texts } from '../../api-contract/texts.ts';
import { api } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { loadSecondFactor, secondFactor } from '../../lib/two-factor.ts';
import { firstError } from '../../lib/validate.ts';
import { i18n } from '@lingui/core';

export const twoFactorState = proxy({
  /** A setup begun on this page: the secret and its otpauth URI (until confirmed or left). */
  setup: null as TwoFactorSetup | null,
  /** Recovery codes just made: shown until the user says they saved them. */
  recoveryCodes: null as string[] | null,
});

export const loadTwoFactor = () => loadSecondFactor({ loading: secondFactor.status === null });

/** A new secret (a setup begun earlier and not confirmed is replaced). */
export async function startSetup(): Promise<void> {
  twoFactorState.setup = await api(beginTwoFactor);
}

export const cancelSetup = () => {
  twoFactorState.setup = null;
};

/** The first rule a code from the app breaks, or null. */
export const appCodeProblem = (code: string) =>
  firstError(v.object({ code: authenticatorCode }), { code: cleanSecondFactor(code) });

/** Before turning it on: the first code, then the login password. */
export const confirmProblem = (code: string, password: string) =>
  appCodeProblem(code) ?? (password.trim() ? null : i18n._(texts.enterLoginPassword));

/** The first code and the login password turn it on; the ten recovery codes are shown next. */
export async function confirmSetup(code: string, password: string): Promise<void> {
  const { recovery_codes } = await api(confirmTwoFactor, { code: cleanSecondFactor(code), password });
  twoFactorState.setup = null;
  twoFactorState.recoveryCodes = recovery_codes;
  await loadSecondFactor().catch(() => undefined);
}

/** Ten new recovery codes in place of the old ones. */
export async function renewCodes(code: string): Promise<void> {
  twoFactorState.recoveryCodes = (await api(renewRecoveryCodes, { code: cleanSecondFactor(code) })).recovery_codes;
  await loadSecondFactor().catch(() => undefined);
}

/** The user saved them: they are never shown again. */
export const forgetRecoveryCodes = () => {
  twoFactorState.recoveryCodes = null;
};

/** Before turning off: a code (from the app or a recovery code) and the login password. */
export function turnOffProblem(otp: string, password: string): string | null {
  if (!cleanSecondFactor(otp)) return i18n._(texts.enterAuthenticatorCode);
  if (!password.trim()) return i18n._(texts.enterLoginPassword);
  return null;
}

export async function turnOff(otp: string, password: string): Promise<void> {
  secondFactor.status = await api(disableTwoFactor, { otp: cleanSecondFactor(otp), password });
  secondFactor.asked = false;
}

/** The secret as people copy it by hand: groups of four. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

// Another session must never see this one's secret or codes.
subscribeKey(session, 'token', () => {
  twoFactorState.setup = null;
  twoFactorState.recoveryCodes = null;
});
