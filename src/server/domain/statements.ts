// Statements (contract/statements.ts): one asset's available balance over a period of calendar days
// in the customer's time zone, from the ledger. The opening balance is the sum of every entry before
// the period's first midnight, the closing one the sum of every entry before the midnight after its
// last day, and the entries between are listed oldest first with the balance after each: the ledger
// is append-only, so opening + the entries = closing by construction, and the test checks it.
import Big from 'big.js';
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { ledgerEntries } from '../db/schema.ts';
import { serverTexts } from '../../contract/server-texts.ts';
import { texts } from '../../contract/texts.ts';
import { canonicalTimeZone } from '../../contract/calendar.ts';
import { STATEMENT_MAX_DAYS, STATEMENT_MAX_ENTRIES, periodProblem, type Statement } from '../../contract/statements.ts';
import { dayEnd, dayStart } from './earn-days.ts';
import { Refusal } from './refusal.ts';

export interface StatementRequest {
  asset: string;
  from: string;
  to: string;
  timeZone: string;
}

/**
 * Refuses a period the contract's rules do not allow, in the order the form checks them; answers the time zone's
 * canonical IANA name, the only spelling anything kept per zone is keyed by.
 */
function checkPeriod({ from, to, timeZone }: StatementRequest): string {
  const problem = periodProblem(from, to);
  if (problem === 'date') throw new Refusal(serverTexts.statementPeriod.id);
  if (problem === 'calendar') throw new Refusal(texts.calendarDate.id);
  if (problem === 'order') throw new Refusal(serverTexts.statementOrder.id);
  if (problem === 'length') throw new Refusal(serverTexts.statementTooLong.id, { 0: STATEMENT_MAX_DAYS });
  const zone = canonicalTimeZone(timeZone);
  if (zone === null) throw new Refusal(serverTexts.statementTimeZone.id);
  return zone;
}

/** The sum of the caller's available-balance entries of `asset` before `before` (0 when none). */
async function balanceBefore(db: Executor, userId: number, asset: string, before: Date): Promise<Big> {
  const [row] = rowsOf<{ total: string | null }>(
    await db.execute(sql`
      select coalesce(sum(${ledgerEntries.amount}), 0)::text as total from ${ledgerEntries}
      where ${ledgerEntries.userId} = ${userId} and ${ledgerEntries.asset} = ${asset}
        and ${ledgerEntries.bucket} = 'available' and ${ledgerEntries.createdAt} < ${before.toISOString()}`),
  );
  return new Big(row?.total ?? '0');
}

/**
 * The caller's statement. Read in one repeatable-read transaction: an entry written meanwhile (a period
 * that ends in the future) is in all three reads or in none, so the opening, the entries and the closing agree.
 */
export async function statementOf(db: Db, userId: number, request: StatementRequest): Promise<Statement> {
  const timeZone = checkPeriod(request);
  const { asset, from, to } = request;
  const startsAt = dayStart(from, timeZone);
  const endsAt = dayEnd(to, timeZone);
  return db.transaction(
    async (tx) => {
      const opening = await balanceBefore(tx, userId, asset, startsAt);
      const rows = await tx
        .select()
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.userId, userId),
            eq(ledgerEntries.asset, asset),
            eq(ledgerEntries.bucket, 'available'),
            gte(ledgerEntries.createdAt, startsAt),
            lt(ledgerEntries.createdAt, endsAt),
          ),
        )
        .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
        .limit(STATEMENT_MAX_ENTRIES + 1);
      if (rows.length > STATEMENT_MAX_ENTRIES)
        throw new Refusal(serverTexts.statementTooManyEntries.id, { 0: STATEMENT_MAX_ENTRIES });
      let balance = opening;
      const entries = rows.map((row) => {
        balance = balance.plus(row.amount);
        return {
          id: row.id,
          amount: new Big(row.amount).toFixed(8),
          balance: balance.toFixed(8),
          kind: row.kind,
          reference: row.reference,
          created_at: row.createdAt.toISOString(),
        };
      });
      // Read apart from the entries: a statement whose sums disagree would show it rather than hide it.
      const closing = await balanceBefore(tx, userId, asset, endsAt);
      return {
        asset,
        from,
        to,
        time_zone: timeZone,
        starts_at: startsAt.toISOString(),
        ends_at: endsAt.toISOString(),
        opening: opening.toFixed(8),
        entries,
        closing: closing.toFixed(8),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
