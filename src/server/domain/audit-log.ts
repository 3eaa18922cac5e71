// The audit log: every operator action, from the console or the command line, appended in
// the action's own transaction (an action that rolls back leaves no entry; an entry without its
// action cannot be). Append-only in the database itself: a trigger refuses UPDATE, DELETE and
// TRUNCATE (migration 0017), so no call, command or hand-typed statement edits the past.
import { consoleTexts } from '../../contract/console-texts.ts';
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { pagedQuery } from './paged-query.ts';
import type { Executor } from '../db/connection.ts';
import { auditLog } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { AUDIT_PAGE_SIZE, COMMAND_LINE_OPERATOR, type AuditEntry } from '../../contract/console.ts';

/** Who acts, from where: an operator signed in to the console, or the command line ('ops', 'local'). */
export interface Actor {
  /** The console operator's id; null for the command line. */
  operatorId: number | null;
  name: string;
  address: string;
}

export const COMMAND_LINE: Actor = { operatorId: null, name: COMMAND_LINE_OPERATOR, address: 'local' };

/** Records as JSON as the log keeps them: dates as ISO strings, buffers left out. */
const asJson = (value: unknown): unknown =>
  value === undefined
    ? null
    : JSON.parse(JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? undefined : item)));

export async function appendAudit(
  tx: Executor,
  actor: Actor,
  action: string,
  target: string,
  change: { before: unknown; after: unknown },
  now: Date,
): Promise<void> {
  await tx.insert(auditLog).values({
    at: now,
    operator: actor.name,
    address: actor.address,
    action,
    target,
    before: asJson(change.before),
    after: asJson(change.after),
  });
}

export interface AuditFilter {
  operator?: string;
  action?: string;
  target?: string;
  /** UTC days, both included: "2026-11-22". */
  from?: string;
  to?: string;
}

/** A UTC day's first instant; a day that is no day ('2026-13-40') is refused. */
function startOfDay(day: string): Date {
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day)
    throw new Refusal(consoleTexts.consoleDateFormat.id);
  return at;
}

/** A page of the log, newest first, and how many entries match. */
export async function searchAudit(
  db: Executor,
  filter: AuditFilter,
  page: number,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const where: SQL[] = [];
  if (filter.operator) where.push(eq(auditLog.operator, filter.operator));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.target) where.push(eq(auditLog.target, filter.target));
  if (filter.from) where.push(gte(auditLog.at, startOfDay(filter.from)));
  if (filter.to) where.push(lt(auditLog.at, new Date(startOfDay(filter.to).getTime() + 86_400_000)));
  const matching = and(...where);
  const { lists, total } = await pagedQuery(
    db,
    () => db.select().from(auditLog).where(matching).$dynamic(),
    [desc(auditLog.id)],
    page,
    AUDIT_PAGE_SIZE,
  );
  return {
    entries: lists.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      operator: row.operator,
      address: row.address,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
    })),
    total,
  };
}
