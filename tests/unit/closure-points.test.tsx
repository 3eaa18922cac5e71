// @vitest-environment jsdom
// The closing screen (features/closure/ClosurePage.tsx) tells the customer, before they confirm, how many points end
// with the account: points below the redemption minimum, which can never be redeemed (the server ends them with a
// ledger entry of their own). Points at or above the minimum end nothing: the server refuses until they are redeemed.
import { act } from 'react';
import { i18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, expect, it } from 'vitest';
import ClosurePage from '../../src/features/closure/ClosurePage.tsx';
import { envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
afterEach(async () => {
  resetClientState();
  await act(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));
});

/** The point record's first page as the server answers it: the balance and the redemption rule. */
const pointRecord = (balance: string) =>
  envelope(1, 'Success', { lists: [], next: null, usdt_per_point: '0.01', min_points: '100', balance });

async function openWith(balance: string) {
  const { calls } = stubFetch(pointRecord(balance));
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <ClosurePage />
      </I18nProvider>,
    ),
  );
  // The page asks for the point record as it opens; its answer then renders (a few turns of the event loop at most: the
  // bound only stops a page that never asks from hanging the test).
  await act(async () => {
    for (let turn = 0; turn < 50 && calls.length < 2; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
  });
  // The point record, and what else would end (none here: the same empty list answers it; closure-balances.test.tsx).
  expect(calls.map((call) => new URL(call.request.url).pathname).sort()).toEqual([
    '/api/users/close/ending',
    '/api/users/point/lists',
  ]);
  await act(async () => undefined);
}

const closeSection = () => view.container.querySelectorAll('.closure-section')[1]!;

/** Types a password and taps "Close my account": the confirmation dialog opens. */
async function askToClose() {
  const input = closeSection().querySelector<HTMLInputElement>('input[type="password"]')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await act(async () => {
    setValue.call(input, 'secret123');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const button = [...closeSection().querySelectorAll('button')].at(-1)!;
  await act(async () => button.click());
  return document.querySelector('[role="alertdialog"]')!;
}

it('says that 5 points, below the minimum of 100, will end with the account, beside the button and in the dialog', async () => {
  await openWith('5');
  const said = '5 points will end with the account. Points below the redemption minimum cannot be redeemed.';
  expect(closeSection().querySelector('.closure-ending')?.textContent).toBe(said);
  const dialog = await askToClose();
  expect(dialog.querySelector('.closure-ending')?.textContent).toBe(said);
});

it('says it in the reader’s language: Hindi', async () => {
  const locale = 'hi';
  const { messages } = (await import(`../../src/locales/${locale}/messages.po`)) as { messages: Messages };
  await act(() => i18n.loadAndActivate({ locale, messages }));
  await openWith('1');
  expect(closeSection().querySelector('.closure-ending')?.textContent).toBe(
    '1 पॉइंट खाते के साथ समाप्त हो जाएगा। रिडेम्पशन की न्यूनतम सीमा से कम पॉइंट्स रिडीम नहीं किए जा सकते।',
  );
});

it.each(['0', '100'])(
  'says nothing of points ending with a balance of %s points (none, or enough to redeem)',
  async (balance) => {
    await openWith(balance);
    expect(closeSection().querySelector('.closure-ending')).toBeNull();
    const dialog = await askToClose();
    expect(dialog.textContent).toContain('This cannot be undone.');
    expect(dialog.querySelector('.closure-ending')).toBeNull();
  },
);
