// Daily check-in and welfare as a person uses them: a new customer opens Home → Check in, taps the
// button, sees "+5 points", the streak, the balance, today marked and the ladder's next step; a
// reload still says "Checked in today". Then welfare: the tasks as the server states them, a
// claimable one claimed (its reward paid once), a locked one's details and the way to meet it.
// The e2e server's clock runs 20× (a day lasts 72 minutes): the test reads the day from the server.
import { beforeAll, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { callApi, documentPng, logIn, registerUser } from './pwa.ts';
import { operator, rowId } from './operator.ts';
import { fundedUser } from './funded-user.ts';
import { openedOption } from './order-form.ts';

let page: Page;
phonePageForFile((opened) => {
  page = opened;
  page.setDefaultTimeout(30_000);
});

interface Calendar {
  today: string;
  signed_today: boolean;
  streak: number;
  balance: string;
}
interface Task {
  code: string;
  state: string;
}

let token = '';
const calendar = async () => (await callApi<Calendar>('/task/signin', { method: 'GET', token })).data;
const tasks = async () => (await callApi<{ lists: Task[] }>('/task/welfare', { method: 'GET', token })).data.lists;
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 200 });
const toast = () => page.getByRole('alert').textContent();
const points = (text: string | null) => Number((text ?? '').replace(/,/g, ''));
async function shot(name: string) {
  await page.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(page, name);
}

// A customer of its own: other files use the demo account (its points, its option records) meanwhile.
const phone = `08${String(Date.now()).slice(-8)}`;
const password = 'checkin123';

beforeAll(async () => {
  token = await fundedUser(phone, password, '246810', '20');
  // A first option makes one welfare task claimable whatever ran before (one BTC product, 1 USDT).
  const products = await callApi<{ lists: { id: number }[] }>('/coin/option/products', {
    method: 'GET',
    form: { code: 'BTC' },
  });
  const placed = await openedOption<{ id: number; status: string; outcome: string | null }>({
    token,
    form: { code: 'BTC', direction: 'up', amount: '1', product_id: String(products.data.lists[0]!.id) },
  });
  expect(placed.status).toBe('holding');
});

it('opens the check-in page from Home: the month, the streak, the balance and the ladder', async () => {
  await logIn(page, phone, password);
  await page.locator('a[href="#/pages/index/singin"]').first().click();
  await page.waitForURL(/#\/pages\/index\/singin$/);
  await poll(() => page.locator('.navbar h1').textContent()).toBe('Daily check-in');
  const before = await calendar();
  expect(before.signed_today).toBe(false); // a new customer has not checked in
  await poll(() => page.getByTestId('check-in-balance').textContent()).toBe(
    Number(before.balance).toLocaleString('en-US'),
  );
  expect(await page.getByTestId('check-in-streak').textContent()).toBe('0 days');
  expect(await page.locator('.check-in-grid thead th').allTextContents()).toHaveLength(7);
  const today = Number(before.today.slice(8));
  expect(await page.locator('.check-in-day[aria-current="date"]').textContent()).toBe(String(today));
  expect(await page.locator('.check-in-ladder li').count()).toBe(7);
  expect(await page.locator('.check-in-ladder li[aria-current="step"]').textContent()).toBe('+5Day 1');
  expect(await page.locator('.check-in-button').textContent()).toBe('Check in+5');
  await shot('check-in-01-before');
});

it('checks in once: "+5 points", the streak, the balance, today marked, the button done', async () => {
  const before = points(await page.getByTestId('check-in-balance').textContent());
  await page.locator('.check-in-button').click();
  await poll(toast).toBe('+5 points');
  await poll(() => page.locator('.check-in-button').textContent()).toBe('Checked in today');
  expect(await page.locator('.check-in-button').isDisabled()).toBe(true);
  expect(await page.getByTestId('check-in-streak').textContent()).toBe('1 day');
  await poll(async () => points(await page.getByTestId('check-in-balance').textContent())).toBe(before + 5);
  const after = await calendar();
  expect(after).toMatchObject({ signed_today: true, streak: 1 });
  expect(points(Number(after.balance).toLocaleString('en-US'))).toBe(before + 5);
  await poll(() => page.locator('.check-in-day.checked-in').allTextContents()).toEqual([
    String(Number(after.today.slice(8))),
  ]);
  expect(await page.locator('.check-in-ladder li[aria-current="step"]').textContent()).toBe('+5Day 2');
  await page.getByText('Come back tomorrow for +5 points.').waitFor();
  await shot('check-in-02-checked-in');

  // Opened again, the server's answer keeps it done; the API refuses a second check-in.
  await page.reload();
  await poll(() => page.locator('.check-in-button').textContent()).toBe('Checked in today');
  expect(await callApi('/task/signin', { token })).toMatchObject({ ret: 0, msg: 'You have already checked in today!' });
  // An earlier month browses back (no check-in there), and forward again.
  const month = (await calendar()).today.slice(0, 7);
  const title = (m: string) =>
    new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(`${m}-01T00:00:00Z`),
    );
  const earlier = new Date(`${month}-01T00:00:00Z`);
  earlier.setUTCMonth(earlier.getUTCMonth() - 1);
  await page.getByRole('button', { name: 'Previous month' }).click();
  await poll(() => page.locator('.check-in-month h2').textContent()).toBe(title(earlier.toISOString().slice(0, 7)));
  expect(await page.locator('.check-in-day.checked-in').count()).toBe(0);
  await page.getByRole('button', { name: 'Next month' }).click();
  await poll(() => page.locator('.check-in-month h2').textContent()).toBe(title(month));
  expect(await page.getByRole('button', { name: 'Next month' }).isDisabled()).toBe(true);
  // The point history names the entry.
  await page.goto('/#/pages/mine/pointRecord');
  await page.locator('.points-row-kind', { hasText: 'Daily check-in' }).first().waitFor();
  // Points are whole: a decimal mark or a sign is refused with its text, never dropped to make 1005 or 200 points;
  // digits of another script are read.
  const field = page.getByLabel('Points to redeem');
  const preview = page.locator('.points-preview');
  const problem = page.locator('.points-redeem .error-text');
  for (const typed of ['100.5', '-200']) {
    await field.fill(typed);
    await poll(() => problem.textContent()).toBe(
      'Points are whole numbers: enter digits only, without a decimal mark or a sign.',
    );
    expect(await field.inputValue()).toBe(typed);
    expect(await preview.textContent()).toBe('You receive—');
  }
  await field.fill('๑๐๐');
  await problem.waitFor({ state: 'detached' });
  await poll(() => preview.textContent()).toMatch(/^You receive1\.00 USDT/);
});

it('shows the welfare tasks as the server states them and claims a claimable one once', async () => {
  await page.goto('/#/pages/index/singin');
  await page.getByRole('link', { name: 'Welfare' }).click();
  await page.waitForURL(/#\/pages\/index\/welfare$/);
  const rows = page.locator('.welfare-task');
  await poll(() => rows.count()).toBe(4);
  const server = await tasks();
  expect(
    await rows.evaluateAll((items) =>
      items.map((item) => [item.getAttribute('data-code'), item.getAttribute('data-state')]),
    ),
  ).toEqual(server.map((task) => [task.code, task.state]));
  expect(server.find((task) => task.code === 'first_option')?.state).toBe('claimable');
  await shot('welfare-01-list');

  const option = page.locator('.welfare-task[data-code="first_option"]');
  await option.getByRole('button', { name: 'Claim' }).click();
  await poll(toast).toBe('Claimed: +30 points');
  await poll(() => option.getAttribute('data-state')).toBe('claimed');
  expect(await option.locator('.welfare-claimed').textContent()).toBe('Claimed');
  expect((await tasks()).find((task) => task.code === 'first_option')?.state).toBe('claimed');
  expect(await callApi('/task/welfare/claim', { token, form: { code: 'first_option' } })).toMatchObject({
    ret: 0,
    msg: 'You have already claimed this reward!',
  });
});

it('explains a locked task and links to where its condition is met', async () => {
  await page.locator('.welfare-task[data-code="primary_certification"] .welfare-text').click();
  await page.waitForURL(/#\/pages\/index\/welfareDetails\?code=primary_certification$/);
  await poll(() => page.locator('.welfare-details h2').textContent()).toBe('Complete primary certification');
  expect(await page.locator('.welfare-details').getAttribute('data-state')).toBe('locked');
  await page.getByText('Not completed yet').waitFor();
  expect(await page.getByRole('link', { name: 'Certify' }).getAttribute('href')).toBe(
    '#/pages/mine/Certification/primary',
  );
  await shot('welfare-02-details');
});

/** Sends `userToken`'s primary certification with passport `number` and has the operator verify it. */
async function certifiedWith(userToken: string, userPhone: string, number: string) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(documentPng(80))], { type: 'image/png' }), 'passport.png');
  const upload = await fetch(`${inject('baseUrl')}/api/users/upload`, {
    method: 'POST',
    headers: { token: userToken, lang: 'en' },
    body: form,
  });
  const image = ((await upload.json()) as { data: { url: string } }).data.url;
  const sent = await callApi('/users/levelauth', {
    token: userToken,
    form: { level: 'primary', doc_type: 'passport', name: 'Malee Srisuk', number, image },
  });
  expect(sent.ret, sent.msg).toBe(1);
  const id = rowId(await operator('certifications'), userPhone);
  expect(await operator('certification', 'approve', id)).toMatch(/verified\./);
}

it('says why the certification reward is held when the document was verified for another account first', async () => {
  const passport = `CI${String(Date.now()).slice(-7)}`;
  const otherPhone = `09${String(Date.now()).slice(-8)}`;
  await registerUser(otherPhone, password, '246810');
  const other = await callApi<{ token: string }>('/users/login', { form: { username: otherPhone, password } });
  await certifiedWith(other.data.token, otherPhone, passport);
  await certifiedWith(token, phone, passport);
  await page.goto('/#/pages/index/welfare');
  const row = page.locator('.welfare-task[data-code="primary_certification"]');
  const said = 'Paid once per person: your identity document was verified for another account first.';
  await poll(() => row.locator('.welfare-held').textContent()).toBe(said);
  expect(await row.getAttribute('data-state')).toBe('locked');
  // Nothing to do would change it: no "Certify" link, no Claim.
  expect(await row.locator('.welfare-action').locator('a, button').count()).toBe(0);
  await shot('welfare-04-held');
  await row.locator('.welfare-text').click();
  await page.waitForURL(/#\/pages\/index\/welfareDetails\?code=primary_certification$/);
  await page.locator('.welfare-details').getByText(said).waitFor();
  expect(await page.locator('.welfare-details-action').locator('a, button').count()).toBe(0);
});

it('lays the check-in and welfare pages out right to left in Arabic', async () => {
  await page.goto('/#/pages/mine/mine');
  await page.getByRole('button', { name: /Language/ }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: /العربية/ }).click()]);
  await poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  await page.goto('/#/pages/index/singin');
  await poll(() => page.locator('.check-in-day.checked-in').count()).toBe(1);
  // The weekday heads are Arabic (Intl), the digits Latin as everywhere in the app.
  expect((await page.locator('.check-in-grid thead th').allTextContents()).join('')).toMatch(/^[\u0600-\u06ff]+$/);
  await shot('check-in-03-arabic');
  await page.goto('/#/pages/index/welfare');
  await poll(() => page.locator('.welfare-task').count()).toBe(4);
  await shot('welfare-03-arabic');
});
