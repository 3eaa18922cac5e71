// Closing an account and the data export (api-contract/closure.ts): the export holds the caller's data only, as JSON
// and CSV (formula cells defused), the document pictures only when asked; closing is refused while a balance or an
// order is open, and with a wrong password; a closed account signs in no more, answering what an unknown account is
// answered, its phone registers again only after the stated period, and the books still balance.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import { and, eq, inArray } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import {
  PASSWORD,
  PAYPASS,
  customer,
  expectLedgerBalanced,
  grant,
  refused,
  registerByPhone,
  TOKEN_EXPIRED,
} from './helpers.ts';
import { cryptoRecharge, uploadedPicture } from './funds-helpers.ts';
import { CONTACT_REUSE_DAYS, EXPORT_PATH, closeAccount } from '../../src/api-contract/closure.ts';
import { editProfile, login, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { practiceAccount } from '../../src/api-contract/practice.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { postMessage } from '../../src/server/domain/messages.ts';
import { readMessages } from '../../src/api-contract/messages.ts';
import {
  balances,
  closedAccounts,
  contentTranslations,
  ledgerEntries,
  messages,
  users,
} from '../../src/server/db/schema.ts';
import { POINTS } from '../../src/api-contract/rewards.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()));
afterAll(() => h.close());

const DAY = 86_400_000;

async function exported(token: string | undefined, query = '', lang = 'en') {
  const response = await h.app.inject({
    url: EXPORT_PATH + query,
    headers: { lang, ...(token ? { token } : {}) },
  });
  return response;
}

it('exports the caller’s data only, as JSON and CSV, the pictures only when asked', async () => {
  const user = await customer(h, '100');
  const other = await customer(h, '7');
  // A nickname a spreadsheet would run as a formula.
  expect((await h.call(editProfile, { nickname: '=HYPERLINK("x")' }, { token: user.token })).ret).toBe(1);
  const image = await uploadedPicture(h, user.token);
  const certified = await h.call(
    submitCertification,
    { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
    { token: user.token },
  );
  expect(certified.ret).toBe(1);

  const response = await exported(user.token);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/zip');
  expect(response.headers['content-disposition']).toMatch(/^attachment; filename="account-data-\d{4}-\d\d-\d\d\.zip"$/);
  const files = unzipSync(new Uint8Array(response.rawPayload));
  const names = Object.keys(files).sort();
  for (const part of [
    'profile',
    'ledger',
    'options',
    'contracts',
    'recharges',
    'withdrawals',
    'messages',
    'sessions',
    'certifications',
  ])
    expect(names).toEqual(expect.arrayContaining([`${part}.json`, `${part}.csv`]));
  expect(names).toContain('README.txt');
  expect(names.some((name) => name.startsWith('documents/'))).toBe(false);

  const json = (name: string) => JSON.parse(strFromU8(files[name]!));
  expect(json('profile.json')).toEqual([expect.objectContaining({ phone: user.phone, nickname: '=HYPERLINK("x")' })]);
  const ledger = json('ledger.json') as { amount: string; asset: string }[];
  expect(ledger).toEqual([expect.objectContaining({ asset: 'USDT', amount: '100.00000000' })]);
  expect(json('certifications.json')).toEqual([
    expect.objectContaining({ name: 'Somchai Jaidee', images: { front: image } }),
  ]);
  expect(json('sessions.json')).toHaveLength(1);
  const profileCsv = strFromU8(files['profile.csv']!);
  expect([...files['profile.csv']!.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM
  expect(profileCsv).toContain(`"'=HYPERLINK(""x"")"`);
  expect(strFromU8(files['ledger.csv']!)).toContain('"100.00000000"');
  // Nothing of the other customer, and no secret of anyone.
  const everything = names.map((name) => strFromU8(files[name]!)).join('\n');
  expect(everything).not.toContain(other.phone);
  expect(everything).not.toContain('7.00000000');
  expect(everything).not.toMatch(/password_hash|paypass_hash|token_hash|\$argon2/);

  const withPictures = unzipSync(new Uint8Array((await exported(user.token, '?documents=1')).rawPayload));
  const pictures = Object.keys(withPictures).filter((name) => name.startsWith('documents/'));
  expect(pictures).toEqual([`documents/${json('certifications.json')[0].id}-front.png`]);
  expect(withPictures[pictures[0]!]!.slice(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));

  // Station messages in the language the export is asked in (the app's), English where a message has none in it.
  await postMessage(
    h.database.db,
    {
      to: user.id,
      title: 'Your bonus',
      content: 'Deposit today.',
      versions: { th: { title: 'โบนัสของคุณ', content: 'ฝากวันนี้' } },
    },
    h.clock.now(),
  );
  // A broadcast is in the customer's inbox too, with when they read it.
  const broadcast = await postMessage(
    h.database.db,
    { to: null, title: 'Maintenance tonight', content: 'Trading pauses at 02:00 UTC.' },
    h.clock.now(),
  );
  expect((await h.call(readMessages, { ids: String(broadcast.id) }, { token: user.token })).ret).toBe(1);
  const archiveIn = async (lang: string) =>
    unzipSync(new Uint8Array((await exported(user.token, '', lang)).rawPayload));
  const stationIn = async (lang: string) => {
    const rows = JSON.parse(strFromU8((await archiveIn(lang))['messages.json']!)) as Record<string, string | null>[];
    return rows.filter((row) => row.kind === 'station').map(({ to, title, body }) => ({ to, title, body }));
  };
  expect(await stationIn('th')).toContainEqual({ to: 'you', title: 'โบนัสของคุณ', body: 'ฝากวันนี้' });
  expect(await stationIn('en')).toContainEqual({ to: 'you', title: 'Your bonus', body: 'Deposit today.' });
  expect(await stationIn('hi')).toContainEqual({ to: 'you', title: 'Your bonus', body: 'Deposit today.' });
  const rows = JSON.parse(strFromU8((await archiveIn('en'))['messages.json']!)) as Record<string, string | null>[];
  expect(rows.find((row) => Number(row.id) === broadcast.id)).toMatchObject({
    to: 'everyone',
    title: 'Maintenance tonight',
    read_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  expect(rows.find((row) => row.title === 'Your bonus')).toMatchObject({ read_at: null });
  // The CSV leaves a column a row does not have empty (a station message has no picture, a chat line no read time).
  expect(strFromU8((await archiveIn('en'))['messages.csv']!)).not.toContain('undefined');

  // Without a live session: the envelope every call answers.
  const anonymous = await exported(undefined);
  expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
  expect(anonymous.json()).toEqual(TOKEN_EXPIRED);
});

it('refuses to close while a balance or an order is open, or with a wrong password', async () => {
  const user = await customer(h, '100');
  const close = (fields: Record<string, string>) => h.call(closeAccount, fields, { token: user.token });
  // Practice money does not hold the closure; real money does.
  expect((await h.call(practiceAccount, {}, { token: user.token })).ret).toBe(1);
  expect(await close({ secret_kind: 'login', secret: PASSWORD })).toEqual(
    refused(
      'Your account still holds USDT. Every balance, frozen ones included, must be zero before closing, apart from amounts too small to withdraw or sell.',
    ),
  );
  await grant(h, user.id, '-100');
  const order = await cryptoRecharge(h, user.token, '50');
  expect(order.status).toBe('pending');
  expect(await close({ secret_kind: 'pay', secret: PAYPASS })).toEqual(refused(serverTexts.closeRechargeOpen.message));
  expect(await close({ secret_kind: 'login', secret: 'wrong123' })).toEqual(refused('The login password is wrong!'));
  expect(await close({ secret_kind: 'pay', secret: '000000' })).toEqual(refused(serverTexts.wrongPayPassword.message));
  expect(await h.database.db.select().from(closedAccounts).where(eq(closedAccounts.userId, user.id))).toEqual([]);
  expect((await h.call(userInfo, {}, { token: user.token })).ret).toBe(1);
});

it('ends points too few to redeem with the account, in an entry of their own; refuses points enough to redeem', async () => {
  const user = await customer(h);
  const close = () => h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD }, { token: user.token });
  const pointsHeld = async () =>
    (await h.database.db.select().from(balances).where(eq(balances.userId, user.id))).find(
      (row) => row.asset === POINTS,
    );
  // At the redemption minimum (100 points) and above, the points can be redeemed: closing says so and waits.
  await grant(h, user.id, '100', POINTS);
  expect(await close()).toEqual(
    refused(
      'Your account still holds 100 points, enough to redeem (at least 100 at a time). Redeem them before closing.',
    ),
  );
  await grant(h, user.id, '-95', POINTS);
  // Money that can be withdrawn (at least the 10 USDT minimum and its 1 % fee) still holds the closure, points below
  // the minimum or not (an amount below it ends with the account instead: closure-balances.test.ts).
  await grant(h, user.id, '10.1');
  expect(await close()).toEqual(
    refused(
      'Your account still holds USDT. Every balance, frozen ones included, must be zero before closing, apart from amounts too small to withdraw or sell.',
    ),
  );
  await grant(h, user.id, '-10.1');
  expect(await h.database.db.select().from(closedAccounts).where(eq(closedAccounts.userId, user.id))).toEqual([]);
  expect((await pointsHeld())?.available).toBe('5.00000000');

  // 5 points, below the minimum: they could never be redeemed, so they end with the account.
  expect((await close()).ret).toBe(1);
  const pointEntries = await h.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.asset, POINTS)))
    .orderBy(ledgerEntries.seq);
  expect(pointEntries.map(({ kind, amount, reference, bucket }) => ({ kind, amount, reference, bucket }))).toEqual([
    { kind: 'test_credit', amount: '100.00000000', reference: expect.any(String), bucket: 'available' },
    { kind: 'test_credit', amount: '-95.00000000', reference: expect.any(String), bucket: 'available' },
    { kind: 'points_closure', amount: '-5.00000000', reference: `closure:${user.id}`, bucket: 'available' },
  ]);
  expect(await pointsHeld()).toMatchObject({ available: '0.00000000', frozen: '0.00000000' });
  await expectLedgerBalanced(h);
});

it('closes: the account signs in no more, its records stay, its phone rests for the stated period', async () => {
  const user = await customer(h, '25');
  await grant(h, user.id, '-25');
  // A sign-in from a new device: a security notice naming it, kept in every language.
  const signedIn = await h.call(
    login,
    { username: user.phone, password: PASSWORD },
    { headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0' } },
  );
  expect(signedIn.ret).toBe(1);
  const own = (await h.database.db.select().from(messages).where(eq(messages.userId, user.id))).map((row) =>
    String(row.id),
  );
  const versions = () =>
    h.database.db
      .select()
      .from(contentTranslations)
      .where(and(eq(contentTranslations.kind, 'message'), inArray(contentTranslations.item, own)));
  expect(own).toHaveLength(1);
  expect(await versions()).toHaveLength(5);
  const now = h.clock.now();
  const closed = await h.call(closeAccount, { secret_kind: 'login', secret: PASSWORD }, { token: user.token });
  expect(closed).toEqual({
    ret: 1,
    msg: 'Success',
    data: {
      closed_at: now.toISOString(),
      contacts_free_at: new Date(now.getTime() + CONTACT_REUSE_DAYS * DAY).toISOString(),
      kept_until: `${now.getUTCFullYear() + 5}${now.toISOString().slice(4)}`,
    },
  });
  // The session ends; the password, the phone and a code answer what an unknown account is answered.
  expect(await h.call(userInfo, {}, { token: user.token })).toEqual(TOKEN_EXPIRED);
  const unknown = await h.call(login, { username: '+66899999999', password: PASSWORD });
  expect(await h.call(login, { username: user.phone, password: PASSWORD })).toEqual(unknown);
  expect(unknown).toEqual(refused(serverTexts.wrongCredentials.message));
  expect(await h.call(login, { username: `closed:${user.id}`, password: PASSWORD })).toEqual(unknown);
  h.clock.advance(61_000);
  expect(await h.call(sendSmsCode, { userphone: user.phone, must: '1' })).toEqual(
    refused(serverTexts.accountNotFound.message),
  );
  // The phone registers again only after the period.
  expect(await h.call(sendSmsCode, { userphone: user.phone, must: '0' })).toEqual(
    refused(
      `This mobile number or e-mail address belonged to a closed account. It can register again ${CONTACT_REUSE_DAYS} days after the closure.`,
    ),
  );
  // What the law keeps: the ledger entries (the books still balance) and who the account was.
  expect(await h.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).toHaveLength(2);
  expect(await h.database.db.select().from(closedAccounts).where(eq(closedAccounts.userId, user.id))).toEqual([
    expect.objectContaining({ phone: user.phone }),
  ]);
  // The customer's messages go, and their other languages' versions with them.
  expect(await h.database.db.select().from(messages).where(eq(messages.userId, user.id))).toEqual([]);
  expect(await versions()).toEqual([]);
  const [row] = await h.database.db.select().from(users).where(eq(users.id, user.id));
  expect(row).toMatchObject({ phone: null, email: null, nickname: '', avatar: '', paypassHash: null, closedAt: now });
  await expectLedgerBalanced(h);

  h.clock.advance(CONTACT_REUSE_DAYS * DAY);
  const again = await registerByPhone(h, user.phone);
  expect(again.token).toEqual(expect.any(String));
});
