// Login, registration, codes and password reset.
import * as v from 'valibot';
import {
  ForgotPasswordInput,
  LoginInput,
  forgotPassword,
  login,
  register,
  type RegisterInputType,
} from '../../api-contract/account.ts';
import { i18n } from '@lingui/core';
import { texts } from '../../api-contract/texts.ts';
import { api } from '../../lib/api.ts';
import { startSession } from '../../lib/account.ts';
import { thisDevice } from '../../lib/session.ts';

export type ContactMode = 'phone' | 'email';

/** `otp`: the authenticator or recovery code, sent once the server asked for it (two-factor on, a device the account
 * never used). */
export async function signIn(input: v.InferInput<typeof LoginInput>): Promise<void> {
  const { token, device } = await api(login, {
    username: input.username.trim(),
    password: input.password,
    ...(input.otp ? { otp: input.otp } : {}),
    ...(thisDevice.token ? { device: thisDevice.token } : {}),
  });
  await startSession(token, device);
}

/** The server asks for the second factor: the login form then shows the code field. */
export const asksForSecondFactor = (text: string) => text === i18n._(texts.enterAuthenticatorCode);

export async function registerAccount(input: RegisterInputType): Promise<void> {
  const { token, device } = await api(register, input);
  await startSession(token, device);
}

export async function resetPassword(input: v.InferInput<typeof ForgotPasswordInput>): Promise<void> {
  await api(forgotPassword, input);
}
