// The console's lists walk pages by cursor: the trail of cursors walked, the page number shown and the count of pages.
import { describe, expect, it } from 'vitest';
import { cursorOf, FIRST_PAGE, onePageBack, onePageOn, pageFigures } from '../../src/console/cursor-trail.ts';

describe('a console list walked by cursor', () => {
  it('goes on after the answer’s cursor and back to the cursor it came from', () => {
    const second = onePageOn(FIRST_PAGE, '1700000000000.42');
    const third = onePageOn(second, '1700000005000.97');
    expect(cursorOf(FIRST_PAGE)).toBe('');
    expect(cursorOf(third)).toBe('1700000005000.97');
    expect(cursorOf(onePageBack(third))).toBe('1700000000000.42');
    expect(onePageBack(onePageBack(third))).toEqual(FIRST_PAGE);
    expect(onePageBack(FIRST_PAGE)).toEqual(FIRST_PAGE);
  });

  it('counts pages by the total, never fewer than the page reached or one more when more follows', () => {
    expect(pageFigures(FIRST_PAGE, 0, 50, false)).toEqual({ page: 1, pages: 1 });
    expect(pageFigures(FIRST_PAGE, 120, 50, true)).toEqual({ page: 1, pages: 3 });
    // Items decided meanwhile shrink the total below the page reached: the page shown is still counted.
    const third = onePageOn(onePageOn(FIRST_PAGE, 'a'), 'b');
    expect(pageFigures(third, 60, 50, false)).toEqual({ page: 3, pages: 3 });
    // The total says one page, the answer says more follows (items arrived meanwhile): there is a next page.
    expect(pageFigures(FIRST_PAGE, 50, 50, true)).toEqual({ page: 1, pages: 2 });
  });
});
