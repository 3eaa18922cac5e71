// A failed call's request id reaches support: the app keeps the x-request-id of its last failed calls (across a
// reload) and the diagnostics page shows it with the call and its time, with a Copy button — the id the server's log
// lines of that request carry.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

it('a refused login’s request id is on the diagnostics page, after a reload too', async () => {
  await page.goto('/#/pages/login/login');
  await page.getByLabel('Username, mobile number or e-mail').fill(`nobody-${Date.now()}`);
  await page.getByLabel('Password').fill('wrongpass1');
  await page.getByRole('checkbox').check();
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/users/login'));
  await page.getByRole('button', { name: 'Log in' }).click();
  const requestId = (await answered).headers()['x-request-id'];
  expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong username or password!');

  // Kept on the device: a reload (the customer closes the app, then calls support) still shows it.
  await page.goto('/#/pages/mine/diagnostics');
  const failed = page.getByTestId('diag-failed-calls').locator('li');
  await expect.poll(() => failed.count()).toBe(1);
  await page.reload();
  await expect.poll(() => failed.count()).toBe(1);
  const row = await failed.first().textContent();
  expect(row).toContain('POST /users/login');
  expect(row).toContain('HTTP 200 · ret 0');
  expect(row).toContain(requestId);
  await expect.poll(() => page.locator('.diag-card', { hasText: 'Last failed calls' }).isVisible()).toBe(true);

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await failed.first().getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(requestId);

  await page.getByTestId('diag-failed-calls').evaluate((list) => list.scrollIntoView({ block: 'center' }));
  await screenshot(page, '62-diagnostics-failed-calls');
});
