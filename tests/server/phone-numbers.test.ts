// One handset, one account: every way a person writes a mobile number (national, without the 0, with 66, +66 with
// spaces, in the digits of each of the six languages) is the same E.164 number in registration, login, codes and
// their limits, password reset, change of phone, the SMS `To` and the console's search. Numbers stored before numbers
// were canonical are brought to E.164, and accounts sharing a handset are listed for operators, never merged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getExampleNumber } from 'libphonenumber-js/mobile';
import examples from 'libphonenumber-js/mobile/examples';
import { startHarness, type Harness } from './harness.ts';
import { operatorToken } from './console-helpers.ts';
import { PASSWORD, PAYPASS, dbState, lockedFor, refused, registerByPhone } from './helpers.ts';
import { editProfile, forgotPassword, login, register, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { consoleFindCustomers, consolePhoneDuplicates } from '../../src/api-contract/console.ts';
import { balances, phoneDuplicates, users } from '../../src/server/db/schema.ts';
import { hashSecret } from '../../src/server/domain/accounts.ts';
import { bringPhonesToE164 } from '../../src/server/domain/phone-duplicates.ts';
import { canonicalMobile, phonePrefixes } from '../../src/server/domain/phone-numbers.ts';
import { smsTo } from '../../src/server/delivery/sms.ts';
import { PHONE } from '../../src/api-contract/fields.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';

const INVALID = 'Please enter a valid mobile number!';
const TAKEN = 'This mobile number is already registered!';

/** The zero of each digit system the six languages type numbers in. */
const DIGITS = {
  ascii: 0x30,
  'Arabic-Indic (ar)': 0x0660,
  'Extended Arabic-Indic': 0x06f0,
  'Devanagari (hi)': 0x0966,
  'Thai (th)': 0x0e50,
  'full-width (zh, jp)': 0xff10,
} as const;
const inDigits = (text: string, zero: number) =>
  text.replace(/[0-9]/g, (digit) => String.fromCodePoint(zero + Number(digit)));

/** Every way of writing the Thai mobile 0 8a bcd efgh (`national` = '8abcdefgh') that must reach one handset. */
function spellings(national: string): [string, string][] {
  const [a, b, c] = [national.slice(0, 2), national.slice(2, 5), national.slice(5)];
  return [
    ['national, with its 0', `0${national}`],
    ['without the 0', national],
    ['with 66', `66${national}`],
    ['+66 with spaces', `+66 ${a} ${b} ${c}`],
    ['E.164', `+66${national}`],
    ['national with dashes', `0${a}-${b}-${c}`],
    ['with the (0) kept', `+66 (0)${a} ${b} ${c}`],
    ['with +66 in brackets, as a business card prints it', `(+66) ${a}-${b}-${c}`],
    ['by the Thai international prefix', `001 66 ${national}`],
    ['by the international prefix of most countries', `0066 ${national}`],
    ['by 00 without a space', `0066${national}`],
    // What a Japanese or Chinese keyboard types for a dash or a bracket in full-width mode.
    ['with full-width hyphens', `0${a}\uff0d${b}\uff0d${c}`],
    ['with the katakana prolonged sound mark as dashes', `0${a}\u30fc${b}\u30fc${c}`],
    ['with full-width brackets and an ideographic space', `\uff0b66\u3000\uff080\uff09${a} ${b} ${c}`],
    ['by 00 with full-width hyphens', `0066\uff0d${a}\uff0d${b}\uff0d${c}`],
    // The spaces a page or a document sets between a number's groups, pasted with it.
    ['with thin spaces', `0${a}\u2009${b}\u2009${c}`],
    ['+66 with narrow no-break spaces', `+66\u202f${a}\u202f${b}\u202f${c}`],
    ...Object.entries(DIGITS)
      .filter(([name]) => name !== 'ascii')
      .map(([name, zero]): [string, string] => [`in ${name} digits`, inDigits(`0${national}`, zero)]),
    [
      '+66 in full-width digits with a full-width plus',
      `＋${inDigits(`66${national}`, DIGITS['full-width (zh, jp)'])}`,
    ],
  ];
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A Thai mobile number (national significant number, 9 digits) no other test of the file uses. */
let next = 0;
const newNational = () => `9${String(10_000_000 + ++next * 7919)}`;

describe("libphonenumber's Thai numbers", () => {
  const example = getExampleNumber('TH', examples)!;
  it.each([
    ["libphonenumber's example Thai mobile", `0${example.nationalNumber}`],
    ['a mobile of 08x', '0812345678'],
    ['a mobile of 09x', '0912345678'],
    ['a mobile of 06x', '0612345678'],
  ])('%s is a mobile number, stored in E.164', (_, typed) => {
    expect(canonicalMobile(typed)).toBe(`+66${typed.slice(1)}`);
  });

  // Codes go out by SMS: a number that cannot receive one is refused where it is typed.
  it.each([
    ['a Bangkok fixed line (libphonenumber: 02 123 4567)', '021234567'],
    ['a provincial fixed line (053 123 456)', '053123456'],
    ['a toll-free number (1800 123 456)', '1800123456'],
    ['a premium-rate number (1900 123 456)', '1900123456'],
    ['a mobile with a digit too many', '08123456789'],
    ['a mobile with a digit too few', '081234567'],
  ])('%s is refused as no mobile number', async (_, typed) => {
    expect(canonicalMobile(typed)).toBeNull();
    const before = await dbState(h);
    expect(await h.call(sendSmsCode, { userphone: typed })).toEqual(refused(INVALID));
    expect(await dbState(h)).toEqual(before);
  });

  it("another country's mobile number is taken when written with its own code", () => {
    expect(canonicalMobile('+44 7400 123456')).toBe('+447400123456');
    expect(canonicalMobile('+91 98765 43210')).toBe('+919876543210');
    // Without its code it is read as Thai, where it is no number.
    expect(canonicalMobile('07400123456')).toBeNull();
    // After 00, the international prefix of most countries, as after +.
    expect(canonicalMobile('0044 7400 123456')).toBe('+447400123456');
    expect(canonicalMobile('00 91 98765 43210')).toBe('+919876543210');
    expect(canonicalMobile('0044 20 7946 0000')).toBeNull(); // a London fixed line
    // A Japanese mobile as a Japanese keyboard types it in full-width mode.
    expect(
      canonicalMobile('\uff0b\uff18\uff11 \uff19\uff10\uff0d\uff11\uff12\uff13\uff14\uff0d\uff15\uff16\uff17\uff18'),
    ).toBe('+819012345678');
  });

  // Every separator the phone fields' shape lets through (PHONE_SEPARATORS) is read as one: none is refused afterwards.
  it.each([
    ['a thin space', '\u2009'],
    ['a narrow no-break space', '\u202f'],
    ['an en space', '\u2002'],
    ['a hair space', '\u200a'],
    ['a medium mathematical space', '\u205f'],
    ['an Ogham space mark', '\u1680'],
    ['a tab', '\t'],
    ['a tilde', '~'],
    ['a full-width tilde', '\uff5e'],
  ])('reads a number with %s between its groups as one written with spaces', (_, separator) => {
    const typed = ['081', '234', '5678'].join(separator);
    expect(PHONE.test(typed)).toBe(true);
    expect(canonicalMobile(typed)).toBe('+66812345678');
  });

  it.each(Object.entries(DIGITS))('reads a number written in %s digits', (_, zero) => {
    expect(canonicalMobile(inDigits('081 234 5678', zero))).toBe('+66812345678');
    expect(canonicalMobile(inDigits('+66 81 234 5678', zero))).toBe('+66812345678');
  });
});

describe('one handset, one account, however the number is written', () => {
  it('registers with one spelling; every other is taken, logs in, resets the password and gets the code at one To', async () => {
    const national = newNational();
    const e164 = `+66${national}`;
    const all = spellings(national);
    // Registered as a Thai customer types it into the field behind "+66".
    const { token } = await registerByPhone(h, `0${national}`);
    expect((await h.call(userInfo, {}, { token })).data).toMatchObject({ username: e164, phone: e164 });
    expect(h.sent.at(-1)).toMatchObject({ channel: 'sms', target: e164 });

    h.clock.advance(61_000);
    const before = await dbState(h);
    for (const [name, typed] of all) {
      expect(await h.call(sendSmsCode, { userphone: typed }), name).toEqual(refused(TAKEN));
      const again = { mode: 'phone', phone: typed, code: '123456', password: 'other123', paypass: '111111' };
      expect(await h.call(register, { ...again, currency: 'THB' }), name).toEqual(refused(TAKEN));
    }
    expect(await dbState(h)).toEqual(before);

    for (const [name, typed] of all)
      expect(await h.call(login, { username: typed, password: PASSWORD }), name).toMatchObject({ ret: 1 });

    // A reset code asked by each spelling goes to the one number, counted against its one resend wait.
    const [[, first], [, second]] = all;
    const sentBefore = h.sent.length;
    expect(await h.call(sendSmsCode, { userphone: first!, must: '1' })).toMatchObject({ ret: 1 });
    expect(await h.call(sendSmsCode, { userphone: second!, must: '1' })).toEqual(
      refused('Please wait 1 minute before requesting another code!'),
    );
    expect(h.sent.slice(sentBefore)).toMatchObject([{ channel: 'sms', target: e164 }]);

    let password = PASSWORD;
    for (const [name, typed] of all) {
      // A day apart: the handset's ten codes a day are counted for all its spellings together.
      h.clock.advance(24 * 3_600_000 + 61_000);
      expect(await h.call(sendSmsCode, { userphone: typed, must: '1' }), name).toMatchObject({ ret: 1 });
      expect(h.sent.at(-1), name).toMatchObject({ channel: 'sms', target: e164 });
      const fresh = `reset${all.findIndex(([other]) => other === name)}x`;
      const reset = { mode: 'phone', phone: typed, code: h.codeFor(e164), password: fresh, repassword: fresh };
      expect(await h.call(forgotPassword, reset), name).toEqual({ ret: 1, msg: 'Success', data: null });
      expect(await h.call(login, { username: typed, password }), name).toEqual(refused('Wrong username or password!'));
      password = fresh;
      expect(await h.call(login, { username: e164, password }), name).toMatchObject({ ret: 1 });
    }
    expect(await h.database.db.select().from(users).where(eq(users.phone, e164))).toHaveLength(1);
  });

  it('the phone changes to another spelling of its own number; another account cannot take it in any spelling', async () => {
    const national = newNational();
    const e164 = `+66${national}`;
    const owner = await registerByPhone(h, e164);
    h.clock.advance(61_000);
    // Its own handset in Thai digits is no new number: no sign-up code for it; with a code it sent, nothing changes.
    const thai = inDigits(`0${national}`, DIGITS['Thai (th)']);
    expect(await h.call(sendSmsCode, { userphone: thai })).toEqual(refused(TAKEN));
    expect(await h.call(sendSmsCode, { userphone: thai, must: '1' })).toMatchObject({ ret: 1 });
    const devanagari = inDigits(`+66 ${national}`, DIGITS['Devanagari (hi)']);
    const same = await h.call(
      editProfile,
      { phone: devanagari, code: h.codeFor(e164), password: PASSWORD },
      { token: owner.token },
    );
    expect(same).toMatchObject({ ret: 1, data: { phone: e164, username: e164 } });

    const other = await registerByPhone(h, `+66${newNational()}`);
    h.clock.advance(61_000);
    const before = await dbState(h);
    for (const [name, typed] of spellings(national)) {
      expect(
        await h.call(editProfile, { phone: typed, code: '123456', password: PASSWORD }, { token: other.token }),
        name,
      ).toEqual(refused(TAKEN));
    }
    expect(await dbState(h)).toEqual(before);

    // The owner's own number in another spelling: the code to its one target, the stored number unchanged.
    const newNumber = newNational();
    expect(
      await h.call(sendSmsCode, { userphone: inDigits(`0${newNumber}`, DIGITS['Devanagari (hi)']) }),
    ).toMatchObject({ ret: 1 });
    expect(h.sent.at(-1)).toMatchObject({ target: `+66${newNumber}` });
    const moved = await h.call(
      editProfile,
      {
        phone: `${newNumber.slice(0, 2)} ${newNumber.slice(2)}`,
        code: h.codeFor(`+66${newNumber}`),
        password: PASSWORD,
      },
      { token: owner.token },
    );
    expect(moved).toMatchObject({ ret: 1, data: { phone: `+66${newNumber}`, username: `+66${newNumber}` } });
    expect(await h.call(login, { username: `0${newNumber}`, password: PASSWORD })).toMatchObject({ ret: 1 });
  });

  it('the console finds the customer by any spelling, and by the start of the number', async () => {
    const national = newNational();
    const e164 = `+66${national}`;
    const { token } = await registerByPhone(h, `0${national}`);
    const id = (await h.call(userInfo, {}, { token })).data.id;
    const reviewer = await operatorToken(h, 'rita', 'reviewer');
    const starts = [
      `0${national.slice(0, 5)}`,
      `66${national.slice(0, 5)}`,
      `+66 ${national.slice(0, 2)}`,
      `0066${national.slice(0, 3)}`,
    ];
    for (const [name, query] of [...spellings(national), ...starts.map((query): [string, string] => [query, query])]) {
      const found = await h.call(consoleFindCustomers, { query }, { token: reviewer });
      expect(found, name).toMatchObject({ ret: 1 });
      expect(
        found.data.map((customer) => customer.id),
        name,
      ).toContain(id);
      expect(found.data.find((customer) => customer.id === id)).toMatchObject({ phone: e164 });
    }
    expect(phonePrefixes('0812')).toEqual(['0812', '+66812']);
  });

  it("a handset's ten codes a day are counted for all its spellings together", async () => {
    const all = spellings(newNational());
    for (const [name, typed] of all.slice(0, 10)) {
      h.clock.advance(61_000);
      expect(await h.call(sendSmsCode, { userphone: typed }), name).toMatchObject({ ret: 1 });
    }
    h.clock.advance(61_000);
    const before = await dbState(h);
    // The day runs from the first of the ten, 10 × 61 s ago: 23.8305… hours are left, said rounded up.
    for (const [name, typed] of all.slice(10))
      expect(await h.call(sendSmsCode, { userphone: typed }), name).toEqual(lockedFor('23.84 hours'));
    expect((await dbState(h)).codes).toEqual(before.codes);
  });

  it('the SMS To is E.164, also for a message queued with a number as typed before', () => {
    expect(smsTo('0812345678')).toBe('+66812345678');
    expect(smsTo('+66812345678')).toBe('+66812345678');
    expect(smsTo('not a number')).toBe('not a number');
  });
});

describe('numbers stored before they were canonical', () => {
  let oldAccounts = 0;
  /** An account as the product stored it before: the number as typed behind "+66", also its username. */
  async function oldAccount(phone: string, usdt?: string) {
    const [row] = await h.database.db
      .insert(users)
      .values({
        username: phone,
        phone,
        passwordHash: await hashSecret(PASSWORD),
        paypassHash: await hashSecret(PAYPASS),
        nickname: phone,
        inviteCode: `OLD${++oldAccounts}`,
        createdAt: h.clock.now(),
      })
      .returning();
    if (usdt) await h.database.db.insert(balances).values({ userId: row!.id, asset: 'USDT', available: usdt });
    return row!;
  }

  it('are brought to E.164 where that is one account; accounts on one handset are listed, never merged', async () => {
    const lone = await oldAccount('0871111111');
    const twinA = await oldAccount('0872222222', '25.5');
    const twinB = await oldAccount('872222222');
    const thirdA = await oldAccount('0873333333');
    const fixedLine = await oldAccount('021234567');
    // A handset already held in E.164 by a new account, and by an old one as typed.
    const { phone: held } = await registerByPhone(h, '+66874444444');
    const old = await oldAccount('0874444444', '3');
    const usersBefore = await h.database.db.select().from(users);

    const pass = await h.database.db.transaction((tx) => bringPhonesToE164(tx, h.clock.now()));
    expect(pass).toEqual({ converted: 2, duplicates: 4, notMobile: 1 });
    const byId = async (id: number) => (await h.database.db.select().from(users).where(eq(users.id, id)))[0]!;
    expect(await byId(lone.id)).toMatchObject({ phone: '+66871111111', username: '+66871111111' });
    expect(await byId(thirdA.id)).toMatchObject({ phone: '+66873333333', username: '+66873333333' });
    // Listed ones keep their number as stored.
    expect(await byId(twinA.id)).toMatchObject({ phone: '0872222222' });
    expect(await byId(twinB.id)).toMatchObject({ phone: '872222222' });
    expect(await byId(fixedLine.id)).toMatchObject({ phone: '021234567' });
    expect(await h.database.db.select().from(users)).toHaveLength(usersBefore.length);

    const listing = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, ['phones']);
    expect(listing.ok).toBe(true);
    const lines = listing.output.split('\n').slice(2);
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\+66872222222 +${twinA.id} +0872222222 +0872222222 +25\\.5 USDT `)),
      expect.stringMatching(new RegExp(`^\\+66872222222 +${twinB.id} +872222222 +872222222 +nothing `)),
      expect.stringMatching(new RegExp(`^\\+66874444444 +\\d+ +\\+66874444444 +\\+66874444444 +nothing `)),
      expect.stringMatching(new RegExp(`^\\+66874444444 +${old.id} +0874444444 +0874444444 +3 USDT `)),
      expect.stringMatching(new RegExp(`^not a mobile number +${fixedLine.id} +021234567 +021234567 +nothing `)),
    ]);
    expect(held).toBe('+66874444444');
    // The console's customers page lists the same, with what each account holds.
    const reviewer = await operatorToken(h, 'rosa', 'reviewer');
    const listedInConsole = await h.call(consolePhoneDuplicates, {}, { token: reviewer });
    expect(listedInConsole).toMatchObject({ ret: 1 });
    expect(listedInConsole.data.filter((row) => [twinA.id, twinB.id, fixedLine.id].includes(row.user_id))).toEqual([
      expect.objectContaining({
        user_id: twinA.id,
        kind: 'duplicate',
        phone: '+66872222222',
        stored_phone: '0872222222',
        holds: [{ asset: 'USDT', amount: '25.5' }],
      }),
      expect.objectContaining({ user_id: twinB.id, kind: 'duplicate', phone: '+66872222222', holds: [] }),
      expect.objectContaining({ user_id: fixedLine.id, kind: 'not_mobile', phone: null, stored_phone: '021234567' }),
    ]);

    // The converted account logs in by any spelling; a listed handset cannot register again in any spelling.
    expect(await h.call(login, { username: '87 111 1111', password: PASSWORD })).toMatchObject({ ret: 1 });
    expect(await h.call(login, { username: '0872222222', password: PASSWORD })).toMatchObject({ ret: 1 });
    for (const typed of ['+66872222222', '๐๘๗๒๒๒๒๒๒๒'])
      expect(await h.call(sendSmsCode, { userphone: typed }), typed).toEqual(refused(TAKEN));

    // A second pass changes nothing.
    const listed = await h.database.db.select().from(phoneDuplicates);
    expect(await h.database.db.transaction((tx) => bringPhonesToE164(tx, h.clock.now()))).toEqual({
      converted: 0,
      duplicates: 4,
      notMobile: 1,
    });
    expect(await h.database.db.select().from(phoneDuplicates)).toEqual(listed);

    // Once one of the twins has another number, the other is brought to E.164 and the listing goes.
    await h.database.db.update(users).set({ phone: '+66875555555' }).where(eq(users.id, twinB.id));
    const checked = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
      'phones',
      'check',
    ]);
    expect(checked.output).toMatch(/^1 brought to E\.164, 2 accounts sharing a handset, 1 with no mobile number\./);
    expect(await byId(twinA.id)).toMatchObject({ phone: '+66872222222', username: '+66872222222' });
    expect((await h.database.db.select().from(phoneDuplicates)).map((row) => row.userId).sort()).toEqual(
      [fixedLine.id, old.id, (await h.database.db.select().from(users).where(eq(users.phone, held)))[0]!.id].sort(),
    );
  });
});
