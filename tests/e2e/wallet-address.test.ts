// Adding a wallet as a customer meets it on a phone: the all-upper-case Bitcoin address of a QR code is taken and kept
// in lower case; a mistyped EIP-55 address and an address with a hidden character are refused on the device, each
// with its own text (in Arabic too), and nothing is sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, phoneContext, recordToasts, screenshot, toastSeen, watchPagesOnFailure } from './browser.ts';
import { callApi, logIn, markAllRead, registerUser } from './pwa.ts';
import { storeSession } from './stored-session.ts';

const phone = `064${String(Date.now()).slice(-7)}`;
const password = 'wallets1234';
const SEGWIT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const EIP55 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON = 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp';

let browser: Browser;
let page: Page;
let token: string;
const watch = watchPagesOnFailure();

beforeAll(async () => {
  await registerUser(phone, password, '135790');
  browser = await launch();
  page = watch(await (await phoneContext(browser)).newPage());
  await recordToasts(page);
  await logIn(page, phone, password);
  token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
});
afterAll(async () => {
  await browser?.close();
});

const savedAddresses = async () =>
  (await callApi<{ lists: { address: string }[] }>('/users/wallet/lists', { method: 'GET', token })).data.lists.map(
    (wallet) => wallet.address,
  );

async function fillWallet(target: Page, currency: string, chain: string, address: string): Promise<void> {
  await target.goto('/#/pages/mine/addWallet');
  await target.locator('input[name="alias"]').fill('Mine');
  // Two choices in a row: the currency, then the chain (BTC is in both).
  await target.locator('.segmented').nth(0).getByRole('button', { name: currency, exact: true }).click();
  await target.locator('.segmented').nth(1).getByRole('button', { name: chain, exact: true }).click();
  await target.locator('input[name="address"]').fill(address);
}

it('takes the all-upper-case address of a QR code and keeps it in lower case', async () => {
  await fillWallet(page, 'BTC', 'BTC', SEGWIT.toUpperCase());
  await page.getByRole('button', { name: 'Save wallet' }).click();
  await toastSeen(page, 'Saved successfully!', 15_000);
  await expect.poll(savedAddresses).toEqual([SEGWIT]);
});

it('refuses a mistyped EIP-55 address and a hidden character on the device, each with its own text', async () => {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/users/wallet/add')) sent.push(request.url());
  });
  await fillWallet(page, 'USDT', 'ERC20', `${EIP55.slice(0, 4)}a${EIP55.slice(5)}`);
  await page.getByRole('button', { name: 'Save wallet' }).click();
  await toastSeen(
    page,
    'The address has a mistyped or missing character (its checksum does not match). Please copy it again!',
    15_000,
  );
  await screenshot(page, 'wallet-address-checksum');

  await fillWallet(page, 'USDT', 'TRC20', `${TRON.slice(0, 10)}\u200b${TRON.slice(10)}`);
  await page.getByRole('button', { name: 'Save wallet' }).click();
  await toastSeen(
    page,
    'The address contains a space or an invisible character. Please paste or type it again!',
    15_000,
  );
  expect(sent).toEqual([]);
  expect(await savedAddresses()).toEqual([SEGWIT]);
});

it('says the reason in Arabic, right to left', async () => {
  // The notice of the wallet added would open over a new tab's first screen.
  await markAllRead(phone, password);
  const arabic = await phoneContext(browser, { locale: 'ar-EG' });
  try {
    const other = await arabic.newPage();
    await recordToasts(other);
    await other.goto('/favicon.svg');
    await storeSession(other, token);
    await fillWallet(other, 'USDT', 'ERC20', TRON);
    expect(await other.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await other.locator('button[type="submit"]').click();
    await toastSeen(other, 'العنوان لا يتوافق مع الشبكة المختارة!', 15_000);
    await screenshot(other, 'wallet-address-arabic');
  } finally {
    await arabic.close();
  }
});
