/** Formats once with a number and a date formatter of `tag`, the options the app's first screens use. */
export function warmFormats(tag: string): void {
  new Intl.NumberFormat(tag, { minimumFractionDigits: 2, numberingSystem: 'latn' }).format(1);
  new Intl.DateTimeFormat(tag, {
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    numberingSystem: 'latn',
  }).format(0);
}

/** The mark on <html> of the Intl tag whose warming worker this page started (`data-intl-warm`). */
const WARM_MARK = 'intlWarm';

/**
 * Starts, with `start`, the worker (src/lib/intl-warm.ts) that formats once in `tag` (its name), unless this page
 * already started one for it: the first screen's script starts it before the app's code arrives, and the app's start,
 * where that script did not (no hint of a session, another language), starts it as its code downloads.
 */
export function startIntlWarm(tag: string, start: (name: string) => unknown): void {
  const root = document.documentElement;
  if (root.dataset[WARM_MARK] === tag) return;
  try {
    start(tag);
    root.dataset[WARM_MARK] = tag;
  } catch {
    // No worker here (an old browser, a test): nothing is lost but the head start.
  }
}
