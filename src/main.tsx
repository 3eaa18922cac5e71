// Boot: stores from IndexedDB, then the language, then the first render; once the page has
// loaded, the service worker, the outbox and the §1 version check (lib/update.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/ui.css';
import { hydrateStores } from './lib/storage.ts';
import { activateLocale, localeChoice, pickLocale } from './lib/i18n.ts';
import { App } from './app/App.tsx';

await hydrateStores();
await activateLocale(pickLocale(localeChoice.locale, navigator.languages));
document.documentElement.dataset.build = __BUILD_ID__;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

const afterLoad = () => void import('./lib/update.ts').then(({ afterFirstScreen }) => afterFirstScreen());
if (document.readyState === 'complete') afterLoad();
else addEventListener('load', afterLoad, { once: true });
