// A period of time a text says in its reader's words: a payee's cooling-off ("withdrawals to it are possible 24 hours
// after it was added"). The server's translator writes a Period value of a text; the app writes the same period with
// periodText where it makes the text itself.

/** A period of time a text says in its reader's words ("24 hours", Arabic "ساعة"): `ms` milliseconds. */
export class Period {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * `ms` in the words of `intlLocale` (a BCP 47 tag): whole minutes under an hour, else hours to two decimals ("30
 * minutes", "1 hour", "1.5 hours", "24小时"), both rounded up so the wait said is never shorter than the real one.
 * The unit's name and its plural form (Arabic's one, two, few and many) are the locale's own, from Intl's unit
 * formatting (CLDR); ASCII digits, as every figure the app shows.
 */
export function periodText(ms: number, intlLocale: string): string {
  const unit = ms < HOUR_MS ? 'minute' : 'hour';
  const amount = unit === 'minute' ? Math.ceil(ms / MINUTE_MS) : Math.ceil((ms / HOUR_MS) * 100) / 100;
  return new Intl.NumberFormat(intlLocale, {
    style: 'unit',
    unit,
    unitDisplay: 'long',
    maximumFractionDigits: 2,
    numberingSystem: 'latn',
  }).format(amount);
}
