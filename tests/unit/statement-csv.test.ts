// The statement file: its sums, the customer's number format and time zone, CSV quoting and the
// defusing of cells a spreadsheet would run as formulas.
import { describe, expect, it } from 'vitest';
import {
  runningBalances,
  statementCsv,
  statementFileName,
  type StatementFormat,
} from '../../src/features/funds/statement-csv.ts';
import { BOM, decimalSeparator, numberCell, textCell, wallClock } from '../../src/lib/csv.ts';
import type { Statement } from '../../src/api-contract/statements.ts';
import { periodProblem } from '../../src/api-contract/statements.ts';

const statement: Statement = {
  asset: 'USDT',
  from: '2026-11-01',
  to: '2026-11-30',
  time_zone: 'Asia/Bangkok',
  starts_at: '2026-10-31T17:00:00.000Z',
  ends_at: '2026-11-30T17:00:00.000Z',
  opening: '999.90000000',
  entries: [
    {
      id: 3,
      amount: '250.12345678',
      balance: '1250.02345678',
      kind: 'recharge',
      reference: 'recharge:1',
      created_at: '2026-10-31T17:00:00.000Z',
    },
    {
      id: 4,
      amount: '-100.50000000',
      balance: '1149.52345678',
      kind: 'option_stake',
      reference: 'option:9',
      created_at: '2026-11-10T12:00:00.000Z',
    },
    {
      id: 7,
      amount: '0.00000001',
      balance: '1149.52345679',
      kind: '=HYPERLINK("http://evil")',
      reference: '+cmd|"/C calc"!A0',
      created_at: '2026-11-30T16:59:59.000Z',
    },
  ],
  closing: '1149.52345679',
  next: null,
};

const texts = {
  title: 'Coinvest statement',
  language: 'Language',
  timeZone: 'Time zone',
  numberFormat: 'Number format',
  asset: 'Asset',
  period: 'Period',
  generatedAt: 'Generated at',
  opening: 'Opening balance',
  closing: 'Closing balance',
  time: 'Time',
  kind: 'Type',
  amount: 'Amount',
  balance: 'Balance after',
  reference: 'Reference',
};

const format = (over: Partial<StatementFormat> = {}): StatementFormat => ({
  locale: 'en',
  languageName: 'English (en)',
  timeZone: 'Asia/Bangkok',
  generatedAt: new Date('2026-11-27T04:30:00Z'),
  texts,
  kindLabel: (kind) => ({ recharge: 'Recharge', option_stake: 'Option purchase' })[kind] ?? kind,
  ...over,
});

/** The cells of a CSV made by statementCsv (every field quoted, comma separated, CRLF lines). */
function parse(csv: string): string[][] {
  expect(csv.startsWith(BOM)).toBe(true);
  const lines = csv.slice(1).split('\r\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) =>
    line === '' ? [] : [...line.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((match) => match[1]!.replace(/""/g, '"')),
  );
}

describe('statementCsv', () => {
  it('writes the header, one row per entry with the balance after it, and balances that add up', () => {
    const rows = parse(statementCsv(statement, format()));
    expect(rows.slice(0, 8)).toEqual([
      ['Coinvest statement'],
      ['Language', 'English (en)'],
      ['Time zone', 'Asia/Bangkok'],
      ['Number format', '-1234.50000000'],
      ['Asset', 'USDT'],
      ['Period', '2026-11-01', '2026-11-30'],
      ['Generated at', '2026-11-27 11:30:00'],
      ['Opening balance', '999.90000000'],
    ]);
    expect(rows[8]).toEqual([]);
    expect(rows[9]).toEqual(['Time', 'Type', 'Amount', 'Balance after', 'Reference']);
    // Times on Bangkok's wall clock: 17:00Z on 31 October is midnight on 1 November there.
    expect(rows.slice(10, 13)).toEqual([
      ['2026-11-01 00:00:00', 'Recharge', '250.12345678', '1250.02345678', 'recharge:1'],
      ['2026-11-10 19:00:00', 'Option purchase', '-100.50000000', '1149.52345678', 'option:9'],
      ['2026-11-30 23:59:59', `'=HYPERLINK("http://evil")`, '0.00000001', '1149.52345679', `'+cmd|"/C calc"!A0`],
    ]);
    expect(rows.slice(13)).toEqual([[], ['Closing balance', '1149.52345679']]);
  });

  it('adds up exactly where floats would not', () => {
    const tenths: Statement = {
      ...statement,
      opening: '0.10000000',
      entries: [{ ...statement.entries[0]!, amount: '0.20000000', balance: '0.30000000' }],
      closing: '0.30000000',
    };
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(runningBalances(tenths)).toEqual(['0.30000000']);
    expect(() => runningBalances({ ...tenths, closing: '0.30000001' })).toThrow(/does not add up/);
  });

  it('writes times in the customer’s time zone', () => {
    const rows = parse(statementCsv(statement, format({ timeZone: 'America/New_York' })));
    expect(rows[2]).toEqual(['Time zone', 'America/New_York']);
    expect(rows[10]![0]).toBe('2026-10-31 13:00:00');
    expect(wallClock(new Date('2026-03-08T07:30:00Z'), 'America/New_York')).toBe('2026-03-08 03:30:00');
    expect(wallClock(new Date('2026-11-27T04:30:00Z'), 'UTC')).toBe('2026-11-27 04:30:00');
  });

  it('uses the language’s decimal separator with ASCII digits, and keeps a comma inside one quoted cell', () => {
    for (const locale of ['en', 'zh', 'th', 'ja', 'ar', 'hi']) expect(decimalSeparator(locale)).toBe('.');
    const arabic = statementCsv(statement, format({ locale: 'ar', languageName: 'العربية (ar)' }));
    // Latin digits, an ASCII minus sign and no direction marks in Arabic too: spreadsheets read them as numbers.
    expect(arabic).not.toMatch(/[\u0660-\u0669\u06f0-\u06f9\u200e\u200f\u061c\u2212]/);
    expect(parse(arabic)[11]![2]).toBe('-100.50000000');
    const german = parse(statementCsv(statement, format({ locale: 'de' })));
    expect(german[3]).toEqual(['Number format', '-1234,50000000']);
    expect(german[11]!.slice(2, 4)).toEqual(['-100,50000000', '1149,52345678']);
    expect(numberCell('1234567.5', ',')).toBe('"1234567,50000000"');
  });

  it('keeps translated texts as they are, quoted', () => {
    const thai = parse(
      statementCsv(statement, {
        ...format({ locale: 'th', languageName: 'ไทย (th)' }),
        texts: { ...texts, title: 'ใบแจ้งยอด "Coinvest"', kind: 'ประเภท' },
      }),
    );
    expect(thai[0]).toEqual(['ใบแจ้งยอด "Coinvest"']);
    expect(thai[9]![1]).toBe('ประเภท');
  });
});

describe('cells', () => {
  it('quotes every text cell and defuses formulas', () => {
    expect(textCell('plain')).toBe('"plain"');
    expect(textCell('say "hi", twice')).toBe('"say ""hi"", twice"');
    expect(textCell('line\nbreak')).toBe('"line\nbreak"');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(textCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    // A number cell is a number, never defused.
    expect(numberCell('-5', '.')).toBe('"-5.00000000"');
  });

  it('names the file by asset and period', () => {
    expect(statementFileName(statement)).toBe('statement-USDT-2026-11-01-2026-11-30.csv');
  });
});

describe('periodProblem', () => {
  it('allows from ≤ to within 366 days of real dates', () => {
    expect(periodProblem('2026-11-01', '2026-11-01')).toBeNull();
    expect(periodProblem('2024-01-01', '2024-12-31')).toBeNull();
    expect(periodProblem('2025-01-01', '2026-01-01')).toBeNull();
    expect(periodProblem('2025-01-01', '2026-01-02')).toBe('length');
    expect(periodProblem('2026-11-02', '2026-11-01')).toBe('order');
    expect(periodProblem('2026-02-30', '2026-03-01')).toBe('calendar');
    expect(periodProblem('', '2026-03-01')).toBe('date');
  });
});
