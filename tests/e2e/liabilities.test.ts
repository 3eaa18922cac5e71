// Verify my balance as a customer meets it, on a phone: a new customer checks in (points, a balance of their own), an
// operator builds a proof of liabilities (`npm run ops -- liabilities build`), and Settings → Verify my balance shows
// their leaf (their balances as of the cut-off), the path to the root and "Verified ✓", checked on the phone against
// the published root; the proof downloads as a file the stand-alone verifier accepts; offline after that one visit the
// page opens and verifies again; and in Arabic it reads right to left.
import { readFileSync } from 'node:fs';
import { beforeAll, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phoneContext, phonePageForFile, screenshot } from './browser.ts';
import { callApi, controlledByServiceWorker, goOffline, goOnline, logIn, registerUser } from './pwa.ts';
import { opsOn } from './console-kit.ts';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { verifyProof, type LiabilityProof } from '../../src/api-contract/liabilities-verify.ts';
import type { PublishedTree } from '../../src/api-contract/liabilities.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

const phone = `08${String(Date.now() + 7).slice(-8)}`;
const password = 'verify123';
let tree: PublishedTree;
/** The root the page last showed online: the operator's tree's, or a newer one's (see the download's test). */
let shownRoot: string;

/** The published trees from the operator's on (newest first): the page shows the latest of them. */
async function publishedSinceOperator(): Promise<PublishedTree[]> {
  const roots = await callApi<{ lists: PublishedTree[] }>('/liabilities/roots', { method: 'GET' });
  return roots.data.lists.filter((listed) => listed.id >= tree.id);
}

beforeAll(async () => {
  await registerUser(phone, password, '135790');
  const token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  expect((await callApi('/task/signin', { token })).ret).toBe(1);
  // The operator publishes a tree now: the customer registered after the day's.
  const printed = await opsOn({ dataDir: inject('dataDir') })('liabilities', 'build');
  expect(printed).toMatch(/^Tree \d+ as of /);
  const roots = await callApi<{ lists: PublishedTree[] }>('/liabilities/roots', { method: 'GET' });
  tree = roots.data.lists[0]!;
  expect(printed).toContain(tree.root);
});

const verdict = () => page.locator('.liab-verdict').getAttribute('data-verdict');
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

it('shows the leaf, the path and "Verified ✓", checked on the phone against the published root', async () => {
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  await page.goto(`/#${ROUTES.settings}`);
  await page.getByRole('link', { name: 'Verify my balance' }).click();
  await page.waitForURL(new RegExp(`#${ROUTES.liabilities}$`));
  await expect.poll(verdict).toBe('verified');
  expect(await page.locator('.liab-verdict strong').textContent()).toBe('Verified ✓');
  // The leaf holds the customer's points from the check-in, and nothing else.
  const balances = await page.locator('.liab-balances:not(.liab-totals) li').allTextContents();
  expect(balances).toHaveLength(tree.assets.length);
  expect(balances.find((line) => line.startsWith('POINT'))).toMatch(/^POINT[1-9]/);
  // Every other column zero (USDT_IN_OPTIONS among them when another file's customer holds an open option).
  expect(balances.filter((line) => !line.startsWith('POINT') && !/^[A-Z_]+0$/.test(line))).toEqual([]);
  expect(await page.locator('.liab-path li').count()).toBeGreaterThan(0);
  shownRoot = (await page.locator('.liab-root').textContent())!;
  expect((await publishedSinceOperator()).map((listed) => listed.root)).toContain(shownRoot);
  await shot('liabilities-01-verified');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
});

it('downloads the proof, which the stand-alone verifier accepts against the public root', async () => {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the proof' }).click(),
  ]);
  const proof = JSON.parse(readFileSync((await download.path())!, 'utf8')) as LiabilityProof;
  expect(download.suggestedFilename()).toBe(`liabilities-proof-${proof.tree}.json`);
  // The page shows, and downloads, the latest tree: the operator's, or a newer one the day's job published meanwhile
  // (the shared server's clock runs 20 times real time, so a UTC midnight can pass during the run, as it did in a
  // clean-clone run). The proof is checked against the published root of its own tree.
  const published = (await publishedSinceOperator()).find((listed) => listed.id === proof.tree)!;
  expect(published).toBeDefined();
  shownRoot = (await page.locator('.liab-root').textContent())!;
  expect(shownRoot).toBe(published.root);
  expect(await verifyProof(proof, { hash: published.root, totals: published.totals })).toMatchObject({ ok: true });
  expect(proof.path.length).toBeGreaterThan(0);
});

it('opens and verifies again offline after that one visit', async () => {
  await goOffline(page.context());
  try {
    await page.reload();
    await expect.poll(verdict).toBe('verified');
    await page.locator('.offline-note').waitFor();
    expect(await page.locator('.liab-root').textContent()).toBe(shownRoot);
    await shot('liabilities-02-offline');
  } finally {
    await goOnline(page.context());
  }
});

it('reads right to left in Arabic', async () => {
  await page.goto('/#/pages/mine/mine');
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await page.goto(`/#${ROUTES.liabilities}`);
  await expect.poll(verdict).toBe('verified');
  expect(await page.locator('.liab-verdict strong').textContent()).toBe('تم التحقق ✓');
  await page.getByRole('heading', { name: 'أرصدتك في الشجرة' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  await shot('liabilities-03-arabic');
});

it('says it cannot check here, not that the check failed, where the browser has no Web Crypto (plain http)', async () => {
  const context = await phoneContext(page.context().browser()!);
  try {
    // As over plain http from another host: no crypto.subtle.
    await context.addInitScript(() => Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined }));
    const plain = await context.newPage();
    await logIn(plain, phone, password);
    await plain.goto(`/#${ROUTES.liabilities}`);
    const banner = plain.locator('.liab-verdict');
    await expect.poll(() => banner.getAttribute('data-verdict')).toBe('unavailable');
    expect(await banner.locator('strong').textContent()).toBe('Cannot check here');
    expect(await banner.textContent()).toContain('needs a secure (https) connection');
    expect(await banner.getAttribute('class')).not.toContain('bad');
    await plain.locator('.mask').waitFor({ state: 'detached' });
    await screenshot(plain, 'liabilities-04-plain-http');
  } finally {
    await context.close();
  }
});
