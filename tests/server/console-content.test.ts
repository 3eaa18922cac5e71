// The console's content calls: the content role reads an item's versions side by
// side and writes one language's version, which customers of that language read at once (the
// English one being every other language's fallback); each write is one audit entry, a refused one
// none; reviewers and admins are turned away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, gt } from 'drizzle-orm';
import {
  CONTENT_TITLE_MAX,
  consoleContentItems,
  consoleContentVersions,
  consoleSaveContentVersion,
} from '../../src/api-contract/console-content.ts';
import { config, slides } from '../../src/api-contract/content.ts';
import { activityInfo } from '../../src/api-contract/activities.ts';
import { contentPage } from '../../src/api-contract/support.ts';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { DEMO_NOTICE } from '../../src/server/db/seed-translations.ts';
import { activities, auditLog } from '../../src/server/db/schema.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, refused } from './helpers.ts';
import { lockupOrders, lockupProduct, lockupProducts, lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { blindBoxInfo, rotateSeed } from '../../src/api-contract/blindbox.ts';
import { consolePublishPrizeTable } from '../../src/api-contract/console-rewards.ts';
import { operatorToken } from './console-helpers.ts';
import { messages } from '../../src/api-contract/messages.ts';
import { setAntiPhishing } from '../../src/api-contract/anti-phishing.ts';

let h: Harness;
let writer: string;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
  writer = await operatorToken(h, 'carla', 'content');
});
afterAll(() => h.close());

const auditsAfter = async (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const save = (input: Record<string, string>, token = writer) => h.call(consoleSaveContentVersion, input, { token });

describe('station messages', () => {
  it('lists and edits messages to everyone only: one addressed to a customer (a security notice with their anti-phishing code) is neither shown nor rewritten', async () => {
    const user = await customer(h);
    expect((await h.call(setAntiPhishing, { phrase: 'Blue Tiger 42' }, { token: user.token })).ret).toBe(1);
    const [notice] = (await h.call(messages, { status: 'all' }, { token: user.token })).data.lists;
    expect(notice!.content).toContain('Blue Tiger 42');
    const listed = (await h.call(consoleContentItems, { kind: 'message' }, { token: writer })).data;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.map((item) => item.id)).not.toContain(String(notice!.id));
    expect(JSON.stringify(listed)).not.toContain('Blue Tiger 42');

    const since = await lastAuditId();
    const gone = refused('This record does not exist!');
    expect(
      await h.call(consoleContentVersions, { kind: 'message', id: String(notice!.id) }, { token: writer }),
    ).toEqual(gone);
    for (const lang of ['en', 'ar'])
      expect(
        await save({ kind: 'message', id: String(notice!.id), lang, title: 'Verify now', body: 'Call +123 456' }),
      ).toEqual(gone);
    expect(await auditsAfter(since)).toEqual([]);
    // The customer reads the notice as it was posted, in English and in Arabic.
    expect((await h.call(messages, { status: 'all' }, { token: user.token })).data.lists[0]).toEqual(notice);
    const arabic = (await h.call(messages, { status: 'all' }, { token: user.token, lang: 'ar' })).data.lists[0]!;
    expect(arabic.id).toBe(notice!.id);
    expect(arabic.content).toContain('Blue Tiger 42');
    expect(arabic.content).not.toContain('+123');
  });
});

describe('side by side', () => {
  it('shows every language’s version of the notice, English first, and which languages have none', async () => {
    expect((await h.call(consoleContentItems, { kind: 'notice' }, { token: writer })).data).toEqual([
      { id: 'scroll_notice', title: DEMO_NOTICE.en },
    ]);
    const versions = (await h.call(consoleContentVersions, { kind: 'notice', id: 'scroll_notice' }, { token: writer }))
      .data;
    expect(versions.map((version) => version.lang)).toEqual([...LOCALES]);
    expect(versions.map((version) => [version.lang, version.body])).toEqual(
      LOCALES.map((lang) => [lang, DEMO_NOTICE[lang]]),
    );
    expect(versions.every((version) => version.written)).toBe(true);
  });

  it('marks a language with no version of an activity as not written', async () => {
    const [row] = await h.database.db
      .insert(activities)
      .values({ title: 'Only English', body: '<p>Text</p>', startsAt: h.clock.now() })
      .returning();
    const versions = (
      await h.call(consoleContentVersions, { kind: 'activity', id: String(row!.id) }, { token: writer })
    ).data;
    expect(versions[0]).toEqual({ lang: 'en', written: true, title: 'Only English', body: '<p>Text</p>' });
    expect(versions.slice(1).map((version) => version.written)).toEqual([false, false, false, false, false]);
  });
});

describe('writing one language', () => {
  it('shows the Arabic notice to Arabic customers at once, and leaves one audit entry of who wrote what', async () => {
    const since = await lastAuditId();
    const answer = await save({ kind: 'notice', id: 'scroll_notice', lang: 'ar', body: 'إشعار جديد للعملاء' });
    expect(answer.ret, answer.msg).toBe(1);
    expect(answer.data.find((version) => version.lang === 'ar')).toEqual({
      lang: 'ar',
      written: true,
      title: '',
      body: 'إشعار جديد للعملاء',
    });
    expect((await h.call(config, { act: 'system' }, { lang: 'ar' })).data.scroll_notice).toBe('إشعار جديد للعملاء');
    expect((await h.call(config, { act: 'system' }, { lang: 'en' })).data.scroll_notice).toBe(DEMO_NOTICE.en);
    const audits = await auditsAfter(since);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      operator: 'carla',
      action: 'content.version',
      target: 'notice:scroll_notice:ar',
      before: { lang: 'ar', body: DEMO_NOTICE.ar },
      after: { lang: 'ar', body: 'إشعار جديد للعملاء' },
    });
  });

  it('keeps the notice as the one line that scrolls by: line breaks and tabs are the spaces customers see', async () => {
    const answer = await save({
      kind: 'notice',
      id: 'scroll_notice',
      lang: 'jp',
      body: 'メンテナンス\r\n\t今夜\n\n02:00 UTC',
    });
    expect(answer.data.find((version) => version.lang === 'jp')?.body).toBe('メンテナンス 今夜 02:00 UTC');
    expect((await h.call(config, { act: 'system' }, { lang: 'jp' })).data.scroll_notice).toBe(
      'メンテナンス 今夜 02:00 UTC',
    );
  });

  it('writes English into the item itself: every language without its own version shows it', async () => {
    const id = String((await h.call(slides, { position: 'home' }, { lang: 'en' })).data.lists[0]!.id);
    expect((await save({ kind: 'slide', id, lang: 'en', title: 'Options, settled from recorded prices' })).ret).toBe(1);
    expect((await h.call(slides, { position: 'home' }, { lang: 'en' })).data.lists[0]!.title).toBe(
      'Options, settled from recorded prices',
    );
    expect((await h.call(slides, { position: 'home' }, { lang: 'th' })).data.lists[0]!.title).toBe(
      'เทรดออปชันได้ในไม่กี่นาที',
    );
    const [row] = await h.database.db
      .insert(activities)
      .values({ title: 'Draft', body: '<p>Draft</p>', startsAt: h.clock.now() })
      .returning();
    expect(
      (
        await save({
          kind: 'activity',
          id: String(row!.id),
          lang: 'en',
          title: 'Autumn draw',
          body: '<p>Draw <b>now</b></p>',
        })
      ).ret,
    ).toBe(1);
    expect((await h.call(activityInfo, { id: String(row!.id) }, { lang: 'hi' })).data).toMatchObject({
      title: 'Autumn draw',
      body: '<p>Draw <b>now</b></p>',
    });
  });

  it('keeps an activity’s body sanitised and writes a page in one language', async () => {
    const [row] = await h.database.db
      .insert(activities)
      .values({ title: 'Sale', body: '<p>Sale</p>', startsAt: h.clock.now() })
      .returning();
    expect(
      (
        await save({
          kind: 'activity',
          id: String(row!.id),
          lang: 'th',
          title: 'ลดราคา',
          body: '<p>ลดราคา</p><script>steal()</script><img src=x onerror=alert(1)>',
        })
      ).ret,
    ).toBe(1);
    const details = (await h.call(activityInfo, { id: String(row!.id) }, { lang: 'th' })).data;
    expect(details.title).toBe('ลดราคา');
    expect(details.body).toContain('<p>ลดราคา</p>');
    expect(details.body).not.toMatch(/script|onerror|steal/);
    expect(
      await h.database.db.select({ title: activities.title }).from(activities).where(eq(activities.id, row!.id)),
    ).toEqual([{ title: 'Sale' }]);

    expect((await save({ kind: 'page', id: 'faq', lang: 'hi', title: 'सवाल', body: 'नया जवाब' })).ret).toBe(1);
    expect((await h.call(contentPage, { key: 'faq' }, { lang: 'hi' })).data).toEqual({
      key: 'faq',
      lang: 'hi',
      title: 'सवाल',
      body: 'नया जवाब',
    });
  });

  it('refuses a version missing what the item shows, or of no item, and records nothing', async () => {
    const since = await lastAuditId();
    expect(await save({ kind: 'slide', id: '1', lang: 'ar', title: '   ' })).toEqual(
      refused('Write every field this item shows: its title, its text, or both!'),
    );
    expect(await save({ kind: 'message', id: '999999', lang: 'ar', title: 'عنوان', body: 'نص' })).toEqual(
      refused('This record does not exist!'),
    );
    expect(await save({ kind: 'page', id: 'nothing', lang: 'ar', title: 'عنوان', body: 'نص' })).toEqual(
      refused('This record does not exist!'),
    );
    expect(await auditsAfter(since)).toEqual([]);
  });

  it('keeps what customers read visible: no invisible or direction-changing character, composed as typed', async () => {
    const since = await lastAuditId();
    const hidden = refused('Please remove invisible or direction-changing characters!');
    // A right-to-left override turns what follows around; a zero-width space hides inside a word.
    expect(await save({ kind: 'slide', id: '1', lang: 'ar', title: 'عرض \u202Eحصري' })).toEqual(hidden);
    expect(await save({ kind: 'message', id: '1', lang: 'th', title: 'ข่าว', body: 'ฝาก\u200Bเงิน' })).toEqual(hidden);
    expect(await save({ kind: 'notice', id: 'scroll_notice', lang: 'hi', body: '\u2066सूचना\u2069' })).toEqual(hidden);
    expect(await save({ kind: 'lockup', id: '1', lang: 'zh', title: '\u200B\u200C', body: '' })).toEqual(hidden);
    // In an activity's rich text a character reference is the character once shown, in text or in an attribute.
    const [activity] = await h.database.db.select().from(activities).limit(1);
    for (const body of [
      '<p>Win &#x202E;TDSU 001&#x202C; today</p>',
      '<p>Win&zwj; now</p>',
      '<p>Win&rlm; now</p>',
      '<img src="/x.png" alt="a&#x202E;b">',
    ])
      expect(await save({ kind: 'activity', id: String(activity!.id), lang: 'jp', title: '注意', body }), body).toEqual(
        hidden,
      );
    expect(await auditsAfter(since)).toEqual([]);
    // What reads the same is kept in one form (an accent typed as its own mark); a Devanagari half form's joiner and an
    // emoji sequence's are no hiding.
    const kept = (await save({ kind: 'slide', id: '1', lang: 'hi', title: 'Cafe\u0301  क्\u200Dष 👩\u200D💻' })).data;
    expect(kept.find((version) => version.lang === 'hi')!.title).toBe('Café क्\u200Dष 👩\u200D💻');
  });

  it('refuses more than 30 marks stacked on a letter, typed or as character references; keeps real marks', async () => {
    const since = await lastAuditId();
    const stacked = refused('Please remove the marks stacked on a letter: at most 30 in a row!');
    expect(await save({ kind: 'slide', id: '1', lang: 'th', title: `ลด${'\u0E48'.repeat(31)}ราคา` })).toEqual(stacked);
    const [activity] = await h.database.db.select().from(activities).limit(1);
    const body = `<p>Win Z${'&#x336;'.repeat(40)} now</p>`;
    expect(await save({ kind: 'activity', id: String(activity!.id), lang: 'jp', title: '注意', body })).toEqual(
      stacked,
    );
    expect(await auditsAfter(since)).toEqual([]);
    const title = 'ศักดิ์สิทธิ์ عَبْدُ ٱللَّٰه क्षत्रिय';
    const kept = (await save({ kind: 'slide', id: '1', lang: 'th', title })).data;
    expect(kept.find((version) => version.lang === 'th')!.title).toBe(title);
  });
});

describe('names of lock-up products and blind box prizes', () => {
  it('a product’s name in Thai reaches Thai customers: its list, its page and their orders', async () => {
    const items = (await h.call(consoleContentItems, { kind: 'lockup' }, { token: writer })).data;
    const products = (await h.call(lockupProducts, {}, { lang: 'en' })).data.lists;
    expect(items.map((item) => item.title)).toEqual(expect.arrayContaining(products.map((product) => product.name)));
    const week = products.find((product) => product.days === 7)!;
    // The products come with their names in every language; an operator rewrites the Thai one.
    expect((await h.call(lockupProduct, { id: String(week.id) }, { lang: 'th' })).data.name).toBe('ขุดแบบล็อก 7 วัน');
    expect(
      await save({ kind: 'lockup', id: String(week.id), lang: 'th', title: ' ล็อก 7 วัน   รับทุกวัน ', body: '' }),
    ).toMatchObject({ ret: 1 });
    const inThai = (await h.call(lockupProducts, {}, { lang: 'th' })).data.lists;
    expect(inThai.find((product) => product.id === week.id)!.name).toBe('ล็อก 7 วัน รับทุกวัน');
    expect((await h.call(lockupProduct, { id: String(week.id) }, { lang: 'th' })).data.name).toBe('ล็อก 7 วัน รับทุกวัน');
    // The other languages keep theirs.
    expect((await h.call(lockupProduct, { id: String(week.id) }, { lang: 'hi' })).data.name).toBe('लॉक-अप 7 दिन');

    const user = await customer(h, '500');
    const order = await h.call(
      lockupSubscribe,
      { product_id: String(week.id), amount: '100' },
      { token: user.token, lang: 'th' },
    );
    expect(order.data.name).toBe('ล็อก 7 วัน รับทุกวัน');
    const listed = (await h.call(lockupOrders, { status: 'all' }, { token: user.token, lang: 'th' })).data.lists;
    expect(listed.map((row) => row.name)).toEqual(['ล็อก 7 วัน รับทุกวัน']);
    expect((await h.call(lockupOrders, { status: 'all' }, { token: user.token })).data.lists[0]!.name).toBe(week.name);
  });

  it('a prize’s name in Arabic reaches Arabic customers, and a table published later keeps it for a prize it keeps', async () => {
    const admin = await operatorToken(h, 'cora', 'content');
    await h.call(
      consolePublishPrizeTable,
      { table: 'Jackpot:USDT:50:2500; Thanks for playing:POINT:0:997500' },
      {
        token: admin,
      },
    );
    const [jackpot, thanks] = (await h.call(consoleContentItems, { kind: 'prize' }, { token: writer })).data;
    expect([jackpot!.title, thanks!.title]).toEqual(['Jackpot', 'Thanks for playing']);
    for (const [item, name] of [
      [jackpot!, 'الجائزة الكبرى'],
      [thanks!, 'شكرًا للمشاركة'],
    ] as const)
      expect(await save({ kind: 'prize', id: item.id, lang: 'ar', title: name, body: '' })).toMatchObject({ ret: 1 });
    // The English name is what a prize table is written with: the marks that separate its fields cannot be in it.
    expect(await save({ kind: 'prize', id: jackpot!.id, lang: 'en', title: 'Jackpot: 50 USDT', body: '' })).toEqual(
      refused('A prize’s English name cannot hold ":" or ";": they separate the fields and prizes of a prize table.'),
    );
    // A name in the table is what customers read too.
    expect(
      await h.call(
        consolePublishPrizeTable,
        { table: 'Jack\u202Epot:USDT:50:2500; Thanks:POINT:0:997500' },
        { token: admin },
      ),
    ).toEqual(refused('Please remove invisible or direction-changing characters!'));
    // No longer than a name written on the Content page.
    expect(
      await h.call(
        consolePublishPrizeTable,
        { table: `${'J'.repeat(CONTENT_TITLE_MAX + 1)}:USDT:50:2500; Thanks:POINT:0:997500` },
        { token: admin },
      ),
    ).toEqual(refused('The request is not valid!'));
    const user = await customer(h, '10');
    const names = async (lang: string) =>
      (await h.call(blindBoxInfo, {}, { token: user.token, lang })).data.prizes.map((prize) => prize.name);
    expect(await names('ar')).toEqual(['الجائزة الكبرى', 'شكرًا للمشاركة']);
    expect(await names('en')).toEqual(['Jackpot', 'Thanks for playing']);

    // New odds: the jackpot keeps its name and its Arabic one; a prize renamed has only what is written for it.
    await h.call(
      consolePublishPrizeTable,
      { table: 'Jackpot:USDT:50:5000; Better luck next time:POINT:0:995000' },
      { token: admin },
    );
    await h.call(rotateSeed, {}, { token: user.token });
    expect(await names('ar')).toEqual(['الجائزة الكبرى', 'Better luck next time']);
    // A name brought back from an earlier table gets its versions back.
    await h.call(
      consolePublishPrizeTable,
      { table: 'Jackpot:USDT:50:5000; Thanks for playing:POINT:0:995000' },
      { token: admin },
    );
    await h.call(rotateSeed, {}, { token: user.token });
    expect(await names('ar')).toEqual(['الجائزة الكبرى', 'شكرًا للمشاركة']);
  });
});

describe('other roles', () => {
  it('may neither read the versions nor write one', async () => {
    const roleRefused = refused('Your role does not allow this!');
    for (const role of ['reviewer', 'admin'] as const) {
      const token = await operatorToken(h, `${role}-x`, role);
      const since = await lastAuditId();
      expect(await h.call(consoleContentVersions, { kind: 'notice', id: 'scroll_notice' }, { token })).toEqual(
        roleRefused,
      );
      expect(await h.call(consoleContentItems, { kind: 'slide' }, { token })).toEqual(roleRefused);
      expect(await save({ kind: 'notice', id: 'scroll_notice', lang: 'th', body: 'ประกาศ' }, token)).toEqual(
        roleRefused,
      );
      expect(await auditsAfter(since)).toEqual([]);
    }
    expect((await h.call(config, { act: 'system' }, { lang: 'th' })).data.scroll_notice).toBe(DEMO_NOTICE.th);
  });
});
