// @vitest-environment jsdom
// Someone's own text set into a translated sentence shows exactly as typed. Lingui's <Trans> reads component tags such
// as <0>…</0> or <b>…</b> in its finished message, values included: a wallet alias, a reviewer's reason, a refusal or a
// username given as a plain value lost its tags or was turned into markup. Each is now a prop of a self-closing
// element, so it never enters the message.
import { act } from 'react';
import { Trans } from '@lingui/react/macro';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { CertificationRecord } from '../../src/api-contract/certification.ts';
import { session } from '../../src/lib/session.ts';
import { CertificationStatusCard } from '../../src/features/certification/CertificationStatusCard.tsx';
import WalletListPage from '../../src/features/payouts/WalletListPage.tsx';
import { payoutsState } from '../../src/features/payouts/payouts-store.ts';
import { CertificationPage } from '../../src/console/CertificationPage.tsx';
import { Verbatim } from '../../src/ui/Verbatim.tsx';
import { envelope, mountPoint, resetClientState, stubFetch, savedWallet } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const TEXTS = ['a<0>ZERO</0>b<b>x</b>c', '"><script>alert(1)</script>', 'a<1/>b<i>i</i>'];

beforeEach(() => {
  resetClientState();
  session.token = 'token-a';
});
afterEach(() => {
  resetClientState();
  vi.unstubAllGlobals();
});

async function show(node: React.ReactNode) {
  await renderInApp(view, node);
  await act(async () => {
    await new Promise((done) => setTimeout(done, 0));
  });
}

/** `element`'s text is `expected`, and the only element `text` is in is its own <bdi>. */
function expectVerbatim(element: Element | null | undefined, expected: string, text: string) {
  expect(element?.textContent).toBe(expected);
  expect([...element!.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toContain(text);
  expect(element!.querySelector('script, b, i')).toBeNull();
}

it.each(TEXTS)('a value given to Verbatim inside a message shows as typed: %s', async (text) => {
  // Chat and price alerts ("Not sent: …") and the coin search ("No coin matches …") use it as below.
  await show(
    <p id="line">
      <Trans>
        Not sent: <Verbatim text={text} />
      </Trans>
    </p>,
  );
  expectVerbatim(view.container.querySelector('#line'), `Not sent: ${text}`, text);
});

it.each(TEXTS)('a rejected certification shows the reviewer’s reason as typed: %s', async (reason) => {
  const record: CertificationRecord = {
    level: 'primary',
    status: 'rejected',
    doc_type: 'id_card',
    name: 'Somchai',
    number: '****1234',
    reason,
    submitted_at: '2026-11-27T00:00:00.000Z',
    reviewed_at: '2026-11-28T00:00:00.000Z',
  };
  await show(<CertificationStatusCard title="Primary" record={record} />);
  const line = view.container.querySelector('.cert-reason');
  expectVerbatim(line, `Reason: ${reason}Please correct it and submit again.`, reason);
});

it.each(TEXTS)('deleting a wallet names its alias as typed: %s', async (alias) => {
  const wallet = savedWallet({ id: 7, alias });
  payoutsState.wallets.lists = [wallet];
  payoutsState.wallets.loaded = true;
  stubFetch(envelope(1, 'ok', { lists: [wallet] }));
  await show(<WalletListPage />);
  const remove = view.container.querySelector<HTMLButtonElement>('.payout-list button[aria-label="Delete"]');
  await act(async () => remove!.click());
  const question = [...view.container.querySelectorAll('p')].find((p) =>
    p.textContent?.startsWith('Delete the wallet'),
  );
  expectVerbatim(question, `Delete the wallet ${alias}? It can no longer be chosen for withdrawals.`, alias);
});

it.each(TEXTS)('the console names a certification’s customer as typed: %s', async (username) => {
  const certification = {
    id: 3,
    user_id: 42,
    username,
    level: 'primary',
    doc_type: 'id_card',
    name: 'Somchai',
    number: '****1234',
    pictures: {},
    status: 'approved',
    reason: '',
    created_at: '2026-11-27T00:00:00.000Z',
    reviewed_at: '2026-11-28T00:00:00.000Z',
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope(1, 'ok', certification)),
  );
  await show(<CertificationPage id="3" />);
  expectVerbatim(view.container.querySelector('h1'), `Certification of ${username}`, username);
});
