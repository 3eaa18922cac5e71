// The console's lists page by a cursor (the server's keyset pages): a list keeps the cursors of the pages the operator
// walked through, so "Next" continues after the last row shown and "Previous" goes back to the cursor it came from.
// Rows decided or added meanwhile neither repeat nor hide others; the page number is how far the operator walked.

/** The cursors of the pages walked, the first page's '' first; the page shown is the last. Never empty. */
export type CursorTrail = readonly string[];

/** The trail of a list's first page. */
export const FIRST_PAGE: CursorTrail = [''];

/** The cursor the page shown was asked with. */
export const cursorOf = (trail: CursorTrail): string => trail.at(-1) ?? '';

/** The trail one page on, after `next` (an answer's `next`, non-null). */
export const onePageOn = (trail: CursorTrail, next: string): CursorTrail => [...trail, next];

/** The trail one page back; the first page stays the first. */
export const onePageBack = (trail: CursorTrail): CursorTrail => (trail.length > 1 ? trail.slice(0, -1) : FIRST_PAGE);

/**
 * The page number and the number of pages to show beside a list of `total` rows, `size` a page. The count of pages
 * is what `total` fills, but never fewer than the page reached (rows decided meanwhile shrink the count, not the walk)
 * nor, when the answer says more follows, fewer than one more.
 */
export function pageFigures(trail: CursorTrail, total: number, size: number, more: boolean) {
  const page = trail.length;
  return { page, pages: Math.max(page + (more ? 1 : 0), Math.ceil(total / size), 1) };
}
