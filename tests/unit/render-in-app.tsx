// Renders a component as the app does around it: the active language's texts and a router (in memory).
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { i18n } from '@lingui/core';
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
