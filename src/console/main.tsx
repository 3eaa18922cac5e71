// The operator console's boot: the language first, then the app. Online only: no service
// worker of its own, and the app's worker lets every /console/ request go to the network.
import { createRoot } from 'react-dom/client';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { activateConsoleLocale, startingLocale } from './i18n.ts';
import { ConsoleApp } from './ConsoleApp.tsx';
import './console.css';
// Dialogs take the keyboard's focus, keep Tab inside and close on Escape, as in the app.
import '../ui/keyboard-focus.ts';

await activateConsoleLocale(startingLocale());
createRoot(document.getElementById('root')!).render(
  <I18nProvider i18n={i18n}>
    <ConsoleApp />
  </I18nProvider>,
);
