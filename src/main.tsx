// Boot: stores from IndexedDB, then the language, then the first render, then the service worker
// and the §1 version check.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/ui.css';
import { hydrateStores } from './lib/storage.ts';
import { activateLocale, localeChoice, pickLocale } from './lib/i18n.ts';
import { checkAppVersion, registerServiceWorker } from './lib/update.ts';
import { App } from './app/App.tsx';
import { startOutbox } from './lib/outbox.ts';
import { keepStorage } from './lib/persistence.ts';

await hydrateStores();
await activateLocale(pickLocale(localeChoice.locale, navigator.languages));
document.documentElement.dataset.build = __BUILD_ID__;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerServiceWorker();
startOutbox();
keepStorage();
// Best effort: without network (and nothing cached) the check waits for the next start.
checkAppVersion().catch(() => undefined);
