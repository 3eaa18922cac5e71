// @vitest-environment jsdom
// A decimal field bound to a store whose readers hear of a change a moment later (a valtio store read through
// useSnapshot, as the liquidity pages keep their draft): typed key by key in any of the six languages' digits, the
// field keeps every key and the store gets the plain decimal meant; a value the page sets itself still shows.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { proxy, useSnapshot } from 'valtio';
import { beforeAll, expect, it } from 'vitest';
import { DecimalField } from '../../src/ui/AmountField.tsx';
import { loadNumberParser } from '../../src/lib/typed-amount.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const draft = proxy({ amount: '' });

function Page() {
  const { amount } = useSnapshot(draft);
  return <DecimalField label="Amount" value={amount} onChange={(value) => (draft.amount = value)} />;
}

beforeAll(async () => {
  await loadNumberParser();
});

const field = () => view.container.querySelector('input')!;

/** The page with an empty draft. */
async function showEmpty() {
  draft.amount = '';
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Page />
      </I18nProvider>,
    ),
  );
}

/** Types `text` one key at a time into the React-controlled input, as the browser's input events do. */
async function typeKeys(text: string) {
  for (const key of text) {
    await act(async () => {
      const input = field();
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, input.value + key);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }
}

it.each([
  ['Arabic-Indic', '١٢٣', '123'],
  ['Arabic-Indic with the Arabic decimal mark', '١٢٣٫٤٥', '123.45'],
  ['Devanagari', '१२३', '123'],
  ['Thai', '๑๒๓', '123'],
  ['full-width', '１２３', '123'],
  ['ASCII', '500', '500'],
])('%s digits typed key by key all stay, and the store gets the decimal meant', async (_system, typed, meant) => {
  await showEmpty();
  await typeKeys(typed);
  expect(field().value).toBe(typed);
  expect(draft.amount).toBe(meant);
});

it('a value the page sets itself (All, a reset) shows in the field', async () => {
  await showEmpty();
  await typeKeys('١٢');
  await act(async () => void (draft.amount = '250.5'));
  expect(field().value).toBe('250.5');
  await act(async () => void (draft.amount = ''));
  expect(field().value).toBe('');
});
