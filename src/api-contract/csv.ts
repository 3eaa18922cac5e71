// The one CSV writer of the downloads (the account statement and trade history the app makes, the data export the
// server makes): fields in double quotes, a quote inside doubled, comma separated, CRLF line ends, UTF-8 with a byte
// order mark. Pure: the texts come in translated, so it runs the same in the app, on the server and in the unit tests;
// lib/csv.ts re-exports it. Choices made for spreadsheets:
// - Every field is quoted and the separator is a comma: a language whose decimal separator is a
//   comma ("1234,5") stays one cell, and no delimiter has to be guessed.
// - Amounts are exact decimals (8 places, never a float), with an ASCII minus sign, no thousands
//   grouping and the language's decimal separator; a file's header says which.
// - Digits are always ASCII (0-9), Arabic included: spreadsheets read Arabic-Indic digits as text,
//   and the app shows Latin digits everywhere too.
// - Times are "YYYY-MM-DD HH:MM:SS" in the customer's time zone, named in a file's header.
// - A text cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
//   return) gets a leading apostrophe (OWASP's advice on CSV injection); numbers are written as numbers.
// - UTF-8 with a byte order mark and CRLF line ends, so Excel opens Thai, Chinese or Arabic text as such.
import Big from 'big.js';
import { BoundedCache } from './bounded-cache.ts';
import { ZONE_FORMATS_KEPT } from './earn-days.ts';

/** The BOM that tells spreadsheets the file is UTF-8. */
export const BOM = '\uFEFF';
const LINE_END = '\r\n';
const DECIMALS = 8;

/** A text cell, quoted, defused if a spreadsheet would read it as a formula. */
export function textCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The decimal separator of `locale` with Latin digits ("." for the app's six languages, "," for "de"). */
export function decimalSeparator(locale: string): string {
  const parts = new Intl.NumberFormat(locale, { numberingSystem: 'latn' }).formatToParts(1.5);
  return parts.find((part) => part.type === 'decimal')?.value ?? '.';
}

/** A decimal string as a number cell: exact (8 places), ASCII digits and minus, the language's decimal separator. */
export function numberCell(value: string, separator: string): string {
  const fixed = new Big(value).toFixed(DECIMALS);
  return `"${fixed.replace('.', separator)}"`;
}

/** Formatters per zone, bounded like the server's (one zone a device in practice). */
export const timeFormats = new BoundedCache<string, Intl.DateTimeFormat>(ZONE_FORMATS_KEPT);

/** "YYYY-MM-DD HH:MM:SS" of an instant on the wall clock of `timeZone`. */
export function wallClock(at: Date, timeZone: string): string {
  const format = timeFormats.getOrMake(
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        numberingSystem: 'latn',
      }),
  );
  const part = Object.fromEntries(format.formatToParts(at).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/** Rows of cells already made (textCell, numberCell) as a file's lines: comma separated, each ending in CRLF; '' for
 * none. A file written in pieces (the data export's) is the BOM, then these lines of each piece in turn. */
export const csvLines = (rows: readonly (readonly string[])[]): string =>
  rows.map((row) => row.join(',') + LINE_END).join('');

/** The whole file from its rows of cells already made (textCell, numberCell): BOM, comma separated, CRLF lines. */
export const csvFile = (rows: readonly (readonly string[])[]): string => BOM + csvLines(rows);
