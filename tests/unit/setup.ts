// Unit tests run on Node, or in jsdom where a file asks for it (its first line), with an in-memory IndexedDB and the
// English catalog.
import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import { afterAll } from 'vitest';
import { loadKeyboardFocus } from '../../src/ui/keyboard-focus-load.ts';

i18n.loadAndActivate({ locale: 'en', messages: {} });

// A jsdom file whose screens open a dialog starts the lazy focus module's import (ui/keyboard-focus-load.ts); it must
// finish before the file's environment is torn down, or its late load fails the run (seen once on a busy machine).
afterAll(async () => {
  if (typeof document !== 'undefined') await loadKeyboardFocus();
});
