// A statement as a CSV file, made on the device from the server's answer with the app's one CSV writer
// (lib/csv.ts: quoting, formula defusing, number cells, wall-clock times, BOM and CRLF). Pure: the texts come in
// translated, so it runs the same in the app and in the unit tests. Loaded only when the customer downloads one.
import Big from 'big.js';
import type { Statement } from '../../api-contract/statements.ts';
import { csvFile, decimalSeparator, numberCell, textCell, wallClock } from '../../lib/csv.ts';

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

/** The statement's balance after each entry, checked: opening + every entry must come to the closing balance. */
export function runningBalances(statement: Pick<Statement, 'opening' | 'entries' | 'closing'>): string[] {
  let balance = new Big(statement.opening);
  const after = statement.entries.map((entry) => (balance = balance.plus(entry.amount)).toFixed(8));
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
  return csvFile(rows);
}

/** The file's name: "statement-USDT-2026-11-01-2026-11-30.csv". */
export const statementFileName = (statement: Pick<Statement, 'asset' | 'from' | 'to'>) =>
  `statement-${statement.asset}-${statement.from}-${statement.to}.csv`;
