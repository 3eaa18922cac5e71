// The operator console shows a customer's own limits and time-out, read only: the settings in force
// and a loosening waiting its 24 hours, with no control that changes them (no console call does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser.ts';
import { callApi } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { CONSOLE_DESKTOP, CONSOLE_NARROW, enrolOperator, firstSignIn, opsOn } from './console-kit.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { setProtection } from '../../src/api-contract/protection.ts';
import { seededDataDir } from './own-server.ts';

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-protection-'));
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: { DATA_DIR: seededDataDir(work), WEB_ROOT: inject('webRoot'), LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '1000' },
    }),
    launch(),
  ]);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function consolePage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', baseURL: server.base });
  contexts.push(context);
  return context.newPage();
}

it('shows the demo customer’s limits, time-out and waiting loosening, with nothing to change them', async () => {
  const login = await callApi<{ token: string }>('/users/login', {
    base: server.base,
    form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
  });
  const token = login.data.token;
  const until = new Date(Date.now() + 72 * 3_600_000).toISOString();
  const settings: [string, string][] = [
    ['stake_day', '100'],
    ['loss_week', '250.5'],
    ['max_open_options', '5'],
    ['reminder_minutes', '45'],
    ['timeout_until', until],
    // A loosening: it waits 24 hours.
    ['stake_day', '300'],
  ];
  for (const [setting, value] of settings) {
    const answer = await callApi(setProtection.path, { base: server.base, token, form: { setting, value } });
    expect(answer, `${setting}=${value}`).toMatchObject({ ret: 1 });
  }

  const ops = opsOn({ dataDir: join(work, 'data') });
  const rita = await enrolOperator(ops, 'rita', 'reviewer');
  const page = await consolePage(CONSOLE_DESKTOP);
  await firstSignIn(page, rita, 'a long console passphrase');
  await page.getByRole('link', { name: 'Customers' }).click();
  await page.getByPlaceholder('Username, mobile number or e-mail').fill('dem');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'demo' }).click();
  await page.getByRole('heading', { name: 'Own limits and time-out' }).waitFor();
  const panel = page.getByTestId('customer-protection');
  const facts = await panel.locator('.console-facts').innerText();
  expect(facts).toContain('Most staked in 24 hours\n100.00 USDT');
  expect(facts).toContain('Most lost in 7 days\n250.50 USDT');
  expect(facts).toContain('Most open options at once\n5');
  expect(facts).toContain('Reminder after\n45 minutes');
  expect(facts).toMatch(/Most staked in 30 days\n(—|None)/);
  expect(await panel.getByTestId('protection-pending').innerText()).toContain('300.00 USDT');
  // Read only: nothing on the page can change a setting.
  expect(await panel.locator('button, input, select, textarea').count()).toBe(0);
  expect(await page.locator('.console-main').getByRole('button').count()).toBe(0);
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, 'console-protection-1280');

  // The same page on a narrow window.
  await page.setViewportSize(CONSOLE_NARROW);
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, 'console-protection-768');
});
