// The "Get code" action every form shares: check the address, ask the server to send a code
// (/users/sms or /users/email/get), and tell the user how it went. The code leaves
// through a queue; while the button says "Sending…" the form asks how the message is doing, and
// says so when it finally could not be sent, rather than leaving the user waiting for nothing.
import { i18n } from '@lingui/core';
import { codeDelivery, sendEmailCode, sendSmsCode } from '../api-contract/account.ts';
import { CODE_RESEND_SECONDS } from '../api-contract/constants.ts';
import { texts } from '../api-contract/texts.ts';
import { ApiError, api, errorText } from './api.ts';
import type { FieldRefusals } from './field-refusals.ts';
import { toast } from './toast.ts';
import { firstError } from './validate.ts';

export type CodeChannel = 'sms' | 'email';

/** While the button says "Sending…": asked every second this long; then the countdown starts and the form keeps asking
 * in the background. */
export const FIRST_WAIT_MS = 4_000;
export const ASK_EVERY_MS = 1_000;
export const ASK_LATER_EVERY_MS = 3_000;

type Wait = (ms: number) => Promise<void>;
const sleep: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `mustExist`: the address must belong to an account (password resets); otherwise it must be
 * free (registration, a new phone). Resolves true when the resend countdown should start. A refusal of the address
 * (already registered, no such account) shows under the form's address field (`phone` or `email`) when the form gives
 * its `refusals`; otherwise it is toasted.
 */
export async function sendVerificationCode(
  channel: CodeChannel,
  address: string,
  mustExist: boolean,
  wait: Wait = sleep,
  refusals?: FieldRefusals,
): Promise<boolean> {
  const must = mustExist ? '1' : '0';
  const trimmed = address.trim();
  const [endpoint, input] =
    channel === 'sms'
      ? ([sendSmsCode, { userphone: trimmed, must }] as const)
      : ([sendEmailCode, { email: trimmed, must }] as const);
  const problem = firstError(endpoint.input, input);
  if (problem) {
    toast(problem);
    return false;
  }
  let delivery: string | undefined;
  try {
    ({ delivery } =
      channel === 'sms'
        ? await api(sendSmsCode, { userphone: trimmed, must })
        : await api(sendEmailCode, { email: trimmed, must }));
  } catch (error) {
    // A refusal says why (already registered, asked too soon); any other failure is "Failed to get the verification
    // code!", the text made for it.
    // The code request names the number `userphone`; the forms that ask for a code name that field `phone`.
    const field = error instanceof ApiError && error.field === 'userphone' ? 'phone' : (error as ApiError).field;
    if (field && refusals?.show(field, errorText(error))) return false;
    toast(error instanceof ApiError && error.ret === 0 ? errorText(error) : i18n._(texts.getCodeFailed));
    return false;
  }
  // A server without the queue's reference (another host of the same API): sent is all it says.
  if (!delivery) {
    toast(i18n._(texts.codeSent));
    return true;
  }
  const first = await followDelivery(delivery, FIRST_WAIT_MS, ASK_EVERY_MS, wait);
  if (first === 'sending')
    void followDelivery(delivery, CODE_RESEND_SECONDS * 1000 - FIRST_WAIT_MS, ASK_LATER_EVERY_MS, wait).then(tell);
  else tell(first);
  // The countdown runs in every case: after a failure it says when the server takes the next request.
  return true;
}

type Followed = 'sent' | 'sending' | { failed: string };

function tell(outcome: Followed) {
  if (outcome === 'sent') toast(i18n._(texts.codeSent));
  else if (outcome !== 'sending') toast(outcome.failed);
}

/**
 * Asks how the message is doing every `everyMs` for up to `forMs`: 'sent', a failure's text (the
 * server answers 'We could not send the code, please try again'), or still 'sending'.
 */
export async function followDelivery(
  delivery: string,
  forMs: number,
  everyMs: number,
  wait: Wait = sleep,
): Promise<Followed> {
  for (let waited = 0; waited < forMs; waited += everyMs) {
    await wait(everyMs);
    try {
      const { state } = await api(codeDelivery, { delivery }, { loading: false });
      if (state === 'sent') return 'sent';
    } catch (error) {
      // Only the server's answer says the message failed; a lost connection just asks again later.
      if (error instanceof ApiError && error.ret === 0) return { failed: errorText(error) };
    }
  }
  return 'sending';
}
