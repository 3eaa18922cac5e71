// @vitest-environment jsdom
// The new client seed field on the blind box page: a seed pasted longer than 64 characters stays whole in the field
// (the field sets no maxlength that would cut it to 64 unseen), the count under it says how long it is, and the seed
// is refused with the translated rule, nothing sent; the rule stands under the field, not in a placeholder.
import { act } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BlindBoxInfo } from '../../src/api-contract/blindbox.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import { SeedPanel } from '../../src/features/blindbox/BlindBoxParts.tsx';
import { renderInApp } from './render-in-app.tsx';
import { envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const RULE =
  'The client seed must be 1-64 Latin letters, digits or symbols (as on an English keyboard), without spaces!';
const info: BlindBoxInfo = {
  prizes: [],
  available: true,
  costs: [],
  expected: {},
  usdt_per_point: null,
  seed: { seed_id: 1, server_hash: 'cd'.repeat(32), client_seed: 'client', next_nonce: 0 },
  table_current: true,
};

beforeEach(() => {
  resetClientState();
  session.token = 'token-a';
});
afterEach(() => act(async () => resetClientState()));

const input = () => view.container.querySelector<HTMLInputElement>('input[name="client_seed"]')!;
const field = () => input().closest('.field')!;

/** Pastes `text` into the field as the browser does: the whole text, unless the field's maxlength cuts it. */
async function paste(text: string) {
  await act(async () => {
    const limit = input().maxLength;
    const kept = limit >= 0 ? text.slice(0, limit) : text;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input(), kept);
    input().dispatchEvent(new Event('input', { bubbles: true }));
  });
}

it('keeps a 70-character seed whole, counts it and refuses it with the rule, sending nothing', async () => {
  const { calls } = stubFetch(envelope(1, 'ok', {}));
  await renderInApp(view, <SeedPanel info={info} />);
  expect(field().querySelector('.field-hint')?.textContent).toBe('Latin letters, digits and symbols, no spaces 0/64');
  expect(input().placeholder).toBe('');

  const long = 'a'.repeat(70);
  await paste(long);
  expect(input().value).toBe(long);
  expect(field().querySelector('.box-seed-count')?.textContent).toBe('70/64');
  expect(field().querySelector('.error-text')?.textContent).toBe(RULE);

  await act(async () =>
    view.container.querySelector<HTMLButtonElement>('.box-seed-form button[type="submit"]')!.click(),
  );
  expect(toasts.current?.text).toBe(RULE);
  expect(calls).toHaveLength(0);
});

it('a seed of 64 characters is counted and not refused', async () => {
  await renderInApp(view, <SeedPanel info={info} />);
  await paste('b'.repeat(64));
  expect(field().querySelector('.box-seed-count')?.textContent).toBe('64/64');
  expect(field().querySelector('.error-text')).toBeNull();
});
