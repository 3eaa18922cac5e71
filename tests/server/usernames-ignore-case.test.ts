// A username is one name whatever its letter case or compatibility form (domain/accounts.ts usernameKey): an address
// that is another account's username in another case cannot register or get a sign-up code, "DEMO_TRADER" signs in
// the account "Demo_Trader", which keeps showing its name as registered, the login limits count every casing as one
// name, and where two legacy accounts differ only by case the name typed exactly wins. The migration that adds the
// database's unique index on the folded name (0037) leaves a database holding such legacy pairs as it is, and adds
// the index once they are resolved: run by dropping the index and applying the migration's own SQL file again. The
// console's customer search folds what an operator types as login folds a name.
import { readFileSync } from 'node:fs';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { operatorToken } from './console-helpers.ts';
import { PASSWORD, lockedFor, refused, registerByEmail, registerByPhone, userIdOf } from './helpers.ts';
import { editProfile, login, register, sendEmailCode, userInfo } from '../../src/api-contract/account.ts';
import { CONTACT_REUSE_DAYS, closeAccount } from '../../src/api-contract/closure.ts';
import { consoleFindCustomers } from '../../src/api-contract/console.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { users } from '../../src/server/db/schema.ts';
import {
  hashSecret,
  isUniqueViolation,
  newInviteCode,
  storeEmailsCanonical,
  usernamesAlike,
} from '../../src/server/domain/accounts.ts';

const MIGRATION = new URL('../../src/server/db/migrations/0037_usernames_ignore_case.sql', import.meta.url);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const WRONG = refused('Wrong username or password!');
const EMAIL_TAKEN = refused('This e-mail address is already registered!');
const GUESSER = '203.0.113.66';
const signedIn = expect.objectContaining({ ret: 1, msg: 'Success' });
const tryLogin = (username: string, password: string, ip = '198.51.100.10') =>
  h.call(login, { username, password }, { ip });

/** An account as an older release could leave it: a username of its own, no phone or e-mail, the password given. */
async function legacyAccount(username: string, password = PASSWORD): Promise<number> {
  const [row] = await h.database.db
    .insert(users)
    .values({
      username,
      passwordHash: await hashSecret(password),
      nickname: username,
      inviteCode: newInviteCode(),
      createdAt: h.clock.now(),
    })
    .returning({ id: users.id });
  return row!.id;
}

const accounts = async () => (await h.database.db.select({ n: count() }).from(users))[0]!.n;
const indexExists = async () =>
  rowsOf<{ n: number }>(
    await h.database.db.execute(
      sql`select count(*)::int as n from pg_indexes where indexname = 'users_username_key_idx'`,
    ),
  )[0]!.n === 1;
const applyMigration = async () => {
  for (const statement of readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint'))
    await h.database.db.execute(sql.raw(statement));
};

it('an address that is a username in another case or width is taken: no code, no registration, nothing created', async () => {
  const typed = 'customer1@example.com';
  // The code was sent before the legacy account's name was seen.
  h.clock.advance(61_000);
  expect((await h.call(sendEmailCode, { email: typed })).ret).toBe(1);
  await legacyAccount('Customer1@Example.com');
  const before = await accounts();
  expect(
    await h.call(register, {
      mode: 'email',
      email: typed,
      code: h.codeFor(typed),
      password: PASSWORD,
      paypass: '123456',
      currency: 'USD',
    }),
  ).toEqual(EMAIL_TAKEN);
  expect(await accounts()).toBe(before);
  h.clock.advance(61_000);
  expect(await h.call(sendEmailCode, { email: 'CUSTOMER1@example.com' })).toEqual(EMAIL_TAKEN);

  // Full-width letters are the same name once composed (NFKC): no look-alike of a registered address.
  await registerByEmail(h, 'customer2@example.com');
  h.clock.advance(61_000);
  expect(await h.call(sendEmailCode, { email: 'ｃｕｓｔｏｍｅｒ２@example.com' })).toEqual(EMAIL_TAKEN);
  expect(await accounts()).toBe(before + 1);

  // The database refuses it too, for a writer that skipped the rule (or raced it).
  const inserted = await legacyAccount('CUSTOMER2@example.com').catch((error: unknown) => error);
  expect(isUniqueViolation(inserted)).toBe(true);
});

it("another spelling of an account's e-mail domain is that e-mail: taken, though the username is a phone", async () => {
  const { token } = await registerByPhone(h);
  const id = await userIdOf(h, token);
  await h.database.db.update(users).set({ email: 'somchai@example.co.th' }).where(eq(users.id, id));
  const before = await accounts();
  // Full-width letters and stops as a Chinese or Japanese keyboard types them, and the ideographic full stop: IDNA
  // reads each domain as example.co.th, so a code would reach the same mailbox.
  for (const typed of ['somchai@ｅxample.co.th', 'somchai＠ｅｘａｍｐｌｅ．ｃｏ．ｔｈ', 'somchai@example。co。th']) {
    h.clock.advance(61_000);
    expect(await h.call(sendEmailCode, { email: typed })).toEqual(EMAIL_TAKEN);
  }
  // A domain's letters and its ASCII form (Punycode) are one domain.
  await h.database.db.update(users).set({ email: 'somchai@bücher.de' }).where(eq(users.id, id));
  for (const typed of ['somchai@xn--bcher-kva.de', 'somchai@XN--BCHER-KVA.DE']) {
    h.clock.advance(61_000);
    expect(await h.call(sendEmailCode, { email: typed })).toEqual(EMAIL_TAKEN);
  }
  expect(await accounts()).toBe(before);
  expect(h.sent.filter((message) => message.target.startsWith('somchai'))).toEqual([]);
});

it('addresses kept before domains were read as IDNA are rewritten once, and found as typed now', async () => {
  const { token } = await registerByPhone(h);
  const byPhone = await userIdOf(h, token);
  await h.database.db.update(users).set({ email: 'niran@\u0e01\u0e33.th' }).where(eq(users.id, byPhone));
  const byEmail = await legacyAccount('somsak@ｅxample.com');
  await h.database.db.update(users).set({ email: 'somsak@ｅxample.com' }).where(eq(users.id, byEmail));
  // One whose canonical spelling another account holds is left as it is.
  await registerByEmail(h, 'malee@example.com');
  const alike = await legacyAccount('malee-legacy');
  await h.database.db.update(users).set({ email: 'malee@ｅxample.com' }).where(eq(users.id, alike));
  // One kept in its domain's ASCII form (Punycode).
  const byAscii = await legacyAccount('lek@xn--bcher-kva.de');
  await h.database.db.update(users).set({ email: 'lek@xn--bcher-kva.de' }).where(eq(users.id, byAscii));

  expect(await storeEmailsCanonical(h.database.db)).toBe(3);
  const emailOf = async (id: number) =>
    (
      await h.database.db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, id))
    )[0];
  expect(await emailOf(byPhone)).toEqual({
    email: 'niran@\u0e01\u0e4d\u0e32.th',
    username: expect.stringMatching(/^\+66/),
  });
  expect(await emailOf(byEmail)).toEqual({ email: 'somsak@example.com', username: 'somsak@example.com' });
  expect(await emailOf(alike)).toEqual({ email: 'malee@ｅxample.com', username: 'malee-legacy' });
  expect(await emailOf(byAscii)).toEqual({ email: 'lek@bücher.de', username: 'lek@bücher.de' });
  expect(await storeEmailsCanonical(h.database.db)).toBe(0);

  // A reset's code is sent to each as typed in either spelling, and each signs in by its address.
  for (const typed of ['niran@\u0e01\u0e33.th', 'somsak@ｅxample.com', 'somsak@example.com']) {
    h.clock.advance(61_000);
    expect((await h.call(sendEmailCode, { email: typed, must: '1' })).ret).toBe(1);
  }
  expect(await userIdOf(h, (await tryLogin('niran@\u0e01\u0e33.th', PASSWORD)).data!.token)).toBe(byPhone);
  expect(await userIdOf(h, (await tryLogin('SOMSAK@example.com', PASSWORD)).data!.token)).toBe(byEmail);
  for (const typed of ['lek@bücher.de', 'lek@xn--bcher-kva.de'])
    expect(await userIdOf(h, (await tryLogin(typed, PASSWORD)).data!.token)).toBe(byAscii);
});

it("a new e-mail that is another account's username in another case is refused, the username unchanged", async () => {
  const { email, token } = await registerByEmail(h);
  // The application's rule refuses it, not only the index (which a database with legacy duplicates lacks).
  await h.database.db.execute(sql`drop index users_username_key_idx`);
  const typed = 'frank@example.com';
  h.clock.advance(61_000);
  expect((await h.call(sendEmailCode, { email: typed })).ret).toBe(1);
  await legacyAccount('Frank@Example.com');
  expect(await h.call(editProfile, { email: typed, code: h.codeFor(typed), password: PASSWORD }, { token })).toEqual(
    EMAIL_TAKEN,
  );
  expect((await h.call(userInfo, {}, { token })).data).toMatchObject({ username: email, email });
  await applyMigration();
  expect(await indexExists()).toBe(true);
});

it('a username typed in another case signs in that account, which shows its name as registered', async () => {
  const id = await legacyAccount('Demo_Trader');
  for (const typed of ['Demo_Trader', 'demo_trader', 'DEMO_TRADER', 'ｄｅｍｏ＿ｔｒａｄｅｒ']) {
    const res = await tryLogin(typed, PASSWORD);
    expect(res).toEqual(signedIn);
    expect(await userIdOf(h, res.data!.token)).toBe(id);
  }
  const res = await tryLogin('DEMO_TRADER', PASSWORD);
  expect((await h.call(userInfo, {}, { token: res.data!.token })).data!.username).toBe('Demo_Trader');
  expect(await tryLogin('DEMO_TRADER', 'wrong123')).toEqual(WRONG);
});

it('the login limits count a name as one whatever its case: casing multiplies no attempts', async () => {
  await legacyAccount('Casey_Jones');
  for (const typed of ['casey_jones', 'CASEY_JONES', 'Casey_Jones', 'cAsEy_JoNeS', 'ｃａｓｅｙ_ｊｏｎｅｓ'])
    expect(await tryLogin(typed, 'guess123', GUESSER)).toEqual(WRONG);
  expect(await tryLogin('CASEY_JONES', PASSWORD, GUESSER)).toEqual(lockedFor('15 minutes'));
  // A name no account has: its casings and widths are one name too.
  for (let i = 0; i < 5; i++) expect(await tryLogin('nobody_here', `guess${i}00`, GUESSER)).toEqual(WRONG);
  expect(await tryLogin('ＮＯＢＯＤＹ_ＨＥＲＥ', PASSWORD, GUESSER)).toEqual(lockedFor('15 minutes'));
});

it("a closed account's username rests in any case, as its phone and e-mail do", async () => {
  await legacyAccount('Erin@Example.com');
  const { data } = await tryLogin('erin@example.com', PASSWORD);
  expect(await h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD }, { token: data!.token })).toMatchObject({
    ret: 1,
  });
  h.clock.advance(61_000);
  expect(await h.call(sendEmailCode, { email: 'erin@example.com' })).toEqual(
    refused(
      `This mobile number or e-mail address belonged to a closed account. It can register again ${CONTACT_REUSE_DAYS} days after the closure.`,
    ),
  );
});

it('legacy accounts differing only by case: the exact name wins, the migration leaves them, new ones are refused', async () => {
  await h.database.db.execute(sql`drop index users_username_key_idx`);
  const upper = await legacyAccount('Customer3@Example.com', 'upper123');
  const lower = await legacyAccount('customer3@example.com', 'lower123');
  const signedInAs = async (typed: string, password: string) => {
    const res = await tryLogin(typed, password);
    expect(res).toEqual(signedIn);
    return userIdOf(h, res.data!.token);
  };
  expect(await signedInAs('Customer3@Example.com', 'upper123')).toBe(upper);
  expect(await signedInAs('customer3@example.com', 'lower123')).toBe(lower);
  // Neither typed exactly: the older account.
  expect(await signedInAs('CUSTOMER3@EXAMPLE.COM', 'upper123')).toBe(upper);
  expect(await tryLogin('Customer3@Example.com', 'lower123')).toEqual(WRONG);

  // The migration does not fail on them, renames nothing and leaves the index out …
  await applyMigration();
  expect(await indexExists()).toBe(false);
  // The server's start names them in its log.
  expect(await usernamesAlike(h.database.db)).toEqual([[upper, lower]]);
  const names = await h.database.db.select({ username: users.username }).from(users);
  expect(names.map((row) => row.username)).toEqual(
    expect.arrayContaining(['Customer3@Example.com', 'customer3@example.com']),
  );
  // … while the application's rule still refuses a third.
  h.clock.advance(61_000);
  expect(await h.call(sendEmailCode, { email: 'CUSTOMER3@example.com' })).toEqual(EMAIL_TAKEN);

  // Once the pair is resolved, the same migration adds the index.
  await h.database.db.update(users).set({ username: 'customer3_old@example.com' }).where(eq(users.id, upper));
  await applyMigration();
  expect(await indexExists()).toBe(true);
  expect(await usernamesAlike(h.database.db)).toEqual([]);
});

it("the console's customer search finds a name in any case or width, as login does, typed wildcards matching themselves", async () => {
  const reviewer = await operatorToken(h, 'rita', 'reviewer');
  const found = async (query: string) => {
    const answer = await h.call(consoleFindCustomers, { query }, { token: reviewer });
    expect(answer, query).toMatchObject({ ret: 1 });
    return answer.data.map((customer) => customer.username);
  };
  await registerByEmail(h, 'zoe@example.com');
  await legacyAccount('Zed_Legacy');
  for (const typed of ['zoe', 'ZOE', 'ｚｏｅ', 'Ｚｏｅ@Ｅｘａｍｐｌｅ.'])
    expect(await found(typed), typed).toEqual(['zoe@example.com']);
  // Shown as registered.
  for (const typed of ['zed_', 'ZED_LEG', 'ｚｅｄ＿ｌｅｇａｃｙ'])
    expect(await found(typed), typed).toEqual(['Zed_Legacy']);
  // "_" and "%", typed or made by the fold from their full-width forms, are themselves, not LIKE's wildcards.
  for (const typed of ['z_', 'z＿', 'z%', 'ｚ％', '％', '\\', '＼']) expect(await found(typed), typed).toEqual([]);

  // Beyond ASCII the letter case folds as the engine folds it (decision 0009): the search agrees with login there too.
  await legacyAccount('Émile_Legacy');
  for (const typed of ['Émile_Legacy', 'ÉMILE_LEGACY', 'émile_legacy']) {
    const loginFinds = (await tryLogin(typed, PASSWORD)).ret === 1;
    expect(await found(typed), typed).toEqual(loginFinds ? ['Émile_Legacy'] : []);
  }
});
