// @vitest-environment jsdom
// The purchase record as a customer reads it: a settled option shows its start and end prices and its profit; one
// that never opened (no price was recorded after it) says so, rather than "Opening…" as if it still might. A record
// that could not be read says so in its place, with a retry, not in a toast over the page.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, expect, it } from 'vitest';
import { OrderTabs } from '../../src/features/options/OrderLists.tsx';
import { optionsState } from '../../src/features/options/options-store.ts';
import { toasts } from '../../src/lib/toast.ts';
import { envelope, httpError, mountPoint, resetClientState, stubFetch } from './helpers.ts';
import { option } from './option-orders.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

afterEach(async () => {
  await act(async () => view.root.render(null));
  optionsState.tab = 'holding';
  optionsState.history = { lists: [], next: null, total: 0, loaded: false, failure: null };
  resetClientState();
});

it('says an option void before it opened did not open, and shows a settled one’s prices', async () => {
  optionsState.tab = 'history';
  optionsState.history = {
    next: null,
    loaded: true,
    failure: null,
    total: 2,
    lists: [
      option(2, { outcome: 'void', payout: '10.00000000', profit: '0.00000000' }),
      option(1, {
        start_price: '97190.83',
        start_price_at: '2026-11-27T20:58:00.000Z',
        end_at: '2026-11-27T20:59:00.000Z',
        end_price: '97195.00',
        outcome: 'win',
        payout: '18.00000000',
        profit: '8.00000000',
      }),
    ],
  };
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <OrderTabs />
      </I18nProvider>,
    ),
  );
  const [voided, won] = [...view.container.querySelectorAll('.opt-order')].map((card) => card.textContent ?? '');
  expect(voided).toContain('Did not open');
  expect(voided).not.toContain('Opening…');
  expect(won).toContain('97,190.83');
  expect(won).toContain('97,195.00');
  expect(won).not.toContain('Did not open');
});

it('a record that could not be read says why in its place, with a retry, and no toast', async () => {
  stubFetch(httpError(404), envelope(1, 'ok', { lists: [option(3, {})], next: null, total: 1 }));
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <OrderTabs />
      </I18nProvider>,
    ),
  );
  const tab = [...view.container.querySelectorAll('button')].find((each) => each.textContent === 'Purchase record')!;
  await act(async () => tab.click());
  const failure = () => view.container.querySelector('.empty')?.textContent;
  await expect.poll(failure).toBe('The requested resource was not foundTry again');
  expect(toasts.current).toBeNull();

  const retry = [...view.container.querySelectorAll('button')].find((each) => each.textContent === 'Try again')!;
  await act(async () => retry.click());
  await expect.poll(() => view.container.querySelectorAll('.opt-order').length).toBe(1);
  expect(optionsState.history.failure).toBeNull();
});
