// A period of time a text says in its reader's words: a payee's cooling-off ("withdrawals to it are possible 24 hours
// after it was added"). The server's translator writes a Period value of a text; the app writes the same period with
// periodText where it makes the text itself.

/** A period of time a text says in its reader's words ("24 hours", "30 seconds", Arabic "ساعة"): `ms` milliseconds. */
export class Period {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

/**
 * `ms` in the words of `intlLocale` (a BCP 47 tag): whole seconds under a minute, whole minutes under an hour, else
 * hours to two decimals ("30 seconds", "30 minutes", "1 hour", "1.5 hours", "24小时"), each rounded up so the wait said
 * is never shorter than the real one (and never "0 seconds": a wait of nothing left is said as 1 second). A wait under
 * a minute said in minutes would tell a 30-second login delay as "1 minute". The unit's name and its plural form
 * (Arabic's one, two, few and many) are the locale's own, from Intl's unit formatting (CLDR); ASCII digits, as every
 * figure the app shows.
 */
export function periodText(ms: number, intlLocale: string): string {
  const unit = ms < MINUTE_MS ? 'second' : ms < HOUR_MS ? 'minute' : 'hour';
  const amount =
    unit === 'second'
      ? Math.max(1, Math.ceil(ms / SECOND_MS))
      : unit === 'minute'
        ? Math.ceil(ms / MINUTE_MS)
        : Math.ceil((ms / HOUR_MS) * 100) / 100;
  return new Intl.NumberFormat(intlLocale, {
    style: 'unit',
    unit,
    unitDisplay: 'long',
    maximumFractionDigits: 2,
    numberingSystem: 'latn',
  }).format(amount);
}
