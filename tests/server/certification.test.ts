// Two-tier certification: primary goes to review, the operator verifies it or rejects it
// with a reason the customer sees (and may then submit again); advanced only after primary is
// verified. The document number is never sent back whole.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { PASSWORD, customer, expectLedgerBalanced, refused } from './helpers.ts';
import { ops, opsOk, picturePng, uploadedPicture } from './funds-helpers.ts';
import { certificationState, submitCertification } from '../../src/api-contract/certification.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { closeAccount } from '../../src/api-contract/closure.ts';
import { consoleApproveCertification } from '../../src/api-contract/console.ts';
import { operatorToken } from './console-helpers.ts';
import { certifications, users } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const NUMBER = 'AA98765432';
const MASKED = '••••••5432';

/** The id of the user's latest submission of a level, as the operator's list shows it. */
async function submissionOf(userId: number, level: 'primary' | 'advanced') {
  const [row] = await h.database.db
    .select({ id: certifications.id })
    .from(certifications)
    .where(and(eq(certifications.userId, userId), eq(certifications.level, level)))
    .orderBy(desc(certifications.id))
    .limit(1);
  return String(row!.id);
}

async function primaryForm(token: string, fields: Record<string, string> = {}) {
  return {
    level: 'primary',
    doc_type: 'passport',
    name: 'Somchai Jaidee',
    number: NUMBER,
    image: await uploadedPicture(h, token),
    ...fields,
  };
}

async function advancedForm(token: string) {
  return {
    level: 'advanced',
    image_back: await uploadedPicture(h, token),
    image_hold: await uploadedPicture(h, token),
  };
}

const statuses = async (token: string) => {
  const info = (await h.call(userInfo, {}, { token })).data;
  const state = (await h.call(certificationState, {}, { token })).data;
  return {
    verification: info.verification,
    advanced_verification: info.advanced_verification,
    primary: state.primary.status,
    advanced: state.advanced.status,
  };
};

it('walks primary through review, rejection, a new try and verification, then advanced through review to verified', async () => {
  const user = await customer(h);
  expect(await statuses(user.token)).toEqual({
    verification: 'none',
    advanced_verification: 'none',
    primary: 'none',
    advanced: 'none',
  });
  expect(await h.call(submitCertification, await advancedForm(user.token), { token: user.token })).toEqual(
    refused(texts.primaryFirst.message),
  );

  const first = await h.call(submitCertification, await primaryForm(user.token), { token: user.token });
  expect(first).toEqual({
    ret: 1,
    msg: 'Success',
    data: {
      primary: {
        level: 'primary',
        status: 'review',
        doc_type: 'passport',
        name: 'Somchai Jaidee',
        number: MASKED,
        reason: '',
        submitted_at: h.clock.now().toISOString(),
        reviewed_at: null,
      },
      advanced: {
        level: 'advanced',
        status: 'none',
        doc_type: null,
        name: '',
        number: '',
        reason: '',
        submitted_at: null,
        reviewed_at: null,
      },
    },
  });
  expect(await statuses(user.token)).toEqual({
    verification: 'review',
    advanced_verification: 'none',
    primary: 'review',
    advanced: 'none',
  });
  expect(await h.call(submitCertification, await primaryForm(user.token), { token: user.token })).toEqual(
    refused('Your certification is under review, please wait!'),
  );
  expect(await h.call(submitCertification, await advancedForm(user.token), { token: user.token })).toEqual(
    refused('Please complete the primary certification before proceeding to the advanced certification!'),
  );

  h.clock.advance(60_000);
  await opsOk(h, 'certification', 'reject', await submissionOf(user.id, 'primary'), 'The photo is blurred');
  expect((await h.call(certificationState, {}, { token: user.token })).data.primary).toMatchObject({
    status: 'rejected',
    reason: 'The photo is blurred',
    reviewed_at: h.clock.now().toISOString(),
  });
  expect(await statuses(user.token)).toMatchObject({ verification: 'rejected', primary: 'rejected' });
  expect(await h.call(submitCertification, await advancedForm(user.token), { token: user.token })).toEqual(
    refused(texts.primaryFirst.message),
  );

  const again = await h.call(
    submitCertification,
    await primaryForm(user.token, { doc_type: 'id_card', number: '1103700123456' }),
    { token: user.token },
  );
  expect(again.data.primary).toMatchObject({
    status: 'review',
    doc_type: 'id_card',
    number: '••••••••3456',
    reason: '',
    reviewed_at: null,
  });
  await opsOk(h, 'certification', 'approve', await submissionOf(user.id, 'primary'));
  expect(await statuses(user.token)).toEqual({
    verification: 'verified',
    advanced_verification: 'none',
    primary: 'verified',
    advanced: 'none',
  });
  expect(await h.call(submitCertification, await primaryForm(user.token), { token: user.token })).toEqual(
    refused('This certification has already been verified!'),
  );

  const advanced = await h.call(submitCertification, await advancedForm(user.token), { token: user.token });
  // Advanced carries the verified primary's document.
  expect(advanced.data.advanced).toMatchObject({
    status: 'review',
    doc_type: 'id_card',
    name: 'Somchai Jaidee',
    number: '••••••••3456',
  });
  expect(await statuses(user.token)).toEqual({
    verification: 'verified',
    advanced_verification: 'review',
    primary: 'verified',
    advanced: 'review',
  });
  expect(await h.call(submitCertification, await advancedForm(user.token), { token: user.token })).toEqual(
    refused('Your certification is under review, please wait!'),
  );
  await opsOk(h, 'certification', 'approve', await submissionOf(user.id, 'advanced'));
  expect(await statuses(user.token)).toEqual({
    verification: 'verified',
    advanced_verification: 'verified',
    primary: 'verified',
    advanced: 'verified',
  });
  expect(await h.call(submitCertification, await advancedForm(user.token), { token: user.token })).toEqual(
    refused('This certification has already been verified!'),
  );
});

it('never sends the document number back whole', async () => {
  const user = await customer(h);
  const answers = [
    await h.call(submitCertification, await primaryForm(user.token), { token: user.token }),
    await h.call(certificationState, {}, { token: user.token }),
  ];
  await opsOk(h, 'certification', 'approve', await submissionOf(user.id, 'primary'));
  answers.push(
    await h.call(submitCertification, await advancedForm(user.token), { token: user.token }),
    await h.call(certificationState, {}, { token: user.token }),
  );
  for (const answer of answers) {
    expect(answer.ret).toBe(1);
    expect(JSON.stringify(answer)).not.toContain('AA9876');
    expect(JSON.stringify(answer)).toContain(MASKED);
  }
});

it('reads a document number as written: spaces removed, digits and letters of any of the six languages’ input', async () => {
  const cases: [string, string][] = [
    ['๑ ๒๓๔๕ ๖๗๘๙๐ ๑๒ ๓', '1234567890123'], // a Thai ID card's grouping, in Thai digits
    ['१२३४ ५६७८ ९०१२', '123456789012'], // Devanagari
    ['ＡＡ９８７６５４３２', 'AA98765432'], // full-width, as Chinese and Japanese input types it
    ['AA-٩٨٧٦٥٤٣٢', 'AA-98765432'], // Arabic-Indic digits, the dash kept
  ];
  for (const [number, kept] of cases) {
    const user = await customer(h);
    const answer = await h.call(submitCertification, await primaryForm(user.token, { number }), { token: user.token });
    expect(answer.data?.primary.number, number).toMatch(new RegExp(`^•+${kept.slice(-4)}$`));
    const [row] = await h.database.db.select().from(certifications).where(eq(certifications.userId, user.id));
    expect(row!.number, number).toBe(kept);
  }
});

it('a closure ends a certification in review with its reason, and the operator can no longer approve it', async () => {
  const user = await customer(h);
  await h.call(submitCertification, await primaryForm(user.token), { token: user.token });
  const primary = await submissionOf(user.id, 'primary');
  const closed = await h.call(
    closeAccount,
    { secret_kind: 'login', secret: PASSWORD, amounts: '' },
    { token: user.token, idempotencyKey: `certification-close-${user.id}` },
  );
  expect(closed.ret).toBe(1);
  const ended = {
    status: 'rejected',
    reason: 'Your account was closed before this certification was reviewed.',
    reviewedAt: h.clock.now(),
  };
  const [row] = await h.database.db
    .select()
    .from(certifications)
    .where(eq(certifications.id, Number(primary)));
  expect(row).toMatchObject(ended);
  const [account] = await h.database.db.select().from(users).where(eq(users.id, user.id));
  expect(account).toMatchObject({ verification: 'rejected' });
  for (const review of [['approve'], ['reject', 'The photo is blurred']])
    expect(await ops(h, 'certification', review[0]!, primary, ...review.slice(1))).toEqual({
      ok: false,
      output: `Certification ${primary} belongs to a closed account: its closure ended the review, it can no longer be approved or rejected.`,
    });
  // In the console, in the reviewer's language.
  const reviewer = await operatorToken(h, 'reviewer', 'reviewer');
  expect(await h.call(consoleApproveCertification, { id: primary }, { token: reviewer, lang: 'th' })).toEqual(
    refused(`การยืนยันตัวตน ${primary} เป็นของบัญชีที่ปิดแล้ว: การปิดบัญชีได้ยุติการตรวจสอบ จึงไม่สามารถอนุมัติหรือปฏิเสธได้อีก`),
  );
  const [after] = await h.database.db
    .select()
    .from(certifications)
    .where(eq(certifications.id, Number(primary)));
  expect(after).toMatchObject(ended);
});

it('a rejected advanced submission can be sent again; a review applies once', async () => {
  const user = await customer(h);
  await h.call(submitCertification, await primaryForm(user.token), { token: user.token });
  const primary = await submissionOf(user.id, 'primary');
  await opsOk(h, 'certification', 'approve', primary);
  expect(await ops(h, 'certification', 'reject', primary, 'changed my mind')).toEqual({
    ok: false,
    output: `Certification ${primary} was already reviewed (Approved).`,
  });
  expect((await statuses(user.token)).verification).toBe('verified');

  await h.call(submitCertification, await advancedForm(user.token), { token: user.token });
  await opsOk(
    h,
    'certification',
    'reject',
    await submissionOf(user.id, 'advanced'),
    'Hold the document next to your face',
  );
  expect((await h.call(certificationState, {}, { token: user.token })).data.advanced).toMatchObject({
    status: 'rejected',
    reason: 'Hold the document next to your face',
  });
  expect((await statuses(user.token)).advanced_verification).toBe('rejected');
  expect(
    (await h.call(submitCertification, await advancedForm(user.token), { token: user.token })).data.advanced,
  ).toMatchObject({ status: 'review', reason: '' });
});

it('records one submission of five sent at once, each with its own photo; the others are told it is in review', async () => {
  const user = await customer(h);
  const forms = await Promise.all(Array.from({ length: 5 }, () => primaryForm(user.token)));
  const answers = await Promise.all(forms.map((form) => h.call(submitCertification, form, { token: user.token })));
  expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(1);
  expect(answers.filter((answer) => answer.ret !== 1)).toEqual(
    Array.from({ length: 4 }, () => refused('Your certification is under review, please wait!')),
  );
  expect(await h.database.db.select().from(certifications).where(eq(certifications.userId, user.id))).toHaveLength(1);
  expect(await statuses(user.token)).toMatchObject({ verification: 'review', primary: 'review' });
});

describe('refusals record nothing', () => {
  it('refuses a missing document type, name, number or photo with its own text', async () => {
    const user = await customer(h);
    const cases: [Record<string, string>, string][] = [
      [{ doc_type: 'visa' }, 'Please choose the document type!'],
      [{ doc_type: '' }, 'Please choose the document type!'],
      [{ name: ' ' }, 'Please fill in the information and try again!'],
      [{ number: '' }, 'Please fill in the information and try again!'],
      [{ number: 'AB 1' }, 'Please fill in the information and try again!'],
      [{ number: 'AB/123' }, 'Please fill in the information and try again!'],
      [{ number: 'АВ1234' }, 'Please fill in the information and try again!'], // Cyrillic
      // Dashes are what a number is grouped by: alone, or with fewer than 4 letters and digits, they are no number.
      [{ number: '----' }, 'Please fill in the information and try again!'],
      [{ number: '-A-1-2-' }, 'Please fill in the information and try again!'],
      [{ image: '' }, 'Please upload a photo of the document!'],
      [{ image: 'https://example.com/id.png' }, 'Please upload a photo of the document!'],
      [{ image: '/api/uploads/notanuploadatall' }, 'Please upload a photo of the document!'],
    ];
    for (const [fields, text] of cases) {
      expect(
        await h.call(submitCertification, await primaryForm(user.token, fields), { token: user.token }),
        JSON.stringify(fields),
      ).toEqual(refused(text));
    }
    expect(await h.call(submitCertification, { level: 'expert' }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
    expect(await h.database.db.select().from(certifications).where(eq(certifications.userId, user.id))).toEqual([]);
    expect(await statuses(user.token)).toEqual({
      verification: 'none',
      advanced_verification: 'none',
      primary: 'none',
      advanced: 'none',
    });
  });
});

describe('the advanced photos are pictures of their own', () => {
  it('refuses one picture sent as both photos, or as the front’s, however uploaded, and records nothing', async () => {
    const user = await customer(h);
    const front = picturePng();
    const primaryImage = await uploadedPicture(h, user.token, front);
    await h.call(submitCertification, await primaryForm(user.token, { image: primaryImage }), { token: user.token });
    await opsOk(h, 'certification', 'approve', await submissionOf(user.id, 'primary'));
    const back = picturePng();
    const backImage = await uploadedPicture(h, user.token, back);
    const SAME = refused('Each photo must be a picture of its own: the front, the back and you holding the document!');
    for (const [image_back, image_hold] of [
      [backImage, backImage],
      // The same file uploaded twice is one picture.
      [backImage, await uploadedPicture(h, user.token, back)],
      // The front's photo again, as the back or as the photo holding it.
      [primaryImage, await uploadedPicture(h, user.token)],
      [backImage, await uploadedPicture(h, user.token, front)],
    ]) {
      expect(
        await h.call(submitCertification, { level: 'advanced', image_back, image_hold }, { token: user.token }),
      ).toEqual(SAME);
    }
    expect(await h.database.db.select().from(certifications).where(eq(certifications.userId, user.id))).toHaveLength(1);
    expect((await statuses(user.token)).advanced).toBe('none');
    // Two pictures of their own go to review.
    const sent = await h.call(
      submitCertification,
      { level: 'advanced', image_back: backImage, image_hold: await uploadedPicture(h, user.token) },
      { token: user.token },
    );
    expect(sent.data.advanced.status).toBe('review');
  });
});
