// Guessing at an operator's sign-in locks the guesser, never the operator (src/console/README.md): per name and
// address five wrong passwords or codes lock that address out of that name for 15 minutes; from all addresses a delay
// that doubles slows the name, but not at an address the operator signed in from lately. Every refused sign-in is an
// audit entry, and a name no operator has writes no text of the guesser's into the log. A name is read as customers'
// names are (any letter case or compatibility form is one name): it signs in, and counts, as the operator's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { lockedFor, refused } from './helpers.ts';
import { codeFrom, enrolled, type Enrolled } from './console-helpers.ts';
import { consoleSignIn } from '../../src/api-contract/console.ts';
import { auditLog } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const WRONG = refused('The operator name or the password is wrong!');
const WRONG_CODE = refused('The authenticator code is wrong!');
// Five wrong 30 s apart, then the next 30 s later: 12.5 of the lock's 15 minutes are left, said rounded up.
const LOCKED = lockedFor('13 minutes');
const MINUTE = 60_000;
const OPERATOR_HOME = '198.51.100.20';
const GUESSER = '203.0.113.77';
const signedIn = expect.objectContaining({ ret: 1 });

/** One sign-in at the clock's next 30-second step (a code is used once), with the operator's current code unless
 * another is given. */
function attempt(operator: Enrolled, password: string, ip: string, code = codeFrom(operator.uri, h, 1)) {
  h.clock.advance(30_000);
  return h.call(consoleSignIn, { name: operator.name, password, code }, { ip });
}
const entries = (target: string) =>
  h.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.target, target), like(auditLog.action, 'operator.sign-in.%')))
    .orderBy(auditLog.id);

it('five wrong passwords from one address lock that address, while the operator elsewhere signs in', async () => {
  const reviewer1 = await enrolled(h, 'reviewer1', 'reviewer');
  for (let i = 0; i < 5; i++) expect(await attempt(reviewer1, `guess ${i}`, GUESSER)).toEqual(WRONG);
  // The guesser is locked even with the right password and code …
  expect(await attempt(reviewer1, reviewer1.password, GUESSER)).toEqual(LOCKED);
  // … reviewer1, at another address, is not.
  expect(await attempt(reviewer1, reviewer1.password, OPERATOR_HOME)).toEqual(signedIn);

  h.clock.advance(15 * MINUTE);
  expect(await attempt(reviewer1, 'guess 5', GUESSER)).toEqual(WRONG);

  // Each refusal is one audit entry under reviewer1's name with the guesser's address; the sign-in too.
  const refusals = await entries('operator:reviewer1');
  expect(refusals.map((entry) => [entry.action, entry.operator, entry.address])).toEqual([
    ...Array(5).fill(['operator.sign-in.failed', 'reviewer1', GUESSER]),
    ['operator.sign-in.locked', 'reviewer1', GUESSER],
    ['operator.sign-in.failed', 'reviewer1', GUESSER],
  ]);
  expect(refusals[0]!.after).toEqual({ name: 'reviewer1', wrong: 'password' });
  const [signIn] = await h.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'console.sign-in'), eq(auditLog.target, 'operator:reviewer1')));
  expect(signIn).toMatchObject({ operator: 'reviewer1', address: OPERATOR_HOME });
});

it('wrong codes after the right password count against that address too, not against the operator', async () => {
  const reviewer2 = await enrolled(h, 'reviewer2', 'reviewer');
  for (let i = 0; i < 5; i++)
    expect(await attempt(reviewer2, reviewer2.password, GUESSER, '000000')).toEqual(WRONG_CODE);
  expect(await attempt(reviewer2, reviewer2.password, GUESSER)).toEqual(LOCKED);
  expect(await attempt(reviewer2, reviewer2.password, OPERATOR_HOME)).toEqual(signedIn);
  const refusals = await entries('operator:reviewer2');
  expect(refusals.map((entry) => entry.action)).toEqual([
    ...Array(5).fill('operator.sign-in.failed'),
    'operator.sign-in.locked',
  ]);
  expect(refusals[0]!.after).toEqual({ name: 'reviewer2', wrong: 'code' });
});

it('guesses from many addresses are slowed by a growing delay that does not hold where the operator signs in', async () => {
  const reviewer3 = await enrolled(h, 'reviewer3', 'reviewer');
  // Reviewer3 signed in at their desk before the attack.
  expect(await attempt(reviewer3, reviewer3.password, OPERATOR_HOME)).toEqual(signedIn);
  let next = 0;
  const stranger = () => `192.0.2.${++next}`;
  for (let i = 0; i < 20; i++) expect(await attempt(reviewer3, `guess ${i}`, stranger())).toEqual(WRONG);
  // Each attempt now waits 30 s from the latest wrong one: 29 s after it (attempt() moves the clock 30 s), 1 s left …
  h.clock.advance(-1000);
  expect(await attempt(reviewer3, reviewer3.password, stranger())).toEqual(lockedFor('1 second'));
  // … not at Reviewer3's desk.
  expect(await attempt(reviewer3, reviewer3.password, OPERATOR_HOME)).toEqual(signedIn);
  // Past the 30 s, a guess is tried again; the next wait is 60 s, 30 s of it left at the next attempt.
  expect(await attempt(reviewer3, 'guess 20', stranger())).toEqual(WRONG);
  expect(await attempt(reviewer3, reviewer3.password, stranger())).toEqual(lockedFor('30 seconds'));
  h.clock.advance(30_000);
  expect(await attempt(reviewer3, 'guess 21', stranger())).toEqual(WRONG);
  expect(
    (await entries('operator:reviewer3')).filter((entry) => entry.action === 'operator.sign-in.locked'),
  ).toHaveLength(2);
});

it('an IPv6 guesser is one address per /64 network', async () => {
  const reviewer4 = await enrolled(h, 'reviewer4', 'reviewer');
  for (let i = 0; i < 5; i++) expect(await attempt(reviewer4, `guess ${i}`, `2001:db8:1:2::${i + 1}`)).toEqual(WRONG);
  expect(await attempt(reviewer4, reviewer4.password, '2001:db8:1:2:ffff::9')).toEqual(LOCKED);
  expect(await attempt(reviewer4, reviewer4.password, '2001:db8:1:3::1')).toEqual(signedIn);
});

it('a name no operator has is refused and locked alike, and leaves only a well-formed name in the log', async () => {
  const ghost = { name: 'ghost', role: 'reviewer' as const, password: 'whatever', uri: 'otpauth://totp/x?secret=AAAA' };
  for (let i = 0; i < 5; i++) expect(await attempt(ghost, `guess ${i}`, GUESSER)).toEqual(WRONG);
  expect(await attempt(ghost, 'guess 5', GUESSER)).toEqual(LOCKED);
  const hostile = { ...ghost, name: `<script>${'x'.repeat(5000)}` };
  expect(await attempt(hostile, 'guess', GUESSER)).toEqual(WRONG);

  const unknown = await entries('operator:-');
  expect(unknown.map((entry) => [entry.action, entry.operator, entry.after])).toEqual([
    ...Array(5).fill(['operator.sign-in.failed', '-', { name: 'ghost', wrong: 'password' }]),
    ['operator.sign-in.locked', '-', { name: 'ghost', wrong: null }],
    ['operator.sign-in.failed', '-', { name: null, wrong: 'password' }],
  ]);
  expect(JSON.stringify(unknown)).not.toContain('script');
});

it("an operator's name in another case or width signs in as that operator and counts on that name's limits", async () => {
  const erin = await enrolled(h, 'erin', 'reviewer');
  const typedAs = (name: string) => ({ ...erin, name });
  // Every spelling is one name: five wrong guesses among them lock the guesser's address out of erin.
  for (const name of ['ＥＲＩＮ', 'ｅｒｉｎ', 'Erin', 'ERIN', 'erin'])
    expect(await attempt(typedAs(name), 'guess', GUESSER)).toEqual(WRONG);
  expect(await attempt(erin, erin.password, GUESSER)).toEqual(LOCKED);
  // The operator, typing it with a full-width keyboard or in capitals, signs in as erin.
  for (const name of ['ｅｒｉｎ', 'Erin'])
    expect(await attempt(typedAs(name), erin.password, OPERATOR_HOME)).toMatchObject({
      ret: 1,
      data: { operator: { name: 'erin' } },
    });
  expect((await entries('operator:erin')).map((entry) => entry.action)).toEqual([
    ...Array(5).fill('operator.sign-in.failed'),
    'operator.sign-in.locked',
  ]);
});
