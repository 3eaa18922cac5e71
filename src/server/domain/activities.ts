// Activities (/content/sale, /content/sale/info) and the win notice (/content/winnotice).
// Bodies are sanitised when the operator saves them and again here when served.
import Big from 'big.js';
import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { activities, boxDraws, users } from '../db/schema.ts';
import {
  WIN_NOTICE_SIZE,
  activityStatus,
  maskUsername,
  type ActivityDetails,
  type ActivitySummary,
  type WinLine,
} from '../../api-contract/activities.ts';
import type { Paged } from '../../api-contract/envelope.ts';
import { sanitizeRichText } from '../../api-contract/rich-text.ts';
import { texts } from '../../api-contract/texts.ts';
import { Refusal } from './refusal.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { inLanguage } from './content-languages.ts';

type ActivityRow = typeof activities.$inferSelect;
/** What an operator sets on an activity: any of its fields but the id. */
export type ActivityChanges = Partial<Omit<typeof activities.$inferInsert, 'id'>>;

const summary = (row: ActivityRow, now: Date): ActivitySummary => ({
  id: row.id,
  title: row.title,
  cover: row.cover,
  starts_at: row.startsAt.toISOString(),
  ends_at: row.endsAt?.toISOString() ?? null,
  status: activityStatus(row.startsAt, row.endsAt, now),
});

/** The published activities: running first, then upcoming, then ended; by sort and newest within. Titles in `lang`,
 * else English. */
export async function listActivities(db: Executor, now: Date, lang: string): Promise<Paged<ActivitySummary>> {
  const published = await db
    .select()
    .from(activities)
    .where(eq(activities.active, true))
    .orderBy(asc(activities.sort), desc(activities.startsAt), desc(activities.id));
  const rows = await inLanguage(db, 'activity', published, lang, 'body');
  const rank = { running: 0, upcoming: 1, ended: 2 } as const;
  const lists = rows.map((row) => summary(row, now)).sort((a, b) => rank[a.status] - rank[b.status]);
  return { lists, page: 1, total: lists.length };
}

export async function activityDetails(db: Executor, id: number, now: Date, lang: string): Promise<ActivityDetails> {
  const [found] = await db
    .select()
    .from(activities)
    .where(and(eq(activities.id, id), eq(activities.active, true)));
  if (!found) throw new Refusal(texts.activityNotFound.id);
  const [row] = await inLanguage(db, 'activity', [found], lang, 'body');
  return { ...summary(row!, now), body: sanitizeRichText(row!.body) };
}

/** The latest real blind-box wins (a prize worth something), usernames masked. */
export async function recentWins(db: Executor): Promise<Paged<WinLine>> {
  const rows = await db
    .select({ draw: boxDraws, username: users.username })
    .from(boxDraws)
    .innerJoin(users, eq(users.id, boxDraws.userId))
    .where(gt(boxDraws.prizeAmount, '0'))
    .orderBy(desc(boxDraws.id))
    .limit(WIN_NOTICE_SIZE);
  const lists = rows.map(({ draw, username }) => ({
    id: draw.id,
    username: maskUsername(username),
    prize_name: draw.prizeName,
    asset: draw.prizeAsset,
    amount: new Big(draw.prizeAmount).toFixed(),
    created_at: draw.createdAt.toISOString(),
  }));
  return { lists, page: 1, total: lists.length };
}

/** Every activity, published or hidden, in the operator's order (the app lists the published ones: listActivities). */
export const allActivities = (db: Executor) =>
  db.select().from(activities).orderBy(asc(activities.sort), asc(activities.id));

/** An activity's period ends after it starts (no end: it runs on). */
function refuseBackwards(startsAt: Date, endsAt: Date | null | undefined): void {
  if (endsAt && endsAt <= startsAt) throw new Refusal(consoleTexts.consoleEndBeforeStart.id);
}

/** Publishes an activity; its body is stored sanitised. */
export async function publishActivity(
  db: Executor,
  activity: ActivityChanges & { title: string; startsAt: Date; body: string },
): Promise<ActivityRow> {
  refuseBackwards(activity.startsAt, activity.endsAt);
  const [row] = await db
    .insert(activities)
    .values({ ...activity, body: sanitizeRichText(activity.body) })
    .returning();
  return row!;
}

/** Changes an activity (a new body is stored sanitised); the period it ends up with must still end after it starts. */
export async function changeActivity(db: Executor, id: number, changes: ActivityChanges): Promise<void> {
  if (!Object.keys(changes).length) throw new Refusal(consoleTexts.consoleNothingToChange.id);
  const [current] = await db.select().from(activities).where(eq(activities.id, id));
  if (!current) throw new Refusal(consoleTexts.consoleActivityNotFound.id, { id: String(id) });
  refuseBackwards(changes.startsAt ?? current.startsAt, changes.endsAt === undefined ? current.endsAt : changes.endsAt);
  const body = changes.body === undefined ? {} : { body: sanitizeRichText(changes.body) };
  await db
    .update(activities)
    .set({ ...changes, ...body })
    .where(eq(activities.id, id));
}
