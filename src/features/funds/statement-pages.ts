// A statement is served a page at a time (a busy day can hold many thousands of entries); the CSV is
// made from all of them. Pure: the call comes in, so the unit tests drive it without a network.
import Big from 'big.js';
import type { Statement } from '../../api-contract/statements.ts';

/**
 * Asks for every page of one statement, each after the one before (`after` = the previous page's `next`), and joins
 * them: the first page's opening, every entry in order, the last page's closing. Throws when a page does not start
 * at the balance the one before ended with (the pages would not be one statement).
 */
export async function wholeStatement(page: (after: string | undefined) => Promise<Statement>): Promise<Statement> {
  const first = await page(undefined);
  const entries = [...first.entries];
  let last = first;
  while (last.next !== null) {
    const next = await page(last.next);
    if (!new Big(next.opening).eq(last.closing))
      throw new Error(`A statement page opens at ${next.opening}, after a page that closed at ${last.closing}`);
    entries.push(...next.entries);
    last = next;
  }
  return { ...first, entries, closing: last.closing, next: null };
}
