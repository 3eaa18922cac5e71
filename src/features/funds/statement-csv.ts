// A statement as a CSV file (fields in double quotes, a quote inside doubled, CRLF line ends), made on the
// device from the server's answer. Pure: the texts come in translated, so it runs the same in the app and in
// the unit tests. Loaded only when the customer downloads one. Choices made for spreadsheets:
// - Every field is quoted and the separator is a comma: a language whose decimal separator is a
//   comma ("1234,5") stays one cell, and no delimiter has to be guessed.
// - Amounts are exact decimals from the ledger (8 places, never a float), with an ASCII minus sign,
//   no thousands grouping and the language's decimal separator; the header says which.
// - Digits are always ASCII (0-9), Arabic included: spreadsheets read Arabic-Indic digits as text,
//   and the app shows Latin digits everywhere too.
// - Times are "YYYY-MM-DD HH:MM:SS" in the customer's time zone, named in the header.
// - A text cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
//   return) gets a leading apostrophe; numbers are written as numbers.
// - UTF-8 with a byte order mark and CRLF line ends, so Excel opens Thai, Chinese or Arabic text as such.
import { BoundedCache } from '../../api-contract/bounded-cache.ts';
import { ZONE_FORMATS_KEPT } from '../../api-contract/earn-days.ts';
import Big from 'big.js';
import type { Statement } from '../../api-contract/statements.ts';

export interface StatementTexts {
  title: string;
  language: string;
  timeZone: string;
  numberFormat: string;
  asset: string;
  period: string;
  generatedAt: string;
  opening: string;
  closing: string;
  time: string;
  kind: string;
  amount: string;
  balance: string;
  reference: string;
}

export interface StatementFormat {
  /** The Intl tag of the customer's language ("th", "ja", "ar"): its decimal separator is used. */
  locale: string;
  /** How the language is named in the header: "ไทย (th)". */
  languageName: string;
  /** The customer's IANA time zone: every time of the file is its wall clock. */
  timeZone: string;
  generatedAt: Date;
  texts: StatementTexts;
  /** An entry's kind in the customer's language. */
  kindLabel: (kind: string) => string;
  /** The asset in the customer's language (a coin's code stays itself); its code when not given. */
  assetLabel?: (asset: string) => string;
}

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

/** A decimal string as a number cell: exact, ASCII digits and minus sign, the language's decimal separator. */
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

/** The statement's balance after each entry, checked: opening + every entry must come to the closing balance. */
export function runningBalances(statement: Pick<Statement, 'opening' | 'entries' | 'closing'>): string[] {
  let balance = new Big(statement.opening);
  const after = statement.entries.map((entry) => (balance = balance.plus(entry.amount)).toFixed(DECIMALS));
  if (!balance.eq(statement.closing))
    throw new Error(
      `The statement does not add up: ${balance.toFixed()} against a closing balance of ${statement.closing}`,
    );
  return after;
}

/** The whole file, BOM included. */
export function statementCsv(statement: Statement, format: StatementFormat): string {
  const { texts } = format;
  const separator = decimalSeparator(format.locale);
  const number = (value: string) => numberCell(value, separator);
  const balances = runningBalances(statement);
  const rows: string[][] = [
    [textCell(texts.title)],
    [textCell(texts.language), textCell(format.languageName)],
    [textCell(texts.timeZone), textCell(format.timeZone)],
    [textCell(texts.numberFormat), number('-1234.5')],
    [textCell(texts.asset), textCell(format.assetLabel?.(statement.asset) ?? statement.asset)],
    [textCell(texts.period), textCell(statement.from), textCell(statement.to)],
    [textCell(texts.generatedAt), textCell(wallClock(format.generatedAt, format.timeZone))],
    [textCell(texts.opening), number(statement.opening)],
    [],
    [texts.time, texts.kind, texts.amount, texts.balance, texts.reference].map(textCell),
    ...statement.entries.map((entry, index) => [
      textCell(wallClock(new Date(entry.created_at), format.timeZone)),
      textCell(format.kindLabel(entry.kind)),
      number(entry.amount),
      number(balances[index]!),
      textCell(entry.reference),
    ]),
    [],
    [textCell(texts.closing), number(statement.closing)],
  ];
  return BOM + rows.map((row) => row.join(',')).join(LINE_END) + LINE_END;
}

/** The file's name: "statement-USDT-2026-11-01-2026-11-30.csv". */
export const statementFileName = (statement: Pick<Statement, 'asset' | 'from' | 'to'>) =>
  `statement-${statement.asset}-${statement.from}-${statement.to}.csv`;
