// A write that ends its own session (closing the account, changing the login password, freezing, logging out) whose
// answer was lost: the app sends it again with the same Idempotency-Key and the token it was sent with, which no longer
// signs anything in. That exact session still receives the write's stored answer (and the write-outcome lookup's
// answer for that key), and nothing else: another token, another key, another body or another call is refused as an
// ended login, and nothing runs again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, TOKEN_EXPIRED, customer, refused } from './helpers.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { changePassword, editProfile, login, logout, userInfo } from '../../src/api-contract/account.ts';
import { freezeAccount } from '../../src/api-contract/account-freeze.ts';
import { writeOutcome } from '../../src/api-contract/write-outcome.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';
import { closedAccounts, idempotencyKeys, ledgerEntries, sessions } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

/** A call as the app sends it, with its Idempotency-Key: the envelope, and whether it came as a replay. */
async function send(endpoint: Endpoint, fields: Record<string, string>, token: string, key: string) {
  const response = await h.app.inject({
    method: 'POST',
    url: `/api${endpoint.path}`,
    headers: { lang: 'en', token, 'idempotency-key': key, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  return {
    answer: response.json() as { ret: number; msg: string; data: unknown },
    replay: response.headers['idempotent-replay'],
  };
}

/** When the write-outcome lookup is told the write was sent (the device's clock): just now. */
const SENT_NOW = new Date().toISOString();
const CLOSE = { secret_kind: 'login', secret: PASSWORD };
const closedCount = async (userId: number) =>
  (await h.database.db.select({ n: count() }).from(closedAccounts).where(eq(closedAccounts.userId, userId)))[0]!.n;
const entriesOf = async (userId: number) =>
  (await h.database.db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.userId, userId)))[0]!.n;
const keyRows = async () => (await h.database.db.select({ n: count() }).from(idempotencyKeys))[0]!.n;
const sessionRows = async (userId: number) =>
  (await h.database.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0]!.n;

describe('closing the account, its answer lost', () => {
  it('sends the same token and key again: the stored "closed" answer, as a replay, and nothing runs again', async () => {
    const user = await customer(h);
    const first = await send(closeAccount, CLOSE, user.token, 'close-lost');
    expect(first.answer).toMatchObject({ ret: 1, msg: 'Success' });
    expect(first.replay).toBeUndefined();
    const entries = await entriesOf(user.id);

    const again = await send(closeAccount, CLOSE, user.token, 'close-lost');
    expect(again.answer).toEqual(first.answer);
    expect(again.replay).toBe('true');
    expect(await closedCount(user.id)).toBe(1);
    expect(await entriesOf(user.id)).toBe(entries);
    // The write-outcome lookup with the ended token says the close went through.
    const outcome = await send(
      writeOutcome,
      { path: closeAccount.path, key: 'close-lost', sent_at: SENT_NOW },
      user.token,
      'ask-1',
    );
    expect(outcome.answer).toMatchObject({ ret: 1, data: { state: 'applied', msg: null } });
    // The ended token signs nothing else in.
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
  });

  it('refuses as an ended login whatever else the ended token sends, and nothing runs', async () => {
    const user = await customer(h);
    // A second device of the same customer: the closure ends it too.
    const other = await h.call(login, { username: user.phone, password: PASSWORD });
    expect(other.ret).toBe(1);
    const stranger = await customer(h);
    expect((await h.call(logout, {}, { token: stranger.token })).ret).toBe(1);
    expect((await send(closeAccount, CLOSE, user.token, 'close-once')).answer.ret).toBe(1);
    const keys = await keyRows();
    const entries = await entriesOf(user.id);

    // The other device of the same customer, with the same key and form.
    expect((await send(closeAccount, CLOSE, other.data.token, 'close-once')).answer).toEqual(TOKEN_EXPIRED);
    // Another customer's ended token, and a made-up one.
    expect((await send(closeAccount, CLOSE, stranger.token, 'close-once')).answer).toEqual(TOKEN_EXPIRED);
    expect((await send(closeAccount, CLOSE, 'made-up-token', 'close-once')).answer).toEqual(TOKEN_EXPIRED);
    // The same token with a new key, or the same key with another form.
    expect((await send(closeAccount, CLOSE, user.token, 'close-new-key')).answer).toEqual(TOKEN_EXPIRED);
    expect(
      (await send(closeAccount, { secret_kind: 'pay', secret: PAYPASS }, user.token, 'close-once')).answer,
    ).toEqual(TOKEN_EXPIRED);
    // The same key on another write, and a read.
    expect((await send(editProfile, { nickname: 'Back' }, user.token, 'close-once')).answer).toEqual(TOKEN_EXPIRED);
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
    // The write-outcome lookup: another key, another path, another token of the same customer.
    expect(
      (
        await send(
          writeOutcome,
          { path: closeAccount.path, key: 'close-new-key', sent_at: SENT_NOW },
          user.token,
          'ask-2',
        )
      ).answer,
    ).toEqual(TOKEN_EXPIRED);
    expect(
      (await send(writeOutcome, { path: editProfile.path, key: 'close-once', sent_at: SENT_NOW }, user.token, 'ask-3'))
        .answer,
    ).toEqual(TOKEN_EXPIRED);
    expect(
      (
        await send(
          writeOutcome,
          { path: closeAccount.path, key: 'close-once', sent_at: SENT_NOW },
          other.data.token,
          'ask-4',
        )
      ).answer,
    ).toEqual(TOKEN_EXPIRED);

    // No key was claimed or given up, nothing was written.
    expect(await keyRows()).toBe(keys);
    expect(await entriesOf(user.id)).toBe(entries);
    expect(await closedCount(user.id)).toBe(1);
  });

  it('replays a refusal to the session that sent it while the session lives, as before', async () => {
    const user = await customer(h, '10');
    const answer = await send(closeAccount, CLOSE, user.token, 'close-held');
    expect(answer.answer.ret).toBe(0);
    const again = await send(closeAccount, CLOSE, user.token, 'close-held');
    expect(again).toEqual({ answer: answer.answer, replay: 'true' });
  });
});

describe('a write that did not end its session', () => {
  it('is not replayed to that session once something else ended it', async () => {
    const user = await customer(h);
    expect((await send(editProfile, { nickname: 'Before' }, user.token, 'edit-1')).answer.ret).toBe(1);
    expect((await h.call(logout, {}, { token: user.token })).ret).toBe(1);
    expect((await send(editProfile, { nickname: 'Before' }, user.token, 'edit-1')).answer).toEqual(TOKEN_EXPIRED);
    expect(
      (await send(writeOutcome, { path: editProfile.path, key: 'edit-1', sent_at: SENT_NOW }, user.token, 'ask-5'))
        .answer,
    ).toEqual(TOKEN_EXPIRED);
  });
});

describe('changing the login password, its answer lost', () => {
  const change = { oldpass: PASSWORD, password: 'xyz98765', repassword: 'xyz98765' };

  it('replays the new session to the ended token that asked, and the new one works', async () => {
    const user = await customer(h);
    const first = await send(changePassword, change, user.token, 'pass-lost');
    expect(first.answer).toMatchObject({ ret: 1, data: { token: expect.any(String) } });
    const sessionsAfter = await sessionRows(user.id);

    const again = await send(changePassword, change, user.token, 'pass-lost');
    expect(again).toEqual({ answer: first.answer, replay: 'true' });
    // No new session was made: the replayed token is the one the change made, and it signs in.
    expect(await sessionRows(user.id)).toBe(sessionsAfter);
    const token = (again.answer.data as { token: string }).token;
    expect((await h.call(userInfo, {}, { token })).ret).toBe(1);
    expect(
      (
        await send(
          writeOutcome,
          { path: changePassword.path, key: 'pass-lost', sent_at: SENT_NOW },
          user.token,
          'ask-6',
        )
      ).answer,
    ).toMatchObject({ ret: 1, data: { state: 'applied' } });

    // The old token still signs nothing in: not another change, not a read.
    const next = { oldpass: 'xyz98765', password: 'qrs45678', repassword: 'qrs45678' };
    expect((await send(changePassword, next, user.token, 'pass-new-key')).answer).toEqual(TOKEN_EXPIRED);
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
    expect(await sessionRows(user.id)).toBe(sessionsAfter);
    expect((await h.call(login, { username: user.phone, password: 'xyz98765' })).ret).toBe(1);
  });

  it('replays a wrong old password as refused, while the session still lives', async () => {
    const user = await customer(h);
    const wrong = { ...change, oldpass: 'wrong-one1' };
    const first = await send(changePassword, wrong, user.token, 'pass-wrong');
    expect(first.answer).toEqual(refused(serverTexts.wrongOldPassword.message));
    expect((await send(changePassword, wrong, user.token, 'pass-wrong')).replay).toBe('true');
  });
});

describe('freezing the account, its answer lost', () => {
  it('replays the freeze to the ended token that asked', async () => {
    const user = await customer(h);
    const first = await send(freezeAccount, { paypass: PAYPASS }, user.token, 'freeze-lost');
    expect(first.answer.ret).toBe(1);
    expect(await send(freezeAccount, { paypass: PAYPASS }, user.token, 'freeze-lost')).toEqual({
      answer: first.answer,
      replay: 'true',
    });
    expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
  });
});
