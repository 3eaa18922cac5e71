// The script inside index.html, after the screens' templates: puts the first screen this start would show
// into #root before the first paint (first-screen-pick.ts says which). Built on its own as one classic
// script (src/build/first-screens.ts); nothing here may wait, as the page's parsing waits for it.
import { firstScreenId, pickFirstScreen, readFirstScreenHint } from '../lib/first-screen-pick.ts';
import { intlLocale, isRightToLeft } from '../lib/locale-pick.ts';

let hint = null;
try {
  hint = readFirstScreenHint(localStorage);
} catch {
  // Storage refused (a sandboxed frame): as a first visit.
}
const pick = pickFirstScreen(location.hash, hint, navigator.languages, Boolean(navigator.serviceWorker?.controller));
const template = pick && document.getElementById(firstScreenId(pick.locale, pick.index));
if (pick && template instanceof HTMLTemplateElement) {
  document.getElementById('root')?.replaceChildren(template.content.cloneNode(true));
  document.documentElement.lang = intlLocale(pick.locale);
  document.documentElement.dir = isRightToLeft(pick.locale) ? 'rtl' : 'ltr';
}
