// @vitest-environment jsdom
// Mine's reset of the practice account: asked after a confirmation; the server's refusal (a practice option still
// open) is shown as it answers it, in the app's language, and the balance stays; a reset shows the starting USDT.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../src/api-contract/account.ts';
import type { PracticeAccount } from '../../src/api-contract/practice.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { practice, practiceUsdt } from '../../src/lib/practice.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import PracticeResetDialog from '../../src/features/profile/PracticeResetDialog.tsx';
import { envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

const view = mountPoint();
const account = (usdt: string): PracticeAccount => ({
  balances: [{ asset: 'USDT', available: usdt, frozen: '0' }],
  start_amount: '10000',
  resets: 1,
  opened_at: '2026-01-02T03:04:05.000Z',
  reset_at: null,
});
const button = (name: string) =>
  [...view.container.querySelectorAll('button')].find((item) => item.textContent === name)!;

beforeEach(async () => {
  resetClientState();
  session.token = 'token-a';
  session.user = { id: 1, username: 'user1' } as UserInfo;
  // A new session forgets the practice account (told in a microtask): this one's is set after.
  await new Promise((resolve) => setTimeout(resolve, 0));
  practice.account = account('9990');
});
afterEach(resetClientState);

async function open(onClose = vi.fn()) {
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <PracticeResetDialog onClose={onClose} />
      </I18nProvider>,
    ),
  );
  return onClose;
}

it('shows the server refusal while a practice option is open, and keeps the balance', async () => {
  const refusal = i18n._(texts.practiceOptionsOpen);
  const fetch = stubFetch(envelope(0, refusal));
  const onClose = await open();
  expect(view.container.textContent).toContain('Back to 10,000.00 USDT of virtual money');
  // The amount with its unit is one left-to-right element, which a right-to-left translation places whole.
  expect(view.container.querySelector('p [dir="ltr"]')?.textContent).toBe('10,000.00 USDT');
  await act(async () => button('Reset').click());
  expect(new URL(fetch.calls[0]!.request.url).pathname).toMatch(/\/users\/practice\/reset$/);
  expect(toasts.current?.text).toBe(refusal);
  expect(onClose).not.toHaveBeenCalled();
  expect(practiceUsdt(practice.account)).toBe('9990');
});

it('resets to the starting USDT and says so', async () => {
  stubFetch(envelope(1, 'ok', account('10000')));
  const onClose = await open();
  await act(async () => button('Reset').click());
  expect(toasts.current?.text).toBe('Practice account reset to 10,000.00 USDT');
  expect(onClose).toHaveBeenCalled();
  expect(practiceUsdt(practice.account)).toBe('10000');
});
