// Verification codes reach people. A code is queued with its code row, sent by the
// delivery job at once (not at its next tick) through a real SMTP server or an SMS provider's
// HTTP API (local stand-ins speaking their protocols), tried again with backoff, and a message that
// finally fails is reported to the code form and to the operator.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codeDelivery, register, sendEmailCode, sendSmsCode } from '../../src/api-contract/account.ts';
import { outbox } from '../../src/server/db/schema.ts';
import { outboxSender } from '../../src/server/domain/code-sender.ts';
import {
  KEEP_CODES_MS,
  KEEP_NOTICES_MS,
  claimDue,
  enqueue,
  pruneOutbox,
  recordOutcome,
} from '../../src/server/domain/delivery.ts';
import { developmentTransport } from '../../src/server/delivery/development.ts';
import { emailTransport } from '../../src/server/delivery/email.ts';
import { smsTransport } from '../../src/server/delivery/sms.ts';
import type { Transport } from '../../src/server/delivery/transport.ts';
import { startDeliveryJob } from '../../src/server/jobs/schedule.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { deliveryConfig } from '../../src/server/delivery/settings.ts';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, PAYPASS, newEmail, newPhone } from './helpers.ts';
import { readMail, startHttpStandIn, startMailStandIn, type MailStandIn } from './mail-standin.ts';
import { freePort } from './postgres.ts';

const FROM = 'Coinvest <no-reply@coinvest.test>';
const CODE_NOT_SENT = { ret: 0, msg: 'We could not send the code, please try again', data: null };

let h: Harness;
let mail: MailStandIn;
const logged: string[] = [];
const transports: Partial<Record<string, Transport>> = {};
let job: ReturnType<typeof startDeliveryJob>;
const jobErrors: unknown[] = [];
/** The job's runs the send calls' wakes started, in order. */
const woken: Promise<number>[] = [];

beforeAll(async () => {
  mail = await startMailStandIn();
  transports.email = emailTransport({ url: mail.url, from: FROM });
  let wake = () => {};
  h = await startHarness({ sender: (db) => outboxSender(db, () => wake()) });
  // Ticks every 30 s: a message that leaves within a second left because the send call woke the job.
  job = startDeliveryJob(
    h.database.db,
    { transports, fallback: developmentTransport((line) => logged.push(line)), retrySeconds: [0.05, 0.05, 0.05, 0.05] },
    (error) => jobErrors.push(error),
    30_000,
  );
  wake = () => void woken.push(job.runNow()); // what job.poke does, keeping the run to wait for
});

afterAll(async () => {
  await job?.stop();
  expect(jobErrors).toEqual([]);
  await h?.close();
  await mail?.close();
});

/** Aborted when the running test ends (passed, failed or timed out): its waits stop with it. */
let testRunning = new AbortController();

beforeEach(({ onTestFailed }) => {
  testRunning = new AbortController();
  h.clock.advance(61_000); // past the 60 s resend wait of any earlier code
  mail.refuse(0);
  transports.email = emailTransport({ url: mail.url, from: FROM });
  // What a failure needs to be read: the newest outbox rows and what the stand-in was offered.
  onTestFailed(async () => {
    const rows = await h.database.db.select().from(outbox);
    console.error('outbox, newest last:', rows.slice(-6), 'SMTP tries:', mail.tries.slice(-6), 'wakes:', woken.length);
  });
});
afterEach(() => testRunning.abort());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Polls `what` every 20 ms until it answers something. No deadline of its own: the test's time-out is the only limit
 * (a deadline here failed a run on a loaded machine while the delivery was merely slow), and the wait ends with the
 * test.
 */
async function until<T>(what: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const { signal } = testRunning;
  for (;;) {
    const found = await what();
    if (found) return found;
    if (signal.aborted) throw new Error('the test ended before it happened');
    await sleep(20);
  }
}
/** Runs the job until `what` holds (retries wait 50 ms here). */
async function deliverUntil<T>(what: () => T | undefined | Promise<T | undefined>): Promise<T> {
  return until(async () => {
    await job.runNow();
    return what();
  });
}
/** The status call's answer, once it says `state`. */
const once = (delivery: string, state: 'sent' | 'sending') =>
  until(async () => {
    const answer = await h.call(codeDelivery, { delivery });
    return answer.data?.state === state ? answer : undefined;
  });
const mailTo = (address: string) => mail.mails.find((received) => received.to.includes(address));
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
const rowsTo = (target: string) => h.database.db.select().from(outbox).where(eq(outbox.target, target));

describe('codes by e-mail through SMTP', () => {
  it('a Thai registration code arrives within a second, in Thai, plain and HTML in the product colour, and registers', async () => {
    const email = newEmail();
    const wakes = woken.length;
    const sent = await h.call(sendEmailCode, { email }, { lang: 'th' });
    expect(sent).toMatchObject({
      ret: 1,
      data: { resend_in: 60, delivery: expect.stringMatching(/^\d+\.[\w-]{22}$/) },
    });
    // The job ticks every 30 s here. The call woke it once, and the mail is in when the run that wake started has
    // ended: it left because the call woke the job, not at a later tick.
    expect(woken).toHaveLength(wakes + 1);
    await woken[wakes];
    const received = mailTo(email)!;
    expect(received).toBeDefined();

    expect(received.from).toBe('no-reply@coinvest.test');
    const { subject, text, html, headers } = readMail(received.raw);
    expect(headers.from).toContain('no-reply@coinvest.test');
    expect(subject).toBe('รหัสยืนยัน Coinvest ของคุณ');
    const code = codeIn(text)!;
    expect(text).toContain(`รหัสยืนยัน Coinvest ของคุณคือ ${code}`);
    expect(html).toContain('<html lang="th" dir="ltr">');
    expect(html).toContain('background:#00bbfe');
    expect(html).toContain(`>${code}</p>`);
    // The mail is in; the job records it a moment later.
    expect(await once(sent.data.delivery!, 'sent')).toMatchObject({ ret: 1, data: { state: 'sent', attempts: 1 } });

    const registered = await h.call(register, {
      mode: 'email',
      email,
      code,
      password: PASSWORD,
      paypass: PAYPASS,
      currency: 'THB',
    });
    expect(registered).toMatchObject({ ret: 1 });
  });

  it('an Arabic mail reads right to left; the credentials of SMTP_URL were checked', async () => {
    const email = newEmail();
    await h.call(sendEmailCode, { email }, { lang: 'ar' });
    const { html, text } = readMail((await until(() => mailTo(email))).raw);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('text-align:right');
    expect(text).toMatch(/[\u0600-\u06FF]/);

    // Wrong credentials: the stand-in refuses with 535; the message waits for a mended setting.
    transports.email = emailTransport({ url: mail.url.replace('mailer:', 'intruder:'), from: FROM });
    const other = newEmail();
    const sent = await h.call(sendEmailCode, { email: other });
    const row = await until(async () => (await rowsTo(other)).find((r) => r.attempts > 0 && r.lastError));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: expect.stringContaining('535') });
    transports.email = emailTransport({ url: mail.url, from: FROM });
    await deliverUntil(() => mailTo(other));
    expect(await h.call(codeDelivery, { delivery: sent.data.delivery! })).toMatchObject({
      ret: 1,
      data: { state: 'sent', attempts: 2 },
    });
  });

  it('a server that refuses the first two tries (451): sent on the third, once', async () => {
    mail.refuse(2);
    const email = newEmail();
    const sent = await h.call(sendEmailCode, { email });
    await deliverUntil(() => mailTo(email));
    expect(mail.tries.filter((address) => address === email)).toHaveLength(3);
    expect(mail.mails.filter((received) => received.to.includes(email))).toHaveLength(1);
    expect(await rowsTo(email)).toMatchObject([
      { status: 'sent', attempts: 3, lastError: expect.stringContaining('451') },
    ]);
    expect(await h.call(codeDelivery, { delivery: sent.data.delivery! })).toMatchObject({
      ret: 1,
      data: { state: 'sent', attempts: 3 },
    });
  });

  it('a server that always refuses: failed after five tries, shown to the operator, and the code form is told', async () => {
    mail.refuse(Infinity);
    const email = newEmail();
    const sent = await h.call(sendEmailCode, { email }, { lang: 'th' });
    expect(await h.call(codeDelivery, { delivery: sent.data.delivery! })).toMatchObject({
      ret: 1,
      data: { state: 'sending' },
    });
    await deliverUntil(async () => (await rowsTo(email)).find((row) => row.status === 'failed'));
    expect(mail.tries.filter((address) => address === email)).toHaveLength(5);
    expect(mailTo(email)).toBeUndefined();

    expect(await h.call(codeDelivery, { delivery: sent.data.delivery! })).toEqual(CODE_NOT_SENT);
    expect(await h.call(codeDelivery, { delivery: sent.data.delivery! }, { lang: 'th' })).toMatchObject({
      ret: 0,
      msg: 'เราไม่สามารถส่งรหัสได้ โปรดลองอีกครั้ง',
    });
    const { ok, output } = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
      'outbox',
      '5',
    ]);
    expect(ok).toBe(true);
    expect(output).toMatch(/^queued \d+, sent \d+, failed [1-9]\d*\n/);
    const line = output.split('\n').find((text) => text.includes(email))!;
    expect(line).toMatch(/\bfailed\b/);
    expect(line).toMatch(/\b5\b/);
    expect(line).toContain('451');
  });

  it("the operator's outbox list cuts a long message to whole characters: an emoji at the cut is left out", async () => {
    const body = `${'b'.repeat(99)}😀 and more`;
    await h.database.db.insert(outbox).values({ channel: 'push', target: '0', kind: 'message', body, status: 'sent' });
    const { ok, output } = await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, [
      'outbox',
      '1',
    ]);
    expect(ok).toBe(true);
    const line = output.split('\n').find((text) => text.includes('b'.repeat(50)))!;
    expect(line.trimEnd()).toMatch(/ b{99}$/);
    expect(output).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|\uFFFD/);
  });

  it('a reference not made by this server, or another message id, tells nothing', async () => {
    const sent = await h.call(sendEmailCode, { email: newEmail() });
    const [id] = sent.data.delivery!.split('.');
    const invalid = { ret: 0, msg: 'The request is not valid!', data: null };
    expect(await h.call(codeDelivery, { delivery: `${Number(id) - 1}.${sent.data.delivery!.split('.')[1]}` })).toEqual(
      invalid,
    );
    expect(await h.call(codeDelivery, { delivery: `${id}.AAAAAAAAAAAAAAAAAAAAAA` })).toEqual(invalid);
    expect(await h.call(codeDelivery, { delivery: '1' })).toEqual(invalid);
  });

  it('the SMTP server down, then slow: the send call answers at once and nothing is lost', async () => {
    const port = await freePort();
    const toPort = emailTransport({ url: mail.url.replace(`:${mail.port}`, `:${port}`), from: FROM });
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    // The job's tries wait for `held` before they reach the port: a delivery under way until the test lets it go.
    transports.email = {
      async send(row) {
        await held;
        return toPort.send(row);
      },
    };
    const email = newEmail();
    const sent = await h.call(sendEmailCode, { email });
    expect(sent.ret).toBe(1);
    // The call answered while the delivery it woke was still held back (let go only now), nothing recorded of it yet:
    // it does not wait for the delivery.
    expect(await rowsTo(email)).toMatchObject([{ status: 'queued', lastError: null }]);
    letGo();
    const row = await until(async () => (await rowsTo(email)).find((r) => r.lastError));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: expect.stringContaining('ECONNREFUSED') });
    expect(await h.call(codeDelivery, { delivery: sent.data.delivery! })).toMatchObject({
      ret: 1,
      data: { state: 'sending', attempts: 1 },
    });

    // The server comes back on its port, slow to accept (it holds its answer to each message until the test lets it
    // go): a new code's call still answers at once.
    let accept!: () => void;
    const slow = await startMailStandIn({ port, answerAfter: new Promise<void>((resolve) => (accept = resolve)) });
    try {
      h.clock.advance(61_000);
      const running = deliverUntil(() => slow.mails.find((received) => received.to.includes(email)));
      await until(() => slow.tries.includes(email)); // the job is delivering it: the slow server has its recipient
      const underWay = await rowsTo(email); // claimed for this try, its outcome not recorded
      const second = newEmail();
      expect((await h.call(sendEmailCode, { email: second })).ret).toBe(1);
      // Answered while the slow server still held its answer to the message being delivered (accepted only now), the
      // outcome of that try not yet recorded: the call did not wait for the delivery under way.
      expect(await rowsTo(email)).toEqual(underWay);
      accept();
      const code = codeIn(readMail((await running).raw).text)!;
      expect(
        await h.call(register, { mode: 'email', email, code, password: PASSWORD, paypass: PAYPASS, currency: 'USD' }),
      ).toMatchObject({ ret: 1 });
      await until(async () => (await rowsTo(second)).find((r) => r.status === 'sent'));
    } finally {
      accept();
      toPort.close(); // its pooled connection would keep the stand-in from closing
      await slow.close();
    }
  });
});

describe('codes by SMS', () => {
  it("Twilio's Messages API: the Account SID in the path, Basic auth, the form fields; a refused number is not tried again", async () => {
    const twilio = await startHttpStandIn((request) =>
      new URLSearchParams(request.body).get('To') === '+66899999999'
        ? {
            status: 400,
            body: {
              code: 21211,
              message: "The 'To' number +66899999999 is not a valid phone number.",
              more_info: 'https://www.twilio.com/docs/errors/21211',
              status: 400,
            },
          }
        : { status: 201, body: { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued' } },
    );
    transports.sms = smsTransport({
      provider: 'twilio',
      accountSid: 'AC0123456789abcdef0123456789abcdef',
      authToken: 'token-42',
      from: '+15005550006',
      apiBase: twilio.base,
    });
    try {
      const phone = newPhone();
      const wakes = woken.length;
      const sent = await h.call(sendSmsCode, { userphone: phone }, { lang: 'zh' });
      await woken[wakes]; // the run the call woke (the job's own tick is 30 s away) made the request
      const request = twilio.requests.find((r) => new URLSearchParams(r.body).get('To') === phone)!;
      expect(request).toBeDefined();
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
      expect(request.headers.authorization).toBe(
        `Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:token-42').toString('base64')}`,
      );
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const form = new URLSearchParams(request.body);
      expect(form.get('From')).toBe('+15005550006');
      const body = form.get('Body')!;
      expect(body).toContain('Coinvest');
      expect(body).toMatch(/[\u4e00-\u9fff]/);
      const code = codeIn(body)!;
      await once(sent.data.delivery!, 'sent');
      expect(
        await h.call(register, { mode: 'phone', phone, code, password: PASSWORD, paypass: PAYPASS, currency: 'THB' }),
      ).toMatchObject({ ret: 1 });

      // Typed as a Thai customer writes it; queued and sent to its E.164 form.
      const refused = await h.call(sendSmsCode, { userphone: '089 999 9999' });
      await until(async () => (await rowsTo('+66899999999')).find((r) => r.status === 'failed'));
      expect(await rowsTo('+66899999999')).toMatchObject([
        { status: 'failed', attempts: 1, lastError: expect.stringContaining('Twilio 21211') },
      ]);
      expect(await h.call(codeDelivery, { delivery: refused.data.delivery! })).toEqual(CODE_NOT_SENT);
    } finally {
      delete transports.sms;
      await twilio.close();
    }
  });

  it('Twilio busy (429, then 503): tried again, sent once', async () => {
    let answers = [429, 503];
    const twilio = await startHttpStandIn(() => ({
      status: answers.shift() ?? 201,
      body: answers.length ? { code: 20429, message: 'Too Many Requests' } : { sid: 'SM1' },
    }));
    transports.sms = smsTransport({
      provider: 'twilio',
      accountSid: 'AC1',
      authToken: 't',
      from: '+15005550006',
      apiBase: twilio.base,
    });
    try {
      const phone = newPhone();
      await h.call(sendSmsCode, { userphone: phone });
      await deliverUntil(async () => (await rowsTo(phone)).find((r) => r.status === 'sent'));
      expect(twilio.requests).toHaveLength(3);
      expect(await rowsTo(phone)).toMatchObject([{ status: 'sent', attempts: 3 }]);
    } finally {
      answers = [];
      delete transports.sms;
      await twilio.close();
    }
  });

  it('a generic webhook receives its template with the number and the text filled in (JSON-escaped)', async () => {
    const hook = await startHttpStandIn(() => ({ status: 200 }));
    transports.sms = smsTransport({
      provider: 'webhook',
      url: `${hook.base}/send?key=abc`,
      method: 'POST',
      template: '{"recipient":"{{to}}","message":"{{body}}","sender":"Coinvest"}',
      contentType: 'application/json',
      headers: { 'x-api-key': 'k-1' },
    });
    try {
      const phone = newPhone();
      const wakes = woken.length;
      await h.call(sendSmsCode, { userphone: phone }, { lang: 'hi' });
      await woken[wakes]; // the run the call woke (the job's own tick is 30 s away) made the request
      const request = hook.requests[0]!;
      expect(request).toMatchObject({ method: 'POST', url: '/send?key=abc' });
      expect(request.headers['x-api-key']).toBe('k-1');
      expect(request.headers['content-type']).toBe('application/json');
      const json = JSON.parse(request.body) as Record<string, string>;
      expect(json).toMatchObject({ recipient: phone, sender: 'Coinvest' });
      expect(json.message).toMatch(/[\u0900-\u097F]/);
      expect(codeIn(json.message!)).toMatch(/^\d{6}$/);
    } finally {
      delete transports.sms;
      await hook.close();
    }
  });

  it('with no SMS provider configured, the development transport logs the code and marks it sent', async () => {
    const phone = newPhone();
    const wakes = woken.length;
    const sent = await h.call(sendSmsCode, { userphone: phone });
    await woken[wakes]; // the run the call woke (the job's own tick is 30 s away) logged it
    const line = logged.find((text) => text.startsWith(`verification code for ${phone} (sms): `))!;
    expect(line).toBeDefined();
    await once(sent.data.delivery!, 'sent');
    const code = line.slice(-6);
    expect(
      await h.call(register, { mode: 'phone', phone, code, password: PASSWORD, paypass: PAYPASS, currency: 'THB' }),
    ).toMatchObject({ ret: 1 });
  });

  it('a refused code call queues nothing', async () => {
    const phone = newPhone();
    expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
    expect(await h.call(sendSmsCode, { userphone: phone })).toMatchObject({
      ret: 0,
      msg: 'Please wait 1 minute before requesting another code!',
    });
    expect(await rowsTo(phone)).toHaveLength(1);
  });
});

describe('the queue', () => {
  it('a claim is a lease: skipped while it holds, taken up once it ran out; the lost claim cannot write its outcome', async () => {
    const db = h.database.db;
    // Due in 2100: the job (on real time) leaves it alone; these calls pass their own time.
    const due = new Date('2100-01-01T00:00:00Z');
    const id = await enqueue(
      db,
      { channel: 'email', target: 'lease@example.com', kind: 'notice', language: 'en', body: 'hello' },
      due,
    );
    const mine = <R extends { id: number }>(rows: R[]) => rows.filter((row) => row.id === id);

    const [first] = mine(await claimDue(db, due, { leaseMs: 60_000 }));
    expect(first).toMatchObject({ attempts: 1, claimedUntil: new Date(due.getTime() + 60_000) });
    // The claiming process died: within the lease no one else takes the row; after it, one does.
    expect(mine(await claimDue(db, new Date(due.getTime() + 59_000)))).toEqual([]);
    const [second] = mine(await claimDue(db, new Date(due.getTime() + 61_000), { leaseMs: 60_000 }));
    expect(second).toMatchObject({ attempts: 2 });

    expect(
      await recordOutcome(db, first!, { sent: false, retry: true, error: 'late' }, new Date(due.getTime() + 62_000)),
    ).toBeNull();
    expect(await recordOutcome(db, second!, { sent: true }, new Date(due.getTime() + 62_000))).toBe('sent');
    expect(await rowsTo('lease@example.com')).toMatchObject([
      { status: 'sent', attempts: 2, lastError: null, claimedUntil: null },
    ]);
    expect(mine(await claimDue(db, new Date(due.getTime() + 3_600_000)))).toEqual([]);
  });

  it('backoff: the waits of DELIVERY_RETRY_SECONDS between tries, then failed', async () => {
    const db = h.database.db;
    const start = new Date('2101-01-01T00:00:00Z');
    const id = await enqueue(
      db,
      { channel: 'sms', target: 'backoff', kind: 'notice', language: 'en', body: 'hello' },
      start,
    );
    const waits: number[] = [];
    let now = start;
    for (;;) {
      const [row] = (await claimDue(db, now)).filter((claimed) => claimed.id === id);
      const status = await recordOutcome(db, row!, { sent: false, retry: true, error: 'busy' }, now);
      if (status === 'failed') break;
      const [after] = await rowsTo('backoff');
      waits.push((after!.nextAttemptAt.getTime() - now.getTime()) / 1000);
      expect(mine(await claimDue(db, new Date(after!.nextAttemptAt.getTime() - 1)))).toEqual([]);
      now = after!.nextAttemptAt;
    }
    expect(waits).toEqual([10, 30, 120, 600]);
    expect(await rowsTo('backoff')).toMatchObject([{ status: 'failed', attempts: 5, lastError: 'busy' }]);

    function mine(rows: { id: number }[]) {
      return rows.filter((row) => row.id === id);
    }
  });

  it('keeps a sent code a day and a notice 90 days, a queued message until it is sent', async () => {
    const db = h.database.db;
    const at = new Date('2102-01-01T00:00:00Z');
    const code = await enqueue(
      db,
      { channel: 'sms', target: 'prune-code', kind: 'code', language: 'en', body: 'Your code is 123456' },
      at,
    );
    const notice = await enqueue(
      db,
      { channel: 'sms', target: 'prune-notice', kind: 'notice', language: 'en', body: 'hello' },
      at,
    );
    const waiting = await enqueue(
      db,
      { channel: 'sms', target: 'prune-waiting', kind: 'code', language: 'en', body: 'Your code is 654321' },
      at,
    );
    await db
      .update(outbox)
      .set({ createdAt: at })
      .where(inArray(outbox.id, [code, notice, waiting]));
    for (const row of (await claimDue(db, at)).filter((claimed) => claimed.id !== waiting))
      await recordOutcome(db, row, { sent: true }, at);
    const left = async () =>
      (
        await db
          .select({ id: outbox.id })
          .from(outbox)
          .where(inArray(outbox.id, [code, notice, waiting]))
      )
        .map((row) => row.id)
        .sort();

    await pruneOutbox(db, new Date(at.getTime() + KEEP_CODES_MS - 1000));
    expect(await left()).toEqual([code, notice, waiting].sort());
    await pruneOutbox(db, new Date(at.getTime() + KEEP_CODES_MS + 1000));
    expect(await left()).toEqual([notice, waiting].sort());
    await pruneOutbox(db, new Date(at.getTime() + KEEP_NOTICES_MS + 1000));
    expect(await left()).toEqual([waiting]);
  });
});

describe('settings from the environment', () => {
  it('read SMTP, Twilio, a webhook and the retry waits; unset, everything goes to the development transport', () => {
    expect(deliveryConfig({})).toEqual({ email: null, sms: null, retrySeconds: [10, 30, 120, 600] });
    expect(
      deliveryConfig({
        SMTP_URL: 'smtps://user:pass@mail.example.com',
        SMTP_FROM: 'Coinvest <no-reply@example.com>',
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 'tok',
        TWILIO_FROM: '+15005550006',
        DELIVERY_RETRY_SECONDS: '5, 60',
      }),
    ).toEqual({
      email: { url: 'smtps://user:pass@mail.example.com', from: 'Coinvest <no-reply@example.com>' },
      sms: {
        provider: 'twilio',
        accountSid: 'AC1',
        authToken: 'tok',
        from: '+15005550006',
        apiBase: 'https://api.twilio.com',
      },
      retrySeconds: [5, 60],
    });
    expect(
      deliveryConfig({
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: 'https://sms.example.com/send',
        SMS_WEBHOOK_TEMPLATE: 'to={{to}}&text={{body}}',
      }).sms,
    ).toEqual({
      provider: 'webhook',
      url: 'https://sms.example.com/send',
      method: 'POST',
      template: 'to={{to}}&text={{body}}',
      contentType: 'application/x-www-form-urlencoded',
      headers: {},
    });
  });

  it.each([
    [
      { SMTP_URL: 'http://mail.example.com', SMTP_FROM: 'a@b.co' },
      'SMTP_URL must start with smtp:// or smtps://, not http://.',
    ],
    [
      { SMTP_URL: 'smtps://mail.example.com' },
      'SMTP_FROM must be the sender\'s address, e.g. SMTP_FROM="Coinvest <no-reply@example.com>".',
    ],
    [
      { SMTP_FROM: 'a@b.co' },
      'SMTP_FROM is set but SMTP_URL is not: set SMTP_URL=smtps://user:password@mail.example.com (or smtp:// for STARTTLS).',
    ],
    [
      { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' },
      'SMS_PROVIDER=twilio needs TWILIO_AUTH_TOKEN, TWILIO_FROM.',
    ],
    [
      { SMS_PROVIDER: 'pigeon' },
      'SMS_PROVIDER=pigeon is not known: twilio or webhook (unset: codes by SMS go to the server log).',
    ],
    [
      { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com', SMS_WEBHOOK_METHOD: 'DELETE' },
      'SMS_WEBHOOK_METHOD=DELETE must be GET, POST or PUT.',
    ],
    [
      { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com', SMS_WEBHOOK_TEMPLATE: '{"to":"{{to}}"}' },
      'SMS_WEBHOOK_TEMPLATE must contain {{body}} (and usually {{to}}).',
    ],
    [
      { DELIVERY_RETRY_SECONDS: '10,soon' },
      'DELIVERY_RETRY_SECONDS=10,soon must be seconds separated by commas, e.g. 10,30,120,600.',
    ],
  ])('a wrong value stops the start with a line that says what is wrong: %o', (env, line) => {
    expect(() => deliveryConfig(env)).toThrow(line);
  });
});
