// Boot: stores from IndexedDB, then the language, then the first render, then the service worker.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Workbox } from 'workbox-window';
import './ui/ui.css';
import { hydrateStores } from './lib/storage.ts';
import { activateLocale, localeChoice, pickLocale } from './lib/i18n.ts';
import { App } from './app/App.tsx';

await hydrateStores();
await activateLocale(pickLocale(localeChoice.locale, navigator.languages));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void new Workbox(`${import.meta.env.BASE_URL}sw.js`, { type: 'module' }).register();
}
