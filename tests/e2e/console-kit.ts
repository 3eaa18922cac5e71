// What every console journey does: run the operator command against its own server's database, enrol an operator as
// a person reads the printout, and sign in with the code the authenticator app shows.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import { operatorOn } from './operator.ts';
import { runOpsCommandOk } from '../server/server-process.ts';

export const CONSOLE_DESKTOP = { width: 1280, height: 800 };
export const CONSOLE_NARROW = { width: 768, height: 1024 };
/** A full time as the console writes it in English (formatTime), for a RegExp: "Dec 5, 2026, 8:15:07 AM GMT+7". */
export const CONSOLE_LONG_TIME =
  '[A-Z][a-z]{2} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2}:\\d{2}\\s[AP]M GMT(?:[+\u2212]\\d{1,2}(?::\\d{2})?)?';

/**
 * `npm run ops -- …` against a test's own server: its embedded database in `dataDir` (through the server's operator
 * socket, operator.ts), or PostgreSQL (the command line itself, which opens the database).
 */
export const opsOn = ({ dataDir, databaseUrl = '' }: { dataDir: string; databaseUrl?: string }) =>
  databaseUrl
    ? (...args: string[]): Promise<string> =>
        runOpsCommandOk(args, { env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl } })
    : operatorOn(dataDir);

export interface Operator {
  name: string;
  /** The first password the command printed. */
  password: string;
  /** The authenticator's enrolment, otpauth://… */
  uri: string;
}

/** `ops operator add NAME ROLE`, read as a person reads it. */
export async function enrolOperator(ops: ReturnType<typeof opsOn>, name: string, role: string): Promise<Operator> {
  const printed = await ops('operator', 'add', name, role);
  const password = /First password \(to be changed at the first sign-in\): (\S+)/.exec(printed)?.[1];
  const uri = /^(otpauth:\/\/totp\/\S+)$/m.exec(printed)?.[1];
  expect(password && uri, printed).toBeTruthy();
  return { name, password: password!, uri: uri! };
}

/** What the operator's authenticator app shows now. */
export const operatorCode = (operator: Operator) =>
  totpAt(base32Decode(new URL(operator.uri).searchParams.get('secret')!), totpStep(new Date()));

/** Fills the console's sign-in form and sends it. */
export async function signInOperator(page: Page, operator: Operator, password: string) {
  await page.getByLabel('Operator name').fill(operator.name);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Authenticator code').fill(operatorCode(operator));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in with the printed first password and replaces it with `newPassword`, as the console insists; waits for the
 * navigation's `landing` link. */
export async function firstSignIn(page: Page, operator: Operator, newPassword: string, landing = 'Review queues') {
  await page.goto('/console/');
  await signInOperator(page, operator, operator.password);
  await page.getByRole('heading', { name: 'Choose your own password' }).waitFor();
  await page.getByLabel('Current password').fill(operator.password);
  await page.getByLabel(/^New password \(at least 12/).fill(newPassword);
  await page.getByLabel('New password again').fill(newPassword);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('navigation').getByRole('link', { name: landing }).waitFor();
}
