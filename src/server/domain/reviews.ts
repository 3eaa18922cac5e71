// What the operator's reviews share: order numbers people can read out, and the error a review
// answers with when it cannot apply (already reviewed, no such order, no reason given).

/** An operator command that cannot apply; its message is printed as is. */
export class ReviewError extends Error {}

/** "R20261122000042": a letter for the kind, the UTC day, the id padded to 6 digits. */
export function orderNumber(prefix: string, id: number, at: Date): string {
  return `${prefix}${at.toISOString().slice(0, 10).replaceAll('-', '')}${String(id).padStart(6, '0')}`;
}

/** A rejection must say why: the customer sees the reason. */
export function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (!trimmed) throw new ReviewError('A rejection needs a reason the customer will see (quote it).');
  if (trimmed.length > 500) throw new ReviewError('Keep the reason under 500 characters.');
  return trimmed;
}
