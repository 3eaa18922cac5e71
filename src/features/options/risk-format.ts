// How the options' risk figure reads on screen (RiskNote.tsx): its percent with one decimal and the
// UTC day it is for, in the app's language. Exact: the percent stays a decimal string.
import { formatAmount, formatDateWith } from '../../lib/format.ts';

/** "64.3" reads 64.3 (64,3 where the language writes a decimal comma). */
export const formatRiskPercent = (percent: string): string => formatAmount(percent, 1);

const UTC_DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' };
/** The figure's day, "2026-12-23", as a date of the app's language: a UTC day, the same date in every time zone. */
export const formatRiskDay = (day: string): string => formatDateWith(UTC_DAY, new Date(`${day}T00:00:00Z`));
