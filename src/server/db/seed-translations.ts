// The demo's words for customers in the app's other five languages: the scroll
// notice, the slides' titles, the welcome message, the activities and the blind box prizes' names (the lock-up
// products' names come with the products, seed-earn.ts, through `namesIn`). English is each item's own row
// (seed.ts, seed-blindbox.ts); a version here is added to a demo item whose English is still the
// demo's (an operator's rewrite is theirs) and only where that language has none, so every start may run it.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from './connection.ts';
import {
  activities,
  boxPrizes,
  configEntries,
  contentTranslations,
  lockupProducts,
  messages,
  slides,
} from './schema.ts';
import { sanitizeRichText } from '../../api-contract/rich-text.ts';

type Lang = 'zh' | 'th' | 'jp' | 'ar' | 'hi';
type Versions = Record<Lang, { title: string; body: string }>;

export const DEMO_NOTICE: Record<'en' | Lang, string> = {
  en: 'Welcome to Coinvest. Prices in this demo come from a simulated feed.',
  zh: '欢迎来到 Coinvest。本演示中的价格来自模拟行情。',
  th: 'ยินดีต้อนรับสู่ Coinvest ราคาในเดโมนี้มาจากฟีดราคาจำลอง',
  jp: 'Coinvest へようこそ。このデモの価格はシミュレーションされたフィードによるものです。',
  ar: 'مرحبًا بك في Coinvest. الأسعار في هذا العرض التجريبي مصدرها تغذية محاكاة.',
  hi: 'Coinvest में आपका स्वागत है। इस डेमो में कीमतें एक सिम्युलेटेड फ़ीड से आती हैं।',
};

/** Slide titles by their English title. */
export const DEMO_SLIDE_TITLES: Record<string, Record<Lang, string>> = {
  'Trade options in minutes': {
    zh: '几分钟内交易期权',
    th: 'เทรดออปชันได้ในไม่กี่นาที',
    jp: '数分でオプション取引',
    ar: 'تداول الخيارات في دقائق',
    hi: 'मिनटों में ऑप्शन ट्रेड करें',
  },
  'Your funds, every movement recorded': {
    zh: '您的资金，每笔变动都有记录',
    th: 'เงินของคุณ ทุกการเคลื่อนไหวถูกบันทึกไว้',
    jp: 'あなたの資金、すべての動きを記録',
    ar: 'أموالك، كل حركة مسجلة',
    hi: 'आपका धन, हर हलचल दर्ज',
  },
  'Invite friends and earn together': {
    zh: '邀请好友，一起赚取收益',
    th: 'ชวนเพื่อนและรับรายได้ไปด้วยกัน',
    jp: '友達を招待して一緒に稼ごう',
    ar: 'ادعُ أصدقاءك واربحوا معًا',
    hi: 'दोस्तों को आमंत्रित करें और साथ कमाएँ',
  },
  'Complete your certification': {
    zh: '完成您的实名认证',
    th: 'ยืนยันตัวตนของคุณให้เสร็จสมบูรณ์',
    jp: '本人確認を完了しましょう',
    ar: 'أكمل التحقق من هويتك',
    hi: 'अपना प्रमाणीकरण पूरा करें',
  },
};

/** The welcome broadcast's versions, by its English title. */
export const DEMO_MESSAGES: Record<string, Versions> = {
  'Welcome to Coinvest': {
    zh: {
      title: '欢迎来到 Coinvest',
      body: '感谢您加入 Coinvest。本演示中的价格来自模拟行情，而非真实交易所，欢迎放心体验期权交易。您资金的每一笔变动都列在账户明细中。',
    },
    th: {
      title: 'ยินดีต้อนรับสู่ Coinvest',
      body: 'ขอบคุณที่เข้าร่วม Coinvest ราคาในเดโมนี้มาจากฟีดตลาดจำลอง ไม่ใช่ตลาดซื้อขายจริง คุณจึงทดลองเทรดออปชันได้อย่างสบายใจ ทุกการเคลื่อนไหวของเงินของคุณแสดงอยู่ในรายละเอียดบัญชี',
    },
    jp: {
      title: 'Coinvest へようこそ',
      body: 'Coinvest にご参加いただきありがとうございます。このデモの価格は実際の取引所ではなく、シミュレーションされた市場フィードによるものです。どうぞ自由にオプション取引をお試しください。資金の動きはすべてアカウント明細に記載されます。',
    },
    ar: {
      title: 'مرحبًا بك في Coinvest',
      body: 'شكرًا لانضمامك إلى Coinvest. الأسعار في هذا العرض التجريبي مصدرها تغذية سوق محاكاة وليست بورصة حقيقية، فلا تتردد في استكشاف تداول الخيارات. كل حركة لأموالك مدرجة في تفاصيل حسابك.',
    },
    hi: {
      title: 'Coinvest में आपका स्वागत है',
      body: 'Coinvest से जुड़ने के लिए धन्यवाद। इस डेमो में कीमतें किसी लाइव एक्सचेंज से नहीं, बल्कि एक सिम्युलेटेड मार्केट फ़ीड से आती हैं, इसलिए बेझिझक ऑप्शन ट्रेडिंग आज़माएँ। आपके धन की हर हलचल आपके खाते के विवरण में दर्ज है।',
    },
  },
};

/** The demo activities' versions, by their English title (bodies are rich text, kept sanitised). */
export const DEMO_ACTIVITIES: Record<string, Versions> = {
  'Blind box week: draw and win up to 100 USDT': {
    zh: {
      title: '盲盒周：抽奖赢取最高 100 USDT',
      body: '<h3>可证明公平的盲盒</h3><p>每次抽奖都由您的种子对决定，种子在抽奖前即已承诺。更换种子即可公开它，并亲自<strong>验证每一次抽奖</strong>。</p><ul><li>每次抽奖 100 积分或 1 USDT</li><li>公布的概率，合计 100 %</li></ul>',
    },
    th: {
      title: 'สัปดาห์กล่องสุ่ม: สุ่มลุ้นรับสูงสุด 100 USDT',
      body: '<h3>กล่องสุ่มที่พิสูจน์ได้ว่ายุติธรรม</h3><p>ทุกการสุ่มตัดสินด้วยคู่ซีดของคุณ ซึ่งถูกผูกมัดไว้ก่อนการสุ่ม เปลี่ยนซีดเพื่อเปิดเผย แล้ว<strong>ตรวจสอบทุกการสุ่ม</strong>ได้ด้วยตัวเอง</p><ul><li>100 คะแนน หรือ 1 USDT ต่อการสุ่ม</li><li>เปิดเผยโอกาสที่จะได้รับ รวมกัน 100 %</li></ul>',
    },
    jp: {
      title: 'ブラインドボックス週間：抽選で最大 100 USDT',
      body: '<h3>公平性を証明できるブラインドボックス</h3><p>すべての抽選は、抽選前にコミットされたシードペアで決まります。シードを更新すると公開され、<strong>すべての抽選をご自身で検証</strong>できます。</p><ul><li>1 回 100 ポイントまたは 1 USDT</li><li>公開された確率、合計 100 %</li></ul>',
    },
    ar: {
      title: 'أسبوع الصندوق المفاجئ: اسحب واربح حتى 100 USDT',
      body: '<h3>صندوق مفاجئ يمكن إثبات عدالته</h3><p>يُحدَّد كل سحب بزوج البذور الخاص بك، الملتزم به قبل السحب. غيّر بذرتك لكشفها و<strong>تحقّق من كل سحب</strong> بنفسك.</p><ul><li>100 نقطة أو 1 USDT لكل سحب</li><li>احتمالات منشورة مجموعها 100 %</li></ul>',
    },
    hi: {
      title: 'ब्लाइंड बॉक्स सप्ताह: ड्रॉ करें और 100 USDT तक जीतें',
      body: '<h3>साबित रूप से निष्पक्ष ब्लाइंड बॉक्स</h3><p>हर ड्रॉ आपकी सीड जोड़ी से तय होता है, जो ड्रॉ से पहले प्रतिबद्ध की जाती है। सीड बदलकर उसे प्रकट करें और <strong>हर ड्रॉ की जाँच</strong> स्वयं करें।</p><ul><li>प्रति ड्रॉ 100 पॉइंट या 1 USDT</li><li>प्रकाशित संभावनाएँ, कुल 100 %</li></ul>',
    },
  },
  'New year trading festival': {
    zh: { title: '新年交易节', body: '<h3>即将开始</h3><p>在交易节期间交易期权，每笔订单都可获得积分。</p>' },
    th: { title: 'เทศกาลเทรดปีใหม่', body: '<h3>เร็วๆ นี้</h3><p>เทรดออปชันระหว่างเทศกาลและสะสมคะแนนจากทุกคำสั่งซื้อ</p>' },
    jp: {
      title: '新年トレードフェスティバル',
      body: '<h3>近日開催</h3><p>フェスティバル期間中にオプション取引を行い、注文ごとにポイントを獲得しましょう。</p>',
    },
    ar: {
      title: 'مهرجان تداول رأس السنة',
      body: '<h3>قريبًا</h3><p>تداول الخيارات خلال المهرجان واجمع النقاط مع كل أمر.</p>',
    },
    hi: {
      title: 'नव वर्ष ट्रेडिंग उत्सव',
      body: '<h3>जल्द आ रहा है</h3><p>उत्सव के दौरान ऑप्शन ट्रेड करें और हर ऑर्डर पर पॉइंट पाएँ।</p>',
    },
  },
};

/** The demo prize table's names, by their English name (seed-blindbox.ts). */
export const DEMO_PRIZE_NAMES: Record<string, Record<Lang, string>> = {
  'Grand prize': { zh: '特等奖', th: 'รางวัลใหญ่พิเศษ', jp: '特賞', ar: 'الجائزة الكبرى', hi: 'महा पुरस्कार' },
  'Big prize': { zh: '大奖', th: 'รางวัลใหญ่', jp: '大賞', ar: 'جائزة كبيرة', hi: 'बड़ा पुरस्कार' },
  'Lucky USDT': { zh: '幸运 USDT', th: 'USDT นำโชค', jp: 'ラッキー USDT', ar: 'جائزة الحظ USDT', hi: 'लकी USDT' },
  '200 points': { zh: '200 积分', th: '200 คะแนน', jp: '200ポイント', ar: '200 نقطة', hi: '200 पॉइंट्स' },
  '50 points': { zh: '50 积分', th: '50 คะแนน', jp: '50ポイント', ar: '50 نقطة', hi: '50 पॉइंट्स' },
  'Thanks for playing': {
    zh: '谢谢参与',
    th: 'ขอบคุณที่ร่วมสนุก',
    jp: 'ご参加ありがとうございます',
    ar: 'شكرًا للمشاركة',
    hi: 'खेलने के लिए धन्यवाद',
  },
};

const LANGS: Lang[] = ['zh', 'th', 'jp', 'ar', 'hi'];

type Row = typeof contentTranslations.$inferInsert;

/** Adds the missing versions of the demo items that still read as the demo wrote them. */
export async function seedTranslations(db: Executor): Promise<void> {
  const rows: Row[] = [];
  const [notice] = await db
    .select()
    .from(configEntries)
    .where(and(eq(configEntries.act, 'system'), eq(configEntries.key, 'scroll_notice')));
  if (notice?.value === DEMO_NOTICE.en)
    for (const lang of LANGS)
      rows.push({ kind: 'config', item: 'system.scroll_notice', lang, body: DEMO_NOTICE[lang] });

  for (const slide of await db
    .select()
    .from(slides)
    .where(inArray(slides.title, Object.keys(DEMO_SLIDE_TITLES))))
    for (const lang of LANGS)
      rows.push({ kind: 'slide', item: String(slide.id), lang, title: DEMO_SLIDE_TITLES[slide.title]![lang] });

  const broadcasts = await db
    .select()
    .from(messages)
    .where(and(isNull(messages.userId), inArray(messages.title, Object.keys(DEMO_MESSAGES))));
  for (const message of broadcasts)
    for (const lang of LANGS)
      rows.push({ kind: 'message', item: String(message.id), lang, ...DEMO_MESSAGES[message.title]![lang] });

  for (const activity of await db
    .select()
    .from(activities)
    .where(inArray(activities.title, Object.keys(DEMO_ACTIVITIES))))
    for (const lang of LANGS) {
      const { title, body } = DEMO_ACTIVITIES[activity.title]![lang];
      rows.push({ kind: 'activity', item: String(activity.id), lang, title, body: sanitizeRichText(body) });
    }

  if (rows.length) await db.insert(contentTranslations).values(rows).onConflictDoNothing();
  await namesIn(db, 'prize', DEMO_PRIZE_NAMES);
}

/**
 * Adds the missing versions of the names of lock-up products (`kind` 'lockup') or prizes ('prize') whose English name
 * is still one of `names`' keys (an operator's rename is theirs): every start may run it.
 */
export async function namesIn(
  db: Executor,
  kind: 'lockup' | 'prize',
  names: Record<string, Record<Lang, string>>,
): Promise<void> {
  const table = kind === 'lockup' ? lockupProducts : boxPrizes;
  const items = await db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(inArray(table.name, Object.keys(names)));
  const rows: Row[] = items.flatMap((item) =>
    LANGS.map((lang) => ({ kind, item: String(item.id), lang, title: names[item.name]![lang] })),
  );
  if (rows.length) await db.insert(contentTranslations).values(rows).onConflictDoNothing();
}
