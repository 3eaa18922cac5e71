// Setting, changing and removing the anti-phishing code (the code itself, as the server said it, lives in
// lib/anti-phishing.ts, where Settings reads it too). With two-factor on, each change sends the
// authenticator code; the form checks the phrase with the API contract's own rule before sending.
import { removeAntiPhishing, setAntiPhishing } from '../../api-contract/anti-phishing.ts';
import { api } from '../../lib/api.ts';
import { antiPhishing } from '../../lib/anti-phishing.ts';
import { otpField } from '../../lib/two-factor.ts';
import { firstError } from '../../lib/validate.ts';

/** What is wrong with a typed phrase, in the app's language; null when the server should see it. */
export function phraseProblem(phrase: string): string | null {
  try {
    return firstError(setAntiPhishing.input, { phrase });
  } catch {
    // A browser without Intl.Segmenter (counting letters as a reader does): the server checks it.
    return null;
  }
}

export async function saveCode(phrase: string, needsCode: boolean, otp: string): Promise<void> {
  const answer = await api(setAntiPhishing, { phrase, ...otpField(needsCode, otp) });
  Object.assign(antiPhishing, { phrase: answer.phrase, loaded: true });
}

export async function removeCode(needsCode: boolean, otp: string): Promise<void> {
  await api(removeAntiPhishing, otpField(needsCode, otp));
  Object.assign(antiPhishing, { phrase: null, loaded: true });
}
