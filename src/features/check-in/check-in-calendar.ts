// The check-in page's display rules, pure: the month grid (weeks from the locale's first weekday),
// the localised weekday heads and month title, browsing months, and the reward ladder's steps.
import { formatterOnce } from '../../lib/formatter-once.ts';

/** A month "2026-11" moved by `by` months. */
export function shiftMonth(month: string, by: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, index - 1 + by, 1));
  return date.toISOString().slice(0, 7);
}

const daysIn = (month: string) => {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, index, 0)).getUTCDate();
};

/** 1 = Monday … 7 = Sunday (ISO), for a day "2026-11-23". */
const isoWeekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/**
 * The month as weeks of seven cells, each a day ("2026-11-01") or null before the 1st and after
 * the last; `firstDay` (1 = Monday … 7 = Sunday) starts each week.
 */
export function monthGrid(month: string, firstDay: number): (string | null)[][] {
  const lead = (isoWeekday(`${month}-01`) - firstDay + 7) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= daysIn(month); day++) cells.push(`${month}-${String(day).padStart(2, '0')}`);
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** The locale's first day of the week (1 = Monday … 7 = Sunday) where the browser tells it, else Sunday. */
export function firstDayOfWeek(locale: string): number {
  try {
    const info = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    return info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay ?? 7;
  } catch {
    return 7;
  }
}

/** The seven weekday heads, short and localised, from `firstDay` on. */
export function weekdayNames(locale: string, firstDay: number): string[] {
  const format = formatterOnce(
    `weekday:${locale}`,
    () => new Intl.DateTimeFormat(locale, { weekday: 'narrow', timeZone: 'UTC' }),
  );
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, ((firstDay - 1 + i) % 7) + 1))));
}

/** "November 2026" in the locale (Latin digits, as every number of the app). */
export const monthTitle = (month: string, locale: string) =>
  formatterOnce(
    `month:${locale}`,
    () => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', timeZone: 'UTC', numberingSystem: 'latn' }),
  ).format(new Date(`${month}-01T00:00:00Z`));

/** The day of the month of "2026-11-03": "3". */
export const dayNumber = (day: string) => String(Number(day.slice(8)));

export interface LadderStep {
  /** The day of a run, 1-based; the last step also pays every later day. */
  day: number;
  points: string;
  /** done: reached in the current run; next: what the next check-in pays; later: not yet. */
  state: 'done' | 'next' | 'later';
}

/**
 * The ladder as steps for the current run: `streak` days are behind (today's included once
 * checked in), so the next check-in — today's, or tomorrow's once checked in — pays day streak + 1.
 */
export function ladderSteps(ladder: readonly string[], streak: number): LadderStep[] {
  const next = Math.min(streak + 1, ladder.length);
  return ladder.map((points, index) => {
    const day = index + 1;
    return { day, points, state: day === next ? 'next' : day <= streak ? 'done' : 'later' };
  });
}
