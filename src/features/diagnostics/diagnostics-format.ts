// Sizes, ages and durations of the diagnostics page in the app's language (Intl's own units, so
// the catalogs need no words for them).
import { formatterOnce } from '../../lib/formatter-once.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';

const locale = () => intlLocale(currentLocale());

/** "1.2 kB", "35 MB": a byte count in the largest unit that keeps it above 1. */
export function formatBytes(bytes: number): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const tag = locale();
  return formatterOnce(
    `bytes:${tag}:${unit}`,
    () =>
      new Intl.NumberFormat(tag, {
        style: 'unit',
        unit: units[unit],
        unitDisplay: 'short',
        maximumFractionDigits: unit ? 1 : 0,
        numberingSystem: 'latn',
      }),
  ).format(value);
}

/** "5 min. ago": how long ago an answer was stored. */
export function formatAge(seconds: number): string {
  const tag = locale();
  const format = formatterOnce(
    `age:${tag}`,
    () =>
      new Intl.RelativeTimeFormat(tag, {
        numeric: 'auto',
        style: 'short',
        numberingSystem: 'latn',
      } as Intl.RelativeTimeFormatOptions),
  );
  if (seconds < 60) return format.format(-seconds, 'second');
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), 'hour');
  return format.format(-Math.floor(seconds / 86_400), 'day');
}

/** "123 ms". */
export function formatDuration(ms: number): string {
  const tag = locale();
  return formatterOnce(
    `duration:${tag}`,
    () =>
      new Intl.NumberFormat(tag, { style: 'unit', unit: 'millisecond', unitDisplay: 'short', numberingSystem: 'latn' }),
  ).format(ms);
}
