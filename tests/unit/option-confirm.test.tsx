// @vitest-environment jsdom
// The option order's confirmation in a customer's first order tells the risk figure, and its Confirm waits for it: a
// note arriving after the dialog opened would grow it and move Confirm from under the customer's finger (on a slow,
// flaky connection a tap then landed beside the button and the order was never sent).
import { act, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ConfirmProps } from '../../src/features/options/TradePanel.tsx';
import { deferred, envelope, mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

/**
 * Each test has fresh modules: no figure read yet in this visit, a fetch stand-in set on the API client those modules
 * use, and the client state of those modules put back after it.
 */
let ConfirmDialog: (props: ConfirmProps) => ReactNode;
let stubFetch: typeof import('./helpers.ts').stubFetch;
let resetClientState: typeof import('./helpers.ts').resetClientState;
beforeEach(async () => {
  vi.resetModules();
  ({ ConfirmDialog } = await import('../../src/features/options/TradePanel.tsx'));
  // The note's chunk, loaded here so the tests wait on React and the stand-in fetch alone: loaded on demand into fresh
  // modules it took over vitest's one-second wait on a busy machine (a clean-clone run, both cores full).
  await import('../../src/features/options/RiskNote.tsx');
  ({ stubFetch, resetClientState } = await import('./helpers.ts'));
});
afterEach(() => resetClientState());

/** Resolves once `check` passes, letting React render what came (the lazy chunk, answers, effects) between tries. */
const until = (check: () => void) =>
  vi.waitFor(async () => {
    await act(async () => undefined);
    check();
  });

const FIGURE = { day: '2026-12-03', traders: 14, losers: 9, percent: '64.3' };

async function open(first: boolean) {
  const confirmed = vi.fn();
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <ConfirmDialog
          code="BTC"
          direction="up"
          amount="10"
          product={{ id: 1, code: 'BTC', minutes: 1, yield_rate: '0.8', min_amount: '10' }}
          busy={false}
          first={first}
          practising={false}
          onCancel={() => undefined}
          onConfirm={confirmed}
        />
      </I18nProvider>,
    ),
  );
  const confirm = () =>
    [...document.querySelectorAll<HTMLButtonElement>('button')].find((button) => button.textContent === 'Confirm')!;
  const note = () => document.querySelector('.opt-risk')?.textContent ?? null;
  return { confirm, note, confirmed };
}

it('in a first order, holds Confirm with the loading text in the note’s place until the figure is on screen', async () => {
  const answer = deferred<Response>();
  const { calls } = stubFetch(() => answer.promise);
  const { confirm, note } = await open(true);
  // The note's chunk loaded, its call sent and not answered.
  await until(() => expect(calls).toHaveLength(1));
  expect(new URL(calls[0]!.request.url).pathname).toBe('/api/options/risk');
  expect(note()).toBe('Loading...');
  expect(confirm().disabled).toBe(true);

  await act(async () => answer.resolve(envelope(1, '', FIGURE)));
  await until(() => expect(confirm().disabled).toBe(false));
  expect(note()).toBe('64.3 % of customers who traded options in the 30 days before 12/03/2026 lost money on them.');
});

it('in a first order with no figure to be had (no network, none kept), lets Confirm go without a note', async () => {
  stubFetch(new TypeError('Failed to fetch'));
  const { confirm, note, confirmed } = await open(true);
  await until(() => expect(confirm().disabled).toBe(false));
  expect(note()).toBeNull();
  await act(async () => confirm().click());
  expect(confirmed).toHaveBeenCalledOnce();
});

it('in a later order, shows no note and lets Confirm go at once', async () => {
  const { calls } = stubFetch(envelope(1, '', FIGURE));
  const { confirm, note } = await open(false);
  expect(confirm().disabled).toBe(false);
  expect(note()).toBeNull();
  expect(calls).toHaveLength(0);
});

it('says the start price is the first one recorded after the server accepts the order, as the option rules do', async () => {
  stubFetch(envelope(1, '', FIGURE));
  await open(false);
  expect(document.querySelector('.opt-note')?.textContent).toBe(
    'The start price is the first price recorded after the server accepts your order, never one recorded before. ' +
      'A loss loses the amount; the same price at the end returns it.',
  );
});
