// The customer's own idle limit on their sessions (Settings): 15 minutes, 1 hour, 1 day, 7 days or 30 days (the
// default). A session unused for longer than the chosen limit is ended at its next call, which answers as an expired
// session does, on every server process; a session in use stays. Only the caller's account is read and changed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { login, userInfo } from '../../src/api-contract/account.ts';
import { sessionIdleLimit, setSessionIdleLimit, signedInSessions } from '../../src/api-contract/sessions.ts';
import { sessions } from '../../src/server/db/schema.ts';
import { otherProcessApp, startHarness, type Harness } from './harness.ts';
import { PASSWORD, TOKEN_EXPIRED, customer, noticeOf, refused } from './helpers.ts';

const MINUTE = 60_000;

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

const works = async (token: string) => (await h.call(userInfo, {}, { token })).ret === 1;
const worksOnOther = async (token: string) =>
  (await other.inject({ url: `/api${userInfo.path}`, headers: { token } })).json().ret === 1;
const limitOf = async (token: string) => (await h.call(sessionIdleLimit, {}, { token })).data;
const choose = (token: string, minutes: string) => h.call(setSessionIdleLimit, { minutes }, { token });
/** A second session of `user`'s account, as a sign-in on another device makes. */
async function secondSession(user: { phone: string }) {
  const answer = await h.call(login, { username: user.phone, password: PASSWORD });
  expect(answer.ret).toBe(1);
  return answer.data!.token;
}
const revokedAt = async (userId: number) =>
  (await h.database.db.select({ at: sessions.revokedAt }).from(sessions).where(eq(sessions.userId, userId))).map(
    (row) => row.at,
  );

describe('the idle limit', () => {
  it('is 30 days until the customer chooses, and only the five choices are taken', async () => {
    const user = await customer(h);
    expect(await limitOf(user.token)).toEqual({ minutes: 43_200 });
    for (const minutes of ['30', '0', '', '15.0', '43201', '1 hour']) {
      expect(await choose(user.token, minutes)).toEqual(refused('The request is not valid!'));
    }
    expect(await limitOf(user.token)).toEqual({ minutes: 43_200 });
    for (const minutes of [15, 60, 1_440, 10_080, 43_200]) {
      expect(await choose(user.token, String(minutes))).toMatchObject({ ret: 1, data: { minutes } });
      expect(await limitOf(user.token)).toEqual({ minutes });
    }
  });

  it('ends a session unused past 15 minutes on every process, keeps the one in use, and the end is for good', async () => {
    const user = await customer(h);
    const stranger = await customer(h);
    const laptop = await secondSession(user);
    // Both processes hold the laptop's session in memory, with the 30-day limit.
    expect(await works(laptop)).toBe(true);
    expect(await worksOnOther(laptop)).toBe(true);

    const notice = noticeOf(h.database.changes(), 'users', user.id);
    expect(await choose(user.token, '15')).toMatchObject({ ret: 1, data: { minutes: 15 } });
    await notice;

    // The phone is used every 7 minutes; the laptop is left alone.
    for (let i = 0; i < 2; i++) {
      h.clock.advance(7 * MINUTE);
      expect(await works(user.token)).toBe(true);
    }
    h.clock.advance(MINUTE - 1);
    // 14:59.999 after its last use the laptop still works (and is used: its 15 minutes start again).
    expect(await worksOnOther(laptop)).toBe(true);
    h.clock.advance(15 * MINUTE);
    // The other process answers as for an expired session, and ends the session in the database.
    expect(await worksOnOther(laptop)).toBe(false);
    expect(await h.call(userInfo, {}, { token: laptop })).toEqual(TOKEN_EXPIRED);
    expect((await revokedAt(user.id)).filter(Boolean)).toHaveLength(1);
    // The phone was used 15 min ago too: ended the same way; a fresh sign-in works.
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
    const again = await secondSession(user);
    expect(await works(again)).toBe(true);
    expect((await h.call(signedInSessions, {}, { token: again })).data.total).toBe(1);
    // Ended for good: back at 30 days, the ended sessions stay ended.
    expect(await choose(again, '43200')).toMatchObject({ ret: 1 });
    expect(await works(laptop)).toBe(false);
    expect(await works(user.token)).toBe(false);
    // Another customer's sessions keep their own (default) limit.
    expect(await works(stranger.token)).toBe(true);
    expect(await revokedAt(stranger.id)).toEqual([null]);
  });

  it('notes use every minute under a 15-minute limit, so a session used each minute never ends', async () => {
    const user = await customer(h);
    expect((await choose(user.token, '15')).ret).toBe(1);
    // 40 minutes of a call every 50 seconds: the written use is never a minute old (at 5 minutes, as under the
    // default limit, it would be up to a third of the limit).
    for (let i = 0; i < 48; i++) {
      h.clock.advance(50_000);
      expect(await works(user.token)).toBe(true);
      const [row] = await h.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(h.clock.now().getTime() - row!.lastSeenAt.getTime()).toBeLessThan(MINUTE);
    }
  });
});
