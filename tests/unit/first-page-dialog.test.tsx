// @vitest-environment jsdom
// A dialog on the very first page, before any navigation or key press (the startup message, the update dialog): the
// shell has not loaded the focus module yet (ui/keyboard-focus.ts), so the dialog asks for it as it opens
// (ui/keyboard-focus-load.ts) and then takes the focus and keeps Tab inside. This file imports neither module itself:
// the dialog's own request is the only way the module can load here. Every component that draws a modal dialog asks.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { act } from 'react';
import { expect, it } from 'vitest';
import { Dialog } from '../../src/ui/lists.tsx';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

/** Presses `key` where the focus is; true when something took it over (the browser's own move cancelled). */
function press(key: string, shiftKey = false): boolean {
  const event = new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true });
  (document.activeElement ?? document.body).dispatchEvent(event);
  return event.defaultPrevented;
}

it('takes the focus as it opens on the first page, with no key pressed before, and keeps Tab inside', async () => {
  // Modal markup alone, with no dialog component: nothing moves the focus or the Tab key yet.
  act(() =>
    view.root.render(
      <main>
        <h1>Coinvest</h1>
        <div aria-modal="true" tabIndex={-1} />
      </main>,
    ),
  );
  expect(document.activeElement).toBe(document.body);
  expect(press('Tab')).toBe(false);

  const focusedInside = new Promise<Event>((resolve) => document.addEventListener('focusin', resolve, { once: true }));
  act(() =>
    view.root.render(
      <main>
        <h1>Coinvest</h1>
        <Dialog
          title="Welcome to Coinvest"
          actions={
            <>
              <button type="button" data-dismiss>
                Read later
              </button>
              <button type="button">OK</button>
            </>
          }
        >
          Your account is ready.
        </Dialog>
      </main>,
    ),
  );
  await focusedInside;
  expect(document.activeElement?.textContent).toBe('Read later');
  expect(document.activeElement?.closest('[role="alertdialog"]')?.textContent).toContain('Welcome to Coinvest');
  expect(press('Tab', true)).toBe(true);
  expect(document.activeElement?.textContent).toBe('OK');
  expect(press('Tab')).toBe(true);
  expect(document.activeElement?.textContent).toBe('Read later');
});

it('is so for every modal dialog of the app: each file that draws `aria-modal` asks for the module', () => {
  // The operator console imports the module at its start (src/console/main.tsx).
  const files = readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tsx') && !file.startsWith('console'))
    .map((file) => join('src', file));
  // The attribute as JSX draws it (a selector that looks for open dialogs, `[aria-modal="true"]`, draws none).
  const modal = files.filter((file) => /\saria-modal="true"/.test(readFileSync(file, 'utf8')));
  expect(modal).toContain(join('src', 'ui', 'lists.tsx'));
  expect(modal.filter((file) => !readFileSync(file, 'utf8').includes('useKeyboardFocus()'))).toEqual([]);
});
