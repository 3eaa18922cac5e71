// @vitest-environment jsdom
// The console's lines of the server's words (a refusal, the notice of why a session ended) go once the operator picks
// another language: they were said in the old one and cannot be said again in the new one. A new text shows.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, expect, it } from 'vitest';
import { ServerLine } from '../../src/console/parts.tsx';
import { SignInPage } from '../../src/console/SignInPages.tsx';
import { consoleSession, endSession } from '../../src/console/session.ts';
import { mountPoint } from './helpers.ts';

const view = mountPoint();
const startedIn = i18n.locale;
afterEach(() => {
  i18n.activate(startedIn);
  endSession();
});

const show = (text: string) =>
  act(() =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <ServerLine text={text} className="console-notice" role="status" />
      </I18nProvider>,
    ),
  );
const shown = () => view.container.querySelector('[role="status"]')?.textContent ?? null;

it('shows the notice in the language it came in, and hides it once another language is picked', async () => {
  i18n.loadAndActivate({ locale: 'zh', messages: {} });
  await show('您的登录已过期');
  expect(shown()).toBe('您的登录已过期');

  await act(() => i18n.loadAndActivate({ locale: 'th', messages: {} }));
  expect(shown()).toBeNull();
});

it('shows a new text said in the language picked since', async () => {
  i18n.loadAndActivate({ locale: 'zh', messages: {} });
  await show('您的登录已过期');
  await act(() => i18n.loadAndActivate({ locale: 'th', messages: {} }));
  await show('เซสชันของคุณหมดอายุแล้ว');
  expect(shown()).toBe('เซสชันของคุณหมดอายุแล้ว');
});

it('shows nothing for no text', async () => {
  await show('');
  expect(shown()).toBeNull();
});

it("takes the sign-in page's notice away when the operator picks another language there", async () => {
  i18n.loadAndActivate({ locale: 'zh', messages: {} });
  endSession('您的登录已过期');
  await act(() =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <SignInPage />
      </I18nProvider>,
    ),
  );
  expect(shown()).toBe('您的登录已过期');

  await act(() => i18n.loadAndActivate({ locale: 'th', messages: {} }));
  expect(shown()).toBeNull();
  expect(consoleSession.notice).toBe('您的登录已过期');
});
