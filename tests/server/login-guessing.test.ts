// Login guessing is bounded, and the lock falls on the guesser, not on the owner (src/server/domain/SECURITY.md,
// "Login guessing"): five wrong passwords lock that address out of that account for 15 minutes; beyond 20
// wrong ones from all addresses each further attempt waits, 30 s doubling up to 15 minutes, except
// from an address the account signed in from lately.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, lockedFor, refused, registerByPhone } from './helpers.ts';
import { login } from '../../src/api-contract/account.ts';
import { accountDelayMs } from '../../src/server/domain/login-guessing.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const WRONG = refused('Wrong username or password!');
const LOCKED = lockedFor('15 minutes');
const MINUTE = 60_000;
const OWNER = '198.51.100.10';
const GUESSER = '203.0.113.66';

const tryLogin = (username: string, password: string, ip: string) => h.call(login, { username, password }, { ip });
const signedIn = expect.objectContaining({ ret: 1, msg: 'Success' });

it('five wrong passwords from one address lock that address, while the owner at another logs in', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 5; i++) expect(await tryLogin(phone, `guess${i}00`, GUESSER)).toEqual(WRONG);
  // The guesser is locked even with the right password …
  expect(await tryLogin(phone, PASSWORD, GUESSER)).toEqual(LOCKED);
  // … the owner, elsewhere, is not, even on a first visit from that address.
  expect(await tryLogin(phone, PASSWORD, OWNER)).toEqual(signedIn);
  expect(await tryLogin(phone, 'typo1234', OWNER)).toEqual(WRONG);
  expect(await tryLogin(phone, PASSWORD, OWNER)).toEqual(signedIn);

  h.clock.advance(14 * MINUTE);
  expect(await tryLogin(phone, PASSWORD, GUESSER)).toEqual(lockedFor('1 minute'));
  h.clock.advance(MINUTE + 1000);
  expect(await tryLogin(phone, 'guess500', GUESSER)).toEqual(WRONG);
});

it('a right password clears the count of the address it came from, and only that one', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 4; i++) expect(await tryLogin(phone, 'guess123', GUESSER)).toEqual(WRONG);
  for (let i = 0; i < 4; i++) expect(await tryLogin(phone, 'typo1234', OWNER)).toEqual(WRONG);
  expect(await tryLogin(phone, PASSWORD, OWNER)).toEqual(signedIn);
  // The owner's address starts again at zero: four more typos and still in.
  for (let i = 0; i < 4; i++) expect(await tryLogin(phone, 'typo1234', OWNER)).toEqual(WRONG);
  expect(await tryLogin(phone, PASSWORD, OWNER)).toEqual(signedIn);
  // The guesser's four stayed counted: the fifth locks it.
  expect(await tryLogin(phone, 'guess123', GUESSER)).toEqual(WRONG);
  expect(await tryLogin(phone, PASSWORD, GUESSER)).toEqual(LOCKED);
});

it('guesses from many addresses are slowed by a delay that doubles, and the owner at home is never held', async () => {
  const { phone } = await registerByPhone(h);
  // The owner signed in from home before the attack.
  expect(await tryLogin(phone, PASSWORD, OWNER)).toEqual(signedIn);
  let next = 0;
  const stranger = () => `192.0.2.${++next}`;
  // Twenty wrong passwords from twenty addresses (each far below its own lock) are tried at once.
  for (let i = 0; i < 20; i++) expect(await tryLogin(phone, `guess${i}00`, stranger())).toEqual(WRONG);

  // From then on each attempt waits from the latest wrong one: 30 s, then 60, 120 … up to 15 minutes.
  const waits: [number, string][] = [
    [30, '30 seconds'],
    [60, '1 minute'],
    [120, '2 minutes'],
    [240, '4 minutes'],
    [480, '8 minutes'],
    [900, '15 minutes'],
    [900, '15 minutes'],
  ];
  for (const [seconds, said] of waits) {
    // Each is told the wait from the latest wrong one: under a minute in seconds, else in whole minutes.
    expect(await tryLogin(phone, PASSWORD, stranger())).toEqual(lockedFor(said));
    h.clock.advance(seconds * 1000 - 1000);
    // Too early: not even the right password is tried, from a fresh address.
    expect(await tryLogin(phone, PASSWORD, stranger())).toEqual(lockedFor('1 second'));
    // The owner at home is not held by it.
    expect(await tryLogin(phone, PASSWORD, OWNER)).toEqual(signedIn);
    h.clock.advance(1000);
    expect(await tryLogin(phone, `guess${next}00`, stranger())).toEqual(WRONG);
  }
  // A day after the first wrong one the account's count starts again.
  h.clock.advance(24 * 60 * MINUTE);
  expect(await tryLogin(phone, PASSWORD, stranger())).toEqual(signedIn);
});

it('guesses sent at once from many addresses are tried one after another: no more than twenty before the delay', async () => {
  const { phone } = await registerByPhone(h);
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => tryLogin(phone, `guess${i}00`, `198.18.0.${i + 1}`)),
  );
  expect(answers.filter((answer) => answer.msg === WRONG.msg)).toHaveLength(20);
  // Held 30 s from the twentieth wrong one: told so in seconds, not as "1 minute".
  expect(answers.filter((answer) => answer.msg === lockedFor('30 seconds').msg)).toHaveLength(20);
});

it('an IPv6 guesser is one address per /64 network, however many addresses it draws from it', async () => {
  const { phone } = await registerByPhone(h);
  for (let i = 0; i < 5; i++) expect(await tryLogin(phone, `guess${i}00`, `2001:db8:7:7::${i + 1}`)).toEqual(WRONG);
  expect(await tryLogin(phone, PASSWORD, '2001:db8:7:7:ffff:1:2:3')).toEqual(LOCKED);
  // The next network is someone else.
  expect(await tryLogin(phone, PASSWORD, '2001:db8:7:8::1')).toEqual(signedIn);
});

it('an address locked out and held by the delay at once is told the later of the two', async () => {
  const { phone } = await registerByPhone(h);
  // Five wrong from the guesser lock it out for 15 minutes …
  for (let i = 0; i < 5; i++) expect(await tryLogin(phone, `guess${i}00`, GUESSER)).toEqual(WRONG);
  // … and from elsewhere, fifteen more a minute later, then one each time the delay allows (30 s, 60, 120, 240): 24
  // wrong in all, the last 8.5 minutes after the guesser's first, hold every new address 8 minutes from it.
  h.clock.advance(MINUTE);
  let next = 100;
  for (let i = 0; i < 15; i++) expect(await tryLogin(phone, `guess${i}00`, `192.0.2.${++next}`)).toEqual(WRONG);
  for (const seconds of [30, 60, 120, 240]) {
    h.clock.advance(seconds * 1000);
    expect(await tryLogin(phone, `guess${next}00`, `192.0.2.${++next}`)).toEqual(WRONG);
  }
  // Its own lock has 6.5 minutes left, the delay 8.
  expect(await tryLogin(phone, PASSWORD, GUESSER)).toEqual(lockedFor('8 minutes'));
  // Its own lock has ended; the delay has not.
  h.clock.advance(7 * MINUTE);
  expect(await tryLogin(phone, PASSWORD, GUESSER)).toEqual(lockedFor('1 minute'));
  h.clock.advance(MINUTE);
  expect(await tryLogin(phone, PASSWORD, GUESSER)).toEqual(signedIn);
});

it('a name no account has is locked the same way, so the answers do not tell whether it exists', async () => {
  for (let i = 0; i < 5; i++) expect(await tryLogin('nobody_here', `guess${i}00`, GUESSER)).toEqual(WRONG);
  expect(await tryLogin('NOBODY_HERE', PASSWORD, GUESSER)).toEqual(LOCKED);
  expect(await tryLogin('nobody_here', PASSWORD, OWNER)).toEqual(WRONG);
});

it('the delay after n wrong passwords from all addresses', () => {
  expect([0, 19, 20, 21, 22, 24, 25, 26, 1000].map(accountDelayMs)).toEqual([
    0, 0, 30_000, 60_000, 120_000, 480_000, 900_000, 900_000, 900_000,
  ]);
});
