// The anti-phishing code as a customer meets it: set in the app, then in a fixed place of every mail
// the platform sends them (the first line of the text, a band at the top of the HTML), checked here in
// what a real SMTP server received; a mail to an address no account has carries none, and a customer
// without a code gets no empty line. Every security notice in the app starts with it; a push of the
// notice leaves it out, and so does every log line. Setting, changing and removing it take the second
// factor when two-factor is on; hostile input is refused in the customer's language with nothing
// written.
import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  changePassword,
  editProfile,
  forgotPassword,
  login,
  register,
  sendEmailCode,
} from '../../src/api-contract/account.ts';
import { antiPhishingStatus, removeAntiPhishing, setAntiPhishing } from '../../src/api-contract/anti-phishing.ts';
import { ANTI_PHISHING_MARK, splitAntiPhishingLine } from '../../src/api-contract/anti-phishing-line.ts';
import { messages as messageList } from '../../src/api-contract/messages.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { messages, outbox, users } from '../../src/server/db/schema.ts';
import { outboxSender } from '../../src/server/domain/code-sender.ts';
import { noticeContent } from '../../src/server/domain/notices.ts';
import { developmentTransport } from '../../src/server/delivery/development.ts';
import { emailTransport } from '../../src/server/delivery/email.ts';
import { startDeliveryJob } from '../../src/server/jobs/schedule.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, newEmail, refused, withTwoFactor } from './helpers.ts';
import { readMail, startMailStandIn, type MailStandIn } from './mail-standin.ts';

const FROM = 'Coinvest <no-reply@coinvest.test>';
const LABEL = 'Your anti-phishing code';
const FORMAT = texts.antiPhishingCodeFormat.message;
const STEP = 30_000;
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

let h: Harness;
let mail: MailStandIn;
let job: ReturnType<typeof startDeliveryJob>;
const logged: string[] = [];
const jobErrors: unknown[] = [];

beforeAll(async () => {
  mail = await startMailStandIn();
  let wake = () => {};
  h = await startHarness({ sender: (db) => outboxSender(db, () => wake()) });
  job = startDeliveryJob(
    h.database.db,
    {
      transports: { email: emailTransport({ url: mail.url, from: FROM }) },
      // Push rows (none here: no subscription) and anything else go to the log, as on a server without transports.
      fallback: developmentTransport((line) => logged.push(line)),
      retrySeconds: [0.05, 0.05],
    },
    (error) => jobErrors.push(error),
    30_000,
  );
  wake = job.poke;
});

afterAll(async () => {
  await job?.stop();
  expect(jobErrors).toEqual([]);
  await h?.close();
  await mail?.close();
});

beforeEach(() => {
  h.clock.advance(61_000); // past the 60 s resend wait of any earlier code
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until<T>(what: () => T | undefined | Promise<T | undefined>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await what();
    if (found) return found;
    if (Date.now() > deadline) throw new Error('waited in vain');
    await sleep(20);
  }
}

/** The newest mail to `address`, once it has arrived after `before` others. */
async function nextMail(address: string, before: number) {
  const received = await until(() => {
    const to = mail.mails.filter((one) => one.to.includes(address));
    return to.length > before ? to[to.length - 1] : undefined;
  });
  return readMail(received.raw);
}
const mailsTo = (address: string) => mail.mails.filter((one) => one.to.includes(address)).length;
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;

/** Asks for a code by e-mail and answers the mail that brought it. */
async function mailedCode(email: string, must: '0' | '1', lang = 'en') {
  h.clock.advance(61_000);
  const before = mailsTo(email);
  expect(await h.call(sendEmailCode, { email, must }, { lang })).toMatchObject({ ret: 1 });
  return nextMail(email, before);
}

/** A customer registered with an e-mail address (its code read from the mail). */
async function emailCustomer() {
  const email = newEmail();
  const { text } = await mailedCode(email, '0');
  const registered = await h.call(register, {
    mode: 'email',
    email,
    code: codeIn(text),
    password: PASSWORD,
    paypass: PAYPASS,
    currency: 'USD',
  });
  expect(registered).toMatchObject({ ret: 1 });
  const [row] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, token: registered.data.token as string, id: row!.id };
}

async function newestMessage(token: string, lang = 'en') {
  const inbox = await h.call(messageList, { status: 'all', page: '1' }, { token, lang });
  return inbox.data.lists[0]!;
}

/** What a refused change must leave as it was: the code, the messages, the outbox. */
async function written(userId: number) {
  const db = h.database.db;
  const [user] = await db.select({ code: users.antiPhishingCode }).from(users).where(eq(users.id, userId));
  const [notices] = await db.select({ n: count() }).from(messages).where(eq(messages.userId, userId));
  const [queued] = await db.select({ n: count() }).from(outbox).where(eq(outbox.userId, userId));
  return { code: user!.code, notices: notices!.n, queued: queued!.n };
}

/** Two-factor on for the customer of `token`; answers a function giving a fresh code each time: the clock moves a step
 * first, as a used one is refused. */
async function turnOnTwoFactor(token: string) {
  const { code } = await withTwoFactor(h, token);
  return () => {
    h.clock.advance(STEP);
    return code();
  };
}

describe('in a real mail', () => {
  it('a customer without a code: the mail starts with its verification code, no empty line, no band', async () => {
    const { email, token } = await emailCustomer();
    expect(await h.call(antiPhishingStatus, {}, { token })).toEqual({ ret: 1, msg: 'Success', data: { phrase: null } });
    const { subject, text, html } = await mailedCode(email, '1');
    expect(subject).toBe('Your Coinvest verification code');
    expect(text).toMatch(/^Your Coinvest verification code is \d{6}\./);
    expect(text).not.toContain(LABEL);
    expect(html).not.toContain(LABEL);
    expect(html).not.toContain('#e5f7ff');
  });

  it('once set, a password reset mail carries it on the first line and at the top of the HTML; not in the subject', async () => {
    const { email, token, id } = await emailCustomer();
    const set = await h.call(setAntiPhishing, { phrase: '  Blue   heron 42 ' }, { token });
    expect(set).toEqual({ ret: 1, msg: 'Success', data: { phrase: 'Blue heron 42' } });
    expect(await h.call(antiPhishingStatus, {}, { token })).toMatchObject({ data: { phrase: 'Blue heron 42' } });
    expect((await written(id)).code).toBe('Blue heron 42');

    const { subject, text, html } = await mailedCode(email, '1');
    expect(subject).toBe('Your Coinvest verification code');
    const lines = text.split(/\r?\n/);
    expect(lines.slice(0, 3)).toEqual([
      // The code between FSI and PDI: whatever its direction, it cannot turn the line around it.
      `${LABEL}: \u2068Blue heron 42\u2069`,
      '',
      expect.stringMatching(/^Your Coinvest verification code is \d{6}\./),
    ]);
    // The band right under the product's name, before the code's own text.
    const band = html.indexOf(`${LABEL}: <strong style="color:#0072a3;"><bdi>Blue heron 42</bdi></strong>`);
    expect(band).toBeGreaterThan(html.indexOf('>Coinvest</td></tr>'));
    expect(band).toBeLessThan(html.indexOf('Your Coinvest verification code is'));
    // The reset goes through with the mailed code.
    expect(
      await h.call(forgotPassword, {
        mode: 'email',
        email,
        code: codeIn(lines[2]!),
        password: 'newpass123',
        repassword: 'newpass123',
      }),
    ).toMatchObject({ ret: 1 });
  });

  it('in Thai, in its own script; a code to a new address (no account yet) carries none', async () => {
    const { email, token } = await emailCustomer();
    expect(await h.call(setAntiPhishing, { phrase: 'นกกระยาง ๔๒' }, { token, lang: 'th' })).toMatchObject({ ret: 1 });
    const { text, html } = await mailedCode(email, '1', 'th');
    const [first] = text.split(/\r?\n/);
    expect(first).toMatch(/: \u2068นกกระยาง ๔๒\u2069$/);
    expect(first).not.toContain(LABEL);
    expect(html).toContain('<html lang="th" dir="ltr">');
    expect(html).toContain('<bdi>นกกระยาง ๔๒</bdi></strong>');

    // The account's e-mail moving to a new address: the code goes to an address no account has.
    const moving = newEmail();
    const fresh = await mailedCode(moving, '0', 'th');
    expect(fresh.text).not.toContain('นกกระยาง');
    expect(fresh.html).not.toContain('นกกระยาง');
    expect(
      await h.call(editProfile, { email: moving, code: codeIn(fresh.text), password: PASSWORD }, { token, lang: 'th' }),
    ).toMatchObject({ ret: 1 });
    // From now on the account's mails go there, with its code.
    const next = await mailedCode(moving, '1', 'th');
    expect(next.text.split(/\r?\n/)[0]).toMatch(/: \u2068นกกระยาง ๔๒\u2069$/);
  });

  it('is in no log line and not in the operator outbox list: only the customer reads it', async () => {
    const { email, token } = await emailCustomer();
    expect(await h.call(setAntiPhishing, { phrase: 'Secret lantern' }, { token })).toMatchObject({ ret: 1 });
    const { text } = await mailedCode(email, '1');
    expect(text).toContain('Secret lantern');
    // The newest row to this address is the mail just read. Its status may still say "queued": the
    // stand-in has the mail a moment before the sender records the answer.
    const [row] = await h.database.db.select().from(outbox).where(eq(outbox.target, email)).orderBy(desc(outbox.id));
    expect(row!.payload).toEqual({ code: codeIn(text), antiPhishing: true });

    // The development transport (a server without SMTP) logs the verification code alone.
    const lines: string[] = [];
    await developmentTransport((line) => lines.push(line)).send({ ...row!, channel: 'email' });
    expect(lines).toEqual([`verification code for ${email} (email): ${codeIn(text)}`]);
    const { ok, output } = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
      'outbox',
      '50',
    ]);
    expect(ok).toBe(true);
    expect(output).toContain(email);
    expect(output).not.toContain('Secret lantern');
    expect(logged.join('\n')).not.toContain('Secret lantern');
  });
});

describe('in the security notices', () => {
  it('the notice of a new code carries it on its first line; later notices too; the push leaves it out', async () => {
    const { email, token, id } = await emailCustomer();
    expect(await h.call(setAntiPhishing, { phrase: 'Heron 7' }, { token })).toMatchObject({ ret: 1 });
    const set = await newestMessage(token);
    expect(set.title).toBe('Anti-phishing code set');
    expect(set.content.split('\n')[0]).toBe(`${ANTI_PHISHING_MARK} ${LABEL}: \u2068Heron 7\u2069`);
    expect(splitAntiPhishingLine(set.content)).toEqual({
      label: LABEL,
      code: 'Heron 7',
      rest: expect.stringMatching(/^A new anti-phishing code was set for your account at 2026-/),
    });

    // A new sign-in (another browser) and a password change: the same fixed place.
    const signedIn = await h.call(
      login,
      { username: email, password: PASSWORD },
      { headers: { 'user-agent': FIREFOX_WINDOWS } },
    );
    expect(signedIn).toMatchObject({ ret: 1 });
    const newDevice = await newestMessage(token);
    expect(newDevice.title).toBe('New sign-in');
    expect(splitAntiPhishingLine(newDevice.content)?.code).toBe('Heron 7');
    const changed = await h.call(
      changePassword,
      { oldpass: PASSWORD, password: 'newpass123', repassword: 'newpass123' },
      { token },
    );
    expect(changed).toMatchObject({ ret: 1 });
    const notice = await newestMessage(changed.data.token);
    expect(notice.title).toBe('Login password changed');
    expect(notice.content).toMatch(
      new RegExp(
        `^${ANTI_PHISHING_MARK} ${LABEL}: \u2068Heron 7\u2069\\nThe login password of your account was changed at `,
      ),
    );

    // A push of the notice shows its text without the line.
    const push = noticeContent(
      { kind: 'station_message', id: notice.id, title: notice.title, content: notice.content },
      'en',
    );
    expect(push.body).toMatch(/^The login password of your account was changed at /);
    expect(push.body).not.toContain('Heron 7');

    // Removed: the notice of it, and every later one, has no line (and no empty one).
    expect(await h.call(removeAntiPhishing, {}, { token: changed.data.token })).toEqual({
      ret: 1,
      msg: 'Success',
      data: { phrase: null },
    });
    const removed = await newestMessage(changed.data.token);
    expect(removed.title).toBe('Anti-phishing code removed');
    expect(removed.content).toMatch(/^The anti-phishing code of your account was removed at /);
    expect((await written(id)).code).toBeNull();
    expect(await h.call(removeAntiPhishing, {}, { token: changed.data.token })).toEqual(
      refused(serverTexts.antiPhishingNotSet.message),
    );
  });

  it('in Arabic, the label in Arabic and the code as typed', async () => {
    const { token } = await emailCustomer();
    expect(await h.call(setAntiPhishing, { phrase: 'صقر الصحراء' }, { token, lang: 'ar' })).toMatchObject({ ret: 1 });
    const notice = await newestMessage(token, 'ar');
    const parts = splitAntiPhishingLine(notice.content)!;
    expect(parts.code).toBe('صقر الصحراء');
    expect(parts.label).toMatch(/[\u0600-\u06FF]/);
    // Read in English: the label in English, the code as typed.
    expect(splitAntiPhishingLine((await newestMessage(token)).content)).toMatchObject({
      label: expect.stringMatching(/^[ -~]+$/),
      code: 'صقر الصحراء',
    });
  });
});

describe('changing it', () => {
  it('with two-factor on takes the authenticator code: none or a wrong one writes nothing', async () => {
    const { token, id } = await emailCustomer();
    const appCode = await turnOnTwoFactor(token);
    const before = await written(id);

    expect(await h.call(setAntiPhishing, { phrase: 'Kestrel 9' }, { token })).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );
    expect(await h.call(setAntiPhishing, { phrase: 'Kestrel 9', otp: '000000' }, { token })).toEqual(
      refused(texts.authenticatorCodeWrong.message),
    );
    expect(await written(id)).toEqual(before);

    const first = appCode();
    expect(await h.call(setAntiPhishing, { phrase: 'Kestrel 9', otp: first }, { token })).toMatchObject({
      ret: 1,
      data: { phrase: 'Kestrel 9' },
    });
    // Changing it: again a code, not the one used already.
    expect(await h.call(setAntiPhishing, { phrase: 'Osprey 10' }, { token })).toEqual(
      refused(texts.enterAuthenticatorCode.message),
    );
    expect(await h.call(setAntiPhishing, { phrase: 'Osprey 10', otp: first }, { token })).toEqual(
      refused(serverTexts.authenticatorCodeUsed.message),
    );
    expect((await written(id)).code).toBe('Kestrel 9');
    expect(await h.call(setAntiPhishing, { phrase: 'Osprey 10', otp: appCode() }, { token })).toMatchObject({
      ret: 1,
    });
    expect((await written(id)).code).toBe('Osprey 10');

    // Removing it: a code too.
    const kept = await written(id);
    expect(await h.call(removeAntiPhishing, {}, { token })).toEqual(refused(texts.enterAuthenticatorCode.message));
    expect(await written(id)).toEqual(kept);
    expect(await h.call(removeAntiPhishing, { otp: appCode() }, { token })).toMatchObject({ ret: 1 });
    expect((await written(id)).code).toBeNull();
  });

  it('refuses hostile and malformed input in the caller language, writing nothing', async () => {
    const { token, id } = await emailCustomer();
    expect(await h.call(setAntiPhishing, { phrase: 'Safe 1' }, { token })).toMatchObject({ ret: 1 });
    const before = await written(id);
    const hostile = [
      '<b>bold</b>',
      '<script>alert(1)</script>',
      'javascript:alert(1)',
      'abc', // three characters
      'Blue heron over the 42', // 22
      'smile 👍 now',
      'a.b.c.d',
      "' or 1=1 --",
      'ส'.repeat(21),
      '\u0301abcd', // starts with a combining mark
      'x'.repeat(100_000),
    ];
    for (const phrase of hostile) {
      expect(await h.call(setAntiPhishing, { phrase }, { token }), JSON.stringify(phrase.slice(0, 30))).toEqual(
        refused(FORMAT),
      );
    }
    for (const phrase of [
      'line\nbreak',
      'tab\there',
      '\u202Eabcdef', // a right-to-left override
      'ab\u200Bcdef', // a zero-width space
      'Blue\u3164heron', // a Hangul filler, which Unicode counts as a letter
      'Blue\uFFA0heron', // the half-width Hangul filler
      'Blue\u034Fheron', // the combining grapheme joiner, a mark
      'Blue\uFE0Fheron', // a variation selector, a mark
    ]) {
      expect(await h.call(setAntiPhishing, { phrase }, { token }), JSON.stringify(phrase)).toEqual(
        refused(texts.hiddenCharacters.message),
      );
    }
    // Blank to the eye: no code was given.
    expect(await h.call(setAntiPhishing, { phrase: '\u3164\u3164\u3164\u3164' }, { token })).toEqual(
      refused(texts.enterAntiPhishingCode.message),
    );
    expect(await h.call(setAntiPhishing, { phrase: '\uFFA0\u034F\uFE0F\u3164' }, { token })).toEqual(
      refused(texts.enterAntiPhishingCode.message),
    );
    expect(await h.call(setAntiPhishing, { phrase: '   ' }, { token })).toEqual(
      refused(texts.enterAntiPhishingCode.message),
    );
    expect(await h.call(setAntiPhishing, {}, { token })).toEqual(refused(texts.enterAntiPhishingCode.message));
    const thai = await h.call(setAntiPhishing, { phrase: '<i>x</i>' }, { token, lang: 'th' });
    expect(thai.ret).toBe(0);
    expect(thai.msg).not.toBe(FORMAT);
    expect(thai.msg).toMatch(/[\u0E00-\u0E7F]/);
    const arabic = await h.call(setAntiPhishing, { phrase: 'Blue\u3164heron' }, { token, lang: 'ar' });
    expect(arabic).toEqual(refused('يُرجى إزالة الأحرف غير المرئية أو الأحرف التي تغيّر اتجاه النص!'));
    expect(await written(id)).toEqual(before);

    // Letters of any script count as a reader counts them: a Thai word of 4 with its marks, Devanagari, CJK.
    for (const phrase of ['สวัสดี', 'नमस्ते दुनिया', '青い鳥', '카나리아 12']) {
      const answer = await h.call(setAntiPhishing, { phrase }, { token });
      expect(answer, phrase).toMatchObject(
        phrase === '青い鳥' ? { ret: 0, msg: FORMAT } : { ret: 1, data: { phrase } },
      );
    }
  });
});
