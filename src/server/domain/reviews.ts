// What the operator's reviews share: order numbers people can read out, and the reason a rejection
// must give. A review that cannot apply (already reviewed, no such order, no reason given) is a
// Refusal like any other rule's, in the operator's words.
import { Refusal } from './refusal.ts';

/** "R20261122000042": a letter for the kind, the UTC day, the id padded to 6 digits. */
export function orderNumber(prefix: string, id: number, at: Date): string {
  return `${prefix}${at.toISOString().slice(0, 10).replaceAll('-', '')}${String(id).padStart(6, '0')}`;
}

/** A rejection must say why: the customer sees the reason. */
export function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (!trimmed) throw new Refusal('A rejection needs a reason the customer will see (quote it).');
  if (trimmed.length > 500) throw new Refusal('Keep the reason under 500 characters.');
  return trimmed;
}
