// Content in every language, as customers read it: the demo's notice, slides,
// welcome message, activities and pages in the request's language, English where a language has no
// version, an operator's broadcast in two languages reaching each customer in theirs, and the answers
// cached in memory never crossing from one language to another.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, slides } from '../../src/api-contract/content.ts';
import { activityInfo, activityList } from '../../src/api-contract/activities.ts';
import { messages, unreadMessages } from '../../src/api-contract/messages.ts';
import { contentPage } from '../../src/api-contract/support.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { slides as slideRows } from '../../src/server/db/schema.ts';
import {
  DEMO_ACTIVITIES,
  DEMO_MESSAGES,
  DEMO_NOTICE,
  DEMO_PRIZE_NAMES,
  DEMO_SLIDE_TITLES,
} from '../../src/server/db/seed-translations.ts';
import { DEMO_PAGES } from '../../src/server/db/seed-content.ts';
import { DEMO_PRIZES } from '../../src/server/db/seed-blindbox.ts';
import { lockupProducts } from '../../src/api-contract/lockup.ts';
import { blindBoxInfo } from '../../src/api-contract/blindbox.ts';
import { publishActivity } from '../../src/server/domain/activities.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { ops, opsOk } from './funds-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
  // Cached answers are used only while the change channel is live: wait for it, so the reads below go through them.
  while (!h.database.changes().live()) await new Promise((resolve) => setTimeout(resolve, 20));
});
afterAll(() => h.close());

const notice = async (lang: string) => (await h.call(config, { act: 'system' }, { lang })).data.scroll_notice;
const homeSlides = async (lang: string) =>
  (await h.call(slides, { position: 'home' }, { lang })).data.lists.map((slide) => slide.title);

describe('an Arabic customer', () => {
  it('reads the demo notice, slides, activity, page and welcome message in Arabic', async () => {
    expect(await notice('ar')).toBe(DEMO_NOTICE.ar);
    expect(await homeSlides('ar')).toEqual([
      'تداول الخيارات في دقائق',
      'أموالك، كل حركة مسجلة',
      'ادعُ أصدقاءك واربحوا معًا',
    ]);

    const listed = (await h.call(activityList, {}, { lang: 'ar' })).data.lists;
    const week = listed.find(
      (activity) => activity.title === DEMO_ACTIVITIES['Blind box week: draw and win up to 100 USDT']!.ar.title,
    );
    expect(week, JSON.stringify(listed)).toBeDefined();
    const details = await h.call(activityInfo, { id: String(week!.id) }, { lang: 'ar' });
    expect(details.data).toMatchObject({ title: week!.title, cover: '/activities/blind-box-week.svg' });
    expect(details.data.body).toContain('<strong>تحقّق من كل سحب</strong>');

    expect((await h.call(contentPage, { key: 'faq' }, { lang: 'ar' })).data).toEqual({
      key: 'faq',
      lang: 'ar',
      ...DEMO_PAGES.faq.ar,
    });

    const { token } = await customer(h);
    const welcome = DEMO_MESSAGES['Welcome to Coinvest']!.ar;
    expect((await h.call(unreadMessages, {}, { token, lang: 'ar' })).data.first).toMatchObject({
      title: welcome.title,
      content: welcome.body,
    });
    expect(
      (await h.call(messages, { status: 'all' }, { token, lang: 'ar' })).data.lists.map((message) => message.title),
    ).toContain(welcome.title);

    // The lock-up products and the demo's blind box prizes, by their names in Arabic.
    expect((await h.call(lockupProducts, {}, { lang: 'ar' })).data.lists.map((product) => product.name)).toEqual([
      'قفل 7 أيام',
      'قفل 15 يومًا',
      'قفل 30 يومًا',
      'قفل 90 يومًا',
    ]);
    expect((await h.call(blindBoxInfo, {}, { token, lang: 'ar' })).data.prizes.map((prize) => prize.name)).toEqual(
      DEMO_PRIZES.map((prize) => DEMO_PRIZE_NAMES[prize.name]!.ar),
    );
  });

  it('reads them in English where the operator wrote no Arabic (and an English customer always does)', async () => {
    const row = await publishActivity(h.database.db, {
      title: 'English only',
      startsAt: h.clock.now(),
      body: '<p>Only in English.</p>',
    });
    expect((await h.call(activityInfo, { id: String(row.id) }, { lang: 'ar' })).data).toMatchObject({
      title: 'English only',
      body: '<p>Only in English.</p>',
    });
    // A new Thai version of a slide: Thai shows it, Hindi keeps its own demo version.
    await opsOk(h, 'slide', String(await slideId('Trade options in minutes')), '--lang', 'th', 'เทรดออปชัน');
    expect((await homeSlides('th'))[0]).toBe('เทรดออปชัน');
    expect((await homeSlides('hi'))[0]).toBe(DEMO_SLIDE_TITLES['Trade options in minutes']!.hi);
    await opsOk(h, 'notice', '--lang', 'hi', 'हिंदी सूचना');
    expect(await notice('hi')).toBe('हिंदी सूचना');
    expect([await notice('en'), await notice('unknown')]).toEqual([DEMO_NOTICE.en, DEMO_NOTICE.th]);
  });
});

describe('a Hindi customer', () => {
  it("reads the home slides' words in Hindi: the titles, drawn over pictures that carry no words of their own", async () => {
    const listed = (await h.call(slides, { position: 'home' }, { lang: 'hi' })).data.lists;
    expect(listed.map((slide) => slide.title)).toEqual([
      'मिनटों में ऑप्शन ट्रेड करें',
      'आपका धन, हर हलचल दर्ज',
      'दोस्तों को आमंत्रित करें और साथ कमाएँ',
    ]);
    // A picture's words would read in one language to every customer (the app draws the title over the picture).
    for (const slide of listed)
      expect(readFileSync(join('public', slide.image), 'utf8'), slide.image).not.toMatch(/<text\b/);
  });

  it('reads a slide with no Hindi version by its English title, the fallback of every language', async () => {
    const [added] = await h.database.db
      .insert(slideRows)
      .values({ position: 'home', title: 'Only in English', image: '/slides/slide-1.svg', sort: 9 })
      .returning();
    try {
      expect((await homeSlides('hi')).at(-1)).toBe('Only in English');
      expect((await homeSlides('zh')).at(-1)).toBe('Only in English');
    } finally {
      await h.database.db.delete(slideRows).where(eq(slideRows.id, added!.id));
    }
  });
});

async function slideId(englishTitle: string) {
  const listed = (await h.call(slides, { position: 'home' }, { lang: 'en' })).data.lists;
  return listed.find((slide) => slide.title === englishTitle)!.id;
}

describe('a station message broadcast in two languages', () => {
  it('reaches each customer in theirs, and in English one whose language it was not written in', async () => {
    const output = await opsOk(
      h,
      'message',
      'all',
      'Maintenance tonight',
      'Trading pauses at 02:00 UTC.',
      '--lang',
      'th',
      'ปิดปรับปรุงคืนนี้',
      'การซื้อขายหยุดชั่วคราวเวลา 02:00 UTC',
    );
    expect(output).toMatch(/posted to all users in en, th\.$/);
    const { token } = await customer(h);
    const newest = async (lang: string) => (await h.call(messages, { status: 'all' }, { token, lang })).data.lists[0];
    expect(await newest('th')).toMatchObject({
      title: 'ปิดปรับปรุงคืนนี้',
      content: 'การซื้อขายหยุดชั่วคราวเวลา 02:00 UTC',
      status: 'unread',
    });
    expect(await newest('en')).toMatchObject({ title: 'Maintenance tonight', content: 'Trading pauses at 02:00 UTC.' });
    expect(await newest('ar')).toMatchObject({ title: 'Maintenance tonight', content: 'Trading pauses at 02:00 UTC.' });

    // A language added later, to the message already posted.
    const id = /Message (\d+)/.exec(output)![1]!;
    await opsOk(h, 'message', `id=${id}`, '--lang', 'ar', 'صيانة الليلة', 'يتوقف التداول الساعة 02:00 UTC.');
    expect(await newest('ar')).toMatchObject({ title: 'صيانة الليلة', content: 'يتوقف التداول الساعة 02:00 UTC.' });
  });

  it('to one customer: posted in every language given, and not rewritten afterwards (a correction is a new message)', async () => {
    const user = await customer(h);
    const output = await opsOk(
      h,
      'message',
      user.phone,
      'Your deposit',
      'It was credited.',
      '--lang',
      'th',
      'เงินฝากของคุณ',
      'เข้าบัญชีแล้ว',
    );
    expect(output).toMatch(/posted to .* in en, th\.$/);
    const newest = async (lang: string) =>
      (await h.call(messages, { status: 'all' }, { token: user.token, lang })).data.lists[0];
    expect(await newest('th')).toMatchObject({ title: 'เงินฝากของคุณ', content: 'เข้าบัญชีแล้ว' });
    const id = /Message (\d+)/.exec(output)![1]!;
    expect(await ops(h, 'message', `id=${id}`, '--lang', 'th', 'แก้ไข', 'ข้อความใหม่')).toEqual({
      ok: false,
      output: 'This record does not exist!',
    });
    expect(await newest('th')).toMatchObject({ title: 'เงินฝากของคุณ', content: 'เข้าบัญชีแล้ว' });
  });

  it('refuses a title or content holding an invisible or direction-changing character, and posts nothing', async () => {
    const before = (await h.call(messages, { status: 'all' }, { token: (await customer(h)).token })).data.lists.length;
    const hidden = { ok: false, output: 'Please remove invisible or direction-changing characters!' };
    expect(await ops(h, 'message', 'all', 'Bonus\u202E', 'Deposit today.')).toEqual(hidden);
    expect(await ops(h, 'message', 'all', 'Bonus', 'Deposit today.', '--lang', 'th', 'โบนัส', 'ฝาก\u200Bวันนี้')).toEqual(
      hidden,
    );
    expect(await ops(h, 'slide', '1', '--lang', 'ar', '\u202Bعرض')).toEqual(hidden);
    expect(await ops(h, 'notice', 'Maintenance\u2067 tonight')).toEqual(hidden);
    expect((await h.call(messages, { status: 'all' }, { token: (await customer(h)).token })).data.lists.length).toBe(
      before,
    );
  });

  it('refuses a language the app does not have, and posts nothing', async () => {
    const before = (await h.call(messages, { status: 'all' }, { token: (await customer(h)).token })).data.lists.length;
    const result = await ops(h, 'message', 'all', 'Title', 'Content', '--lang', 'fr', 'Titre', 'Contenu');
    expect(result).toEqual({ ok: false, output: '--lang takes one of: en, zh, th, jp, ar, hi.' });
    expect((await h.call(messages, { status: 'all' }, { token: (await customer(h)).token })).data.lists.length).toBe(
      before,
    );
  });
});

describe('an activity written in another language with the command', () => {
  it('reads in that language, its body sanitised, and the other languages keep theirs', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'activity-'));
    try {
      const body = join(folder, 'th.html');
      writeFileSync(body, '<p>ลดราคาทั้งสัปดาห์</p><script>steal()</script>');
      const row = await publishActivity(h.database.db, {
        title: 'Sale week',
        startsAt: h.clock.now(),
        body: '<p>Sale all week.</p>',
      });
      expect(await ops(h, 'activity', String(row.id), '--lang', 'th', 'title=สัปดาห์ลดราคา')).toEqual({
        ok: false,
        output: 'The th version is new: give both title=… and body=<file.html>.',
      });
      await opsOk(h, 'activity', String(row.id), '--lang', 'th', 'title=สัปดาห์ลดราคา', `body=${body}`);
      expect((await h.call(activityInfo, { id: String(row.id) }, { lang: 'th' })).data).toMatchObject({
        title: 'สัปดาห์ลดราคา',
        body: '<p>ลดราคาทั้งสัปดาห์</p>',
      });
      expect((await h.call(activityInfo, { id: String(row.id) }, { lang: 'zh' })).data).toMatchObject({
        title: 'Sale week',
        body: '<p>Sale all week.</p>',
      });
      expect(await ops(h, 'activity', String(row.id), 'title=Sale\u200B week')).toEqual({
        ok: false,
        output: 'Please remove invisible or direction-changing characters!',
      });
      const spoofed = join(folder, 'spoofed.html');
      writeFileSync(spoofed, '<p>ลด&#x202E;ราคา</p>');
      for (const args of [['--lang', 'th', `body=${spoofed}`], [`body=${spoofed}`]])
        expect(await ops(h, 'activity', String(row.id), ...args)).toEqual({
          ok: false,
          output: 'Please remove invisible or direction-changing characters!',
        });
      // Only the title this time: the Thai body stays.
      await opsOk(h, 'activity', String(row.id), '--lang', 'th', 'title=ลดราคา');
      expect((await h.call(activityInfo, { id: String(row.id) }, { lang: 'th' })).data).toMatchObject({
        title: 'ลดราคา',
        body: '<p>ลดราคาทั้งสัปดาห์</p>',
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('answers cached in memory', () => {
  it('keep each language apart: requests in other languages right after each other, and at once, get their own', async () => {
    for (const lang of ['en', 'ar', 'en', 'zh', 'ar', 'jp'])
      expect(await notice(lang), lang).toBe(DEMO_NOTICE[lang as keyof typeof DEMO_NOTICE]);
    const together = await Promise.all(
      ['ar', 'en', 'th', 'ar', 'zh'].map((lang) => h.call(slides, { position: 'user1' }, { lang })),
    );
    expect(together.map((answer) => answer.data.lists[0]!.title)).toEqual([
      'أكمل التحقق من هويتك',
      'Complete your certification',
      'ยืนยันตัวตนของคุณให้เสร็จสมบูรณ์',
      'أكمل التحقق من هويتك',
      '完成您的实名认证',
    ]);
    // The cached envelope's bytes are made per language too: 'Success' in Arabic is not the English one.
    expect(together[0]!.msg).not.toBe(together[1]!.msg);
  });

  it('show a new version at once: writing one drops what was kept', async () => {
    expect(await notice('zh')).toBe(DEMO_NOTICE.zh);
    await opsOk(h, 'notice', '--lang', 'zh', '新的中文公告');
    expect(await notice('zh')).toBe('新的中文公告');
    expect(await notice('en')).toBe(DEMO_NOTICE.en);
  });
});
