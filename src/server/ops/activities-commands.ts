// Operator commands of the activities (/content/sale): list, add and edit. A body is read from
// an HTML file and kept sanitised (the allowlist of api-contract/rich-text.ts).
import { activityStatus } from '../../api-contract/activities.ts';
import { CALENDAR_FIRST_DAY, CALENDAR_LAST_DAY, isCalendarDay } from '../../api-contract/calendar.ts';
import { allActivities, changeActivity, publishActivity, type ActivityChanges } from '../domain/activities.ts';
import { UsageError, idOf, keyValues, readTextFile, table, type Command, type OperatorContext } from './command-kit.ts';
import { eq } from 'drizzle-orm';
import { activities } from '../db/schema.ts';
import { COMMAND_LINE, appendAudit } from '../domain/audit-log.ts';
import { contentVersions, saveContentVersion, visibleContent, visibleRichText } from '../domain/content-languages.ts';
import { languageOf } from './content-commands.ts';

export const ACTIVITIES_USAGE = `  activities                                    the activities, published or not
  activity add "<title>" from=YYYY-MM-DD [to=YYYY-MM-DD] [cover=<https url or /path>] body=<file.html>
                                                publish an activity (the body is sanitised)
  activity <id> [title=…] [from=…] [to=…|none] [cover=…] [body=<file.html>] [sort=n] [active=true|false]
  activity <id> --lang <xx> [title=…] [body=<file.html>]
                                                write the activity's title and body in another language
                                                (without --lang they are the English, what other languages show)`;

const KEYS = ['title', 'from', 'to', 'cover', 'body', 'sort', 'active'] as const;
type Changes = Partial<Record<(typeof KEYS)[number], string>>;

/**
 * A day at 00:00 UTC: the period is a plain date, as the operator wrote it, on the calendar (api-contract/calendar.ts).
 */
function dayOf(value: string, name: string): Date {
  if (!isCalendarDay(value))
    throw new UsageError(`${name}= must be a date YYYY-MM-DD from ${CALENDAR_FIRST_DAY} to ${CALENDAR_LAST_DAY}.`);
  return new Date(`${value}T00:00:00Z`);
}

function coverOf(value: string): string {
  if (value !== '' && !/^(https:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/.test(value))
    throw new UsageError('cover= must be an https URL or a path on this site (/…).');
  return value;
}

/** A file's HTML (readTextFile: its byte order mark left out). */
function bodyOf(file: string): string {
  try {
    return readTextFile(file);
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

function columns(changes: Changes) {
  const out: ActivityChanges = {};
  if (changes.title !== undefined) {
    if (!changes.title.trim()) throw new UsageError('The title cannot be empty.');
    out.title = visibleContent('title', changes.title);
  }
  if (changes.from !== undefined) out.startsAt = dayOf(changes.from, 'from');
  if (changes.to !== undefined) out.endsAt = changes.to === 'none' ? null : dayOf(changes.to, 'to');
  if (changes.cover !== undefined) out.cover = coverOf(changes.cover);
  if (changes.body !== undefined) out.body = visibleRichText(bodyOf(changes.body));
  if (changes.sort !== undefined) {
    if (!/^-?\d{1,6}$/.test(changes.sort)) throw new UsageError('sort= must be a whole number.');
    out.sort = Number(changes.sort);
  }
  if (changes.active !== undefined) {
    if (changes.active !== 'true' && changes.active !== 'false') throw new UsageError('active= must be true or false.');
    out.active = changes.active === 'true';
  }
  if (out.startsAt && out.endsAt && out.endsAt <= out.startsAt) throw new UsageError('to= must be after from=.');
  return out;
}

/** One language's title and body; a field not given keeps that language's (a new version needs both). */
async function activityVersion(ctx: OperatorContext, id: number, args: string[]): Promise<string> {
  const { lang, rest } = languageOf(args);
  const given = keyValues(rest, ['title', 'body'] as const);
  if (given.title === undefined && given.body === undefined)
    throw new UsageError('Say what to write: activity <id> --lang <xx> title=… body=<file.html>.');
  const current = (await contentVersions(ctx.db, 'activity', String(id))).find((version) => version.lang === lang);
  const title = given.title ?? (current?.written ? current.title : '');
  const body = given.body !== undefined ? bodyOf(given.body) : current?.written ? current.body : '';
  if (!title.trim() || !body.trim())
    throw new UsageError(`The ${lang} version is new: give both title=… and body=<file.html>.`);
  await ctx.db.transaction((tx) =>
    saveContentVersion(tx, COMMAND_LINE, { kind: 'activity', id: String(id), lang }, { title, body }, ctx.now),
  );
  return `Activity ${id}: the ${lang} version is written.`;
}

export const activitiesCommands: Record<string, Command> = {
  async activities({ db, now }) {
    const rows = await allActivities(db);
    return table(
      rows.map((row) => ({
        id: row.id,
        title: row.title,
        from: row.startsAt.toISOString().slice(0, 10),
        to: row.endsAt?.toISOString().slice(0, 10) ?? '—',
        status: row.active ? activityStatus(row.startsAt, row.endsAt, now) : 'hidden',
        sort: row.sort,
      })),
      'No activities yet.',
    );
  },
  async activity(ctx, [first, ...rest]) {
    const { db } = ctx;
    if (first === 'add') {
      const [title = '', ...changes] = rest;
      const given = columns({ ...keyValues(changes, KEYS), title });
      if (!given.startsAt) throw new UsageError('Give the start: from=YYYY-MM-DD.');
      if (given.body === undefined) throw new UsageError('Give the body: body=<file.html>.');
      const row = await db.transaction(async (tx) => {
        const added = await publishActivity(tx, {
          ...given,
          title: given.title!,
          startsAt: given.startsAt!,
          body: given.body!,
        });
        const change = { before: null, after: added };
        await appendAudit(tx, COMMAND_LINE, 'activity.add', `activity:${added.id}`, change, ctx.now);
        return added;
      });
      return `Published activity ${row.id}: ${row.title}.`;
    }
    const id = idOf(first);
    if (rest[0] === '--lang') return activityVersion(ctx, id, rest);
    const changes = columns(keyValues(rest, KEYS));
    if (!Object.keys(changes).length) throw new UsageError('Say what to change: activity <id> title=… active=false …');
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(activities).where(eq(activities.id, id));
      await changeActivity(tx, id, changes);
      const [after] = await tx.select().from(activities).where(eq(activities.id, id));
      await appendAudit(tx, COMMAND_LINE, 'activity.change', `activity:${id}`, { before, after }, ctx.now);
    });
    return `Activity ${id} updated.`;
  },
};
