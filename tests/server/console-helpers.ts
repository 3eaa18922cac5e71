// Steps of the operator console tests: an operator made with `ops operator add` (its printed first
// password and otpauth:// URI read back like a person would), the authenticator's code computed
// from that URI, a signed-in operator with the first password changed.
import { expect } from 'vitest';
import { consoleChangePassword, consoleSignIn, type OperatorRole } from '../../src/api-contract/console.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import { opsOk } from './funds-helpers.ts';
import type { Harness } from './harness.ts';

export const NEW_PASSWORD = 'a long console passphrase';

export interface Enrolled {
  name: string;
  role: OperatorRole;
  password: string;
  uri: string;
}

/** `ops operator add NAME ROLE`, its output read for the first password and the URI. */
export async function enrolled(h: Harness, name: string, role: OperatorRole): Promise<Enrolled> {
  const output = await opsOk(h, 'operator', 'add', name, role);
  const password = /First password \(to be changed at the first sign-in\): (\S+)/.exec(output)?.[1];
  const uri = /^(otpauth:\/\/totp\/\S+)$/m.exec(output)?.[1];
  expect(password, output).toBeTruthy();
  expect(uri, output).toBeTruthy();
  return { name, role, password: password!, uri: uri! };
}

/** What the authenticator app shows now for this URI's secret (the harness clock's time). */
export function codeFrom(uri: string, h: Harness, stepsAhead = 0): string {
  const secret = new URL(uri).searchParams.get('secret');
  return totpAt(base32Decode(secret!), totpStep(h.clock.now()) + stepsAhead);
}

/** Signs in with the password given, after moving the clock to the next 30-second step (a code is used once). */
export async function signInAs(h: Harness, operator: Enrolled, password = operator.password, ip?: string) {
  h.clock.advance(30_000);
  return h.call(consoleSignIn, { name: operator.name, password, code: codeFrom(operator.uri, h) }, { ip });
}

/** An operator of `role`, signed in, first password changed: a token every call of the role accepts. */
export async function operatorToken(h: Harness, name: string, role: OperatorRole): Promise<string> {
  const operator = await enrolled(h, name, role);
  const signedIn = await signInAs(h, operator);
  expect(signedIn, JSON.stringify(signedIn)).toMatchObject({
    ret: 1,
    data: { operator: { name, role, must_change_password: true } },
  });
  const changed = await h.call(
    consoleChangePassword,
    { password: operator.password, new_password: NEW_PASSWORD },
    { token: signedIn.data.token },
  );
  expect(changed, JSON.stringify(changed)).toMatchObject({ ret: 1, data: { must_change_password: false } });
  return signedIn.data.token;
}
