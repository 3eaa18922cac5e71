// @vitest-environment jsdom
// The verification page shows each revealed draw's client seed exactly as it was chosen: angle brackets, a script tag
// or Lingui-like component tags (<0>…</0>) in a seed are text, never parsed into markup or dropped.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { BoxDraw } from '../../src/api-contract/blindbox.ts';
import { session } from '../../src/lib/session.ts';
import BlindBoxVerifyPage from '../../src/features/blindbox/BlindBoxVerifyPage.tsx';
import { envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const SERVER_SEED = 'ab'.repeat(32);

beforeEach(() => {
  resetClientState();
  session.token = 'token-a';
});
afterEach(() => resetClientState());

const draw = (id: number, clientSeed: string): BoxDraw => ({
  id,
  seed_id: 1,
  nonce: id,
  client_seed: clientSeed,
  roll: 123_456,
  prize_id: 11,
  prize_name: 'Thanks for playing',
  prize_asset: 'POINT',
  prize_amount: '0',
  cost_asset: 'POINT',
  cost: '100',
  prize_table: [{ id: 11, weight: 1_000_000 }],
  server_hash: 'cd'.repeat(32),
  server_seed: SERVER_SEED,
  created_at: '2026-11-23T10:00:00.000Z',
});

it.each([['"><script>alert(1)</script>'], ['a<0>ZERO</0>b<1>ONE</1>c<b>bold</b>d']])(
  'shows the client seed %s as plain text, as stored',
  async (clientSeed) => {
    stubFetch(envelope(1, 'ok', { lists: [draw(1, clientSeed)], next: null, total: 1 }));
    await act(async () =>
      view.root.render(
        <I18nProvider i18n={i18n}>
          <Router hook={memoryLocation().hook}>
            <BlindBoxVerifyPage />
          </Router>
        </I18nProvider>,
      ),
    );
    await act(async () => {
      await new Promise((done) => setTimeout(done, 0));
    });
    const line = view.container.querySelector('.box-draw-seed');
    expect(line?.textContent).toBe(`Server seed ${SERVER_SEED} · client seed ${clientSeed}`);
    const [server, client] = [...line!.querySelectorAll('.box-hash')].map((element) => element.textContent);
    expect([server, client]).toEqual([SERVER_SEED, clientSeed]);
    expect(line!.querySelector('script, b')).toBeNull();
  },
);

it('counts one draw in the singular: "1 draw", never "1 draws"', async () => {
  // The seed above does not hash to the committed 'cd…' hash, so the one draw on screen fails its check.
  stubFetch(envelope(1, 'ok', { lists: [draw(1, 'seed')], next: null, total: 1 }));
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Router hook={memoryLocation().hook}>
          <BlindBoxVerifyPage />
        </Router>
      </I18nProvider>,
    ),
  );
  const summary = () => view.container.querySelector('.box-summary')?.textContent ?? '';
  await vi.waitFor(() => expect(summary()).toContain('1 draw does not match ✗'));
  expect(view.container.querySelector('.box-summary strong')?.textContent).toBe('0 of 1 draw verified');
});
