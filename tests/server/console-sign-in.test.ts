// Operator accounts and console sessions: `ops operator add` hands out a first password
// and an authenticator enrolment that sign in; a wrong password, a wrong code and a replayed code are
// refused, guessing is bounded; the first password must be changed before anything else works; a
// session ends after 30 minutes without a call (or as long as CONSOLE_IDLE_MINUTES says), at sign-out, and when its
// operator is disabled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { callApp, otherProcessApp, startHarness, type Harness } from './harness.ts';
import { loadConfig } from '../../src/server/config.ts';
import { serviceSettings } from '../../src/server/http/settings.ts';
import { TOKEN_EXPIRED, customer, lockedFor, refused } from './helpers.ts';
import { ops, opsOk } from './funds-helpers.ts';
import { NEW_PASSWORD, codeFrom, enrolled, operatorToken, signInAs } from './console-helpers.ts';
import {
  consoleChangePassword,
  consoleMe,
  consoleQueues,
  consoleSignIn,
  consoleSignOut,
} from '../../src/api-contract/console.ts';
import { operatorSessions, operators } from '../../src/server/db/schema.ts';
import { hashToken } from '../../src/server/domain/sessions.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const WRONG_NAME_OR_PASSWORD = refused('The operator name or the password is wrong!');
const CHANGE_FIRST = refused('Please change your first password before anything else!');

describe('ops operator add', () => {
  it('prints a first password, an otpauth:// URI and its QR code; the operator signs in with them', async () => {
    const output = await opsOk(h, 'operator', 'add', 'reviewer1', 'reviewer');
    expect(output).toMatch(/^Operator reviewer1 \(reviewer\) added\./);
    // The QR code is drawn with block characters, a few dozen lines of them.
    expect(output.split('\n').filter((line) => /[█▀▄]/.test(line)).length).toBeGreaterThan(10);
    const uri = new URL(/^otpauth:\/\/\S+$/m.exec(output)![0]);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Coinvest console:reviewer1');
    expect(uri.searchParams.get('secret')).toMatch(/^[A-Z2-7]{32}$/);

    const password = /First password[^:]*: (\S+)/.exec(output)![1]!;
    h.clock.advance(30_000);
    const res = await h.call(consoleSignIn, { name: 'reviewer1', password, code: codeFrom(uri.href, h) });
    expect(res).toMatchObject({
      ret: 1,
      data: { operator: { name: 'reviewer1', role: 'reviewer', must_change_password: true } },
    });
    // Only the token's digest is stored, and the authenticator's secret is sealed, not in clear.
    const [session] = await h.database.db
      .select()
      .from(operatorSessions)
      .where(eq(operatorSessions.tokenHash, hashToken(res.data.token)));
    expect(session).toBeDefined();
    const [row] = await h.database.db.select().from(operators).where(eq(operators.name, 'reviewer1'));
    expect(row!.totpSecret).not.toContain(uri.searchParams.get('secret'));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('lists and refuses a name taken, a name of the command line, a role that does not exist', async () => {
    await enrolled(h, 'admin1', 'admin');
    expect(await ops(h, 'operator', 'add', 'admin1', 'reviewer')).toEqual({
      ok: false,
      output: 'An operator of this name already exists!',
    });
    expect((await ops(h, 'operator', 'add', 'ops', 'reviewer')).ok).toBe(false);
    expect(await ops(h, 'operator', 'add', 'reviewer3', 'root')).toEqual({
      ok: false,
      output: 'The role must be reviewer, content or admin!',
    });
    expect(await opsOk(h, 'operator', 'list')).toMatch(/\nadmin1\s+admin\s+not changed yet\s/);
  });
});

describe('signing in', () => {
  it('refuses a wrong password and an unknown name alike, a wrong code, and a code already used', async () => {
    const reviewer4 = await enrolled(h, 'reviewer4', 'reviewer');
    expect(await signInAs(h, reviewer4, 'not the password')).toEqual(WRONG_NAME_OR_PASSWORD);
    expect(
      await h.call(consoleSignIn, { name: 'nobody', password: reviewer4.password, code: codeFrom(reviewer4.uri, h) }),
    ).toEqual(WRONG_NAME_OR_PASSWORD);
    const wrongCode = codeFrom(reviewer4.uri, h, 5);
    expect(await h.call(consoleSignIn, { name: 'reviewer4', password: reviewer4.password, code: wrongCode })).toEqual(
      refused('The authenticator code is wrong!'),
    );

    h.clock.advance(30_000);
    const code = codeFrom(reviewer4.uri, h);
    expect((await h.call(consoleSignIn, { name: 'reviewer4', password: reviewer4.password, code })).ret).toBe(1);
    // The same code again, within its 30 seconds: refused.
    expect(await h.call(consoleSignIn, { name: 'reviewer4', password: reviewer4.password, code })).toEqual(
      refused('This code has already been used, please wait for the next one!'),
    );
    // A customer's credentials are no operator's.
    const user = await customer(h);
    expect(await h.call(consoleSignIn, { name: user.phone, password: 'abc12345', code })).toEqual(
      WRONG_NAME_OR_PASSWORD,
    );
  });

  it('locks that address out after five wrong tries, even for the right password', async () => {
    const erin = await enrolled(h, 'erin', 'reviewer');
    for (let i = 0; i < 5; i++) expect(await signInAs(h, erin, `guess ${i}`)).toEqual(WRONG_NAME_OR_PASSWORD);
    // Five wrong 30 s apart, the next 30 s later: 12.5 of the 15 minutes are left, said rounded up.
    expect(await signInAs(h, erin)).toEqual(lockedFor('13 minutes'));
    h.clock.advance(15 * 60_000);
    expect((await signInAs(h, erin)).ret).toBe(1);
  });

  it('asks for the first password to be changed before anything else works', async () => {
    const frank = await enrolled(h, 'frank', 'reviewer');
    const { token } = (await signInAs(h, frank)).data;
    expect(await h.call(consoleQueues, {}, { token })).toEqual(CHANGE_FIRST);
    expect(await h.call(consoleMe, {}, { token })).toMatchObject({
      ret: 1,
      data: { name: 'frank', must_change_password: true },
    });
    expect(await h.call(consoleChangePassword, { password: 'wrong', new_password: NEW_PASSWORD }, { token })).toEqual(
      refused('The login password is wrong!'),
    );
    expect(await h.call(consoleChangePassword, { password: frank.password, new_password: 'short' }, { token })).toEqual(
      refused('The new password must be 12 to 128 characters!'),
    );
    expect(
      await h.call(consoleChangePassword, { password: frank.password, new_password: NEW_PASSWORD }, { token }),
    ).toMatchObject({
      ret: 1,
      data: { must_change_password: false },
    });
    expect(await h.call(consoleQueues, {}, { token })).toMatchObject({ ret: 1 });
    // The first password no longer signs in; the new one does.
    expect(await signInAs(h, frank)).toEqual(WRONG_NAME_OR_PASSWORD);
    expect(await signInAs(h, frank, NEW_PASSWORD)).toMatchObject({
      ret: 1,
      data: { operator: { must_change_password: false } },
    });
  });
});

describe('a session', () => {
  it('ends after 30 minutes without a call; each call keeps it alive', async () => {
    const token = await operatorToken(h, 'grace', 'reviewer');
    h.clock.advance(29 * 60_000);
    expect((await h.call(consoleQueues, {}, { token })).ret).toBe(1);
    h.clock.advance(29 * 60_000);
    expect((await h.call(consoleQueues, {}, { token })).ret).toBe(1);
    h.clock.advance(30 * 60_000);
    expect(await h.call(consoleQueues, {}, { token })).toEqual(TOKEN_EXPIRED);
    // Ended for good: coming back within the next minutes does not revive it.
    h.clock.advance(-29 * 60_000);
    expect(await h.call(consoleQueues, {}, { token })).toEqual(TOKEN_EXPIRED);
    h.clock.advance(29 * 60_000);
  });

  it('follows CONSOLE_IDLE_MINUTES: ends after that long without a call, and a typo stops the start', async () => {
    expect(loadConfig({}).operatorConsole.idleMs).toBe(30 * 60_000);
    expect(loadConfig({ CONSOLE_IDLE_MINUTES: '5' }).operatorConsole.idleMs).toBe(5 * 60_000);
    expect(() => loadConfig({ CONSOLE_IDLE_MINUTES: '0' })).toThrow(/CONSOLE_IDLE_MINUTES=0/);
    expect(() => loadConfig({ CONSOLE_IDLE_MINUTES: '5m' })).toThrow(/CONSOLE_IDLE_MINUTES=5m/);
    // A process started with a 5-minute limit, on the same database and clock, as a server's settings give it.
    const fiveMinutes = await otherProcessApp(
      h,
      {},
      { operatorConsole: serviceSettings(loadConfig({ CONSOLE_IDLE_MINUTES: '5' })).operatorConsole },
    );
    try {
      const token = await operatorToken(h, 'kate', 'reviewer');
      const queues = () => callApp(fiveMinutes, consoleQueues, {}, { token });
      h.clock.advance(5 * 60_000 - 1);
      expect((await queues()).ret).toBe(1);
      h.clock.advance(5 * 60_000 - 1);
      expect((await queues()).ret).toBe(1);
      h.clock.advance(5 * 60_000);
      expect(await queues()).toEqual(TOKEN_EXPIRED);
      // Ended in the database: the 30-minute process does not revive it either.
      expect(await h.call(consoleQueues, {}, { token })).toEqual(TOKEN_EXPIRED);
    } finally {
      await fiveMinutes.close();
    }
  });

  it('ends at sign-out and when its operator is disabled', async () => {
    const token = await operatorToken(h, 'heidi', 'reviewer');
    expect(await h.call(consoleSignOut, {}, { token })).toMatchObject({ ret: 1 });
    expect(await h.call(consoleQueues, {}, { token })).toEqual(TOKEN_EXPIRED);

    const ivan = await operatorToken(h, 'ivan', 'reviewer');
    expect(await opsOk(h, 'operator', 'disable', 'ivan')).toMatch(/^Operator ivan disabled at /);
    expect(await h.call(consoleQueues, {}, { token: ivan })).toEqual(TOKEN_EXPIRED);
    h.clock.advance(30_000);
    const [row] = await h.database.db.select().from(operators).where(eq(operators.name, 'ivan'));
    expect(row!.disabledAt).not.toBeNull();
    expect(await ops(h, 'operator', 'disable', 'ivan')).toEqual({
      ok: false,
      output: 'There is no active operator of this name!',
    });
  });

  it('answers in the operator’s language (Chinese, Thai)', async () => {
    const judy = await enrolled(h, 'judy', 'reviewer');
    h.clock.advance(30_000);
    const token = (await h.call(consoleSignIn, { name: 'judy', password: judy.password, code: codeFrom(judy.uri, h) }))
      .data.token;
    expect(await h.call(consoleQueues, {}, { token, lang: 'zh' })).toEqual(
      refused('请先修改初始密码，然后再进行其他操作！'),
    );
    expect(await h.call(consoleQueues, {}, { token, lang: 'th' })).toEqual(refused('กรุณาเปลี่ยนรหัสผ่านแรกก่อนทำอย่างอื่น!'));
  });
});
