// Text a person names things with, as the server takes it: every field refuses a right-to-left override,
// a zero-width character and a value of Hangul fillers alone with `ret 0` and the text in the caller's
// language, and writes nothing; names of the six languages are kept, composed (NFC). The payee-added
// notice isolates the alias, so the address tail after it reads in its real order. The migration that
// removes stored anti-phishing codes holding an invisible character tells each owner why.
import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editProfile, sendEmailCode, userInfo } from '../../src/api-contract/account.ts';
import { antiPhishingStatus, setAntiPhishing } from '../../src/api-contract/anti-phishing.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { consoleConversations, consoleReplyConversation } from '../../src/api-contract/console-service.ts';
import type { Endpoint } from '../../src/api-contract/endpoint.ts';
import { messages as messageList } from '../../src/api-contract/messages.ts';
import { addWallet } from '../../src/api-contract/add-wallet.ts';
import { addBankCard, editPayeeLabel } from '../../src/api-contract/payouts.ts';
import { sendChatMessage } from '../../src/api-contract/service-chat.ts';
import { texts } from '../../src/api-contract/texts.ts';
import {
  bankCards,
  certifications,
  messages,
  outbox,
  serviceMessages,
  users,
  wallets,
} from '../../src/server/db/schema.ts';
import { addTronWallet, cardForm, newTronAddress, uploadedPicture } from './funds-helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';

let h: Harness;
let reviewer: string;
beforeAll(async () => {
  h = await startHarness();
  reviewer = await operatorToken(h, 'vera', 'reviewer');
});
afterAll(() => h.close());

/** "Please remove invisible or direction-changing characters!" in each of the six languages. */
const HIDDEN = {
  en: 'Please remove invisible or direction-changing characters!',
  zh: '请删除不可见字符或改变文字方向的字符！',
  th: 'โปรดลบอักขระที่มองไม่เห็นหรืออักขระที่เปลี่ยนทิศทางข้อความ!',
  jp: '目に見えない文字や文字の向きを変える文字を削除してください！',
  ar: 'يُرجى إزالة الأحرف غير المرئية أو الأحرف التي تغيّر اتجاه النص!',
  hi: 'कृपया अदृश्य अक्षर या लिखने की दिशा बदलने वाले अक्षर हटाएँ!',
} as const;
const LANGUAGES = Object.keys(HIDDEN) as (keyof typeof HIDDEN)[];

/** "Please remove the marks stacked on a letter: at most 30 in a row!" in each of the six languages. */
const STACKED = {
  en: 'Please remove the marks stacked on a letter: at most 30 in a row!',
  zh: '请删除叠加在同一个字符上的符号：最多连续 30 个！',
  th: 'โปรดลบเครื่องหมายที่ซ้อนอยู่บนตัวอักษร: ซ้อนติดกันได้ไม่เกิน 30 ตัว!',
  jp: '1 つの文字に重ねた記号を削除してください：続けて 30 個までです！',
  ar: 'يُرجى إزالة العلامات المتراكمة على الحرف: 30 علامة متتالية كحدٍّ أقصى!',
  hi: 'कृपया किसी अक्षर पर जमा किए गए चिह्न हटाएँ: लगातार अधिकतम 30!',
} as const;
/** One letter under `count` combining marks that draw over the lines above and below it. */
const tower = (count: number) => `Z${'\u0336\u0301\u0316'.repeat(count).slice(0, count)}`;

const RLO = 'Mom\u202Egnp.exe';
const ZERO_WIDTH = 'Mo\u200Bm';
const FILLERS = '\u3164\u3164\u3164\u3164';

/** Everything these calls could write for one customer. */
async function written(userId: number) {
  const db = h.database.db;
  return {
    user: await db.select().from(users).where(eq(users.id, userId)),
    cards: await db.select().from(bankCards).where(eq(bankCards.userId, userId)).orderBy(asc(bankCards.id)),
    wallets: await db.select().from(wallets).where(eq(wallets.userId, userId)).orderBy(asc(wallets.id)),
    certifications: await db.select().from(certifications).where(eq(certifications.userId, userId)),
    chat: await db.select().from(serviceMessages).orderBy(asc(serviceMessages.id)),
    messages: await db.select().from(messages).where(eq(messages.userId, userId)).orderBy(asc(messages.id)),
  };
}

type Form = Record<string, string>;
interface Field {
  endpoint: Endpoint;
  /** The form around the field, for a customer (their token, a picture they uploaded, a wallet they hold). */
  form: (ctx: { token: string; picture: string; walletId: string }) => Form;
  field: string;
  /** The answer to a value of fillers alone: the field's own "missing" text, or the hidden one. */
  blank: string | null;
  operator?: boolean;
}

const FIELDS: [string, Field][] = [
  ['nickname', { endpoint: editProfile, form: () => ({}), field: 'nickname', blank: texts.enterNickname.message }],
  ['bank card label', { endpoint: addBankCard, form: () => cardForm(), field: 'label', blank: null }],
  [
    'bank card holder',
    { endpoint: addBankCard, form: () => cardForm(), field: 'real_name', blank: texts.fillInformation.message },
  ],
  [
    'wallet alias',
    {
      endpoint: addWallet,
      form: () => ({ currency: 'USDT', chain: 'TRC20', address: newTronAddress() }),
      field: 'alias',
      blank: texts.fillInformation.message,
    },
  ],
  [
    'payee label (rename)',
    {
      endpoint: editPayeeLabel,
      form: ({ walletId }) => ({ kind: 'wallet', id: walletId }),
      field: 'label',
      blank: null,
    },
  ],
  [
    'anti-phishing code',
    { endpoint: setAntiPhishing, form: () => ({}), field: 'phrase', blank: texts.enterAntiPhishingCode.message },
  ],
  ['chat message', { endpoint: sendChatMessage, form: () => ({}), field: 'body', blank: null }],
  [
    'certification name',
    {
      endpoint: submitCertification,
      form: ({ picture }) => ({ level: 'primary', doc_type: 'passport', number: 'AB123456', image: picture }),
      field: 'name',
      blank: texts.fillInformation.message,
    },
  ],
];

describe.each(FIELDS)('%s', (_name, { endpoint, form, field, blank }) => {
  let ctx: { token: string; picture: string; walletId: string; id: number };
  beforeAll(async () => {
    const user = await customer(h);
    const wallet = await addTronWallet(h, user.token);
    ctx = {
      token: user.token,
      id: user.id,
      picture: await uploadedPicture(h, user.token),
      walletId: String(wallet.id),
    };
  });

  it.each(LANGUAGES)(
    '%s: an override or a zero-width character is refused in that language, nothing written',
    async (lang) => {
      const before = await written(ctx.id);
      for (const value of [RLO, ZERO_WIDTH]) {
        const res = await h.call(endpoint, { ...form(ctx), [field]: value }, { token: ctx.token, lang });
        expect(res, JSON.stringify(value)).toEqual(refused(HIDDEN[lang]));
      }
      expect(await written(ctx.id)).toEqual(before);
    },
  );

  it.each(LANGUAGES)(
    '%s: a letter under 159 stacked marks is refused in that language, nothing written',
    async (lang) => {
      const before = await written(ctx.id);
      const res = await h.call(endpoint, { ...form(ctx), [field]: tower(159) }, { token: ctx.token, lang });
      expect(res).toEqual(refused(STACKED[lang]));
      expect(await written(ctx.id)).toEqual(before);
    },
  );

  it('a value of Hangul fillers alone shows nothing: refused, nothing written', async () => {
    const before = await written(ctx.id);
    const res = await h.call(endpoint, { ...form(ctx), [field]: FILLERS }, { token: ctx.token, lang: 'en' });
    expect(res).toEqual(refused(blank ?? HIDDEN.en));
    expect(await written(ctx.id)).toEqual(before);
  });
});

describe('an operator’s answer in the chat', () => {
  it('refuses an override with the text in the operator’s language, and writes nothing', async () => {
    const user = await customer(h);
    expect(await h.call(sendChatMessage, { body: 'Hello' }, { token: user.token })).toMatchObject({ ret: 1 });
    const list = await h.call(consoleConversations, { view: 'open' }, { token: reviewer });
    const id = String(list.data.find((row) => row.user_id === user.id)!.id);
    const before = await written(user.id);
    for (const lang of ['en', 'zh', 'th'] as const) {
      const res = await h.call(consoleReplyConversation, { id, body: `See ${RLO}` }, { token: reviewer, lang });
      expect(res).toEqual(refused(HIDDEN[lang]));
    }
    expect(await written(user.id)).toEqual(before);
  });

  it('refuses 16,000 marks stacked on one letter, translated, and writes nothing', async () => {
    const user = await customer(h);
    const stacked = `Hello ${tower(16_000)}`;
    expect(await h.call(sendChatMessage, { body: stacked }, { token: user.token })).toEqual(refused(STACKED.en));
    expect(await h.call(sendChatMessage, { body: 'Hello' }, { token: user.token })).toMatchObject({ ret: 1 });
    const list = await h.call(consoleConversations, { view: 'open' }, { token: reviewer });
    const id = String(list.data.find((row) => row.user_id === user.id)!.id);
    const before = await written(user.id);
    for (const lang of ['en', 'ar', 'hi'] as const) {
      const res = await h.call(consoleReplyConversation, { id, body: stacked }, { token: reviewer, lang });
      expect(res).toEqual(refused(STACKED[lang]));
    }
    expect(await written(user.id)).toEqual(before);
  });
});

describe('names of the six languages', () => {
  it.each([
    ['en', 'José', 'Jose\u0301'],
    ['zh', '王小明', '王小明'],
    ['th', 'น้ำผึ้ง ใจดี', 'น้ำผึ้ง ใจดี'],
    ['jp', '山田 太郎', '山田\u3000太郎'],
    ['ar', 'مُحَمَّد', 'مُحَمَّد'],
    ['hi', 'प्रिया शर्मा', 'प्रिया शर्मा'],
    ['ar', 'عَبْدُ ٱللَّٰه', 'عَبْدُ ٱللَّٰه'],
    ['th', 'ศักดิ์สิทธิ์', 'ศักดิ์สิทธิ์'],
    ['hi', 'क्षत्रिय', 'क्षत्रिय'],
  ])('%s: %s is kept (typed as %j), composed', async (lang, kept, typed) => {
    const { token } = await customer(h);
    expect(await h.call(editProfile, { nickname: typed }, { token, lang })).toMatchObject({ ret: 1 });
    expect((await h.call(userInfo, {}, { token })).data.nickname).toBe(kept);
    const card = await h.call(addBankCard, cardForm({ real_name: typed, label: typed }), { token, lang });
    expect(card).toMatchObject({ ret: 1, data: { real_name: kept, label: kept } });
  });

  it('a card holder’s name of emoji or past 60 characters is refused with the name’s rule, translated', async () => {
    const { token, id } = await customer(h);
    const before = await written(id);
    for (const real_name of ['😀😀', 'A'.repeat(300)]) {
      const english = await h.call(addBankCard, cardForm({ real_name }), { token, lang: 'en' });
      expect(english).toEqual(refused(texts.realNameFormat.message!));
      const thai = await h.call(addBankCard, cardForm({ real_name }), { token, lang: 'th' });
      expect(thai).toEqual(refused(expect.stringContaining('กรุณากรอกชื่อบุคคล')));
    }
    expect(await written(id)).toEqual(before);
  });

  it('a name longer in code units than its limit, not in characters, is kept; a character more is refused', async () => {
    const { token, id } = await customer(h);
    // 14 and 11 characters to a reader, 24 and 23 UTF-16 units: a nickname holds 20 characters.
    for (const name of ['สมศักดิ์ ศักดิ์สิทธิ์ชัย', 'श्रीमती राजलक्ष्मी देवी']) {
      expect(await h.call(editProfile, { nickname: name }, { token, lang: 'th' })).toMatchObject({ ret: 1 });
      expect((await h.call(userInfo, {}, { token })).data.nickname).toBe(name);
    }
    const before = await written(id);
    const res = await h.call(editProfile, { nickname: 'ดิ์'.repeat(21) }, { token, lang: 'th' });
    expect(res).toEqual(refused('กรุณากรอกชื่อเล่นความยาว 1-20 ตัวอักษร'));
    expect(await written(id)).toEqual(before);
    const family = '👨‍👩‍👧‍👦';
    const message = await h.call(sendChatMessage, { body: family.repeat(1000) }, { token });
    expect(message).toMatchObject({ ret: 1, data: { body: family.repeat(1000) } });
  });

  it('an emoji sequence (ZWJ between emoji) is kept in a chat message', async () => {
    const { token } = await customer(h);
    const res = await h.call(sendChatMessage, { body: 'Thanks 👨‍👩‍👧 ❤️' }, { token });
    expect(res).toMatchObject({ ret: 1, data: { body: 'Thanks 👨‍👩‍👧 ❤️' } });
  });
});

describe('the payee-added notice', () => {
  it('isolates the alias, so the address tail after it reads in its real order', async () => {
    const { token } = await customer(h);
    const address = newTronAddress();
    const res = await h.call(addWallet, { alias: 'محفظة أمي', currency: 'USDT', chain: 'TRC20', address }, { token });
    expect(res).toMatchObject({ ret: 1 });
    const notice = (await h.call(messageList, { page: '1' }, { token })).data.lists.find(
      (message) => message.title === 'New withdrawal address added',
    );
    expect(notice!.content).toContain(`\u2068محفظة أمي\u2069 (USDT TRC20 …${address.slice(-6)}) was added`);
  });
});

describe('the migration of stored anti-phishing codes', () => {
  const migration = readFileSync(
    new URL('../../src/server/db/migrations/0026_retire_hidden_anti_phishing_codes.sql', import.meta.url),
    'utf8',
  );
  const runMigration = () => h.database.db.execute(sql.raw(migration));

  it('removes a code holding an invisible character and tells its owner why, in their language; keeps the rest', async () => {
    const blank = await customer(h);
    const hidden = await customer(h);
    const fine = await customer(h);
    const db = h.database.db;
    // Codes the old rule let through: fillers alone, and a variation selector inside words.
    await db.update(users).set({ antiPhishingCode: '\u3164\u3164\u3164\u3164' }).where(eq(users.id, blank.id));
    await db.update(users).set({ antiPhishingCode: 'Blue\uFE0F heron' }).where(eq(users.id, hidden.id));
    expect(await h.call(setAntiPhishing, { phrase: 'นกกระยาง ๔๒' }, { token: fine.token })).toMatchObject({ ret: 1 });
    // The last message sent to the second customer was in Thai.
    await db
      .insert(outbox)
      .values({ channel: 'sms', target: hidden.phone, userId: hidden.id, language: 'th', body: 'x' });
    const fineBefore = await written(fine.id);

    await runMigration();

    for (const { token } of [blank, hidden])
      expect(await h.call(antiPhishingStatus, {}, { token })).toMatchObject({ ret: 1, data: { phrase: null } });
    const titled = async (token: string, title: string) =>
      (await h.call(messageList, { page: '1' }, { token })).data.lists.filter((message) => message.title === title);
    expect(await titled(blank.token, 'Anti-phishing code removed')).toEqual([
      expect.objectContaining({ content: expect.stringContaining('held characters that cannot be seen') }),
    ]);
    expect(await titled(hidden.token, 'ลบรหัสป้องกันฟิชชิงแล้ว')).toEqual([
      expect.objectContaining({ content: expect.stringContaining('มองไม่เห็น') }),
    ]);
    expect(await written(fine.id)).toEqual(fineBefore);

    // A second run finds nothing more to do.
    const count = async () => (await db.select().from(messages)).length;
    const messagesBefore = await count();
    await runMigration();
    expect(await count()).toBe(messagesBefore);
  });
});

/** A call sent as its bytes: `body` form-encoded as it is, never encoded again. */
async function sentRaw(token: string, method: 'GET' | 'POST', url: string, body?: string | Buffer) {
  const response = await h.app.inject({
    method,
    url,
    headers: {
      lang: 'en',
      token,
      ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    payload: body,
  });
  return response.json();
}

describe('bytes that spell no character', () => {
  it('a form escape or a raw byte that is no UTF-8 is refused as unsupported, never stored as its escape', async () => {
    const user = await customer(h);
    const before = await written(user.id);
    const url = `/api${editProfile.path}`;
    for (const body of ['nickname=ab%ED%A0%80cd', 'nickname=ab%FFcd', 'nickname=ab%C0%AFcd']) {
      expect(await sentRaw(user.token, 'POST', url, body), body).toEqual(refused(texts.unsupportedCharacters.message));
    }
    const rawByte = Buffer.concat([Buffer.from('nickname=ab'), Buffer.from([0xff]), Buffer.from('cd')]);
    expect(await sentRaw(user.token, 'POST', url, rawByte)).toEqual(refused(texts.unsupportedCharacters.message));
    expect(await written(user.id)).toEqual(before);
    // A percent sign that escapes nothing is what was typed: kept as it is, as a browser's form parser does.
    expect(await sentRaw(user.token, 'POST', url, 'nickname=50%25 off')).toMatchObject({
      ret: 1,
      data: { nickname: '50% off' },
    });
  });

  it('a query string is read the same way', async () => {
    const user = await customer(h);
    const sent = h.sent.length;
    expect(await sentRaw(user.token, 'GET', `/api${sendEmailCode.path}?email=ab%FF%40example.com`)).toEqual(
      refused(texts.unsupportedCharacters.message),
    );
    expect(h.sent.length).toBe(sent);
  });
});

describe('e-mail addresses', () => {
  it('one holding an override, a zero-width space or a control character is refused and sent nothing', async () => {
    const user = await customer(h);
    const sent = h.sent.length;
    for (const email of [
      '\u202Eabc@example.com',
      'ab\u200Bc@example.com',
      'user@exa\u200Bmple.com',
      'x\u007F@example.com',
    ])
      expect(await h.call(sendEmailCode, { email }, { token: user.token }), JSON.stringify(email)).toEqual(
        refused(HIDDEN.en),
      );
    expect(h.sent.length).toBe(sent);
  });
});

describe('tag characters', () => {
  const tags = (text: string) => [...text].map((char) => String.fromCodePoint(0xe0000 + char.codePointAt(0)!)).join('');
  it('after any emoji but the black flag they hide text: refused in a chat message and a nickname', async () => {
    const user = await customer(h);
    const before = await written(user.id);
    const smuggled = `Hello \u{1F600}${tags('pay to TXYZ')}\u{E007F}`;
    expect(await h.call(sendChatMessage, { body: smuggled }, { token: user.token })).toEqual(refused(HIDDEN.en));
    expect(await h.call(editProfile, { nickname: `A\u{1F600}${tags('hi')}\u{E007F}` }, { token: user.token })).toEqual(
      refused(HIDDEN.en),
    );
    expect(await written(user.id)).toEqual(before);
    // Scotland's flag: the black flag, "gbsct" in tag letters, the cancel tag.
    const scotland = `\u{1F3F4}${tags('gbsct')}\u{E007F}`;
    expect(await h.call(editProfile, { nickname: `Ali ${scotland}` }, { token: user.token })).toMatchObject({
      ret: 1,
      data: { nickname: `Ali ${scotland}` },
    });
  });
});
