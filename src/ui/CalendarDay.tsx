// A calendar day (an interest day, a pay day) on screen: the date in the app's language, isolated so its digits keep
// their order in a right-to-left line, never broken over two lines.
import { formatCalendarDay } from '../lib/format.ts';

export const CalendarDay = ({ day }: { day: string }) => (
  <time className="calendar-day" dateTime={day}>
    {formatCalendarDay(day)}
  </time>
);
