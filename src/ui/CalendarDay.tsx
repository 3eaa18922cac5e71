// A calendar day (an interest day, a pay day) as the lock-up and liquidity screens write it: read and written in UTC,
// so no device time zone shifts it, with the month named in every language ("Nov 30, 2026", "2026年11月30日",
// "30 نوفمبر 2026"). On screen it stays whole and in order inside a right-to-left line. The one home of this rule: the
// confirmation's toast writes a pay day with formatCalendarDay, every screen with <CalendarDay>.
import { formatDateWith } from '../lib/format.ts';

const CALENDAR_DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };

/** A calendar day ("2026-11-30") as a date in the app's language: "Nov 30, 2026". */
export const formatCalendarDay = (day: string): string => formatDateWith(CALENDAR_DAY, new Date(`${day}T00:00:00Z`));

export const CalendarDay = ({ day }: { day: string }) => (
  <time className="calendar-day" dateTime={day}>
    {formatCalendarDay(day)}
  </time>
);
