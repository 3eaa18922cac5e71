// What the operator's reviews share: order numbers people can read out, claiming an item that waits
// for review, and the reason a rejection must give. A review that cannot apply (already reviewed, no
// such order, no reason given) is a Refusal like any other rule's, in the operator's language.
import { and, eq, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { checkRejectionReason } from '../../api-contract/console.ts';
import type { Tx } from '../db/connection.ts';
import { reviewClaims } from '../db/schema.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { Refusal, refusalOf, type TextId } from './refusal.ts';

/**
 * What an insert needs to number its own row in the same statement: the CTE `numbered` (the next value of `table`'s
 * id sequence, a serial column `id`), and the SQL of the row's `id` and of its order number, one people can read out:
 * "R20261122000042", `prefix` (a letter for the kind), the UTC day of `at`, the id padded to 6 digits (a longer id
 * kept whole).
 */
export function selfNumbered(table: PgTable, prefix: string, at: Date): { with: SQL; id: SQL; orderNo: SQL } {
  const id = sql`(select id from numbered)`;
  const day = `${prefix}${at.toISOString().slice(0, 10).replaceAll('-', '')}`;
  return {
    with: sql`numbered as (select nextval(pg_get_serial_sequence(${getTableName(table)}, 'id'))::int as id)`,
    id,
    orderNo: sql`${day}::text || lpad(${id}::text, greatest(6, length(${id}::text)), '0')`,
  };
}

/** A rejection must say why (the API contract's rule): the reason as kept, which the customer sees. */
export function requireReason(reason: string): string {
  const checked = checkRejectionReason(reason);
  if ('broken' in checked) throw refusalOf(checked.broken);
  return checked.reason;
}

/** A decided status in the console's words (its Status badge's): the text, said in the reader's language by the
 * translator; a status it has no word for stays as stored. */
const DECIDED_STATUS: Record<string, { id: TextId }> = {
  success: consoleTexts.consoleStatusApproved,
  verified: consoleTexts.consoleStatusApproved,
  fail: consoleTexts.consoleStatusRejected,
  rejected: consoleTexts.consoleStatusRejected,
};

/**
 * The refusal of a review whose item no longer waits (`reviewed`: the kind's text, "Withdrawal {id} was already
 * reviewed ({status})."): the item named as the customer and the console show it, by its order number
 * ("W20261205000006"; a kind without one by its id), and its status in the console's words ("Rejected").
 */
export function alreadyReviewed(
  reviewed: { id: TextId },
  item: { id: number; orderNo?: string | null; status: string },
): Refusal {
  return new Refusal(reviewed.id, {
    id: item.orderNo || String(item.id),
    status: DECIDED_STATUS[item.status] ?? item.status,
  });
}

/** What kind of item is reviewed: its table, the status of one that waits, and the texts of one missing or already
 * reviewed ({id}, {status}: see alreadyReviewed). */
export interface Reviewable {
  table: PgTable;
  id: PgColumn;
  waiting: string;
  missing: { id: TextId };
  reviewed: { id: TextId };
}

/**
 * Takes the item `id` for this review, in `tx`: its row is locked until the review commits, so two
 * operators cannot both review it. One that does not exist, or no longer waits, is refused.
 */
export async function claimForReview<Row extends { status: string; orderNo?: string }>(
  tx: Tx,
  kind: Reviewable,
  id: number,
): Promise<Row> {
  const [row] = (await tx.select().from(kind.table).where(eq(kind.id, id)).for('update')) as Row[];
  if (!row) throw new Refusal(kind.missing.id, { id: String(id) });
  if (row.status !== kind.waiting)
    throw alreadyReviewed(kind.reviewed, { id, orderNo: row.orderNo, status: row.status });
  return row;
}

/**
 * A decision ends the item's claim ("being reviewed by …", review-queues.ts), whoever held it, in the decision's own
 * transaction; a withdrawal approved once for four eyes is left free for a second reviewer.
 */
export async function releaseClaim(tx: Tx, kind: 'recharge' | 'withdrawal' | 'certification', id: number) {
  await tx.delete(reviewClaims).where(and(eq(reviewClaims.kind, kind), eq(reviewClaims.itemId, id)));
}
