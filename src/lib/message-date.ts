// When a message was sent, as short as it stays clear: a module of its own, so only the pages that
// list messages (station messages, the service chat) carry it.
import { formatDate } from './format.ts';

/**
 * When a message (a station message, a chat message) was sent, in the app's language: in full for the reader; in the
 * list as short
 * as it stays clear (today: HH:MM; this year: day, month and HH:MM; before: the date).
 */
export function formatMessageDate(
  iso: string,
  { full = false, now = new Date() }: { full?: boolean; now?: Date } = {},
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameYear = date.getFullYear() === now.getFullYear();
  const sameDay = sameYear && date.getMonth() === now.getMonth() && date.getDate() === now.getDate();
  return formatDate(full ? 'dateClock' : sameDay ? 'clock' : sameYear ? 'dayClock' : 'date', date);
}
