// The console's Deposit channels page in Chromium, tried as a new admin would on a phone: a private key pasted by
// mistake is refused with the console's words and nothing is saved; the account's xpub is checked first (its
// fingerprint and the address customer 1 will be shown, to compare with the wallet), then saved; the customer is
// shown their address under the new key from then on, and a recharge they reported before keeps the address it
// recorded. Its own server at real speed: the authenticator follows real time.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HDKey } from '@scure/bip32';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { PHONE, launch, screenshot } from './browser.ts';
import { enrolOperator, firstSignIn, opsOn } from './console-kit.ts';
import { callApi } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { depositAddressOf } from '../../src/server/domain/deposit-addresses.ts';
import { seededDataDir } from './own-server.ts';

const NEW_PASSWORD = 'a long console passphrase';
// A wallet's TRON account key (m/44'/195'/0') of a fresh seed: the key an operator would paste, and its private form.
const account = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/195'/0'");
const XPUB = account.publicExtendedKey;
const FINGERPRINT = account.fingerprint.toString(16).padStart(8, '0');

const work = mkdtempSync(join(tmpdir(), 'coinvest-channels-'));
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: { DATA_DIR: seededDataDir(work), WEB_ROOT: inject('webRoot'), LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000' },
    }),
    launch(),
  ]);
  context = await browser.newContext({ viewport: PHONE, locale: 'en-US', baseURL: server.base });
  page = await context.newPage();
});

afterEach(async ({ task }) => {
  if (page && task.result?.errors?.length)
    await screenshot(page, `channels-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

type Shown = { lists: { id: number; address: string }[] };
const trc20Shown = async (token: string) =>
  (await callApi<Shown>('/pay/lists', { base: server.base, method: 'GET', token })).data.lists.find((c) => c.id === 1)!
    .address;

it('an admin checks a channel’s new key against customer 1’s address, saves it, and a recharge already reported keeps its address', async () => {
  const admin = await enrolOperator(opsOn({ dataDir: join(work, 'data') }), 'kira', 'admin');
  const token = (
    await callApi<{ token: string }>('/users/login', {
      base: server.base,
      form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
    })
  ).data.token;
  const before = await trc20Shown(token);
  const reported = await callApi<{ id: number; address: string }>('/pay/submit', {
    base: server.base,
    token,
    form: { kind: 'crypto', channel_id: '1', amount: '25', hash: randomBytes(32).toString('hex') },
  });
  expect(reported).toMatchObject({ ret: 1, data: { address: before } });

  await firstSignIn(page, admin, NEW_PASSWORD, 'Operators');
  await page.getByRole('navigation').getByRole('link', { name: 'Deposit channels' }).click();
  await page.getByRole('heading', { name: 'Deposit channels', exact: true }).waitFor();
  await page.getByText('Changing the key changes the address every customer is shown from then on').waitFor();
  const channel = page.getByRole('article', { name: 'USDT (TRC20)' });
  const field = channel.getByLabel('Extended public key (xpub…), empty for none');

  // A private key pasted by mistake: refused, said in the operator's words; nothing can be saved.
  await field.fill(account.privateExtendedKey);
  await channel.getByRole('button', { name: 'Check the key' }).click();
  await expect
    .poll(() => channel.getByRole('alert').textContent())
    .toBe('This is a private key: the server must never hold one. Paste the account’s extended public key (xpub…).');
  expect(await channel.getByRole('button', { name: 'Save the key' }).isDisabled()).toBe(true);

  // The wallet's master public key (depth 0) is not the account's: refused, saying which key to paste.
  await field.fill(HDKey.fromMasterSeed(randomBytes(32)).publicExtendedKey);
  await channel.getByRole('button', { name: 'Check the key' }).click();
  await expect
    .poll(() => channel.getByRole('alert').textContent())
    .toBe(
      'Not an account’s key: paste the key of m/purpose’/coin_type’/account’ (e.g. m/44’/195’/0’), not a master key.',
    );
  expect(await channel.getByRole('button', { name: 'Save the key' }).isDisabled()).toBe(true);
  await screenshot(page, 'channels-00-master-key-refused-390');

  // The account's public key: checked first, the address customer 1 will be shown to compare with the wallet.
  await field.fill(XPUB);
  await channel.getByRole('button', { name: 'Check the key' }).click();
  const preview = channel.getByRole('status');
  await preview.filter({ hasText: `Fingerprint ${FINGERPRINT}` }).waitFor();
  expect(await preview.textContent()).toContain(depositAddressOf('TRC20', XPUB, 1));
  await screenshot(page, 'channels-01-checked-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await channel.getByRole('button', { name: 'Save the key' }).click();
  await channel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await channel.getByText(`Fingerprint ${FINGERPRINT}`).waitFor();
  await screenshot(page, 'channels-02-saved-390', { fullPage: true });

  // The customer is shown their address under the new key; the recharge reported before keeps where it was paid.
  const customerId = (await callApi<{ id: number }>('/users/info', { base: server.base, method: 'GET', token })).data
    .id;
  const after = await trc20Shown(token);
  expect(after).toBe(depositAddressOf('TRC20', XPUB, customerId));
  expect(after).not.toBe(before);
  const order = await callApi<{ address: string }>('/pay/info', {
    base: server.base,
    method: 'GET',
    token,
    form: { id: String(reported.data.id) },
  });
  expect(order).toMatchObject({ ret: 1, data: { address: before } });
});
