-- Anti-phishing codes saved while the rule still took a few invisible characters for letters or marks
-- (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner U+034F, the Khmer
-- inherent vowels U+17B4, U+17B5, the Mongolian and other variation selectors): every mail and notice
-- showed such a code other than it was held, or blank. The rule refuses them now
-- (src/contract/visible-text.ts); a code holding one is removed, never changed silently, and its owner
-- is told why by a station message, in the language of the last message we sent them (English when none).
WITH "retired" AS (
  UPDATE "users" SET "anti_phishing_code" = NULL
  WHERE "anti_phishing_code" ~ '[\u034F\u115F-\u1160\u17B4-\u17B5\u180B-\u180D\u180F\u3164\uFE00-\uFE0F\uFFA0\U000E0100-\U000E01EF]'
  RETURNING "id"
), "spoken" AS (
  SELECT "retired"."id", COALESCE((
    SELECT "outbox"."language" FROM "outbox"
    WHERE "outbox"."user_id" = "retired"."id" AND "outbox"."language" IN ('en', 'zh', 'th', 'jp', 'ar', 'hi')
    ORDER BY "outbox"."id" DESC LIMIT 1
  ), 'en') AS "language"
  FROM "retired"
)
INSERT INTO "messages" ("user_id", "title", "content")
SELECT "spoken"."id", "notice"."title", "notice"."content"
FROM "spoken" JOIN (VALUES
  ('en', 'Anti-phishing code removed', 'Your anti-phishing code held characters that cannot be seen, so our e-mails and notices could not show it as you saw it. We have removed it: please choose a new one under Settings → Anti-phishing code.'),
  ('zh', '防钓鱼码已移除', '您的防钓鱼码包含无法看见的字符，我们的邮件和通知无法按您看到的样子显示它。我们已将其移除：请在“设置 → 防钓鱼码”中重新设置。'),
  ('th', 'ลบรหัสป้องกันฟิชชิงแล้ว', 'รหัสป้องกันฟิชชิงของคุณมีอักขระที่มองไม่เห็น อีเมลและการแจ้งเตือนของเราจึงแสดงรหัสไม่ตรงกับที่คุณเห็น เราได้ลบรหัสนี้แล้ว โปรดตั้งรหัสใหม่ที่ การตั้งค่า → รหัสป้องกันฟิชชิง'),
  ('jp', 'フィッシング対策コードを削除しました', 'お客様のフィッシング対策コードには目に見えない文字が含まれていたため、メールや通知でお客様がご覧になったとおりに表示できませんでした。このコードを削除しました。「設定 → フィッシング対策コード」で新しいコードを設定してください。'),
  ('ar', 'تمت إزالة رمز مكافحة التصيّد', 'كان رمز مكافحة التصيّد الخاص بك يحتوي على أحرف لا تُرى، فلم تستطع رسائلنا وإشعاراتنا عرضه كما رأيته. لقد أزلناه: يُرجى اختيار رمز جديد من الإعدادات ← رمز مكافحة التصيّد.'),
  ('hi', 'एंटी-फ़िशिंग कोड हटाया गया', 'आपके एंटी-फ़िशिंग कोड में ऐसे अक्षर थे जो दिखाई नहीं देते, इसलिए हमारे ई-मेल और सूचनाएँ उसे वैसा नहीं दिखा सकती थीं जैसा आपने देखा था। हमने उसे हटा दिया है: कृपया सेटिंग्स → एंटी-फ़िशिंग कोड में नया कोड चुनें।')
) AS "notice" ("language", "title", "content") ON "notice"."language" = "spoken"."language";
