// @vitest-environment jsdom
// A receipt's pages say how anyone checks one without the app: a link to the platform's public keys on this server
// (/.well-known/receipt-keys.json), the algorithm by its standard and what is signed, in the customer's language;
// and an order's page never shows another order's receipt as its own.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import ReceiptPages from '../../src/features/receipts/ReceiptPage.tsx';
import { envelope, mountPoint, optionReceiptBody, resetClientState, stubFetch } from './helpers.ts';
import { canonicalBytes } from '../../src/api-contract/receipt-signature.ts';
import type { ReceiptKey } from '../../src/api-contract/receipts.ts';
import { configureApi } from '../../src/lib/api.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

beforeEach(() => resetClientState());
afterEach(() => resetClientState());

it('the check page links to the published keys and names the algorithm and what it signs', async () => {
  stubFetch(new Error('no call expected'));
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Router hook={memoryLocation({ path: ROUTES.receiptCheck }).hook}>
          <ReceiptPages />
        </Router>
      </I18nProvider>,
    ),
  );
  const how = view.container.querySelector('.receipt-how');
  const keys = `${location.origin}/.well-known/receipt-keys.json`;
  const link = how?.querySelector('a');
  expect(link?.getAttribute('href')).toBe(keys);
  expect(link?.textContent).toBe(keys);
  const text = how!.textContent!.replace(/\s+/g, ' ');
  expect(text).toContain('How to check a receipt yourself');
  expect(text).toContain(`The platform's public keys are published at ${keys}.`);
  expect(text).toContain('Ed25519 (RFC 8032)');
  expect(text).toContain("the key whose id is the receipt's key_id");
  expect(text).toContain('canonical JSON (RFC 8785, the JSON Canonicalization Scheme)');
});

it("does not show another order's receipt as this order's, however valid its signature", async () => {
  // The customer opens option 43's receipt; the answer is option 42's, validly signed (the platform's, or a mix-up).
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const key: ReceiptKey = {
    id: createHash('sha256').update(raw).digest('hex').slice(0, 16),
    algorithm: 'Ed25519',
    public_key: raw.toString('base64'),
    valid_from: '2026-01-01T00:00:00.000Z',
    valid_until: null,
    revoked_at: null,
  };
  const receipt = optionReceiptBody(key.id, '2026-11-22T08:01:07.000Z');
  const signature = sign(null, canonicalBytes(receipt), privateKey).toString('base64');
  const fetch = vi.fn(async (input: RequestInfo | URL) =>
    (input as Request).url.includes('/receipts/keys')
      ? envelope(1, 'ok', { keys: [key] })
      : envelope(1, 'ok', { receipt, signature }),
  );
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
  const { hook, searchHook } = memoryLocation({ path: `${ROUTES.receipt}?option=43` });
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Router hook={hook} searchHook={searchHook}>
          <ReceiptPages />
        </Router>
      </I18nProvider>,
    ),
  );
  await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
  for (let turn = 0; turn < 50 && !view.container.textContent!.match(/another order|Signature valid/); turn += 1)
    await act(() => new Promise((done) => setTimeout(done, 10)));
  expect(view.container.textContent).not.toContain('Signature valid');
  expect(view.container.textContent).toContain(
    'The server answered the receipt of another order (number 42), not of this one. Please contact customer service.',
  );
});
