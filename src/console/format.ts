// How the console writes times and amounts: the operator's language, and amounts as the server sent
// them (decimal strings, never turned into floats), with groups of three.
import { i18n } from '@lingui/core';

export const formatTime = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso)) : '—';

export function formatAmount(amount: string | null, asset = ''): string {
  if (amount === null) return '—';
  const [whole = '', fraction] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}${fraction ? `.${fraction}` : ''}${asset ? ` ${asset}` : ''}`;
}

/** A list's time: the hour today, the date otherwise. */
export function formatShortTime(iso: string): string {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  return new Intl.DateTimeFormat(i18n.locale, today ? { timeStyle: 'short' } : { dateStyle: 'medium' }).format(date);
}
