// The audit log: every operator action, from the console or the command line, appended in
// the action's own transaction (an action that rolls back leaves no entry; an entry without its
// action cannot be). Append-only in the database itself: a trigger refuses UPDATE, DELETE and
// TRUNCATE (migration 0017), so no call, command or hand-typed statement edits the past. A console session's action is
// written only while its operator is not disabled: one in flight when an admin disables them rolls back.
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { texts } from '../../api-contract/texts.ts';
import { calendarMoment, isCalendarDay } from '../../api-contract/calendar.ts';
import { and, eq, gte, like, lt, type SQL } from 'drizzle-orm';
import { countedKeysetQuery, idKey, type KeysetOrder } from './paged-query.ts';
import type { Executor } from '../db/connection.ts';
import { auditLog, operatorSessions, operators } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import {
  AUDIT_PAGE_SIZE,
  COMMAND_LINE_OPERATOR,
  type AuditChange,
  type AuditEntry,
} from '../../api-contract/console.ts';

/** Who acts, from where: an operator signed in to the console, or the command line ('ops', 'local'). */
export interface Actor {
  /** The console operator's id; null for the command line. */
  operatorId: number | null;
  name: string;
  address: string;
  /** The console session acting (operators.ts actorOf), when the action comes from one: its entry, and so the action,
   * is written only while that operator is not disabled and the session not ended. */
  sessionId?: number;
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
  if (actor.sessionId !== undefined) await refuseUnlessActing(tx, actor.sessionId);
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

/**
 * Refuses an action of a console session whose operator was disabled, or whose session ended, since the call's session
 * was checked (handle.ts): an approval in flight while an admin disables a stolen session must not pay. The operator's
 * row is read FOR SHARE, so a disable committing meanwhile is waited for and seen, and one coming after waits for the
 * action; only that row is locked (disableOperator locks it before the sessions), so the two cannot deadlock.
 * @throws Refusal consoleOperatorDisabled, or tokenInvalid for a session ended.
 */
async function refuseUnlessActing(tx: Executor, sessionId: number): Promise<void> {
  const [acting] = await tx
    .select({ disabledAt: operators.disabledAt, endedAt: operatorSessions.endedAt })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.id, sessionId))
    .for('share', { of: operators });
  if (!acting || acting.disabledAt) throw new Refusal(consoleTexts.consoleOperatorDisabled.id);
  if (acting.endedAt) throw new Refusal(texts.tokenInvalid.id);
}

export interface AuditFilter {
  operator?: string;
  /** The action's start: 'withdrawal' finds 'withdrawal.approve' and 'withdrawal.reject'. */
  action?: string;
  target?: string;
  /** UTC days, both included ("2026-11-22"), or instants with their offset, `from` included and `to` excluded
   * ("2026-11-22T00:00:00+07:00": the operator's own day, as the console sends it). */
  from?: string;
  to?: string;
}

const DAY_MS = 86_400_000;
/** A filter's bound as an instant: a UTC day's start (`to`: the next day's), or the instant given; a day or a moment
 * not on the calendar ('2026-13-40', '2026-02-30T10:00Z') is refused (api-contract/calendar.ts). */
function boundOf(given: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}/.test(given) && !isCalendarDay(given.slice(0, 10))) throw new Refusal(texts.calendarDate.id);
  if (/^\d{4}-\d{2}-\d{2}$/.test(given)) {
    const start = new Date(`${given}T00:00:00Z`);
    return end ? new Date(start.getTime() + DAY_MS) : start;
  }
  const at = calendarMoment(given);
  if (at === null) throw new Refusal(consoleTexts.consoleDateFormat.id);
  return at;
}

/** LIKE's own characters taken literally. */
const literalPrefix = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** A record as its fields' paths and values (JSON text): nested objects and lists flattened ('payee.name',
 * 'items[0]'); an empty object or list is a value of its own. */
function flatten(value: unknown, path: string, into: Map<string, string>): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [`${path}[${index}]`, item])
      : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
    if (entries.length === 0) into.set(path, JSON.stringify(value));
    for (const [inner, item] of entries) flatten(item, inner, into);
  } else into.set(path, JSON.stringify(value ?? null));
  return into;
}

/** The fields an action changed, by path: added (before null), removed (after null) or changed. No record before (a
 * creation) lists every field as added. */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const was = before === null || before === undefined ? new Map<string, string>() : flatten(before, '', new Map());
  const is = after === null || after === undefined ? new Map<string, string>() : flatten(after, '', new Map());
  const changes: AuditChange[] = [];
  for (const path of new Set([...was.keys(), ...is.keys()])) {
    const from = was.get(path) ?? null;
    const to = is.get(path) ?? null;
    if (from !== to) changes.push({ path, before: from, after: to });
  }
  return changes.sort((one, other) => (one.path < other.path ? -1 : one.path > other.path ? 1 : 0));
}

/** The log's order: newest first, by id (the order entries were appended). */
const NEWEST_FIRST: KeysetOrder<typeof auditLog.$inferSelect> = {
  keys: [idKey(auditLog.id, (row) => row.id)],
  direction: 'desc',
};

/**
 * A page of the log, newest first, after `cursor` (a previous page's `next`; '' for the newest), with how many entries
 * match the filter.
 * @throws Refusal for a bound not on the calendar or a cursor that is not this list's.
 */
export async function searchAudit(
  db: Executor,
  filter: AuditFilter,
  cursor: string,
): Promise<{ lists: AuditEntry[]; next: string | null; total: number }> {
  const where: SQL[] = [];
  if (filter.operator) where.push(eq(auditLog.operator, filter.operator));
  if (filter.action) where.push(like(auditLog.action, literalPrefix(filter.action)));
  if (filter.target) where.push(eq(auditLog.target, filter.target));
  if (filter.from) where.push(gte(auditLog.at, boundOf(filter.from, false)));
  if (filter.to) where.push(lt(auditLog.at, boundOf(filter.to, true)));
  const matching = (after?: SQL) =>
    db
      .select()
      .from(auditLog)
      .where(and(...where, after))
      .$dynamic();
  const { lists, next, total } = await countedKeysetQuery(db, matching, NEWEST_FIRST, { cursor }, AUDIT_PAGE_SIZE);
  return {
    lists: lists.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      operator: row.operator,
      address: row.address,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
      changes: auditChanges(row.before, row.after),
    })),
    next,
    total,
  };
}
