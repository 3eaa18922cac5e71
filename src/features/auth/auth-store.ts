// Login, registration, codes and password reset.
import * as v from 'valibot';
import { ForgotPasswordInput, LoginInput, forgotPassword, login, register, type RegisterInputType } from '../../contract/account.ts';
import { api } from '../../lib/api.ts';
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

export async function resetPassword(input: v.InferInput<typeof ForgotPasswordInput>): Promise<void> {
  await api(forgotPassword, input);
}
