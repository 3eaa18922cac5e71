// Boot: stores from IndexedDB, then the language and the first page's code and texts (while the
// startup message is asked for), then the first render; once the page has loaded and the browser
// is idle, the service worker, the outbox and the startup version check (lib/update.ts).
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './ui/ui.css';
import { hydrateStores } from './lib/storage.ts';
import { tellWhenStorageFull } from './lib/storage-full.ts';
import { activateLocale, localeChoice, pickLocale, warmIntl } from './lib/i18n.ts';
import { App } from './app/App.tsx';
import { resolvePath, startPage } from './app/routes.ts';
import { currentRoute, pathOf } from './lib/navigation.ts';
import { session } from './lib/session.ts';
import { onLostAnswer } from './lib/api.ts';
import { lostAnswers } from './lib/lost-answers-state.ts';
import { watchFundsWrites } from './features/lost-answers/funds-writes.ts';
import { startStartupMessage, startupDialogOnItsWay } from './app/StartupMessage.tsx';
import { whenIdle } from './lib/idle.ts';
import { keepFirstScreenHint } from './lib/first-screen-hint.ts';
import { keepTheme } from './lib/theme.ts';
import { keepPriceColors } from './lib/price-colors.ts';
import { watchAppLock } from './lib/app-lock.ts';
// Counts the time in the foreground from the start, for the reminder of time in the app.
import './lib/foreground.ts';

/** How long the static shell may wait for the first page's code and texts before the app renders. */
const FIRST_PAGE_WAIT_MS = 1500;
/** How much longer the first page may wait for the startup message's dialog, once it is known to come. */
const STARTUP_DIALOG_WAIT_MS = 500;
/**
 * When the reminder of time in the app starts, after the app's start: a minute before the earliest reminder (5 minutes
 * in the foreground, api-contract/protection.ts REMINDER_MINUTES), so a short visit never asks for its setting.
 */
const REMINDER_START_MS = 4 * 60_000;
const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await hydrateStores();
// A write the device refuses for want of room is told: what waits to be sent would go with the page.
tellWhenStorageFull();
const noop = () => undefined;
/** The code that keeps and asks about writes whose answer was lost: loaded when one is (features/lost-answers). */
const lostAnswersCode = () => import('./features/lost-answers/lost-answers.ts');
// Before any write: what was on its way when the page last closed is asked about, and each write from now is kept. A
// write another tab left on its way when it closed is asked about as soon as it is known to be abandoned.
void watchFundsWrites(
  () =>
    void lostAnswersCode().then(({ startLostAnswers, askAboutLostWrites }) => {
      startLostAnswers();
      // After any asking already under way, which took the list as it was.
      void askAboutLostWrites().then(askAboutLostWrites);
    }, noop),
);
keepTheme();
// Before anything renders: a start after long enough away opens on the lock screen.
watchAppLock();
keepFirstScreenHint();
const locale = pickLocale(localeChoice.locale, navigator.languages);
keepPriceColors(locale);
const language = activateLocale(locale);
// The startup message's check goes out first: over HTTP/1.1 a request waits for one of six
// connections, and the check would otherwise queue behind the first page's dozen scripts. Its
// request leaves within this task (the client sends after a few microtasks); the page's code is
// asked for in the next one.
if (session.token) {
  startStartupMessage(session.token, locale, language);
  await waitMs(0);
}
const firstPage = startPage(resolvePath(pathOf(currentRoute())), Boolean(session.token), locale, language);
// A signed-in first page shows amounts and times: their locale data loads while its code downloads.
if (session.token) warmIntl(locale);
await language;
// The static shell stays until the first page can render whole, rather than a loading screen that
// would then be held on screen for a moment; on a network too slow for that, the loading screen.
await Promise.race([firstPage, waitMs(FIRST_PAGE_WAIT_MS)]);
// A startup message known to be coming, its dialog a moment away: it renders with the page rather
// than popping up over it just after. A check not yet answered holds nothing (a stalled network).
const startupDialog = startupDialogOnItsWay();
if (startupDialog) await Promise.race([startupDialog, waitMs(STARTUP_DIALOG_WAIT_MS)]);
document.documentElement.dataset.build = __BUILD_ID__;

// As a transition, the first render yields to the browser every few milliseconds instead of holding
// the main thread for one long task (taps and paints get through on a slow phone).
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

onLostAnswer(
  (...write) =>
    void lostAnswersCode().then(({ startLostAnswers, keepLostWrite }) => {
      startLostAnswers();
      keepLostWrite(...write);
    }, noop),
);

/**
 * The update checker's code, asked for once the first screen is in. Offline with nothing kept (its fetch failed) it
 * is asked again when the browser is back online, never left as an uncaught error; a browser that keeps the failed
 * fetch for the page's life (Chromium) fails that at once too, and the next start asks again.
 */
const startUpdates = () =>
  void import('./lib/update.ts').then(
    ({ afterFirstScreen }) => afterFirstScreen(),
    () => addEventListener('online', startUpdates, { once: true }),
  );
// Idle: on a slow phone, what the first screen still fetches goes first.
const afterLoad = () => {
  startUpdates();
  // Writes whose answer was lost, kept from before: asked about once the first screen is in.
  if (lostAnswers.waiting.length) void lostAnswersCode().then(({ startLostAnswers }) => startLostAnswers(), noop);
};
const afterLoadIdle = () => void whenIdle(afterLoad, 2000);
if (document.readyState === 'complete') afterLoadIdle();
else addEventListener('load', afterLoadIdle, { once: true });
// The reminder of time in the app (its setting and timer) arrives well after all a first screen needs.
setTimeout(
  () =>
    void import('./features/protection/reminder.ts').then(
      ({ startReminder }) => startReminder(),
      () => undefined, // offline with nothing kept: the next start tries again
    ),
  REMINDER_START_MS,
);
