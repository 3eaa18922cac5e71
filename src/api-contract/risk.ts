// The risk figure of short-term options, as regulated brokers publish it ("N % of retail accounts
// lose money"): of the customers whose options settled in the 30 days before a UTC day, how many
// lost money on them overall. The server computes it from the ledger once a day (domain/risk-figure.ts).
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, returns } from './endpoint.ts';
import { decimal, isoDay, shape, whole } from './answers.ts';

/** The figure looks back this many whole UTC days before the day it is computed for. */
export const RISK_WINDOW_DAYS = 30;

export const RiskFigure = shape({
  /** The UTC day the figure is for ("2026-12-23"): it covers the 30 days before that day's start. */
  day: isoDay,
  /** Customers with at least one option settled (won, lost or at the same price) in those 30 days. */
  traders: whole,
  /** Of them, those whose payouts fell short of their stakes. */
  losers: whole,
  /** losers / traders in percent, one decimal ("64.3"); null when no customer traded (never a made-up 0). */
  percent: v.nullable(decimal),
});
export type RiskFigure = v.InferOutput<typeof RiskFigure>;

/** Our addition: today's risk figure, the same for everyone (kept for offline reading like other public reads). */
export const riskFigure = get('/options/risk', NoInput, returns(RiskFigure), { cache: 'public', auth: false });

/** losers / traders in percent, rounded half up to one decimal; null when there is no trader. */
export function riskPercent(losers: number, traders: number): string | null {
  return traders > 0 ? new Big(losers).times(100).div(traders).round(1, Big.roundHalfUp).toFixed(1) : null;
}
