// Identity certification as a person goes through it: a new user sends the primary level (ID card,
// name, number, a photo from the phone), meets the advanced page's refusal while primary waits, the
// operator verifies primary with the real operator command, then the advanced level (the document's
// back and a photo holding it) goes to review and is verified too; Mine follows each step.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, sameTarget, screenshot } from './browser.ts';
import { operator, rowId } from './operator.ts';
import { documentPng, logIn, registerUser } from './pwa.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `063${String(Date.now()).slice(-7)}`;
const password = 'certify123';
const photo = (name: string) => ({ name, mimeType: 'image/png', buffer: documentPng(64) });

const toast = () => page.getByRole('alert').textContent();
const badge = () => page.locator('.cert-status .cert-badge').textContent();
const mineSummary = () => page.locator('.cell', { hasText: 'Certification' }).locator('.cell-value').textContent();
async function shot(name: string): Promise<void> {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

/** Chooses a picture in the nth photo field and waits until it is uploaded and previewed. */
async function choosePhoto(index: number, name: string): Promise<void> {
  await page.locator('input[type="file"]').nth(index).setInputFiles(photo(name));
  await page.locator('.cert-photo').nth(index).locator('img').waitFor();
  await expect
    .poll(() =>
      page
        .locator('.cert-photo')
        .nth(index)
        .evaluate((field) => field.classList.contains('filled')),
    )
    .toBe(true);
}

it('a new user logs in; Mine says not certified', async () => {
  await registerUser(phone, password, '135790');
  await logIn(page, phone, password);
  await page.goto('/#/pages/mine/mine');
  await expect.poll(mineSummary).toBe('Not certified');
});

it('sends the primary certification: ID card, name, number and a photo; then under review', async () => {
  await page.locator('.cell', { hasText: 'Certification' }).click();
  await page.waitForURL(/#\/pages\/mine\/Certification\/primary$/);
  await expect.poll(badge).toBe('Not certified');

  await page.getByRole('button', { name: 'Passport' }).click();
  await page.getByRole('button', { name: 'ID card' }).click();
  expect(await page.getByRole('button', { name: 'ID card' }).getAttribute('aria-pressed')).toBe('true');
  await page.getByLabel('Name', { exact: true }).fill('Malee Srisuk');
  await page.getByLabel('Document number').fill('1 1037 00123 45 6');
  expect(await page.getByLabel('Document number').inputValue()).toBe('1103700123456');

  // Without the photo the form says what is missing and sends nothing.
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect.poll(toast).toBe('Please upload a photo of the document!');
  expect(await badge()).toBe('Not certified');

  await choosePhoto(0, 'id-front.png');
  await shot('cert-01-primary-filled');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect.poll(badge).toBe('Under review');
  await expect.poll(toast).toBe('Submitted successfully, please wait for the review!');
  expect(await page.getByRole('button', { name: 'Submit for review' }).count()).toBe(0);
  const facts = await page.locator('.cert-facts dd').allTextContents();
  expect(facts.slice(0, 2)).toEqual(['ID card', 'Malee Srisuk']);
  expect(facts[2]).toMatch(/3456$/);
  expect(facts[2]).not.toContain('1103700123456');
  await shot('cert-02-primary-review');
});

it('the advanced page waits for a verified primary', async () => {
  await page.goto('/#/pages/mine/Certification/advanced');
  await expect
    .poll(() => page.locator('.cert-blocked p').textContent())
    .toBe('Please complete the primary certification before proceeding to the advanced certification!');
  expect(await page.locator('input[type="file"]').count()).toBe(0);
  await shot('cert-03-advanced-blocked');
  await page.getByRole('button', { name: 'Go to primary certification' }).click();
  await page.waitForURL(/#\/pages\/mine\/Certification\/primary$/);
});

it('the operator verifies the primary level; the way on to advanced opens', async () => {
  const listing = await operator('certifications');
  const id = rowId(listing, phone);
  expect(listing.split('\n').find((line) => line.includes(sameTarget(phone)))).toMatch(
    /primary\s+id_card\s+Malee Srisuk/,
  );
  expect(await operator('certification', 'approve', id)).toMatch(
    new RegExp(`^Certification ${id} \\(primary, user \\d+\\) verified\\.`),
  );

  await page.reload();
  await expect.poll(badge).toBe('Verified');
  await expect.poll(() => page.locator('.cert-next p').textContent()).toBe('Advanced certification: Not certified');
  await shot('cert-04-primary-verified');
  await page.getByRole('button', { name: 'Continue to advanced certification' }).click();
  await page.waitForURL(/#\/pages\/mine\/Certification\/advanced$/);
});

it('sends the advanced certification: the back and a photo holding the document; then under review', async () => {
  await expect.poll(badge).toBe('Not certified');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect.poll(toast).toBe('Please upload a photo of the document!');

  await choosePhoto(0, 'id-back.png');
  await choosePhoto(1, 'holding-id.png');
  await shot('cert-05-advanced-filled');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await expect.poll(badge).toBe('Under review');
  await expect.poll(toast).toBe('Submitted successfully, please wait for the review!');
  await shot('cert-06-advanced-review');

  await page.goto('/#/pages/mine/mine');
  await expect.poll(mineSummary).toBe('Advanced under review');
});

it('the operator verifies the advanced level: verified, and Mine says so', async () => {
  const listing = await operator('certifications');
  const line = listing.split('\n').find((entry) => entry.includes(sameTarget(phone)));
  expect(line).toMatch(/advanced/);
  expect(line).toMatch(/back: \S+ hold: \S+/);
  const id = rowId(listing, phone);
  expect(await operator('certification', 'approve', id)).toMatch(
    new RegExp(`^Certification ${id} \\(advanced, user \\d+\\) verified\\.`),
  );

  await page.goto('/#/pages/mine/Certification/advanced');
  await page.reload();
  await expect.poll(badge).toBe('Verified');
  expect(await page.getByRole('button', { name: 'Submit for review' }).count()).toBe(0);
  await shot('cert-07-advanced-verified');

  await page.goto('/#/pages/mine/mine');
  await expect.poll(mineSummary).toBe('Advanced verified');
  await shot('cert-08-mine');
});
