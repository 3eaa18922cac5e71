// @vitest-environment jsdom
// A receipt's pages say how anyone checks one without the app: a link to the platform's public keys on this server
// (/.well-known/receipt-keys.json), the algorithm by its standard and what is signed, in the customer's language.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import ReceiptPages from '../../src/features/receipts/ReceiptPage.tsx';
import { mountPoint, resetClientState, stubFetch } from './helpers.ts';

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
