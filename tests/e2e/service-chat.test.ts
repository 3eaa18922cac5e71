// Customer service chat as a customer meets it, on a 390×844 phone: the service page
// leads to the chat; a message goes to the service team; one written offline waits on the device
// (also across a reload) and is sent once when the connection returns; a picture goes too; the
// team's answer (from the console's API, as a reviewer sends it) shows the unread dot on Home and
// reads in the chat, which then counts it seen.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePageForFile, screenshot } from './browser.ts';
import { operator } from './operator.ts';
import { callApi, controlledByServiceWorker, logIn, registerUser, testPng } from './pwa.ts';
import { base32Decode, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import type { ChatMessage } from '../../src/api-contract/service-chat.ts';

let page: Page;
phonePageForFile((opened) => (page = opened));

const phone = `063${String(Date.now()).slice(-7)}`;
const password = 'chat12345';
let token = '';
let reviewer = '';

const history = async () =>
  (await callApi<{ messages: ChatMessage[]; unread: number }>('/service/chat', { method: 'GET', token })).data;
const sentBodies = async () =>
  (await history()).messages.filter((message) => message.author === 'customer').map((message) => message.body);

/**
 * A reviewer of the console, made with `ops operator add`, signed in with the code of the printed
 * URI, first password changed. This server's clock runs 20 times faster than real time
 * (CLOCK_SPEED): the code is the one of the server's time, which `serverNow` reads just before.
 */
async function reviewerToken(serverNow: () => Promise<Date>): Promise<string> {
  const name = `chat${String(Date.now()).slice(-6)}`;
  const printed = await operator('operator', 'add', name, 'reviewer');
  const first = /First password \(to be changed at the first sign-in\): (\S+)/.exec(printed)![1]!;
  const secret = new URL(/^(otpauth:\/\/totp\/\S+)$/m.exec(printed)![1]!).searchParams.get('secret')!;
  const signedIn = await callApi<{ token: string }>('/console/sign-in', {
    form: { name, password: first, code: totpAt(base32Decode(secret), totpStep(await serverNow())) },
  });
  expect(signedIn.ret, JSON.stringify(signedIn)).toBe(1);
  const changed = await callApi('/console/password', {
    token: signedIn.data.token,
    form: { password: first, new_password: 'a long reviewer passphrase' },
  });
  expect(changed.ret, JSON.stringify(changed)).toBe(1);
  return signedIn.data.token;
}

it('online: the service page leads to the chat, and a message reaches the service team', async () => {
  await registerUser(phone, password, '135790');
  token = (await callApi<{ token: string }>('/users/login', { form: { username: phone, password } })).data.token;
  await page.goto('/#/pages/login/login');
  await controlledByServiceWorker(page);
  await logIn(page, phone, password);
  await page.goto('/#/pages/service/index');
  await page.getByRole('link', { name: /Chat with us/ }).click();
  await page.getByText('Write to us here').waitFor();

  await page.getByLabel('Write a message').fill('Hello, my recharge of 500 USDT is still pending.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('.chat-row.mine:not(.waiting)', { hasText: 'my recharge of 500 USDT' }).waitFor();
  await expect.poll(sentBodies).toEqual(['Hello, my recharge of 500 USDT is still pending.']);

  // An empty message is refused on the page, with the chat's text, and nothing is sent.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText('Please write a message or choose a picture!').waitFor();
  // One character more than a message holds (counted as a reader counts them), and the text is kept to shorten.
  const long = 'ก'.repeat(2001);
  await page.getByLabel('Write a message').fill(long);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText('The message is too long (at most 2,000 characters)!').waitFor();
  expect(await page.getByLabel('Write a message').inputValue()).toBe(long);
  expect(await sentBodies()).toHaveLength(1);
});

it('offline: a message waits on the device, across a reload, and is sent once when the connection returns', async () => {
  const sends: string[] = [];
  page.context().on('request', (request) => {
    if (request.url().includes('/api/service/chat/send')) sends.push(request.headers()['idempotency-key'] ?? '');
  });
  await page.context().route('**/api/**', (route) => route.abort('internetdisconnected'));
  await page.context().setOffline(true);
  await page.getByLabel('Write a message').fill('Written in the lift, no signal.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page
    .locator('.chat-row.waiting', { hasText: 'Written in the lift' })
    .getByText('Waiting for the network')
    .waitFor();
  await screenshot(page, 'service-chat-offline');

  await page.reload();
  await page.locator('.chat-row.waiting', { hasText: 'Written in the lift' }).waitFor();
  // The conversation itself reopened from the cached answer.
  await page.locator('.chat-row.mine', { hasText: 'my recharge of 500 USDT' }).waitFor();
  expect(await sentBodies()).toHaveLength(1);

  await page.context().unroute('**/api/**');
  await page.context().setOffline(false);
  await page.locator('.chat-row.mine:not(.waiting)', { hasText: 'Written in the lift' }).waitFor({ timeout: 20_000 });
  await expect
    .poll(sentBodies)
    .toEqual(['Hello, my recharge of 500 USDT is still pending.', 'Written in the lift, no signal.']);
  // Every attempt carried the one key it was given when written.
  expect(new Set(sends.filter(Boolean)).size).toBe(1);
});

it('sends a picture, shown in the conversation', async () => {
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: testPng(200) });
  await page.getByRole('img', { name: 'Picture to send' }).waitFor();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(async () => (await history()).messages.filter((message) => message.picture).length).toBe(1);
  await expect
    .poll(() =>
      page
        .locator('.chat-row.mine:not(.waiting) img.chat-picture')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
});

it('the team’s answer shows a dot on Home, reads in the chat, and is then counted seen', async () => {
  // The customer has left the chat (open, it would show the answer at once and count it seen).
  await page.goto('/#/pages/index/index');
  // One more question, sent from another device of the customer: its time is the server's now.
  reviewer = await reviewerToken(async () => {
    const question = await callApi<ChatMessage>('/service/chat/send', { token, form: { body: 'Is it credited yet?' } });
    return new Date(question.data.created_at);
  });
  // The inbox lists it waiting: the conversation whose messages are this customer's.
  const inbox = await callApi<{ id: number; waiting: boolean }[]>('/console/service/conversations', {
    method: 'GET',
    token: reviewer,
    form: { view: 'waiting' },
  });
  type Detail = { conversation: { id: number }; messages: { body: string }[] };
  const details = await Promise.all(
    inbox.data.map(
      async (row) =>
        (
          await callApi<Detail>('/console/service/conversation', {
            method: 'GET',
            token: reviewer,
            form: { id: String(row.id) },
          })
        ).data,
    ),
  );
  const ours = details.find((detail) =>
    detail.messages.some((message) => message.body === 'Written in the lift, no signal.'),
  );
  expect(ours, JSON.stringify(inbox)).toBeTruthy();
  const answer = await callApi('/console/service/reply', {
    token: reviewer,
    form: { id: String(ours!.conversation.id), body: 'Thank you: the recharge is credited now.' },
  });
  expect(answer.ret, JSON.stringify(answer)).toBe(1);
  expect((await history()).unread).toBe(1);

  // The app opened again (as from the notification): Home's service entry carries the dot.
  await page.reload();
  await page.locator('.home-entries a', { hasText: 'Service' }).locator('.count-badge.dot').waitFor();
  await page.goto('/#/pages/service/index');
  await page
    .getByRole('link', { name: /Chat with us/ })
    .locator('.count-badge', { hasText: '1' })
    .waitFor();
  await screenshot(page, 'service-page-unread');
  await page.getByRole('link', { name: /Chat with us/ }).click();
  await page
    .locator('.chat-row.theirs', { hasText: 'the recharge is credited now' })
    .getByText('Customer service')
    .waitFor();
  await expect.poll(async () => (await history()).unread).toBe(0);
  await screenshot(page, 'service-chat');
});
