// @vitest-environment jsdom
// The spec's own texts shown where it uses them: "Transaction failed!" when an order, a subscription or a redemption
// fails without a reason from the server (its refusal and the transport's own texts are shown as they are); "Reading
// error" when a chosen picture cannot be read.
import { act } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { UserInfo } from '../../src/api-contract/account.ts';
import { lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { ApiError, api } from '../../src/lib/api.ts';
import { transactionErrorText, useSubmit } from '../../src/lib/form.ts';
import { uploadPicture } from '../../src/lib/images.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import { envelope, httpError, mountPoint, resetClientState, stubFetch } from './helpers.ts';

const view = mountPoint();
beforeEach(() => {
  resetClientState();
  session.token = 'token-a';
  session.user = { id: 1, username: 'user1' } as UserInfo;
});
afterEach(resetClientState);

function Subscribe() {
  const { submit } = useSubmit(
    async () => void (await api(lockupSubscribe, { product_id: '1', amount: '100' })),
    undefined,
    transactionErrorText,
  );
  return (
    <button type="button" onClick={() => void submit()}>
      Subscribe
    </button>
  );
}

const tap = () => act(async () => view.container.querySelector('button')!.click());

it('an order that fails with no reason (an HTTP error) says "Transaction failed!"', async () => {
  stubFetch(httpError(403));
  await act(async () => view.root.render(<Subscribe />));
  await tap();
  expect(toasts.current?.text).toBe('Transaction failed!');
});

it("the server's refusal is shown as it answered it", async () => {
  stubFetch(envelope(0, 'Insufficient balance!'));
  await act(async () => view.root.render(<Subscribe />));
  await tap();
  expect(toasts.current?.text).toBe('Insufficient balance!');
});

it('a transport failure keeps its own text; anything unknown is "Transaction failed!"', () => {
  expect(transactionErrorText(new ApiError('You are offline'))).toBe('You are offline');
  expect(transactionErrorText(new ApiError('Forbidden', undefined, 403))).toBe('Transaction failed!');
  expect(transactionErrorText(new Error('boom'))).toBe('Transaction failed!');
});

it('a chosen picture the browser cannot read says "Reading error" (a file that is no picture keeps its own text)', async () => {
  // jsdom decodes no picture: createImageBitmap fails as a browser's does on a damaged file.
  const damaged = new File([new Uint8Array([0x89, 0x50, 0x00, 0x01])], 'receipt.png', { type: 'image/png' });
  await expect(uploadPicture(damaged, 1600)).rejects.toThrow('Reading error');
  const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
  await expect(uploadPicture(text, 1600)).rejects.toThrow('Please choose a JPEG, PNG, WebP or GIF picture!');
});
