// Devices and sessions: the customer sees every signed-in session (device,
// address partly hidden, signed in, last seen, this device) and ends one or all others; an ended
// session is refused at once, on every server process. Sessions end after 30 days unused and 180
// days at most, however much they are used. A sign-in from a device new to the account leaves the
// owner a station message in the language of the request.
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { changePassword, login, userInfo } from '../../src/api-contract/account.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { endOtherSessions, endSession, signedInSessions } from '../../src/api-contract/sessions.ts';
import { loadConfig } from '../../src/server/config.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { sessions } from '../../src/server/db/schema.ts';
import { translator } from '../../src/server/i18n.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { checkedAnswer, otherProcessApp, startHarness, type Harness } from './harness.ts';
import { testAppOptions, testServices } from './test-app.ts';
import { PASSWORD, TOKEN_EXPIRED, customer, noticeOf, refused } from './helpers.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const NOT_FOUND = refused('This session does not exist or has already ended!');

let h: Harness;
/** A second server process on the same database, with its own memory. */
let other: FastifyInstance;
beforeAll(async () => {
  h = await startHarness();
  other = await otherProcessApp(h);
});
afterAll(async () => {
  await other.close();
  await h.close();
});

/** Logs in as a device would: its User-Agent, its address, its language. */
async function logIn(username: string, userAgent: string, ip: string, lang = 'en'): Promise<string> {
  const response = await h.app.inject({
    method: 'POST',
    url: `/api${login.path}`,
    headers: { 'user-agent': userAgent, lang, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password: PASSWORD }).toString(),
    remoteAddress: ip,
  });
  const answer = checkedAnswer(login, response.json());
  expect(answer.ret).toBe(1);
  return answer.data.token;
}

const list = async (token: string) => (await h.call(signedInSessions, {}, { token })).data.lists;
const works = async (token: string) => (await h.call(userInfo, {}, { token })).ret === 1;
const lastSeenInDatabase = async (id: number) =>
  (await h.database.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, id)))[0]!.at;
const inbox = async (token: string, lang = 'en') => (await h.call(messages, {}, { token, lang })).data.lists;

describe('the list', () => {
  it('shows every signed-in device with its address partly hidden, this device first and marked', async () => {
    const user = await customer(h);
    const signedInAt = h.clock.now().toISOString();
    h.clock.advance(MINUTE);
    const phone = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    h.clock.advance(MINUTE);
    const iphone = await logIn(user.phone, SAFARI_IPHONE, '2001:db8:85a3::8a2e:370:7334');

    const answer = await h.call(signedInSessions, {}, { token: iphone });
    expect(answer.ret).toBe(1);
    expect(answer.data.total).toBe(3);
    expect(answer.data.lists).toEqual([
      {
        id: expect.any(Number),
        device: 'Safari, iOS',
        address: '2001:db8:85a3:…',
        signed_in_at: h.clock.now().toISOString(),
        last_seen_at: h.clock.now().toISOString(),
        current: true,
        ended: false,
      },
      expect.objectContaining({ device: 'Chrome, Android', address: '203.0.113.•••', current: false }),
      // Registered through the test harness: no browser it can name, from the loopback address.
      expect.objectContaining({
        device: 'Unknown device',
        address: '127.0.0.•••',
        signed_in_at: signedInAt,
        current: false,
      }),
    ]);
    // The full address never leaves the server.
    expect(JSON.stringify(answer)).not.toMatch(/203\.0\.113\.57|8a2e|370:7334/);

    // The other device sees the same sessions, itself marked.
    expect((await list(phone)).map((row) => [row.device, row.current])).toEqual([
      ['Chrome, Android', true],
      ['Safari, iOS', false],
      ['Unknown device', false],
    ]);
    // An unknown device is named in the reader's language.
    expect((await h.call(signedInSessions, {}, { token: phone, lang: 'zh' })).data.lists[2]!.device).toBe(
      translator('zh')(serverTexts.unknownDevice),
    );
  });
});

describe('ending sessions', () => {
  it('ends one at once: its token answers "login expired" on this process and on another, the others keep working', async () => {
    const user = await customer(h);
    const phone = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    const laptop = await logIn(user.phone, FIREFOX_WINDOWS, '198.51.100.20');
    // Both processes have the phone's session in memory.
    for (let i = 0; i < 2; i++) {
      expect(await works(phone)).toBe(true);
      expect((await other.inject({ url: `/api${userInfo.path}`, headers: { token: phone } })).json().ret).toBe(1);
    }

    const target = (await list(laptop)).find((row) => row.device === 'Chrome, Android')!;
    const notice = noticeOf(h.database.changes(), 'sessions', user.id);
    expect(await h.call(endSession, { id: String(target.id) }, { token: laptop })).toMatchObject({
      ret: 1,
      data: null,
    });
    expect(await h.call(userInfo, {}, { token: phone })).toEqual(TOKEN_EXPIRED);
    // Another process hears of it by the row's change notice, a moment after the commit on PostgreSQL (on the embedded
    // database it comes with the commit: tests/server/cached-answers.test.ts). Its first ask after the notice is
    // refused, although the copy of the session it cached would have served the token for 30 s more (the cached
    // answers' lifetime).
    await notice;
    expect((await other.inject({ url: `/api${userInfo.path}`, headers: { token: phone } })).json().ret).toBe(-1);

    expect(await works(laptop)).toBe(true);
    expect(await works(user.token)).toBe(true);
    expect((await list(laptop)).map((row) => row.device)).toEqual(['Firefox, Windows', 'Unknown device']);
    // Ended once is ended: a second time it is not found.
    expect(await h.call(endSession, { id: String(target.id) }, { token: laptop })).toEqual(NOT_FOUND);
  });

  it('ends all the others and keeps the caller signed in', async () => {
    const user = await customer(h);
    const phone = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    const laptop = await logIn(user.phone, FIREFOX_WINDOWS, '198.51.100.20');
    expect(await works(user.token)).toBe(true);
    expect(await works(laptop)).toBe(true);

    expect(await h.call(endOtherSessions, {}, { token: phone })).toMatchObject({ ret: 1, data: {} });
    expect(await h.call(userInfo, {}, { token: laptop })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
    expect(await works(phone)).toBe(true);
    expect(await list(phone)).toEqual([expect.objectContaining({ device: 'Chrome, Android', current: true })]);
  });

  it("answers another account's session as not found and ends nothing", async () => {
    const owner = await customer(h);
    const stranger = await customer(h);
    const [ownSession] = await list(owner.token);
    expect(await h.call(endSession, { id: String(ownSession!.id) }, { token: stranger.token })).toEqual(NOT_FOUND);
    expect(await h.call(endSession, { id: 'x1' }, { token: stranger.token })).toEqual(NOT_FOUND);
    expect(await h.call(endSession, { id: '999999999' }, { token: stranger.token })).toEqual(NOT_FOUND);
    expect(await works(owner.token)).toBe(true);
    expect(await list(owner.token)).toHaveLength(1);
    // Ending its own current session is logging out.
    expect((await h.call(endSession, { id: String(ownSession!.id) }, { token: owner.token })).ret).toBe(1);
    expect(await h.call(userInfo, {}, { token: owner.token })).toEqual(TOKEN_EXPIRED);
  });
});

describe('expiry', () => {
  it('ends a session unused for 30 days: a minute before it still works, a minute after it does not', async () => {
    const user = await customer(h);
    const kept = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    const idle = await logIn(user.phone, FIREFOX_WINDOWS, '198.51.100.20');
    expect(await works(idle)).toBe(true);

    h.clock.advance(30 * DAY - MINUTE);
    expect(await works(kept)).toBe(true);
    expect((await list(kept)).map((row) => row.device)).toContain('Firefox, Windows');
    h.clock.advance(2 * MINUTE);
    expect(await h.call(userInfo, {}, { token: idle })).toEqual(TOKEN_EXPIRED);
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
    // The one used two minutes ago counts its 30 days from then; the expired ones are no longer listed.
    expect(await works(kept)).toBe(true);
    expect((await list(kept)).map((row) => row.device)).toEqual(['Chrome, Android']);
  });

  it('ends a session 180 days after its sign-in even when it is used every day', async () => {
    const user = await customer(h);
    const daily = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    for (let day = 1; day < 180; day++) {
      h.clock.advance(DAY);
      expect(await works(daily)).toBe(true);
    }
    h.clock.advance(DAY - 2 * MINUTE);
    expect(await works(daily)).toBe(true);
    h.clock.advance(2 * MINUTE);
    expect(await h.call(userInfo, {}, { token: daily })).toEqual(TOKEN_EXPIRED);
    // Signing in again gives a new session.
    expect(await works(await logIn(user.phone, CHROME_ANDROID, '203.0.113.57'))).toBe(true);
  });

  it('follows SESSION_IDLE_DAYS and SESSION_MAX_DAYS, and a typo stops the start', async () => {
    expect(loadConfig({}).sessionLimits).toEqual({ idleMs: 30 * DAY, maxMs: 180 * DAY });
    expect(loadConfig({ SESSION_IDLE_DAYS: '7', SESSION_MAX_DAYS: '0.5' }).sessionLimits).toEqual({
      idleMs: 7 * DAY,
      maxMs: DAY / 2,
    });
    expect(() => loadConfig({ SESSION_IDLE_DAYS: '30d' })).toThrow(/SESSION_IDLE_DAYS=30d/);
    expect(() => loadConfig({ SESSION_MAX_DAYS: '0' })).toThrow(/SESSION_MAX_DAYS=0/);

    const shortLived = await buildApp(
      testServices({
        db: h.database.db,
        clock: h.clock,
        sender: { send: async () => {} },
        market: h.market,
        sessionLimits: { idleMs: DAY, maxMs: 2 * DAY },
      }),
      testAppOptions({ addressRateLimitPerMinute: 100_000, accountRateLimitPerMinute: 100_000 }),
    );
    try {
      const ret = async (token: string) =>
        (await shortLived.inject({ url: `/api${userInfo.path}`, headers: { token } })).json().ret;
      const used = await customer(h);
      h.clock.advance(DAY - MINUTE);
      expect(await ret(used.token)).toBe(1);
      h.clock.advance(DAY - MINUTE);
      expect(await ret(used.token)).toBe(1);
      h.clock.advance(2 * MINUTE);
      expect(await ret(used.token)).toBe(-1);

      const unused = await customer(h);
      h.clock.advance(DAY + MINUTE);
      expect(await ret(unused.token)).toBe(-1);
      // The server with the defaults still counts 30 days.
      expect(await works(unused.token)).toBe(true);
    } finally {
      await shortLived.close();
    }
  });
});

describe('last seen', () => {
  it('is written at most every 5 minutes, not on every request', async () => {
    const user = await customer(h);
    const token = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    const id = (await list(token))[0]!.id;
    const signedIn = h.clock.now();

    const at = (minutes: number) => new Date(signedIn.getTime() + minutes * MINUTE);

    // 20 requests from the sign-in to 4 min 45 s after it: the row still says the sign-in.
    for (let i = 0; i < 20; i++) {
      expect(await works(token)).toBe(true);
      h.clock.advance(15_000);
    }
    expect(await lastSeenInDatabase(id)).toEqual(signedIn);
    // At 5 minutes the next request notes it, and the list says so.
    expect(await works(token)).toBe(true);
    expect(await lastSeenInDatabase(id)).toEqual(at(5));
    expect((await list(token))[0]!.last_seen_at).toBe(at(5).toISOString());
    h.clock.advance(4 * MINUTE);
    expect(await works(token)).toBe(true);
    expect(await lastSeenInDatabase(id)).toEqual(at(5));

    // Twenty requests at once when it is due: the row is written once (a trigger counts the writes).
    const db = h.database.db;
    await db.execute(sql`create table session_writes (session_id integer)`);
    await db.execute(
      sql.raw(
        `create function count_session_write() returns trigger language plpgsql as $$ begin insert into session_writes values (new.id); return null; end $$`,
      ),
    );
    await db.execute(
      sql`create trigger session_written after update on sessions for each row execute function count_session_write()`,
    );
    try {
      h.clock.advance(MINUTE);
      const answers = await Promise.all(Array.from({ length: 20 }, () => works(token)));
      expect(answers.every(Boolean)).toBe(true);
      expect(await lastSeenInDatabase(id)).toEqual(at(10));
      expect(
        rowsOf(await db.execute(sql`select count(*)::int as n from session_writes where session_id = ${id}`)),
      ).toEqual([{ n: 1 }]);
    } finally {
      await db.execute(sql`drop trigger session_written on sessions`);
      await db.execute(sql`drop function count_session_write`);
      await db.execute(sql`drop table session_writes`);
    }
  });
});

describe('the new-device message', () => {
  it('is posted for a sign-in from a device the account never used, in the language of the request, and not again for the same device', async () => {
    const user = await customer(h);
    expect(await inbox(user.token)).toEqual([]);

    h.clock.set(new Date(Math.ceil(h.clock.now().getTime() / DAY) * DAY + 9.5 * 60 * MINUTE));
    const when = h.clock.now().toISOString().slice(0, 10);
    const phone = await logIn(user.phone, CHROME_ANDROID, '203.0.113.57');
    const [first] = await inbox(phone);
    expect(first).toMatchObject({
      title: 'New sign-in',
      content: `New sign-in on Chrome, Android from 203.0.113.••• at ${when} 09:30 UTC. If it was not you, change your login password and end that session in Settings → Devices.`,
      status: 'unread',
    });
    expect(first!.content).not.toContain('203.0.113.57');

    // The same device again, from elsewhere: nothing new. Nor for a device whose earlier session ended.
    await logIn(user.phone, CHROME_ANDROID, '198.51.100.7');
    await h.call(endOtherSessions, {}, { token: user.token });
    await logIn(user.phone, CHROME_ANDROID, '198.51.100.8');
    expect(await inbox(user.token)).toHaveLength(1);

    // Another device, asking in Thai: read in Thai, the message is in Thai; read later in Hindi or English (the
    // customer switched the app's language), in that language: it is kept in every language the app speaks.
    await logIn(user.phone, FIREFOX_WINDOWS, '2001:db8:85a3::1', 'th');
    const values = { 0: 'Firefox, Windows', 1: '2001:db8:85a3:…', 2: `${when} 09:30 UTC` };
    for (const lang of ['th', 'hi', 'ar'] as const) {
      const [latest] = await inbox(user.token, lang);
      const tl = translator(lang);
      expect(latest).toMatchObject({
        title: tl(serverTexts.newSignInTitle),
        content: tl(serverTexts.newSignIn, values),
      });
      expect(latest!.title).not.toBe('New sign-in');
    }
    expect((await inbox(user.token))[0]).toMatchObject({
      title: 'New sign-in',
      content: expect.stringMatching(/^New sign-in on Firefox, Windows from 2001:db8:85a3:… at /),
    });
    expect(await inbox(user.token)).toHaveLength(2);
  });

  it('is not posted for registering (the first session) nor for the new session of a password change', async () => {
    const user = await customer(h);
    const changed = await h.call(
      changePassword,
      { oldpass: PASSWORD, password: 'xyz98765', repassword: 'xyz98765' },
      { token: user.token },
    );
    expect(changed.ret).toBe(1);
    // Only the notice of the change itself (security-notices.test.ts), no new-sign-in message.
    expect((await inbox(changed.data.token)).map((message) => message.title)).toEqual(['Login password changed']);
  });
});
