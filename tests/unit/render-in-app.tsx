// Renders a component as the app does around it: the active language's texts and a router (in memory).
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { i18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

/** Renders `node` into `view` (a mountPoint) inside the app's language provider and a memory router at `path` (its
 * query included; default '/'), within act. */
export async function renderInApp(view: { root: Root }, node: React.ReactNode, path = '/'): Promise<void> {
  const { hook, searchHook } = memoryLocation({ path });
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <Router hook={hook} searchHook={searchHook}>
          {node}
        </Router>
      </I18nProvider>,
    ),
  );
}

/** Loads `locale`'s whole catalog (src/locales/<locale>/messages.po, as translated) and makes it the active language,
 * within act: what a test of a screen in that language renders with. */
export async function activateCatalog(locale: string): Promise<void> {
  const { messages } = (await import(`../../src/locales/${locale}/messages.po`)) as { messages: Messages };
  await act(() => {
    i18n.load(locale, messages);
    i18n.activate(locale);
  });
}
