// Passkeys as a customer meets them, with Chromium's own virtual authenticator
// (DevTools' WebAuthn domain: a platform authenticator with resident keys and user verification,
// as a phone's screen lock): Settings → Passkeys, the login password, the device's prompt, the new
// passkey listed; logged out, "Sign in with a passkey" needs no name or password; closing the
// prompt says so quietly; once removed, the passkey no longer signs in. The app is opened at
// localhost, not 127.0.0.1: a passkey belongs to a domain name, never to an address.
import { expect, inject, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { fieldState, phonePageForFile, screenshot } from './browser.ts';
import { homeSettled, logOutFromSettings, registerUser } from './pwa.ts';

let page: Page;
let cdp: CDPSession;
let authenticatorId = '';
const base = inject('baseUrl').replace('127.0.0.1', 'localhost');

phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const phone = `08${String(Date.now() + 7).slice(-8)}`;
const password = 'passkey123';
const toast = () => page.getByRole('alert').textContent();

async function logOut() {
  await logOutFromSettings(page, `${base}/#/pages/mine/setting`);
}

async function signInWithPasskey() {
  await page.goto(`${base}/#/pages/login/login`);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
}

it('adds a passkey after the login password, and the device shows it', async () => {
  await registerUser(phone, password, '135790');
  await page.goto(`${base}/#/pages/login/login`);
  // The authenticator is added once the app has started, not while its first screen's code is still arriving.
  const name = page.getByLabel('Username, mobile number or e-mail');
  await name.waitFor();
  cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
  await name.fill(phone);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await homeSettled(page);

  await page.goto(`${base}/#/pages/mine/setting`);
  await page.getByRole('link', { name: 'Passkeys' }).click();
  await page.waitForURL(/#\/pages\/mine\/setting\/passkeys$/);
  await expect.poll(() => page.getByText('No passkey yet.').count()).toBe(1);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(toast).toBe('Please enter your login password!');
  await page.getByLabel('Login password').fill('wrong123');
  await page.getByRole('button', { name: 'Continue' }).click();
  // Said under the password box (not a toast), and the empty-field toast before it is gone.
  await expect
    .poll(() => fieldState(page.getByLabel('Login password')))
    .toEqual({ invalid: 'true', said: 'The login password is wrong!', focused: true });
  expect(await page.locator('.toast').count()).toBe(0);
  await page.getByLabel('Login password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.poll(toast).toBe('Passkey added. You can now sign in with it.');

  const rows = page.locator('.device-item');
  await expect.poll(() => rows.count()).toBe(1);
  expect(await rows.first().locator('.device-name').textContent()).toBe('Chrome, Linux');
  expect(await rows.first().locator('.device-time').allTextContents()).toEqual([
    expect.stringMatching(/^Added \S/),
    'Not used yet',
  ]);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  await screenshot(page, 'passkeys-list');
});

it('signs in with the passkey alone, after logging out; a closed prompt is no failure', async () => {
  await logOut();
  // The customer closes the prompt (the screen lock is not passed): nothing happens but a quiet note.
  await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
  await signInWithPasskey();
  await expect.poll(toast).toBe('No passkey was used.');
  expect(page.url()).toMatch(/#\/pages\/login\/login/);
  await screenshot(page, 'passkeys-login');

  await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
  await signInWithPasskey();
  await homeSettled(page);
  // The station message left when the passkey was added greets the next sign-in.
  const notice = page.getByRole('alertdialog');
  await expect.poll(() => notice.getByRole('heading').textContent()).toBe('Passkey added');
  expect(await notice.textContent()).toContain('A passkey made on Chrome, Linux was added to your account');
  await notice.getByRole('button', { name: 'OK' }).click();
  await page.goto(`${base}/#/pages/mine/setting/passkeys`);
  const rows = page.locator('.device-item');
  await expect
    .poll(() => rows.first().locator('.device-time').allTextContents())
    .toEqual([expect.stringMatching(/^Added \S/), expect.stringMatching(/^Last used \S/)]);
});

it('once removed, the passkey no longer signs in', async () => {
  await page.locator('.device-item').first().getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect.poll(toast).toBe('The passkey has been removed.');
  await expect.poll(() => page.getByText('No passkey yet.').count()).toBe(1);
  await logOut();
  await signInWithPasskey();
  await expect
    .poll(toast)
    .toBe('This passkey is not recognised here. Sign in with your password, then add it again in Settings!');
  expect(page.url()).toMatch(/#\/pages\/login\/login/);
});
