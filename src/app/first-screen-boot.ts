// The script inside index.html, after the screens' templates: puts the first screen this start would show
// into #root before the first paint (first-screen-pick.ts says which). Built on its own as one classic
// script (src/build/first-screens.ts); nothing here may wait, as the page's parsing waits for it.
// It also stands by for a start whose code fails to arrive (the boot script says so: START_FAILED): without
// it the inert screen would stay forever. It reloads once, as for a page's missing chunk; a second failure
// shows, in the start's language, that the app could not load, with a button to try again. A start whose code
// neither arrives nor fails shows the same after START_WAIT_MS, and goes on waiting for it.
import { browserReloadPlace, reloadForMissingChunk } from '../lib/chunk-reload.ts';
import {
  START_FAILED,
  START_WAIT_MS,
  firstScreenId,
  pickFirstScreen,
  readFirstScreenHint,
  startFailedId,
} from '../lib/first-screen-pick.ts';
import { intlLocale, isRightToLeft, pickLocale } from '../lib/locale-pick.ts';
import { startIntlWarm } from '../lib/intl-formats.ts';
import { DARK_QUERY, applyTheme, resolveTheme } from '../lib/theme-pick.ts';
import { applyPriceColors, resolvePriceColors } from '../lib/price-colors-pick.ts';
import type { Locale } from '../api-contract/constants.ts';

let hint = null;
try {
  hint = readFirstScreenHint(localStorage);
} catch {
  // Storage refused (a sandboxed frame): as a first visit.
}
// The theme first: the screen below, and the shell if none, paint in it (a dark device never sees a white page).
applyTheme(document.documentElement, resolveTheme(hint?.theme, matchMedia(DARK_QUERY).matches));
const pick = pickFirstScreen(location.hash, hint, navigator.languages, Boolean(navigator.serviceWorker?.controller));
const locale = pick?.locale ?? pickLocale(hint?.locale ?? null, navigator.languages);
// The colour of a rise, before the screen below paints its quotes.
applyPriceColors(document.documentElement, resolvePriceColors(hint?.priceColors, locale));
const root = document.getElementById('root');

/** Puts a template's content in #root, in its language. */
function show(template: HTMLElement | null, shownLocale: Locale): boolean {
  if (!root || !(template instanceof HTMLTemplateElement)) return false;
  root.replaceChildren(template.content.cloneNode(true));
  document.documentElement.lang = intlLocale(shownLocale);
  document.documentElement.dir = isRightToLeft(shownLocale) ? 'rtl' : 'ltr';
  return true;
}

if (pick) show(document.getElementById(firstScreenId(pick.locale, pick.index)), pick.locale);

// A signed-in start opens on amounts and times. The first Intl formatter of a page loads the locale's data in one task
// that cannot be split (20 ms on a fast machine, four times that on a slow phone); a worker loads it now, while the
// page paints and the app's code downloads, and the app's first formatter finds it loaded (src/lib/intl-warm.ts).
if (hint?.signedIn)
  startIntlWarm(intlLocale(locale), (name) => new Worker(__INTL_WARM_URL__, { type: 'module', name }));

/** Whether the app has taken the screen over: from then on, what it shows is its own. */
const appTookOver = () => Boolean(root?.querySelector(':scope > .app:not([inert])'));

/** Says, in the start's language, that the app could not load, with a button that loads it again. */
function showStartFailed() {
  if (show(document.getElementById(startFailedId(locale)), locale))
    root?.querySelector('[data-retry]')?.addEventListener('click', () => location.reload());
}

function startFailed() {
  if (appTookOver()) return;
  if (reloadForMissingChunk(browserReloadPlace())) return;
  showStartFailed();
}

if (document.documentElement.dataset.startFailed !== undefined) startFailed();
else document.addEventListener(START_FAILED, startFailed, { once: true });

// The code neither arrived nor failed: the page says so, and keeps waiting (no reload, which would throw away what is
// on its way). The app still takes the screen over if its code arrives.
setTimeout(() => {
  if (!appTookOver() && document.documentElement.dataset.startFailed === undefined) showStartFailed();
}, START_WAIT_MS);
