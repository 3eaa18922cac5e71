// Login, registration, codes and password reset.
import * as v from 'valibot';
import {
  ForgotPasswordInput,
  LoginInput,
  forgotPassword,
  login,
  register,
  sendEmailCode,
  sendSmsCode,
  type RegisterInputType,
} from '../../contract/account.ts';
import { email as emailField, phone as phoneField } from '../../contract/fields.ts';
import { texts } from '../../contract/texts.ts';
import { i18n } from '@lingui/core';
import { api, errorText } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { firstError } from '../../lib/validate.ts';
import { startSession } from '../../lib/account.ts';

export type ContactMode = 'phone' | 'email';

export async function signIn(input: v.InferInput<typeof LoginInput>): Promise<void> {
  const { token } = await api(login, { username: input.username.trim(), password: input.password });
  await startSession(token);
}

export async function registerAccount(input: RegisterInputType): Promise<void> {
  const { token } = await api(register, input);
  await startSession(token);
}

/** Sends a code; `mustExist` for a password reset, otherwise the address must be free. */
export async function requestCode(mode: ContactMode, address: string, mustExist: boolean): Promise<void> {
  const must = mustExist ? '1' : '0';
  if (mode === 'phone') await api(sendSmsCode, { userphone: address.trim(), must });
  else await api(sendEmailCode, { email: address.trim(), must });
}

/** The "Get code" button's action: checks the address, sends, and says how it went. */
export async function sendCodeTo(mode: ContactMode, address: string, mustExist: boolean): Promise<boolean> {
  const problem = firstError(mode === 'phone' ? phoneField : emailField, address);
  if (problem) {
    toast(problem);
    return false;
  }
  try {
    await requestCode(mode, address, mustExist);
    toast(i18n._(texts.codeSent));
    return true;
  } catch (error) {
    toast(errorText(error));
    return false;
  }
}

export async function resetPassword(input: v.InferInput<typeof ForgotPasswordInput>): Promise<void> {
  await api(forgotPassword, input);
}
