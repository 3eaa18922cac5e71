// The "Get code" action every form shares: check the address, ask the server to send a code
// (§7 /users/sms or /users/email/get), and tell the user how it went.
import { i18n } from '@lingui/core';
import { sendEmailCode, sendSmsCode } from '../contract/account.ts';
import { texts } from '../contract/texts.ts';
import { api, errorText } from './api.ts';
import { toast } from './toast.ts';
import { firstError } from './validate.ts';

export type CodeChannel = 'sms' | 'email';

/**
 * `mustExist`: the address must belong to an account (password resets); otherwise it must be
 * free (registration, a new phone). Resolves true when the resend countdown should start.
 */
export async function sendVerificationCode(channel: CodeChannel, address: string, mustExist: boolean): Promise<boolean> {
  const must = mustExist ? '1' : '0';
  const trimmed = address.trim();
  const [endpoint, input] = channel === 'sms' ? ([sendSmsCode, { userphone: trimmed, must }] as const) : ([sendEmailCode, { email: trimmed, must }] as const);
  const problem = firstError(endpoint.input, input);
  if (problem) {
    toast(problem);
    return false;
  }
  try {
    if (channel === 'sms') await api(sendSmsCode, { userphone: trimmed, must });
    else await api(sendEmailCode, { email: trimmed, must });
    toast(i18n._(texts.codeSent));
    return true;
  } catch (error) {
    toast(errorText(error));
    return false;
  }
}
