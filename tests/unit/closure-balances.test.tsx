// @vitest-environment jsdom
// The closing screen (features/closure/ClosurePage.tsx, EndingBalances.tsx) lists each amount too small to withdraw or
// sell with the withdrawal minimum it is below, says it ends with the account and is not paid out and how to keep it
// instead, and closes only with the customer's consent, sending the amounts shown; a refusal reads the list again.
import { act } from 'react';
import { i18n, type Messages } from '@lingui/core';
import { afterEach, expect, it } from 'vitest';
import ClosurePage from '../../src/features/closure/ClosurePage.tsx';
import type { EndingBalance } from '../../src/api-contract/closure.ts';
import { toasts } from '../../src/lib/toast.ts';
import { envelope, mountPoint, resetClientState, stubFetch, type Call } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
afterEach(async () => {
  resetClientState();
  await act(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));
});

const USDT_077: EndingBalance = {
  asset: 'USDT',
  amount: '0.77000000',
  min_amount: '10.00000000',
  least_amount: '10.10000000',
};
const BTC_DUST: EndingBalance = {
  asset: 'BTC',
  amount: '0.00000898',
  min_amount: '0.00050000',
  least_amount: '0.00050250',
};
const CHANGED =
  'The small amounts that would end with your account are not the ones you were shown: a balance or a price changed. Check the list again before closing.';

/**
 * Opens the page on a fake server: no points, the ending lists of `lists` in turn (the last repeats) and, for the
 * close, `closeAnswer`. Answers the requests made.
 */
async function openWith(lists: EndingBalance[][], closeAnswer: () => Response) {
  const log: { calls: Call[] } = { calls: [] };
  let endings = 0;
  const route = () => {
    const path = new URL(log.calls.at(-1)!.request.url).pathname;
    if (path === '/api/users/point/lists')
      return envelope(1, 'Success', { lists: [], next: null, usdt_per_point: '0.01', min_points: '100', balance: '0' });
    if (path === '/api/users/close/ending')
      return envelope(1, 'Success', { lists: lists[Math.min(endings++, lists.length - 1)] });
    if (path === '/api/users/close') return closeAnswer();
    return envelope(0, `unexpected ${path}`);
  };
  log.calls = stubFetch(route).calls;
  await renderInApp(view, <ClosurePage />);
  await settle(() => endings > 0);
  return log.calls;
}

/** Lets the page's calls answer and render (a few turns of the event loop; the bound only stops a hang). */
async function settle(done: () => boolean) {
  await act(async () => {
    for (let turn = 0; turn < 50 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  await act(async () => undefined);
}

const closeSection = () => view.container.querySelectorAll('.closure-section')[1]!;
const closeButton = () => [...closeSection().querySelectorAll('button')].at(-1)!;
const consentBox = () => closeSection().querySelector<HTMLInputElement>('.closure-ending-balances input')!;

async function typePassword() {
  const input = closeSection().querySelector<HTMLInputElement>('input[type="password"]')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setValue.call(input, 'secret123');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

it('lists 0.77 USDT below the 10 USDT minimum, says it is not paid out, and closes only with consent, sending it', async () => {
  const calls = await openWith([[USDT_077]], () =>
    envelope(1, 'Success', {
      closed_at: '2026-12-05T00:00:00.000Z',
      contacts_free_at: '2027-06-03T00:00:00.000Z',
      kept_until: '2031-12-05T00:00:00.000Z',
    }),
  );
  const listed = closeSection().querySelector('.closure-ending-balances')!;
  expect([...listed.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
    '0.77000000 USDT — below the 10 USDT withdrawal minimum',
  ]);
  expect(listed.textContent).toContain(
    'These amounts cannot be withdrawn or sold. They end with the account and are not paid out:',
  );
  expect(listed.textContent).toContain(
    'To keep them instead, deposit enough to reach the withdrawal minimum and withdraw.',
  );
  expect(listed.textContent).toContain('I agree that these amounts end with my account and are not paid out.');

  // No consent: the button does nothing.
  await typePassword();
  expect(consentBox().checked).toBe(false);
  expect(closeButton().disabled).toBe(true);
  await act(async () => closeButton().click());
  expect(document.querySelector('[role="alertdialog"]')).toBeNull();

  // Consent given: the dialog states the amounts again, and the close carries exactly them.
  await act(async () => consentBox().click());
  expect(closeButton().disabled).toBe(false);
  await act(async () => closeButton().click());
  const dialog = document.querySelector('[role="alertdialog"]')!;
  expect(dialog.querySelector('.closure-ending-list')?.textContent).toBe(
    'Ending with the account, not paid out:0.77000000 USDT — below the 10 USDT withdrawal minimum',
  );
  const confirm = [...dialog.querySelectorAll('button')].find((button) => button.textContent === 'Close it')!;
  await act(async () => confirm.click());
  await settle(() => calls.some((call) => new URL(call.request.url).pathname === '/api/users/close'));
  const close = calls.find((call) => new URL(call.request.url).pathname === '/api/users/close')!;
  expect(Object.fromEntries(new URLSearchParams(close.body))).toEqual({
    secret_kind: 'login',
    secret: 'secret123',
    amounts: 'USDT:0.77',
  });
});

it('names converting first for a coin; a refusal reads the list again and asks for consent again', async () => {
  const calls = await openWith([[BTC_DUST, USDT_077], [BTC_DUST]], () => envelope(0, CHANGED));
  const listed = closeSection().querySelector('.closure-ending-balances')!;
  expect([...listed.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
    '0.00000898 BTC — below the 0.0005 BTC withdrawal minimum',
    '0.77000000 USDT — below the 10 USDT withdrawal minimum',
  ]);
  expect(listed.textContent).toContain(
    'To keep them instead, deposit enough to reach the withdrawal minimum and withdraw, or first convert a coin to USDT with Convert small balances on the contracts page.',
  );
  await typePassword();
  await act(async () => consentBox().click());
  await act(async () => closeButton().click());
  const dialog = document.querySelector('[role="alertdialog"]')!;
  const confirm = [...dialog.querySelectorAll('button')].find((button) => button.textContent === 'Close it')!;
  await act(async () => confirm.click());
  const endingReads = () =>
    calls.filter((call) => new URL(call.request.url).pathname === '/api/users/close/ending').length;
  await settle(() => endingReads() === 2);
  const close = calls.find((call) => new URL(call.request.url).pathname === '/api/users/close')!;
  expect(new URLSearchParams(close.body).get('amounts')).toBe('BTC:0.00000898,USDT:0.77');
  expect(toasts.current?.text).toBe(CHANGED);
  expect([...closeSection().querySelectorAll('.closure-ending-balances li')].map((item) => item.textContent)).toEqual([
    '0.00000898 BTC — below the 0.0005 BTC withdrawal minimum',
  ]);
  expect(consentBox().checked).toBe(false);
  expect(closeButton().disabled).toBe(true);
});

it('says it in the reader’s language: Thai', async () => {
  const locale = 'th';
  const { messages } = (await import(`../../src/locales/${locale}/messages.po`)) as { messages: Messages };
  await act(() => i18n.loadAndActivate({ locale, messages }));
  await openWith([[USDT_077]], () => envelope(0, ''));
  expect(closeSection().querySelector('.closure-ending-balances li')?.textContent).toBe(
    '0.77000000 USDT — ต่ำกว่าขั้นต่ำในการถอน 10 USDT',
  );
});

it('names the minimum plus its fee for an amount at the minimum that no withdrawal can take', async () => {
  const atMinimum: EndingBalance = {
    asset: 'USDT',
    amount: '10.00000000',
    min_amount: '10.00000000',
    least_amount: '10.10000000',
  };
  await openWith([[atMinimum]], () => envelope(0, ''));
  expect(closeSection().querySelector('.closure-ending-balances li')?.textContent).toBe(
    '10.00000000 USDT — below the 10.1 USDT the smallest withdrawal (10 USDT) takes with its fee',
  );
});

/** The "Take your data" section's text of what the archive holds. */
const archiveText = () => view.container.querySelectorAll('.closure-section')[0]!.querySelector('p')?.textContent;

it('names the balances among the archive’s parts, with what of them would end with closing', async () => {
  await openWith([[]], () => envelope(0, ''));
  expect(archiveText()).toBe(
    'One archive (ZIP) with your profile, balances (what you hold, and what of it would end with closing), ledger, ' +
      'orders, messages, sessions and certifications, each as a JSON file and a CSV file for spreadsheets. You can ' +
      'take it at any time, before or without closing.',
  );
});

it.each([
  ['zh', '余额（您持有的资产，以及其中哪些会随注销结束）'],
  ['th', 'ยอดคงเหลือ (สิ่งที่คุณถืออยู่ และส่วนใดจะสิ้นสุดเมื่อปิดบัญชี)'],
  ['jp', '残高（保有している資産と、そのうち解約で消滅するもの）'],
  ['ar', 'أرصدتك (ما تملكه، وما سينتهي منه مع الإغلاق)'],
  ['hi', 'शेष राशियाँ (आपके पास क्या है, और उसमें से क्या खाता बंद करने पर समाप्त होगा)'],
])('names the balances among the archive’s parts in %s too', async (locale, balances) => {
  const { messages } = (await import(`../../src/locales/${locale}/messages.po`)) as { messages: Messages };
  await act(() => i18n.loadAndActivate({ locale, messages }));
  await openWith([[]], () => envelope(0, ''));
  expect(archiveText()).toContain(balances);
});

it('lists what holds the closure before the password is typed, and reads it again after a refusal', async () => {
  const HELD = 'Your account still holds BTC. Every balance, frozen ones included, must be zero before closing.';
  const OPEN = 'A contract order is still open. Revoke it, or close the account once it has filled.';
  const answers = [[HELD, OPEN], [OPEN]];
  let endings = 0;
  const { calls } = stubFetch(() => {
    const path = new URL(calls.at(-1)!.request.url).pathname;
    if (path === '/api/users/point/lists')
      return envelope(1, 'Success', { lists: [], next: null, usdt_per_point: '0.01', min_points: '100', balance: '0' });
    if (path === '/api/users/close/ending')
      return envelope(1, 'Success', { lists: [], holds: answers[Math.min(endings++, answers.length - 1)] });
    if (path === '/api/users/close') return envelope(0, OPEN);
    return envelope(0, `unexpected ${path}`);
  });
  await renderInApp(view, <ClosurePage />);
  await settle(() => endings > 0);
  const holds = () => [...closeSection().querySelectorAll('.closure-holds li')].map((item) => item.textContent);
  expect(closeSection().querySelector('.closure-holds-title')?.textContent).toBe('Before the account can close:');
  expect(holds()).toEqual([HELD, OPEN]);

  await typePassword();
  await act(async () => closeButton().click());
  const dialog = view.container.querySelector('[role="alertdialog"]')!;
  await act(async () => [...dialog.querySelectorAll('button')].at(-1)!.click());
  await settle(() => endings > 1);
  expect(holds()).toEqual([OPEN]);
});
