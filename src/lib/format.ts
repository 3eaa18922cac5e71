// Numbers for people: thousands separators in groups of three (§9), in the app's language.
import { intlLocale, currentLocale } from './i18n.ts';

const formatters = new Map<string, Intl.NumberFormat>();

/** Formats a decimal string (or number) exactly, without going through a float. */
export function formatAmount(value: string | number, fractionDigits = 2): string {
  const tag = `${intlLocale(currentLocale())}:${fractionDigits}`;
  let formatter = formatters.get(tag);
  if (!formatter) {
    formatter = new Intl.NumberFormat(intlLocale(currentLocale()), {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      numberingSystem: 'latn',
    });
    formatters.set(tag, formatter);
  }
  // Intl formats numeric strings at full precision (no float rounding on the way).
  return formatter.format(value as unknown as number);
}

/** HH:MM of an ISO time, in the app's language ("Offline — as of 14:05"). */
export const formatClock = (iso: string) =>
  new Intl.DateTimeFormat(intlLocale(currentLocale()), { hour: '2-digit', minute: '2-digit', numberingSystem: 'latn' }).format(new Date(iso));
