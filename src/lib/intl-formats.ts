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
