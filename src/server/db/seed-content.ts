// Demo pages of text (company profile, intro, FAQ) in the six languages of the app. Seeds only
// what is missing, so an operator's edit (`page …`) is kept. (The web-view allowlist is in
// seed.ts's DEMO_CONFIG, with the rest of the system config.)
import type { Db } from './connection.ts';
import { contentPages } from './schema.ts';

type Page = { title: string; body: string };

export const DEMO_PAGES: Record<'about' | 'intro' | 'faq', Record<string, Page>> = {
  about: {
    en: {
      title: 'About Coinvest',
      body: 'Coinvest is a crypto-asset investment and trading platform: options, contracts, liquidity and lock-up mining in one app.\n\nEvery trade settles from the recorded price feed, and every movement of funds is kept in your account details. Recharges, withdrawals and certifications are reviewed by our operators, who give you the reason for every decision.',
    },
    zh: {
      title: '关于 Coinvest',
      body: 'Coinvest 是一个加密资产投资与交易平台：期权、合约、流动性挖矿和锁仓挖矿都在一个应用中。\n\n每一笔交易都按记录的价格结算，每一笔资金变动都记录在您的账户明细中。充值、提现和实名认证由我们的运营人员审核，每个决定都会告诉您原因。',
    },
    th: {
      title: 'เกี่ยวกับ Coinvest',
      body: 'Coinvest เป็นแพลตฟอร์มการลงทุนและซื้อขายสินทรัพย์คริปโต: ออปชัน สัญญา การขุดสภาพคล่อง และการขุดแบบล็อก รวมไว้ในแอปเดียว\n\nทุกการซื้อขายชำระตามราคาที่บันทึกไว้ และทุกการเคลื่อนไหวของเงินถูกเก็บไว้ในรายละเอียดบัญชีของคุณ การเติมเงิน การถอนเงิน และการยืนยันตัวตนได้รับการตรวจสอบโดยเจ้าหน้าที่ของเรา ซึ่งจะแจ้งเหตุผลของทุกการตัดสินใจ',
    },
    jp: {
      title: 'Coinvest について',
      body: 'Coinvest は暗号資産の投資・取引プラットフォームです。オプション、契約取引、流動性マイニング、ロックアップマイニングを一つのアプリで利用できます。\n\nすべての取引は記録された価格で決済され、資金の動きはすべてアカウント明細に残ります。入金、出金、本人確認は運営スタッフが審査し、すべての判断について理由をお知らせします。',
    },
    ar: {
      title: 'حول Coinvest',
      body: 'Coinvest منصة للاستثمار وتداول الأصول المشفرة: الخيارات والعقود وتعدين السيولة والتعدين المقفل في تطبيق واحد.\n\nتتم تسوية كل صفقة من سجل الأسعار المسجل، وتُحفظ كل حركة للأموال في تفاصيل حسابك. يراجع فريقنا عمليات الإيداع والسحب والتحقق من الهوية، ويخبرك بسبب كل قرار.',
    },
    hi: {
      title: 'Coinvest के बारे में',
      body: 'Coinvest एक क्रिप्टो-एसेट निवेश और ट्रेडिंग प्लेटफ़ॉर्म है: ऑप्शन, कॉन्ट्रैक्ट, लिक्विडिटी माइनिंग और लॉक-अप माइनिंग एक ही ऐप में।\n\nहर ट्रेड दर्ज की गई कीमत से निपटाया जाता है, और धन की हर हलचल आपके खाते के विवरण में रहती है। रिचार्ज, निकासी और प्रमाणीकरण की समीक्षा हमारे ऑपरेटर करते हैं, जो हर फ़ैसले का कारण बताते हैं।',
    },
  },
  intro: {
    en: {
      title: 'Getting started',
      body: '1. Register with your mobile number or e-mail, and complete the primary certification in Mine.\n\n2. Recharge USDT: choose a method, send the amount and enter the transaction hash. It is credited once reviewed.\n\n3. Trade options or contracts, or let your USDT earn in liquidity or lock-up mining. Every result and every movement is listed in your records.\n\n4. Sign in daily and complete welfare tasks for points, and invite friends from the share page.',
    },
    zh: {
      title: '新手入门',
      body: '1. 使用手机号或邮箱注册，并在"我的"中完成初级认证。\n\n2. 充值 USDT：选择方式，转账后输入交易哈希，审核后到账。\n\n3. 交易期权或合约，或将 USDT 存入流动性挖矿或锁仓挖矿赚取收益。每个结果和每笔资金变动都会列在记录中。\n\n4. 每日签到、完成福利任务获得积分，并在分享页面邀请好友。',
    },
    th: {
      title: 'เริ่มต้นใช้งาน',
      body: '1. ลงทะเบียนด้วยหมายเลขโทรศัพท์หรืออีเมล และยืนยันตัวตนขั้นต้นในหน้าของฉัน\n\n2. เติม USDT: เลือกช่องทาง โอนเงิน แล้วกรอกแฮชธุรกรรม ยอดจะเข้าบัญชีหลังการตรวจสอบ\n\n3. ซื้อขายออปชันหรือสัญญา หรือให้ USDT ของคุณสร้างรายได้ในการขุดสภาพคล่องหรือการขุดแบบล็อก ทุกผลลัพธ์และทุกการเคลื่อนไหวแสดงอยู่ในบันทึกของคุณ\n\n4. เช็กอินทุกวันและทำภารกิจสวัสดิการเพื่อรับคะแนน และชวนเพื่อนจากหน้าแชร์',
    },
    jp: {
      title: 'はじめに',
      body: '1. 携帯電話番号またはメールアドレスで登録し、マイページで初級本人確認を完了してください。\n\n2. USDT を入金：方法を選び、送金後にトランザクションハッシュを入力します。審査後に反映されます。\n\n3. オプションや契約取引を行うか、流動性マイニングやロックアップマイニングで USDT を運用できます。すべての結果と資金の動きは記録に表示されます。\n\n4. 毎日サインインし、福利タスクでポイントを獲得し、シェアページから友達を招待しましょう。',
    },
    ar: {
      title: 'البدء',
      body: '1. سجّل برقم هاتفك المحمول أو بريدك الإلكتروني، وأكمل التحقق الأساسي من صفحة حسابي.\n\n2. أودع USDT: اختر طريقة، أرسل المبلغ وأدخل رمز المعاملة. يُضاف إلى رصيدك بعد المراجعة.\n\n3. تداول الخيارات أو العقود، أو دع USDT يربح في تعدين السيولة أو التعدين المقفل. كل نتيجة وكل حركة مدرجة في سجلاتك.\n\n4. سجّل حضورك يوميًا وأكمل مهام المكافآت لتحصل على النقاط، وادعُ أصدقاءك من صفحة المشاركة.',
    },
    hi: {
      title: 'शुरुआत करें',
      body: '1. अपने मोबाइल नंबर या ई-मेल से रजिस्टर करें, और "मेरा" में प्राथमिक प्रमाणीकरण पूरा करें।\n\n2. USDT रिचार्ज करें: तरीका चुनें, राशि भेजें और ट्रांज़ैक्शन हैश दर्ज करें। समीक्षा के बाद राशि जमा होती है।\n\n3. ऑप्शन या कॉन्ट्रैक्ट ट्रेड करें, या लिक्विडिटी या लॉक-अप माइनिंग में USDT से कमाएँ। हर परिणाम और हर हलचल आपके रिकॉर्ड में दिखती है।\n\n4. रोज़ साइन इन करें, वेलफ़ेयर कार्य पूरे करके पॉइंट पाएँ, और शेयर पेज से दोस्तों को आमंत्रित करें।',
    },
  },
  faq: {
    en: {
      title: 'Frequently asked questions',
      body: 'When is my recharge credited?\nOnce our operators have checked the transfer. The recharge record shows its state, and the reason if it is rejected.\n\nHow long does a withdrawal take?\nThe amount and the fee are set aside when you submit it; they are paid out once reviewed, or returned to your balance with the reason if the withdrawal is rejected.\n\nWhy should I complete the certification?\nIt confirms your identity, is needed before the advanced certification, and activates your invitation permission.\n\nAre the prices live?\nIn this demo prices come from a simulated feed; every screen that shows them says so.',
    },
    zh: {
      title: '常见问题',
      body: '充值什么时候到账？\n运营人员核实转账后到账。充值记录会显示状态，如被拒绝会显示原因。\n\n提现需要多长时间？\n提交时金额和手续费会被冻结；审核后付出，若被拒绝则连同原因退回您的余额。\n\n为什么要完成实名认证？\n认证确认您的身份，是高级认证的前提，并会开通您的邀请权限。\n\n价格是实时的吗？\n本演示中的价格来自模拟行情，显示价格的每个页面都会注明。',
    },
    th: {
      title: 'คำถามที่พบบ่อย',
      body: 'ยอดเติมเงินเข้าเมื่อใด?\nเมื่อเจ้าหน้าที่ตรวจสอบการโอนแล้ว บันทึกการเติมเงินแสดงสถานะ และเหตุผลหากถูกปฏิเสธ\n\nการถอนเงินใช้เวลานานเท่าใด?\nจำนวนเงินและค่าธรรมเนียมจะถูกกันไว้เมื่อคุณส่งคำขอ และจะจ่ายออกหลังการตรวจสอบ หรือคืนเข้ายอดคงเหลือพร้อมเหตุผลหากถูกปฏิเสธ\n\nทำไมต้องยืนยันตัวตน?\nเพื่อยืนยันตัวตนของคุณ จำเป็นก่อนการยืนยันขั้นสูง และเปิดสิทธิ์การเชิญของคุณ\n\nราคาเป็นราคาจริงหรือไม่?\nในเดโมนี้ราคามาจากฟีดจำลอง และทุกหน้าที่แสดงราคาจะระบุไว้',
    },
    jp: {
      title: 'よくある質問',
      body: '入金はいつ反映されますか？\n運営スタッフが送金を確認した後です。入金記録に状態が表示され、却下された場合は理由も表示されます。\n\n出金にはどのくらいかかりますか？\n申請時に金額と手数料が確保され、審査後に支払われます。却下された場合は理由とともに残高に戻ります。\n\nなぜ本人確認が必要ですか？\n本人であることを確認し、上級認証の前提となり、招待権限が有効になります。\n\n価格はリアルタイムですか？\nこのデモの価格はシミュレーションによるもので、価格を表示するすべての画面にその旨が表示されます。',
    },
    ar: {
      title: 'الأسئلة الشائعة',
      body: 'متى يُضاف الإيداع إلى رصيدي؟\nبعد أن يتحقق فريقنا من التحويل. يعرض سجل الإيداع حالته، وسبب الرفض إن رُفض.\n\nكم يستغرق السحب؟\nيُحجز المبلغ والرسوم عند الإرسال، ويُدفع بعد المراجعة، أو يعود إلى رصيدك مع السبب إن رُفض السحب.\n\nلماذا أكمل التحقق من الهوية؟\nيؤكد هويتك، وهو مطلوب قبل التحقق المتقدم، ويفعّل صلاحية الدعوة لديك.\n\nهل الأسعار مباشرة؟\nفي هذا العرض التجريبي تأتي الأسعار من مصدر محاكى، وكل شاشة تعرضها تذكر ذلك.',
    },
    hi: {
      title: 'अक्सर पूछे जाने वाले प्रश्न',
      body: 'मेरा रिचार्ज कब जमा होगा?\nजब हमारे ऑपरेटर ट्रांसफ़र की जाँच कर लें। रिचार्ज रिकॉर्ड उसकी स्थिति दिखाता है, और अस्वीकार होने पर कारण भी।\n\nनिकासी में कितना समय लगता है?\nजमा करते समय राशि और शुल्क अलग रख दिए जाते हैं; समीक्षा के बाद भुगतान होता है, या अस्वीकार होने पर कारण सहित आपके बैलेंस में लौट आते हैं।\n\nमुझे प्रमाणीकरण क्यों पूरा करना चाहिए?\nयह आपकी पहचान की पुष्टि करता है, उन्नत प्रमाणीकरण से पहले ज़रूरी है, और आपकी आमंत्रण अनुमति सक्रिय करता है।\n\nक्या कीमतें लाइव हैं?\nइस डेमो में कीमतें एक सिम्युलेटेड फ़ीड से आती हैं; उन्हें दिखाने वाली हर स्क्रीन यह बताती है।',
    },
  },
};

export async function seedContent(db: Db): Promise<void> {
  const rows = Object.entries(DEMO_PAGES).flatMap(([key, byLang]) =>
    Object.entries(byLang).map(([lang, page]) => ({ key, lang, ...page })),
  );
  await db.insert(contentPages).values(rows).onConflictDoNothing();
}
