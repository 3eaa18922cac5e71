// Activities and the win notice on a real database: the public list and details, an unknown id,
// a hostile body saved by the operator and served sanitised, and the notice of real wins only.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, grant, refused } from './helpers.ts';
import { activities, boxDraws, users } from '../../src/server/db/schema.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { activityInfo, activityList, winNotice } from '../../src/api-contract/activities.ts';
import { drawBlindBox, rotateSeed } from '../../src/api-contract/blindbox.ts';

let h: Harness;
const folder = mkdtempSync(join(tmpdir(), 'activities-'));
beforeAll(async () => {
  h = await startHarness();
  await seedBlindBox(h.database.db, h.clock.now());
});
afterAll(() => h.close());

const ops = (...argv: string[]) =>
  runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, argv);
function htmlFile(name: string, html: string): string {
  const file = join(folder, name);
  writeFileSync(file, html);
  return file;
}

describe('activities', () => {
  it('lists the published activities with their period and status, running before upcoming before ended', async () => {
    const body = htmlFile('ended.html', '<p>Over.</p>');
    expect((await ops('activity', 'add', 'Summer sale', 'from=2026-06-01', 'to=2026-07-01', `body=${body}`)).ok).toBe(
      true,
    );
    const list = await h.call(activityList);
    expect(list.ret).toBe(1);
    expect(list.data.lists.map((item) => [item.title, item.status])).toEqual([
      ['Blind box week: draw and win up to 100 USDT', 'running'],
      ['New year trading festival', 'upcoming'],
      ['Summer sale', 'ended'],
    ]);
    expect(list.data.lists[2]).toMatchObject({
      starts_at: '2026-06-01T00:00:00.000Z',
      ends_at: '2026-07-01T00:00:00.000Z',
      cover: '',
    });
  });

  it('answers one activity with its sanitised body; an unknown or hidden id answers ret 0', async () => {
    const [first] = (await h.call(activityList)).data.lists;
    const info = await h.call(activityInfo, { id: String(first!.id) });
    expect(info.ret).toBe(1);
    expect(info.data).toMatchObject({ id: first!.id, title: first!.title, status: 'running' });
    expect(info.data.body).toContain('<h3>Provably fair blind box</h3>');
    expect(await h.call(activityInfo, { id: '999999' })).toEqual(refused('The activity does not exist!'));
    expect(await h.call(activityInfo, { id: 'abc' })).toEqual(refused('The activity does not exist!'));
    expect(await h.call(activityInfo, {})).toEqual(refused('The activity does not exist!'));
    expect((await ops('activity', String(first!.id), 'active=false')).ok).toBe(true);
    expect(await h.call(activityInfo, { id: String(first!.id) })).toEqual(refused('The activity does not exist!'));
    expect((await h.call(activityList)).data.lists.map((item) => item.id)).not.toContain(first!.id);
    expect((await ops('activity', String(first!.id), 'active=true')).ok).toBe(true);
  });

  it('a hostile body is sanitised when saved and again when served', async () => {
    const hostile =
      '<p onclick="steal()">Hello <script>alert(1)</script><b style="color:red">bold</b></p>' +
      '<a href="javascript:alert(2)">x</a><a href="https://example.com/a?b=1&c=2" onmouseover="x()">ok</a>' +
      '<img src=x onerror=alert(3)><img src="/slides/slide-1.svg"><iframe src="https://evil.example"></iframe><svg><script>alert(4)</script></svg>';
    const saved = await ops(
      'activity',
      'add',
      'Hostile',
      'from=2026-11-01',
      'cover=javascript:alert(1)',
      `body=${htmlFile('hostile.html', hostile)}`,
    );
    expect(saved).toEqual({ ok: false, output: 'cover= must be an https URL or a path on this site (/…).' });
    expect(
      (await ops('activity', 'add', 'Hostile', 'from=2026-11-01', `body=${htmlFile('hostile.html', hostile)}`)).ok,
    ).toBe(true);
    const [row] = await h.database.db.select().from(activities).where(eq(activities.title, 'Hostile'));
    const expected =
      '<p>Hello <b>bold</b></p><a>x</a><a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">ok</a><img src="/slides/slide-1.svg" alt="">';
    expect(row!.body).toBe(expected);
    // Written straight into the database (a restore, an older version): served sanitised all the same.
    await h.database.db.update(activities).set({ body: hostile }).where(eq(activities.id, row!.id));
    expect((await h.call(activityInfo, { id: String(row!.id) })).data.body).toBe(expected);
  });

  it('the operator cannot add an activity without a start and a body, or end it before it starts', async () => {
    const body = htmlFile('b.html', '<p>x</p>');
    expect((await ops('activity', 'add', 'No start', `body=${body}`)).output).toBe('Give the start: from=YYYY-MM-DD.');
    expect((await ops('activity', 'add', 'No body', 'from=2026-11-01')).output).toBe(
      'Give the body: body=<file.html>.',
    );
    expect((await ops('activity', 'add', 'Backwards', 'from=2026-11-05', 'to=2026-11-01', `body=${body}`)).output).toBe(
      'to= must be after from=.',
    );
    expect((await ops('activity', 'add', 'Bad day', 'from=2026-02-30', `body=${body}`)).output).toBe(
      'from= must be a date YYYY-MM-DD from 2000-01-01 to 2199-12-31.',
    );
  });
});

describe('the win notice', () => {
  it('lists only real wins, newest first, with masked usernames', async () => {
    expect((await ops('prizes', 'set', 'Winner:USDT:3:1000000')).ok).toBe(true);
    const user = await customer(h);
    await grant(h, user.id, '1000', 'POINT');
    expect((await h.call(drawBlindBox, { pay: 'points' }, { token: user.token })).ret).toBe(1);
    expect((await ops('prizes', 'set', 'Thanks for playing:POINT:0:1000000')).ok).toBe(true);
    // The seed keeps the table it was committed with: rotating brings the new one.
    expect((await h.call(rotateSeed, {}, { token: user.token })).ret).toBe(1);
    expect((await h.call(drawBlindBox, { pay: 'points' }, { token: user.token })).ret).toBe(1);
    expect(await h.database.db.select().from(boxDraws)).toHaveLength(2);

    const notice = await h.call(winNotice);
    expect(notice.ret).toBe(1);
    expect(notice.data.lists).toHaveLength(1);
    const [line] = notice.data.lists;
    // Never shown whole: the first two characters and the last.
    const [{ username: name }] = (await h.database.db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, user.id))) as [{ username: string }];
    expect(line).toMatchObject({ prize_name: 'Winner', asset: 'USDT', amount: '3' });
    expect(line!.username).toBe(`${name.slice(0, 2)}***${name.slice(-1)}`);
    expect(line!.username).not.toContain(name.slice(2, -1));
  });
});
