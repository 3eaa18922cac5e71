// Statements (api-contract/statements.ts): one asset's available balance over a period of calendar days
// in the customer's time zone, from the ledger, a page at a time. Entries are taken in the order they
// took effect (the ledger's seq); the period runs from the first entry stamped at or after its first
// midnight to the first stamped at or after the midnight after its last day. The opening balance is
// the sum of every entry before, and the entries are listed with the balance after each: the ledger is
// append-only, so opening + the entries = closing by construction, and the test checks it.
import Big from 'big.js';
import { and, asc, gte, lt, sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor } from '../db/connection.ts';
import { ledgerEntries } from '../db/schema.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { texts } from '../../api-contract/texts.ts';
import { canonicalTimeZone } from '../../api-contract/calendar.ts';
import {
  STATEMENT_MAX_DAYS,
  STATEMENT_PAGE_SIZE,
  periodProblem,
  type Statement,
} from '../../api-contract/statements.ts';
import { dayEnd, dayStart } from './earn-days.ts';
import { Refusal } from './refusal.ts';

export interface StatementRequest {
  asset: string;
  from: string;
  to: string;
  timeZone: string;
  /** The seq of the entry the page follows (the previous page's `next`); absent for the first page. */
  after?: number;
}

/**
 * Refuses a period the API contract's rules do not allow, in the order the form checks them; answers the time zone's
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

/** One account's available-balance entries, as SQL: the caller's, of one asset. */
const accountEntries = (userId: number, asset: string) =>
  sql`${ledgerEntries.userId} = ${userId} and ${ledgerEntries.asset} = ${asset} and ${ledgerEntries.bucket} = 'available'`;

/** The sum of the account's available-balance entries that took effect before `seq` (all of them for null). */
async function balanceBefore(db: Executor, userId: number, asset: string, seq: number | null): Promise<Big> {
  const [row] = rowsOf<{ total: string | null }>(
    await db.execute(sql`
      select coalesce(sum(${ledgerEntries.amount}), 0)::text as total from ${ledgerEntries}
      where ${accountEntries(userId, asset)} ${seq === null ? sql`` : sql`and ${ledgerEntries.seq} < ${seq}`}`),
  );
  return new Big(row?.total ?? '0');
}

/**
 * Where a period's bound falls in the account's commit order: the seq of its first entry stamped at or after `at`
 * (null when none is yet). An entry stamped before `at` whose transaction committed after that one took effect after
 * it, and so belongs to the later period; the bound never moves once an entry past it exists, as later ones draw
 * higher seqs.
 */
async function boundAt(db: Executor, userId: number, asset: string, at: Date): Promise<number | null> {
  const [row] = rowsOf<{ seq: string | number | null }>(
    await db.execute(sql`
      select min(${ledgerEntries.seq}) as seq from ${ledgerEntries}
      where ${accountEntries(userId, asset)} and ${ledgerEntries.createdAt} >= ${at.toISOString()}`),
  );
  return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
}

/** The lower of two seq bounds, null standing for "none yet" (past every entry). */
const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/**
 * One page of the caller's statement: the entries after `after` (a seq; the period's first page when absent), at most
 * STATEMENT_PAGE_SIZE, in seq order — the account's commit order (domain/ledger.ts), so each running balance is one
 * the account really had. Read in one repeatable-read transaction: the bounds, the entries and both balances agree.
 * Memory stays bounded by the page, however busy the period.
 */
export async function statementOf(db: Db, userId: number, request: StatementRequest): Promise<Statement> {
  const timeZone = checkPeriod(request);
  const { asset, from, to } = request;
  const startsAt = dayStart(from, timeZone);
  const endsAt = dayEnd(to, timeZone);
  return db.transaction(
    async (tx) => {
      const start = await boundAt(tx, userId, asset, startsAt);
      const end = await boundAt(tx, userId, asset, endsAt);
      // No entry took effect in the period yet (none from its start on): the page starts past every entry.
      const first =
        start === null ? null : lower(Math.max(start, request.after === undefined ? 0 : request.after + 1), end);
      const rows =
        first === null
          ? []
          : await tx
              .select()
              .from(ledgerEntries)
              .where(
                and(
                  sql`${accountEntries(userId, asset)}`,
                  gte(ledgerEntries.seq, first),
                  end === null ? undefined : lt(ledgerEntries.seq, end),
                ),
              )
              .orderBy(asc(ledgerEntries.seq))
              .limit(STATEMENT_PAGE_SIZE + 1);
      const more = rows.length > STATEMENT_PAGE_SIZE;
      const listed = rows.slice(0, STATEMENT_PAGE_SIZE);
      const opening = await balanceBefore(tx, userId, asset, first);
      let balance = opening;
      const entries = listed.map((row) => {
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
      const last = listed.at(-1);
      // Read apart from the entries: a statement whose sums disagree would show it rather than hide it.
      const closing = await balanceBefore(tx, userId, asset, more && last ? last.seq + 1 : end);
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
        next: more && last ? String(last.seq) : null,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
