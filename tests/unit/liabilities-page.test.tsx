// @vitest-environment jsdom
// "Verify my balance" as a customer reads it: each step of the path says in words on which side its sibling sits (the
// symbols are hidden from a screen reader), and a tree of one customer says the leaf is the root instead of showing
// an empty path; a customer finds what to check it with: a link to the stand-alone verifier the server serves, a
// link to the published roots, the published totals of their tree, and the command to run; and a proof of another
// account (another customer's leaf with the same balances, which an operator could show both) is not verified, nor is
// one that gives other decimals or another cut-off than its tree was published with.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  PROOF_FORMAT,
  leafHashOf,
  leafIdOf,
  nodeHashOf,
  type LiabilityProof,
} from '../../src/api-contract/liabilities-verify.ts';
import type { PublishedTree } from '../../src/api-contract/liabilities.ts';
import { configureApi } from '../../src/lib/api.ts';
import { session } from '../../src/lib/session.ts';
import { formatDateTime } from '../../src/lib/format.ts';
import LiabilitiesPage from '../../src/features/liabilities/LiabilitiesPage.tsx';
import { customerInfo, envelope, mountPoint, resetClientState } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const ASSETS = ['USDT', 'BTC'];

beforeEach(() => {
  resetClientState();
  session.token = 'token-a';
  session.user = customerInfo({ id: 7 });
});
afterEach(() => resetClientState());

/** A valid proof of the customer's leaf in a tree of the customer alone, or with `siblings` beside it. */
async function treeWith(siblings: { side: 'left' | 'right'; sums: string[] }[]) {
  const salt = 'ab'.repeat(32);
  const account = '7';
  const id = await leafIdOf(salt, account);
  const sums = ['150000000', '2500000'];
  let hash = await leafHashOf(id, sums);
  let total = sums;
  const path: LiabilityProof['path'] = [];
  for (const [at, sibling] of siblings.entries()) {
    const other = await leafHashOf(`${at}`.padStart(64, 'c'), sibling.sums);
    path.push({ side: sibling.side, hash: other, sums: sibling.sums });
    hash =
      sibling.side === 'left'
        ? await nodeHashOf(other, hash, sibling.sums, total)
        : await nodeHashOf(hash, other, total, sibling.sums);
    total = total.map((sum, index) => (BigInt(sum) + BigInt(sibling.sums[index]!)).toString());
  }
  const cutoff = '2026-11-23T00:00:00.000Z';
  const proof: LiabilityProof = {
    format: PROOF_FORMAT,
    tree: 3,
    cutoff,
    assets: ASSETS,
    decimals: 8,
    account,
    salt,
    leaf: { id, sums },
    path,
    root: { hash, sums: total },
  };
  const tree: PublishedTree = {
    id: 3,
    day: '2026-11-23',
    cutoff,
    root: hash,
    assets: ASSETS,
    totals: total,
    decimals: 8,
    leaves: siblings.length + 1,
    built_at: cutoff,
  };
  return { proof, tree };
}

async function open(
  siblings: { side: 'left' | 'right'; sums: string[] }[],
  verdict = 'verified',
  change: (proof: LiabilityProof) => void = () => {},
  newer: PublishedTree[] = [],
) {
  const { proof, tree } = await treeWith(siblings);
  change(proof);
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = (input as Request).url;
    if (url.includes('/liabilities/roots')) return envelope(1, 'ok', { lists: [...newer, tree] });
    if (url.includes('/users/liabilities/proof')) return envelope(1, 'ok', { tree, proof });
    return envelope(0, `unexpected ${url}`);
  });
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Router hook={memoryLocation().hook}>
          <LiabilitiesPage />
        </Router>
      </I18nProvider>,
    ),
  );
  // The device's own check runs on Web Crypto: wait for its verdict, each turn inside act.
  const reached = `[data-verdict="${verdict}"]`;
  for (let turn = 0; turn < 100 && !view.container.querySelector(reached); turn += 1)
    await act(() => new Promise((done) => setTimeout(done, 10)));
  expect(view.container.querySelector(reached)).not.toBeNull();
  return { proof, tree };
}

/** The text a screen reader reads: what is not hidden from it. */
function spoken(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent!.replace(/\s+/g, ' ').trim();
}

it('names each step of the path by its side in words, the symbols hidden from a screen reader', async () => {
  const { proof } = await open([
    { side: 'right', sums: ['1', '2'] },
    { side: 'left', sums: ['30', '0'] },
  ]);
  const steps = [...view.container.querySelectorAll('.liab-path li')];
  expect(steps.map(spoken)).toEqual([
    `Right sibling: ${proof.path[0]!.hash.slice(0, 10)}…${proof.path[0]!.hash.slice(-10)}`,
    `Left sibling: ${proof.path[1]!.hash.slice(0, 10)}…${proof.path[1]!.hash.slice(-10)}`,
  ]);
  expect(steps[0]!.textContent).toContain('◨');
  expect(view.container.textContent).toContain('Path to the root');
});

it('says a tree of one customer holds only their leaf, with no heading over an empty path', async () => {
  await open([]);
  expect(view.container.querySelector('.liab-path')).toBeNull();
  expect(view.container.textContent).not.toContain('Path to the root');
  expect(view.container.querySelector('.liab-only-leaf')?.textContent).toBe(
    'The tree holds only your leaf: your leaf is the root.',
  );
});

it("links to the served verifier and the published roots, shows the tree's totals and how to run the check", async () => {
  const { proof, tree } = await open([{ side: 'right', sums: ['1', '2'] }]);
  const links = [...view.container.querySelectorAll('.liab-links a')];
  expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
    ['Download the stand-alone verifier', `${location.origin}/.well-known/liabilities-verify.mjs`],
    ['The published roots and totals (JSON)', `${location.origin}/api/liabilities/roots`],
  ]);
  expect(links[0]!.getAttribute('download')).toBe('liabilities-verify.mjs');
  const totals = [...view.container.querySelectorAll('.liab-totals li')].map((row) => row.textContent);
  expect(totals).toEqual(['USDT1.50000001', 'BTC0.02500002']);
  expect(tree.totals).toEqual(['150000001', '2500002']);
  expect(view.container.textContent).toContain(
    `With Node.js installed, run node liabilities-verify.mjs liabilities-proof-3.json ${proof.root.hash} in the ` +
      'folder of both files: it prints "verified".',
  );
});

it("does not verify a proof of another customer's account, though its path leads to the published root", async () => {
  // The proof is of account 7 (a leaf the tree holds, its id from that account's salt); the customer is 8.
  session.user = customerInfo({ id: 8 });
  await open([{ side: 'right', sums: ['1', '2'] }], 'failed');
  const verdict = view.container.querySelector('.liab-verdict')!;
  expect(verdict.textContent).toBe('Not verified ✗This proof is not of your account. Please contact customer service.');
});

it.each([
  // The tree counts 1.5 USDT for the customer (150000000 at 8 decimals); read with 7 the screen would show 15.
  ['other decimals', (proof: LiabilityProof) => void (proof.decimals = 7)],
  // A day earlier: the customer would compare the leaf with the balance they held a day before the tree's.
  ['another cut-off', (proof: LiabilityProof) => void (proof.cutoff = '2026-11-22T00:00:00.000Z')],
])('does not verify a proof read with %s than its tree was published with', async (_, change) => {
  await open([{ side: 'right', sums: ['1', '2'] }], 'failed', change);
  expect(view.container.querySelector('.liab-verdict')!.textContent).toContain('Not verified');
});

it('does not verify a proof of an older tree than the newest published, which may leave the customer out', async () => {
  // Tree 4 is published after tree 3 and the proof is still of tree 3, asked for again too: the customer's balances
  // as of a month ago were counted, which says nothing of the newest totals.
  const { tree } = await treeWith([]);
  const newest = { ...tree, id: 4, day: '2026-11-24', cutoff: '2026-11-24T00:00:00.000Z', root: 'e'.repeat(64) };
  await open([{ side: 'right', sums: ['1', '2'] }], 'failed', () => {}, [newest]);
  expect(view.container.querySelector('.liab-verdict')!.textContent).toBe(
    `Not verified ✗This proof is of an older tree than the newest one published (as of ${formatDateTime(
      newest.cutoff,
    )}). Please contact customer service.`,
  );
});

it('says no proof holds a new account yet, with no "Try again" that cannot help; a lost connection offers it', async () => {
  const noProof =
    'No proof of liabilities includes your account yet. Each daily proof counts the balances held at 00:00 UTC and ' +
    'is published a few minutes later: the next one will include yours.';
  let online = true;
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    if (!online) throw new TypeError('Failed to fetch');
    const url = (input as Request).url;
    if (url.includes('/liabilities/roots')) return envelope(1, 'ok', { lists: [] });
    return envelope(0, noProof);
  });
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
  const render = () =>
    act(async () =>
      view.root.render(
        <I18nProvider i18n={i18n}>
          <Router hook={memoryLocation().hook}>
            <LiabilitiesPage key={String(online)} />
          </Router>
        </I18nProvider>,
      ),
    );
  await render();
  await vi.waitFor(() => expect(view.container.querySelector('.empty')?.textContent).toBe(noProof));
  expect(view.container.querySelector('.empty button')).toBeNull();

  online = false;
  await render();
  await vi.waitFor(() => expect(view.container.querySelector('.empty button')?.textContent).toBe('Try again'));
});
