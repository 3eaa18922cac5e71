// The trade history as a CSV file, made on the device with the app's one CSV writer (lib/csv.ts: quoting, formula
// defusing, number cells, wall-clock times, BOM and CRLF). Pure: the texts come in translated, so it runs the same in
// the app and in the unit tests. Loaded only when the customer downloads one.
//
// The header names the language, the time zone every time is in, the number format, the customer, the period and
// filter, when it was made and how fees enter the cost basis; then one row per fill (newest first) in these columns:
// time, pair, side, type (a small balance's conversion says so there), price, quantity, fee, fee asset, total (USDT),
// spent, spent asset, received, received asset, tick price, tick time, order id.
import type { TradeFill } from '../../api-contract/trades.ts';
import { csvFile, decimalSeparator, numberCell, textCell, wallClock } from '../../lib/csv.ts';

/** The file's words, in the customer's language. */
export interface TradesTexts {
  title: string;
  language: string;
  timeZone: string;
  numberFormat: string;
  customer: string;
  period: string;
  pair: string;
  side: string;
  generatedAt: string;
  feesRule: string;
  feesRuleText: string;
  columns: {
    time: string;
    pair: string;
    side: string;
    type: string;
    price: string;
    quantity: string;
    fee: string;
    feeAsset: string;
    total: string;
    spent: string;
    spentAsset: string;
    received: string;
    receivedAsset: string;
    tickPrice: string;
    tickTime: string;
    order: string;
  };
}

export interface TradesFormat {
  /** The Intl tag of the customer's language: its decimal separator is used. */
  locale: string;
  /** How the language is named in the header: "ไทย (th)". */
  languageName: string;
  /** The customer's IANA time zone: every time of the file is its wall clock. */
  timeZone: string;
  generatedAt: Date;
  /** Who the history is of, as the account shows it (a name the customer typed: written as text, defused). */
  customer: string;
  period: { from: string; to: string };
  /** The filter in words: "All pairs" or "BTC/USDT"; "Buy and sell" or one side. */
  pairFilter: string;
  sideFilter: string;
  texts: TradesTexts;
  /** A side and an order type in the customer's language. */
  sideLabel: (side: TradeFill['side']) => string;
  typeLabel: (type: TradeFill['type']) => string;
  /** What a small balance's conversion is called, in the customer's language: its type cell reads "Market · <this>". */
  conversionLabel: string;
}

/** The whole file, BOM included. */
export function tradesCsv(fills: readonly TradeFill[], format: TradesFormat): string {
  const { texts } = format;
  const separator = decimalSeparator(format.locale);
  const number = (value: string) => numberCell(value, separator);
  const time = (iso: string) => textCell(wallClock(new Date(iso), format.timeZone));
  const columns = texts.columns;
  return csvFile([
    [textCell(texts.title)],
    [textCell(texts.language), textCell(format.languageName)],
    [textCell(texts.timeZone), textCell(format.timeZone)],
    [textCell(texts.numberFormat), number('-1234.5')],
    [textCell(texts.customer), textCell(format.customer)],
    [textCell(texts.period), textCell(format.period.from), textCell(format.period.to)],
    [textCell(texts.pair), textCell(format.pairFilter)],
    [textCell(texts.side), textCell(format.sideFilter)],
    [textCell(texts.generatedAt), textCell(wallClock(format.generatedAt, format.timeZone))],
    [textCell(texts.feesRule), textCell(texts.feesRuleText)],
    [],
    [
      columns.time,
      columns.pair,
      columns.side,
      columns.type,
      columns.price,
      columns.quantity,
      columns.fee,
      columns.feeAsset,
      columns.total,
      columns.spent,
      columns.spentAsset,
      columns.received,
      columns.receivedAsset,
      columns.tickPrice,
      columns.tickTime,
      columns.order,
    ].map(textCell),
    ...fills.map((fill) => [
      time(fill.filled_at),
      textCell(`${fill.code}/USDT`),
      textCell(format.sideLabel(fill.side)),
      textCell(
        fill.dust_conversion
          ? `${format.typeLabel(fill.type)} · ${format.conversionLabel}`
          : format.typeLabel(fill.type),
      ),
      number(fill.price),
      number(fill.quantity),
      number(fill.fee),
      textCell(fill.fee_asset),
      number(fill.total),
      number(fill.spent),
      textCell(fill.spent_asset),
      number(fill.received),
      textCell(fill.received_asset),
      number(fill.tick_price),
      time(fill.tick_at),
      textCell(String(fill.id)),
    ]),
  ]);
}

/** The file's name: "trades-2026-11-01-2026-11-30.csv". */
export const tradesFileName = (period: { from: string; to: string }) => `trades-${period.from}-${period.to}.csv`;
