// Customer service as two reviewers work it in the console, each in their own browser: the customer's
// withdrawal in review shows beside the chat; one gives the conversation to the other by picking
// them; while one types an answer the other sees "… is answering…" and is asked before sending one
// too; an internal note shows among the messages and never reaches the customer, whose app (a 390×844
// phone) shows the team's answer and nothing of the note. Operators are made with the real command
// (`ops operator add`) and sign in with the authenticator's code of the printed URI.
// Its own server at real speed: the authenticator and "who is answering" follow real time.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launch, phoneContext, screenshot } from './browser.ts';
import { callApi, logIn, markAllRead } from './pwa.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import {
  CONSOLE_DESKTOP,
  CONSOLE_NARROW,
  enrolOperator,
  firstSignIn as firstSignInAs,
  opsOn,
  type Operator,
} from './console-kit.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { chatHistory, sendChatMessage, type ChatMessage } from '../../src/api-contract/service-chat.ts';
import { seededDataDir } from './own-server.ts';

const DESKTOP = CONSOLE_DESKTOP;
const NARROW = CONSOLE_NARROW;
const NEW_PASSWORD = 'a long console passphrase';
/** A page's refresh of the conversation (5 s) and a render, on a machine running other suites. */
const REFRESHED = { timeout: 20_000 };

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-service-'));
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];
const pages: Record<string, Page> = {};

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: {
        DATA_DIR: seededDataDir(work),
        WEB_ROOT: inject('webRoot'),
        LOG_LEVEL: 'warn',
        PAYEE_COOLING_HOURS: '0',
        AUTH_RATE_LIMIT: '1000',
      },
    }),
    launch(),
  ]);
});

afterEach(async ({ task }) => {
  if (task.result?.errors?.length)
    for (const [name, page] of Object.entries(pages))
      await screenshot(page, `console-service-failed-${name}-${task.name.replace(/\W+/g, '-').slice(0, 50)}`);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const ops = opsOn({ dataDir: join(work, 'data') });
const enrol = (name: string) => enrolOperator(ops, name, 'reviewer');

async function consolePage(name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', baseURL: server.base });
  contexts.push(context);
  return (pages[name] = await context.newPage());
}

const firstSignIn = (page: Page, operator: Operator) => firstSignInAs(page, operator, NEW_PASSWORD);

/** Opens the inbox's open conversations and the customer's. */
async function openConversation(page: Page) {
  await page
    .getByRole('navigation')
    .getByRole('link', { name: /^Inbox/ })
    .click();
  await page.getByRole('tab', { name: 'All open' }).click();
  await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /demo/ }).click();
  await page.getByRole('heading', { name: /^demo/ }).waitFor();
}

// ---- The customer's side, from Node through the customer API -----------------------------------

let token = '';
const customer = <T>(path: string, form: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') =>
  callApi<T>(path, { base: server.base, token, form, method });
const customerMessages = async () =>
  (await customer<{ messages: ChatMessage[] }>(chatHistory.path, {}, 'GET')).data.messages;

const QUESTION = 'My withdrawal of 120 USDT is still in review. When will it be paid?';
const NOTE = 'Payee name checked against the card: it matches. Waiting on four eyes.';
const ANSWER = 'It is being reviewed now: you will be told as soon as it is paid.';
let withdrawal = { id: 0, order_no: '' };
let agent1: Page;
let agent2: Page;

it('shows the customer’s withdrawal in review beside the chat, with a link to its page', async () => {
  token = (
    await callApi<{ token: string }>('/users/login', {
      base: server.base,
      form: { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password },
    })
  ).data.token;
  // 500 USDT in (a crypto recharge the command line approves), 120 of it asked out to a bank card.
  const channels = await customer<{ lists: { id: number; kind: string; currency: string }[] }>('/pay/lists', {}, 'GET');
  const channel = channels.data.lists.find((row) => row.kind === 'crypto' && row.currency === 'USDT')!;
  const recharge = await customer<{ id: number }>('/pay/submit', {
    kind: 'crypto',
    channel_id: String(channel.id),
    amount: '500',
    hash: randomBytes(32).toString('hex'),
  });
  expect(recharge.ret, recharge.msg).toBe(1);
  await ops('recharge', 'approve', String(recharge.data.id));
  const card = await customer<{ id: number }>('/users/bank/add', {
    real_name: 'Somchai Jaidee',
    ifsc: 'KASI0001234',
    bank_code: 'KBANK',
    bank_number: String(100_000_000_000 + randomBytes(4).readUInt32BE()),
    phone: '0812345678',
    email: 'somchai@example.com',
  });
  expect(card.ret, card.msg).toBe(1);
  const asked = await customer<{ id: number; order_no: string; status: string }>('/users/extract', {
    target: 'bank',
    target_id: String(card.data.id),
    amount: '120',
    paypass: DEMO_ACCOUNT.paypass,
  });
  expect(asked, JSON.stringify(asked)).toMatchObject({ ret: 1, data: { status: 'review' } });
  withdrawal = asked.data;
  expect((await customer(sendChatMessage.path, { body: QUESTION })).ret).toBe(1);

  const [first, second] = [await enrol('agent1'), await enrol('agent2')];
  [agent1, agent2] = [await consolePage('agent1'), await consolePage('agent2')];
  await firstSignIn(agent1, first);
  await firstSignIn(agent2, second);
  await openConversation(agent1);
  await openConversation(agent2);

  const beside = agent1.getByRole('region', { name: 'Open withdrawals' });
  await expect
    .poll(() => beside.getByRole('listitem').textContent())
    .toMatch(new RegExp(`^${withdrawal.order_no} 120\\.00 USDT`));
  expect(await beside.getByRole('link', { name: withdrawal.order_no }).getAttribute('href')).toBe(
    `#/withdrawal/${withdrawal.id}`,
  );
  // A list's short time carries its full time, with the UTC offset, on hover.
  expect(await beside.locator('time').getAttribute('title')).toMatch(/\d{4}.* GMT([+\u2212]\d{1,2}(:\d\d)?)?$/);
  const listed = agent1.getByRole('list', { name: 'Conversations' }).locator('time').first();
  expect(await listed.getAttribute('title')).toMatch(/ GMT([+\u2212]\d{1,2}(:\d\d)?)?$/);
});

it('gives the conversation to the other reviewer by picking them; it is theirs in their inbox', async () => {
  const assignee = agent1.getByRole('combobox', { name: 'Assign to' });
  expect(await assignee.locator('option').allTextContents()).toEqual(['Unassigned', 'agent1 (you)', 'agent2']);
  await assignee.selectOption('agent2');
  // The customer still waits for an answer: the state says so before whose it is.
  await expect
    .poll(() => agent1.locator('.console-conversation-state').textContent())
    .toBe('Waits for an answerAssigned to agent2');
  await expect
    .poll(() => agent2.locator('.console-conversation-state').textContent(), REFRESHED)
    .toBe('Waits for an answerAssigned to agent2');
  // The list shows whose it is; agent2's Mine has it, Unassigned not.
  await agent2.getByRole('tab', { name: 'Mine' }).click();
  await expect
    .poll(() => agent2.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /demo/ }).textContent())
    .toMatch(/agent2/);
  await agent2.getByRole('tab', { name: 'Unassigned' }).click();
  await agent2.getByText('No conversation here.').waitFor();
});

it('while agent2 types an answer agent1 sees it, and is asked before sending one too', async () => {
  await agent2.getByLabel('Answer', { exact: true }).fill(ANSWER);
  const warning = agent1.locator('.console-answering');
  await expect.poll(() => warning.textContent(), REFRESHED).toBe('agent2 is answering…');
  await screenshot(agent1, 'console-service-01-answering-1280');
  await agent1.setViewportSize(NARROW);
  await screenshot(agent1, 'console-service-02-answering-768');
  await agent1.setViewportSize(DESKTOP);

  // Agent1 sends anyway: the console asks first; agent1 declines, and nothing is sent.
  await agent1.getByLabel('Answer', { exact: true }).fill('Let me check that for you.');
  const asked = new Promise<string>((resolve) =>
    agent1.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.dismiss();
    }),
  );
  await agent1.getByRole('button', { name: 'Send', exact: true }).click();
  expect(await asked).toBe('agent2 is answering this conversation too. Send your answer anyway?');
  expect(await agent1.getByLabel('Answer', { exact: true }).inputValue()).toBe('Let me check that for you.');
  expect((await customerMessages()).map((message) => message.author)).toEqual(['customer']);
  // Agent1 empties the box: agent2 is no longer told agent1 answers.
  await agent2.locator('.console-answering').waitFor(REFRESHED);
  await agent1.getByLabel('Answer', { exact: true }).fill('');
  await expect.poll(() => agent2.locator('.console-answering').count(), REFRESHED).toBe(0);

  // Agent2 sends theirs: the warning is gone from agent1's page.
  await agent2.getByRole('button', { name: 'Send', exact: true }).click();
  await agent2.locator('.console-bubble-operator').getByText(ANSWER).waitFor();
  await agent1.locator('.console-bubble-operator').getByText(ANSWER).waitFor(REFRESHED);
  await expect.poll(() => warning.count(), REFRESHED).toBe(0);
});

it('an internal note shows among the messages for the team, and the customer’s app never shows it', async () => {
  await agent1.getByRole('button', { name: 'Internal note' }).click();
  await agent1.getByLabel('Internal note', { exact: true }).fill(NOTE);
  await screenshot(agent1, 'console-service-03-note-box-1280');
  await agent1.getByRole('button', { name: 'Add note' }).click();
  const note = agent1.locator('.console-note');
  await expect
    .poll(() => note.textContent())
    .toMatch(/^Internal note — the customer does not see thisagent1 · .+Payee name/);
  expect(await agent1.getByLabel('Internal note', { exact: true }).inputValue()).toBe('');
  // Agent2 sees it after their answer, in the order they were written.
  const chat = agent2.getByRole('list', { name: 'Messages' });
  await expect
    .poll(() => chat.getByRole('listitem').evaluateAll((items) => items.map((item) => item.className)), REFRESHED)
    .toEqual(['console-bubble console-bubble-customer', 'console-bubble console-bubble-operator', 'console-note']);
  await screenshot(agent2, 'console-service-04-note-1280');
  await agent1.getByRole('button', { name: 'Answer the customer' }).click();
  await agent1.setViewportSize(NARROW);
  await screenshot(agent1, 'console-service-05-note-768');
  await agent1.setViewportSize(DESKTOP);
  await screenshot(agent1, 'console-service-06-conversation-1280');

  // The customer's calls carry the question and the answer, nothing of the note.
  expect((await customerMessages()).map((message) => message.body)).toEqual([QUESTION, ANSWER]);

  // And the app on the customer's phone: the team's answer, no note.
  await markAllRead(DEMO_ACCOUNT.username, DEMO_ACCOUNT.password, server.base);
  const phone = await phoneContext(browser, { baseURL: server.base });
  contexts.push(phone);
  const app = (pages.app = await phone.newPage());
  await logIn(app, DEMO_ACCOUNT.username, DEMO_ACCOUNT.password);
  await app.goto('/#/pages/service/chat');
  await app.locator('.chat-row.theirs', { hasText: ANSWER }).waitFor();
  await app.locator('.chat-row.mine', { hasText: QUESTION }).waitFor();
  expect(await app.getByText('Payee name checked').count()).toBe(0);
  expect(await app.locator('.chat-row').count()).toBe(2);
  // Read: the chat counted the answer seen, and its calls have ended.
  await expect.poll(async () => (await customer<{ unread: number }>(chatHistory.path, {}, 'GET')).data.unread).toBe(0);
  await app.locator('.mask').waitFor({ state: 'detached' });
  await screenshot(app, 'console-service-07-customer-chat-390');
});
