// @vitest-environment jsdom
// Two clicks within one task send one request: the submit guard is set before the first await, not in React state
// (which holds only from the next render). Through useSubmit (every form page), the Form's Enter/submit, a real page
// (the practice reset).
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../src/api-contract/account.ts';
import { session } from '../../src/lib/session.ts';
import { useSubmit } from '../../src/lib/form.ts';
import { Button, Form } from '../../src/ui/forms.tsx';
import PracticeResetDialog from '../../src/features/profile/PracticeResetDialog.tsx';
import { useAction } from '../../src/console/parts.tsx';
import { SignInPage } from '../../src/console/SignInPages.tsx';
import { deferred, envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

const view = mountPoint();
beforeEach(resetClientState);
afterEach(resetClientState);

function Order({ run }: { run: () => Promise<void> }) {
  const { busy, submit } = useSubmit(run);
  return (
    <Form onSubmit={submit}>
      <Button type="submit" disabled={busy}>
        Buy
      </Button>
    </Form>
  );
}

const buy = () => view.container.querySelector('button')!;

it('two clicks dispatched in one task run the write once; once it ends, the next click runs again', async () => {
  const held = deferred<void>();
  const run = vi.fn(() => held.promise);
  await act(async () => view.root.render(<Order run={run} />));
  act(() => {
    buy().click();
    buy().click();
  });
  expect(run).toHaveBeenCalledTimes(1);
  await act(async () => held.resolve());
  expect(buy().disabled).toBe(false);
  run.mockImplementation(() => Promise.resolve());
  await act(async () => buy().click());
  expect(run).toHaveBeenCalledTimes(2);
});

it('two submits of the form (Enter twice) in one task run the write once', async () => {
  const held = deferred<void>();
  const run = vi.fn(() => held.promise);
  await act(async () => view.root.render(<Order run={run} />));
  const form = view.container.querySelector('form')!;
  act(() => {
    form.requestSubmit();
    form.requestSubmit();
  });
  expect(run).toHaveBeenCalledTimes(1);
  await act(async () => held.resolve());
});

it('a failed write frees the guard: the next click runs', async () => {
  const run = vi.fn(() => Promise.reject(new Error('Server busy')));
  await act(async () => view.root.render(<Order run={run} />));
  await act(async () => buy().click());
  await act(async () => buy().click());
  expect(run).toHaveBeenCalledTimes(2);
});

it('a real page: two taps on Reset in one task send one request', async () => {
  session.token = 'token-a';
  session.user = { id: 1, username: 'user1' } as UserInfo;
  const answer = deferred<Response>();
  const fetch = stubFetch(() => answer.promise);
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <PracticeResetDialog onClose={() => undefined} />
      </I18nProvider>,
    ),
  );
  const reset = [...view.container.querySelectorAll('button')].find((item) => item.textContent === 'Reset')!;
  act(() => {
    reset.click();
    reset.click();
  });
  await act(async () =>
    answer.resolve(
      envelope(1, 'ok', {
        balances: [],
        start_amount: '10000',
        resets: 1,
        opened_at: '2026-01-02T03:04:05.000Z',
        reset_at: null,
      }),
    ),
  );
  expect(fetch.calls).toHaveLength(1);
});

function ConsoleSave({ call }: { call: () => Promise<void> }) {
  const { busy, run } = useAction();
  return (
    <button type="button" onClick={() => void run(call)} disabled={busy}>
      Save
    </button>
  );
}

it("the console's actions (approve, reject, save) hold the same guard: two clicks in one task, one call", async () => {
  const held = deferred<void>();
  const call = vi.fn(() => held.promise);
  await act(async () => view.root.render(<ConsoleSave call={call} />));
  act(() => {
    buy().click();
    buy().click();
  });
  expect(call).toHaveBeenCalledTimes(1);
  await act(async () => held.resolve());
});

/** Types `text` into a React-controlled input, as the browser's input event does. */
function typeInto(input: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

it("a real console page: the operator's sign-in sent twice in one task (Enter twice) makes one call", async () => {
  const answer = deferred<Response>();
  const fetch = vi.fn((_url: string, _init?: RequestInit) => answer.promise);
  vi.stubGlobal('fetch', fetch);
  try {
    await act(async () =>
      view.root.render(
        <I18nProvider i18n={i18n}>
          <SignInPage />
        </I18nProvider>,
      ),
    );
    const [name, password, code] = [...view.container.querySelectorAll('input')];
    act(() => {
      typeInto(name!, 'customer1');
      typeInto(password!, 'a long password');
      typeInto(code!, '123456');
    });
    const form = view.container.querySelector('form')!;
    act(() => {
      form.requestSubmit();
      form.requestSubmit();
    });
    await act(async () => answer.resolve(envelope(0, 'Wrong operator name, password or code!', null)));
    expect(fetch).toHaveBeenCalledTimes(1);
    // The refusal frees the guard: the next sign-in is sent.
    fetch.mockImplementation(() => Promise.resolve(envelope(0, 'Wrong operator name, password or code!', null)));
    await act(async () => form.requestSubmit());
    expect(fetch).toHaveBeenCalledTimes(2);
  } finally {
    vi.unstubAllGlobals();
  }
});
