// The sign-in history: every sign-in (password, passkey, code) and every failed attempt against a known account (a
// wrong password, authenticator code or passkey), with the device, the address partly hidden and the rough place,
// newest first, by cursor, for 90 days; an unknown login name records nothing and is answered as before. A failed
// attempt from a device the account never signed in from posts the owner one security notice per device and UTC day.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../src/api-contract/account.ts';
import { LOGIN_HISTORY_PAGE_SIZE, loginHistory } from '../../src/api-contract/login-history.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { passkeySignIn, passkeySignInOptions } from '../../src/api-contract/passkeys.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { passkeyCreationOptions, addPasskey } from '../../src/api-contract/passkeys.ts';
import { loginHistory as historyTable } from '../../src/server/db/schema.ts';
import { deleteOldLoginHistory } from '../../src/server/domain/login-history.ts';
import { translator } from '../../src/server/i18n.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedAnswer, otherProcessApp, startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, lockedFor, refused, withTwoFactor } from './helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const WRONG_CREDENTIALS = refused(serverTexts.wrongCredentials.message);
const ORIGIN = 'https://app.example.com';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

/** A login as a device would send it: its User-Agent and address. */
const logIn = (username: string, password: string, userAgent: string, ip: string, extra: Record<string, string> = {}) =>
  h.call(login, { username, password, ...extra }, { ip, headers: { 'user-agent': userAgent } });
const history = async (token: string, cursor = '') => (await h.call(loginHistory, { cursor }, { token })).data;
const inbox = async (token: string, lang = 'en') => (await h.call(messages, {}, { token, lang })).data.lists;
/** The failed-attempt notices in the inbox (English ones), those naming `device` when given. */
const failedNotices = async (token: string, device = '') =>
  (await inbox(token)).filter(
    (message) => message.title === serverTexts.failedSignInTitle.message && message.content.includes(device),
  );
const rowsInAll = async () => Number((await h.database.db.select({ n: count() }).from(historyTable))[0]!.n);
/** The start of the next UTC day, plus `hours`. */
const nextDayAt = (hours: number) => new Date(Math.ceil(h.clock.now().getTime() / DAY) * DAY + hours * 60 * MINUTE);

describe('the history', () => {
  it('lists sign-ins and failed attempts newest first, with device, hidden address and method', async () => {
    const user = await customer(h);
    h.clock.advance(MINUTE);
    const phone = await logIn(user.phone, PASSWORD, CHROME_ANDROID, '203.0.113.57');
    expect(phone.ret).toBe(1);
    h.clock.advance(MINUTE);
    expect(await logIn(user.phone, 'wrong999', CHROME_ANDROID, '2001:db8:85a3::8a2e:370:7334')).toEqual(
      WRONG_CREDENTIALS,
    );
    const page = await history(phone.data.token);
    expect(page.next).toBeNull();
    expect(page.lists.map(({ id: _id, at: _at, ...rest }) => rest)).toEqual([
      { succeeded: false, method: 'password', device: 'Chrome, Android', address: '2001:db8:85a3:…', country: null },
      { succeeded: true, method: 'password', device: 'Chrome, Android', address: '203.0.113.•••', country: null },
      // Registering: a sign-in by the code sent to the phone (the test's requests name no browser).
      { succeeded: true, method: 'code', device: '', address: expect.any(String), country: null },
    ]);
    expect(page.lists[0]!.at).toBe(h.clock.now().toISOString());
    // The Chrome phone had signed in before: no notice for its wrong password.
    expect(await failedNotices(user.token)).toEqual([]);
    // Another customer sees none of it.
    const other = await customer(h);
    expect((await history(other.token)).lists).toHaveLength(1);
  });

  it('records nothing for a login name no account has, and answers it as a wrong password', async () => {
    const before = await rowsInAll();
    expect(await logIn('+66899999999', 'wrong999', FIREFOX_WINDOWS, '198.51.100.7')).toEqual(WRONG_CREDENTIALS);
    expect(await logIn('nobody@example.com', 'wrong999', FIREFOX_WINDOWS, '198.51.100.7')).toEqual(WRONG_CREDENTIALS);
    expect(await rowsInAll()).toBe(before);
  });

  it('does not count "too many attempts" as an attempt: the password was not tried', async () => {
    const user = await customer(h);
    for (let i = 0; i < 5; i++) await logIn(user.phone, 'wrong999', CHROME_ANDROID, '198.51.100.9');
    expect(await logIn(user.phone, 'wrong999', CHROME_ANDROID, '198.51.100.9')).toEqual(lockedFor('15 minutes'));
    expect((await history(user.token)).lists.filter((row) => !row.succeeded)).toHaveLength(5);
  });

  it('pages by cursor without repeating or skipping a row, and keeps 90 days', async () => {
    const user = await customer(h);
    for (let i = 0; i < LOGIN_HISTORY_PAGE_SIZE + 4; i++) {
      h.clock.advance(MINUTE);
      expect((await logIn(user.phone, PASSWORD, CHROME_ANDROID, '203.0.113.57')).ret).toBe(1);
    }
    const first = await history(user.token);
    expect(first.lists).toHaveLength(LOGIN_HISTORY_PAGE_SIZE);
    expect(first.next).not.toBeNull();
    const second = await history(user.token, first.next!);
    expect(second.next).toBeNull();
    const ids = [...first.lists, ...second.lists].map((row) => row.id);
    expect(ids).toHaveLength(LOGIN_HISTORY_PAGE_SIZE + 5);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(await h.call(loginHistory, { cursor: '1.2.3.4' }, { token: user.token })).toEqual(
      refused(texts.invalidRequest.message),
    );

    // 90 days after the registration (the oldest row) it falls out of the read; the clean-up job deletes it.
    const registeredAt = new Date(second.lists.at(-1)!.at);
    expect(second.lists.at(-1)!.method).toBe('code');
    h.clock.set(new Date(registeredAt.getTime() + 90 * DAY + 1));
    const { token } = (await logIn(user.phone, PASSWORD, CHROME_ANDROID, '203.0.113.57')).data;
    const head = await history(token);
    const rest = await history(token, head.next!);
    const kept = [...head.lists, ...rest.lists];
    expect(kept).toHaveLength(LOGIN_HISTORY_PAGE_SIZE + 5);
    expect(kept.map((row) => row.method)).not.toContain('code');
    const ofUser = () =>
      h.database.db.select({ method: historyTable.method }).from(historyTable).where(eq(historyTable.userId, user.id));
    expect(await ofUser()).toHaveLength(LOGIN_HISTORY_PAGE_SIZE + 6);
    expect(await deleteOldLoginHistory(h.database.db, h.clock.now())).toBeGreaterThanOrEqual(1);
    expect((await ofUser()).map((row) => row.method)).not.toContain('code');
    expect(await ofUser()).toHaveLength(LOGIN_HISTORY_PAGE_SIZE + 5);
  });
});

describe('the notice of a failed attempt from a new device', () => {
  it('goes to the owner once per device and day, says nothing to the caller, and is in the reader’s language', async () => {
    const user = await customer(h);
    h.clock.set(nextDayAt(9.5));
    const when = h.clock.now().toISOString().slice(0, 10);
    // A wrong password from a device the account never used: the caller's answer is the usual refusal.
    expect(await logIn(user.phone, 'wrong999', FIREFOX_WINDOWS, '198.51.100.23')).toEqual(WRONG_CREDENTIALS);
    const [notice, ...more] = await failedNotices(user.token, 'Firefox, Windows');
    expect(more).toEqual([]);
    expect(notice!.content).toBe(
      serverTexts.failedSignIn.message
        .replace('{0}', 'Firefox, Windows')
        .replace('{1}', '198.51.100.•••')
        .replace('{2}', `${when} 09:30 UTC`),
    );
    // More from it that day (four at once, too): still one notice.
    h.clock.advance(MINUTE);
    await Promise.all(
      Array.from({ length: 4 }, (_, i) => logIn(user.phone, `wrong99${i}`, FIREFOX_WINDOWS, `198.51.100.${30 + i}`)),
    );
    expect(await failedNotices(user.token, 'Firefox, Windows')).toHaveLength(1);
    expect((await history(user.token)).lists.filter((row) => !row.succeeded)).toHaveLength(5);
    // Another new device the same day: a notice of its own, read in Thai in Thai (asked in Thai too here).
    const th = await h.call(
      login,
      { username: user.phone, password: 'wrong999' },
      { ip: '198.51.100.40', lang: 'th', headers: { 'user-agent': SAFARI_IPHONE } },
    );
    expect(th).toEqual(refused(translator('th')(serverTexts.wrongCredentials)));
    expect((await inbox(user.token, 'th'))[0]).toMatchObject({
      title: translator('th')(serverTexts.failedSignInTitle),
      content: translator('th')(serverTexts.failedSignIn, {
        0: 'Safari, iOS',
        1: '198.51.100.•••',
        2: `${when} 09:31 UTC`,
      }),
    });
    // The next UTC day, the first device again: one more.
    h.clock.set(nextDayAt(0.5));
    await logIn(user.phone, 'wrong999', FIREFOX_WINDOWS, '198.51.100.50');
    expect(await failedNotices(user.token, 'Firefox, Windows')).toHaveLength(2);
    // Once the owner signs in from it, it is no new device: no more notices.
    h.clock.set(nextDayAt(1));
    expect((await logIn(user.phone, PASSWORD, FIREFOX_WINDOWS, '198.51.100.51')).ret).toBe(1);
    await logIn(user.phone, 'wrong999', FIREFOX_WINDOWS, '198.51.100.52');
    expect(await failedNotices(user.token, 'Firefox, Windows')).toHaveLength(2);
  });
});

describe('two-factor and passkeys', () => {
  it('records a wrong authenticator code as a failed code attempt, and the notice says the password is known', async () => {
    const user = await customer(h);
    const { code } = await withTwoFactor(h, user.token);
    h.clock.advance(MINUTE);
    const before = (await history(user.token)).lists.length;
    // The right password on a new device asks for the code: the ordinary step, no failure.
    expect(await logIn(user.phone, PASSWORD, FIREFOX_WINDOWS, '198.51.100.60')).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );
    expect((await history(user.token)).lists).toHaveLength(before);
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, '0');
    expect(await logIn(user.phone, PASSWORD, FIREFOX_WINDOWS, '198.51.100.60', { otp: wrong })).toEqual(
      refused(texts.authenticatorCodeWrong.message),
    );
    const [failed] = (await history(user.token)).lists;
    expect(failed).toMatchObject({ succeeded: false, method: 'code', device: 'Firefox, Windows' });
    const [notice] = await failedNotices(user.token);
    expect(notice!.content).toContain(
      serverTexts.failedCodeSignIn.message.slice(serverTexts.failedCodeSignIn.message.indexOf('and was refused')),
    );
    h.clock.advance(MINUTE);
    const right = await logIn(user.phone, PASSWORD, FIREFOX_WINDOWS, '198.51.100.60', {
      otp: code(),
    });
    expect(right.ret).toBe(1);
    expect((await history(user.token)).lists[0]).toMatchObject({ succeeded: true, method: 'code' });
  });

  it('records a recovery code already used as a failed code attempt', async () => {
    const user = await customer(h);
    const [recovery] = (await withTwoFactor(h, user.token)).recovery as [string];
    h.clock.advance(MINUTE);
    expect(await logIn(user.phone, PASSWORD, FIREFOX_WINDOWS, '198.51.100.61', { otp: recovery })).toMatchObject({
      ret: 1,
    });
    h.clock.advance(MINUTE);
    expect(await logIn(user.phone, PASSWORD, FIREFOX_WINDOWS, '198.51.100.61', { otp: recovery })).toEqual(
      refused(serverTexts.recoveryCodeUsed.message),
    );
    expect((await history(user.token)).lists[0]).toMatchObject({ succeeded: false, method: 'code' });
  });

  it('records a passkey sign-in, and a refused answer of a passkey the server holds against its account', async () => {
    const user = await customer(h);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const page = (token?: string) => ({
      token,
      headers: { origin: ORIGIN, host: 'app.example.com', 'user-agent': SAFARI_IPHONE },
    });
    const options = await h.call(passkeyCreationOptions, { password: PASSWORD }, page(user.token));
    expect(
      (
        await h.call(
          addPasskey,
          { credential: JSON.stringify(authenticator.create(options.data.options as never)) },
          page(user.token),
        )
      ).ret,
    ).toBe(1);
    const signIn = async (how: Parameters<SoftAuthenticator['get']>[1] = {}) => {
      const asked = await h.call(passkeySignInOptions, {}, page());
      const credential = JSON.stringify(authenticator.get(asked.data.options as never, how));
      return h.call(passkeySignIn, { credential }, page());
    };
    h.clock.advance(MINUTE);
    expect(await signIn({ origin: 'https://phish.example' })).toEqual(refused(texts.passkeyFailed.message));
    expect((await history(user.token)).lists[0]).toMatchObject({
      succeeded: false,
      method: 'passkey',
      device: 'Safari, iOS',
    });
    expect(await failedNotices(user.token)).toHaveLength(1);
    h.clock.advance(MINUTE);
    expect((await signIn()).ret).toBe(1);
    expect((await history(user.token)).lists[0]).toMatchObject({ succeeded: true, method: 'passkey' });
    // A passkey no account holds: refused as before, nothing recorded.
    const before = await rowsInAll();
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({
      challenge: 'x',
      rp: { id: 'app.example.com', name: 'x' },
      user: { id: 'MQ', name: 'x', displayName: 'x' },
      pubKeyCredParams: [],
    } as never);
    const asked = await h.call(passkeySignInOptions, {}, page());
    expect(
      await h.call(passkeySignIn, { credential: JSON.stringify(stranger.get(asked.data.options as never)) }, page()),
    ).toEqual(refused(serverTexts.passkeyNotRecognised.message));
    expect(await rowsInAll()).toBe(before);
  });
});

describe('the rough place', () => {
  it('is the country of the address in the configured table (LOGIN_COUNTRY_FILE), else unknown', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'places-')), 'countries.csv');
    writeFileSync(file, '203.0.113.0,203.0.113.255,TH\n2001:db8::,2001:db8:ffff:ffff:ffff:ffff:ffff:ffff,JP\n');
    // An app of its own: the table is read when an app is built.
    const placed = await otherProcessApp(h, { loginCountryFile: file });
    try {
      const user = await customer(h);
      const send = async (password: string, ip: string) =>
        checkedAnswer(
          login,
          (
            await placed.inject({
              method: 'POST',
              url: `/api${login.path}`,
              headers: {
                'user-agent': CHROME_ANDROID,
                lang: 'en',
                'content-type': 'application/x-www-form-urlencoded',
              },
              payload: new URLSearchParams({ username: user.phone, password }).toString(),
              remoteAddress: ip,
            })
          ).json(),
        );
      for (const [password, ip] of [
        [PASSWORD, '203.0.113.57'],
        ['wrong999', '2001:db8:85a3::1'],
        [PASSWORD, '198.51.100.7'],
      ] as const) {
        h.clock.advance(MINUTE);
        await send(password, ip);
      }
      expect((await history(user.token)).lists.map((row) => [row.succeeded, row.address, row.country])).toEqual([
        [true, '198.51.100.•••', null],
        [false, '2001:db8:85a3:…', 'JP'],
        [true, '203.0.113.•••', 'TH'],
        [true, expect.any(String), null],
      ]);
    } finally {
      await placed.close();
    }
  });
});
