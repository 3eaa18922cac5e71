// The rule for text a person names things with (api-contract/visible-text.ts), table by table: each class of
// invisible or direction-changing character refused with its own text, names of the six languages (their
// combining marks included) accepted as typed, composed and decomposed spellings one value, a value that
// shows nothing refused as empty; and every field that names something applies it, in the form and so on
// the server (the same schema).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EditProfileInput } from '../../src/api-contract/account.ts';
import { ANTI_PHISHING_MAX_LENGTH, antiPhishingCode } from '../../src/api-contract/anti-phishing.ts';
import { CertificationInput } from '../../src/api-contract/certification.ts';
import { consoleReplyConversation } from '../../src/api-contract/console-service.ts';
import { checkRechargeApproval, checkRejectionReason } from '../../src/api-contract/console.ts';
import { WalletInput } from '../../src/api-contract/add-wallet.ts';
import { BankCardInput, PAYEE_LABEL_MAX, PayeeLabelInput } from '../../src/api-contract/payouts.ts';
import { CHAT_MESSAGE_MAX, chatTexts, sendChatMessage } from '../../src/api-contract/service-chat.ts';
import { texts } from '../../src/api-contract/texts.ts';
import {
  characterCount,
  hiddenCharacters,
  isBlankToTheEye,
  isolate,
  stackedMarks,
  visibleName,
  visibleText,
  withoutIsolate,
} from '../../src/api-contract/visible-text.ts';
import { firstIssueTextId } from '../../src/api-contract/fields.ts';
import { consoleTexts } from '../../src/api-contract/console-texts.ts';
import {
  NICKNAME_MAX,
  REAL_NAME_MAX,
  UNITS_PER_CHARACTER,
  WALLET_ALIAS_MAX,
  unitsFor,
} from '../../src/api-contract/constants.ts';

const HIDDEN = texts.hiddenCharacters.id;
const name = visibleName(texts.enterNickname);
const chat = visibleText(null, { lines: true });
/** The text id of the first rule broken, or the value the rule keeps. */
function outcome(schema: v.GenericSchema, input: unknown): { ok: unknown } | { refused: string } {
  const result = v.safeParse(schema, input, { abortEarly: true });
  return result.success ? { ok: result.output } : { refused: firstIssueTextId(result.issues) };
}
const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('invisible and direction-changing characters', () => {
  const classes: [string, string[]][] = [
    ['bidi embeddings and overrides', ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E']],
    ['bidi isolates', ['\u2066', '\u2067', '\u2068', '\u2069']],
    ['direction marks (LRM, RLM, ALM)', ['\u200E', '\u200F', '\u061C']],
    ['zero-width space, non-joiner and joiner', ['\u200B', '\u200C', '\u200D']],
    ['word joiner and invisible operators', ['\u2060', '\u2061', '\u2062', '\u2063', '\u2064']],
    ['byte order mark, soft hyphen, combining grapheme joiner', ['\uFEFF', '\u00AD', '\u034F']],
    ['Mongolian vowel separator and variation selectors', ['\u180E', '\u180B']],
    ['variation selectors', ['\uFE00', '\uFE0E', '\uFE0F', '\u{E0100}', '\u{E01EF}']],
    ['tag characters', ['\u{E0001}', '\u{E0041}', '\u{E007F}']],
    ['Hangul fillers', ['\u115F', '\u1160', '\u3164', '\uFFA0']],
    ['other default-ignorable code points', ['\u17B4', '\u2065', '\uFFF0', '\u{1D173}']],
    ['control characters and separators', ['\u0001', '\u007F', '\u0085', '\n', '\u2028', '\u2029']],
    ['the blank braille pattern', ['\u2800']],
  ];
  it.each(classes)('%s are refused between visible letters', (_class, chars) => {
    for (const char of chars) {
      expect(outcome(name, `Mom${char}gnp.exe`), codePoint(char)).toEqual({ refused: HIDDEN });
      expect(hiddenCharacters(`a${char}b`), codePoint(char)).toEqual([char]);
    }
  });

  it.each(classes)('%s alone, or with spaces, are a value that shows nothing: refused as empty', (_class, chars) => {
    for (const char of chars) {
      expect(outcome(name, ` ${char}${char} `), codePoint(char)).toEqual({ refused: texts.enterNickname.id });
      expect(isBlankToTheEye(`${char}\u3000${char}`), codePoint(char)).toBe(true);
    }
  });

  it('a field that may be empty refuses a value that only looks empty as holding invisible characters', () => {
    expect(outcome(visibleText(null), '\u3164\u3164')).toEqual({ refused: HIDDEN });
    expect(outcome(visibleText(null), '  ')).toEqual({ ok: '' });
  });
});

describe('names of the six languages', () => {
  it.each([
    ['en', 'Mary-Jane O’Neil'],
    ['zh', '王小明'],
    ['th', 'สมชาย ใจดี'],
    ['th', 'น้ำผึ้ง'],
    ['jp', '山田 太郎'],
    ['jp', 'ｶﾀｶﾅ ﾀﾛｳ'],
    ['ar', 'محمد عبد الله'],
    ['ar', 'مُحَمَّد'],
    ['hi', 'प्रिया शर्मा'],
    ['hi', 'क्‍षत्रिय'],
    ['hi', 'श्रीमती'],
  ])('%s: %s is kept as typed (its combining marks and joiners included)', (_lang, typed) => {
    expect(outcome(name, typed)).toEqual({ ok: typed.normalize('NFC') });
    expect(hiddenCharacters(typed)).toEqual([]);
  });

  it('composed and decomposed spellings are one value (NFC)', () => {
    expect(outcome(name, 'Jose\u0301')).toEqual({ ok: 'José' });
    expect(outcome(name, 'José')).toEqual({ ok: 'José' });
    expect(outcome(name, '\u1100\u1161')).toEqual({ ok: '가' });
  });

  it('spaces of every width are one space, none at either end', () => {
    expect(outcome(name, '\u3000 Anna\u00A0\u2003 Lee\t')).toEqual({ ok: 'Anna Lee' });
  });
});

describe('emoji', () => {
  it.each([
    ['a ZWJ family', '👨‍👩‍👧'],
    ['a flag with a variation selector and ZWJ', '🏳️‍🌈'],
    ['a heart with its emoji selector', '❤️'],
    ['a skin tone', '👍🏽'],
    ['a keycap', '#️⃣'],
    ['a subdivision flag (tags)', '🏴󠁧󠁢󠁥󠁮󠁧󠁿'],
  ])('%s is allowed: its joiners sit inside one emoji sequence', (_what, emoji) => {
    expect(outcome(chat, `Thanks ${emoji}!`)).toEqual({ ok: `Thanks ${emoji}!` });
    expect(outcome(name, `Savings ${emoji}`)).toEqual({ ok: `Savings ${emoji}` });
  });

  it.each([
    ['ZWJ between letters', 'a\u200Db'],
    ['ZWJ after an emoji, before a letter', '😀\u200Da'],
    ['ZWJ at the end', '😀\u200D'],
    ['a variation selector after a letter', 'a\uFE0F'],
    ['tag characters without their flag', 'a\u{E0067}\u{E007F}'],
    ['tag characters spelling text after an emoji other than the black flag', '\u{1F600}\u{E0068}\u{E0069}\u{E007F}'],
    ['more tag characters after the black flag than a subdivision has', `\u{1F3F4}${'\u{E0061}'.repeat(8)}\u{E007F}`],
    ['tag characters that are no subdivision letter or digit', '\u{1F3F4}\u{E0047}\u{E0042}\u{E0020}\u{E007F}'],
  ])('%s is refused', (_what, typed) => {
    expect(outcome(chat, typed)).toEqual({ refused: HIDDEN });
  });
});

describe('chat', () => {
  it('keeps its lines; a CR LF is one line break', () => {
    expect(outcome(chat, ' first line\r\nsecond\tline \n')).toEqual({ ok: 'first line\nsecond\tline' });
  });
  it('refuses a direction override inside a line', () => {
    expect(outcome(chat, 'see file\u202Efdp.exe')).toEqual({ refused: HIDDEN });
  });
});

describe('marks stacked on one letter (Unicode’s Stream-Safe Text Format)', () => {
  const STACKED = texts.stackedMarks.id;
  /** One letter under `count` marks of the kind that draws over the lines above and below. */
  const tower = (count: number) => `Z${'\u0336\u0301\u0316'.repeat(count).slice(0, count)}ed`;

  it('refuses a nickname of 159 marks on one letter, and 31 in a row; 30 pass', () => {
    expect(outcome(name, tower(159))).toEqual({ refused: STACKED });
    expect(outcome(name, tower(31))).toEqual({ refused: STACKED });
    expect(outcome(name, tower(30))).toEqual({ ok: tower(30).normalize('NFC') });
  });

  it('refuses a chat message of 16,000 marks on one letter', () => {
    expect(outcome(chat, `hi ${tower(16_000)}`)).toEqual({ refused: STACKED });
  });

  it('counts marks as decomposed: one accented letter’s mark and the 30 after it are 31', () => {
    expect(stackedMarks(`e${'\u0301'.repeat(31)}`)).toBe(true);
    expect(stackedMarks(`é${'\u0301'.repeat(30)}`)).toBe(true);
    expect(stackedMarks(`é${'\u0301'.repeat(29)}`)).toBe(false);
  });

  it('an operator’s rejection reason or approval remark, which the customer reads, is told the rule', () => {
    expect(checkRejectionReason(`Blurred ${tower(40)}`)).toEqual({ broken: texts.stackedMarks });
    expect(checkRechargeApproval({ remark: tower(40) })).toEqual({ broken: texts.stackedMarks });
    expect(checkRejectionReason('เอกสารไม่ชัด กรุณาส่งใหม่')).toEqual({ reason: 'เอกสารไม่ชัด กรุณาส่งใหม่' });
  });

  it('counts marks in a row only: a letter between them starts again', () => {
    expect(stackedMarks(`a${'\u0301'.repeat(30)}b${'\u0301'.repeat(30)}`)).toBe(false);
  });

  it.each([
    ['th', 'น้ำผึ้ง ศักดิ์สิทธิ์ กรุงเทพมหานคร'],
    ['th', 'สวัสดีครับ ขอบคุณที่ช่วยตรวจสอบการถอนเงินให้ผมนะครับ'],
    ['hi', 'क्षत्रिय श्रीमती प्रिया शर्मा'],
    ['hi', 'कृपया मेरी निकासी की स्थिति बताइए, धन्यवाद।'],
    ['ar', 'مُحَمَّدٌ عَبْدُ ٱللَّٰهِ'],
    ['ar', 'بِسْمِ ٱللَّٰهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ'],
    ['vi', 'Nguyễn Thị Phương'],
  ])('%s: %s, with its ordinary marks, is accepted', (_lang, typed) => {
    expect(stackedMarks(typed)).toBe(false);
    expect(outcome(chat, typed)).toEqual({ ok: typed.normalize('NFC') });
  });
});

/** A bank card and a wallet that pass, to change one field of. */
const card = {
  real_name: 'Somchai',
  ifsc: 'KBANK001',
  bank_code: 'KBANK',
  bank_number: '1234567890',
  phone: '0812345678',
  email: 'a@example.com',
  label: 'Rent',
};
const certification = {
  level: 'primary',
  doc_type: 'passport',
  number: 'AB123456',
  image: '/api/uploads/abcdefghijkl',
};
const wallet = { alias: 'Savings', currency: 'USDT', chain: 'TRC20', address: 'TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp' };

describe('every field a person names things with applies the rule', () => {
  const RLO = 'Mom\u202Egnp.exe';
  const cases: [string, v.GenericSchema, Record<string, unknown>, string, string][] = [
    ['nickname', EditProfileInput, {}, 'nickname', texts.enterNickname.id],
    ['bank card label', BankCardInput, card, 'label', HIDDEN],
    ['bank card holder', BankCardInput, card, 'real_name', texts.fillInformation.id],
    ['wallet alias', WalletInput, wallet, 'alias', texts.fillInformation.id],
    ['payee label (rename)', PayeeLabelInput, { kind: 'wallet', id: '1' }, 'label', HIDDEN],
    ['anti-phishing code', v.object({ phrase: antiPhishingCode }), {}, 'phrase', texts.enterAntiPhishingCode.id],
    ['chat message', sendChatMessage.input, {}, 'body', HIDDEN],
    ['certification name', CertificationInput, certification, 'name', texts.fillInformation.id],
    [
      'an operator’s answer in the chat',
      consoleReplyConversation.input,
      { id: '1' },
      'body',
      consoleTexts.consoleEnterReply.id,
    ],
  ];
  const PRIVATE = texts.privateUseCharacters.id;
  const known = {
    [HIDDEN]: 1,
    [PRIVATE]: 1,
    [texts.stackedMarks.id]: 1,
    ...Object.fromEntries(cases.map((row) => [row[4], 1])),
  };
  const first = (schema: v.GenericSchema, input: unknown) => {
    const result = v.safeParse(schema, input, { abortEarly: true });
    return result.success ? 'ok' : firstIssueTextId(result.issues, known);
  };

  it.each(cases)('%s: a right-to-left override is refused', (_field, schema, base, field) => {
    expect(first(schema, { ...base, [field]: RLO })).toBe(HIDDEN);
    expect(first(schema, { ...base, [field]: 'Mom\u200Bs' })).toBe(HIDDEN);
  });

  it.each(cases)('%s: only Hangul fillers are refused', (_field, schema, base, field, blank) => {
    expect(first(schema, { ...base, [field]: '\u3164\u3164\u3164\u3164' })).toBe(blank);
  });

  it.each(cases)('%s: a Thai name is accepted', (_field, schema, base, field) => {
    expect(first(schema, { ...base, [field]: 'สมชาย ใจดี' })).toBe('ok');
  });

  // Each device draws these as its fonts choose: U+F8FF is an apple on one phone and an empty box on another; a
  // supplementary private-use plane's character likewise. The neighbouring assigned characters pass.
  it.each(cases)('%s: a private-use character is refused, anywhere in the text', (_field, schema, base, field) => {
    for (const text of ['Pay \uF8FF', '\uE000Somchai', 'Mom\u{F0000}', 'A\u{10FFFD}B'])
      expect(first(schema, { ...base, [field]: text }), codePoint(text.replace(/^[^\p{Co}]*/u, ''))).toBe(PRIVATE);
    for (const text of ['Pay \uF900', 'Pay \uD7A3']) expect(first(schema, { ...base, [field]: text }), text).toBe('ok');
  });

  it.each(cases)('%s: a letter under 159 stacked marks is refused', (_field, schema, base, field) => {
    expect(first(schema, { ...base, [field]: `Z${'\u0336'.repeat(159)}` })).toBe(texts.stackedMarks.id);
  });

  it.each(cases)('%s: Hindi and Arabic names with their marks are accepted', (_field, schema, base, field) => {
    for (const name of ['प्रिया शर्मा', 'مُحَمَّد عَبْدُ ٱللَّٰه'])
      expect(first(schema, { ...base, [field]: name }), name).toBe('ok');
  });
});

describe('a name of fillers and marks only', () => {
  // The Arabic tatweel, Thai MAI YAMOK, the kana prolonged sound mark and the iteration mark lengthen or repeat the
  // letter before them; combining marks sit on one. Alone they show a line, a sign or a dotted circle: no one's name.
  const fillerOnly = [
    '\u0640\u0640\u0640',
    '\u0e46\u0e46\u0e46',
    '\u0e46 \u0e46',
    '\u30fc\u30fc',
    '\u3005',
    '\u0301\u0301',
    '\u0e31\u0e48\u0e49',
    '\u0640\u064b',
  ];
  const nameForms: [string, v.GenericSchema, Record<string, unknown>, string][] = [
    ['nickname', EditProfileInput, {}, 'nickname'],
    ['wallet alias', WalletInput, wallet, 'alias'],
    ['bank card holder', BankCardInput, card, 'real_name'],
    ['certification name', CertificationInput, certification, 'name'],
  ];
  const known = { [texts.nameOnlyFillers.id]: 1, [texts.realNameFormat.id]: 1 };
  const first = (schema: v.GenericSchema, input: unknown) => {
    const result = v.safeParse(schema, input, { abortEarly: true });
    return result.success ? 'ok' : firstIssueTextId(result.issues, known);
  };

  it.each(nameForms)('%s: refused with the rule said', (_f, schema, form, field) => {
    for (const typed of fillerOnly)
      expect(first(schema, { ...form, [field]: typed }), codePoint(typed)).toBe(texts.nameOnlyFillers.id);
  });

  it.each(nameForms)('%s: the same characters inside a name are kept', (_f, schema, form, field) => {
    for (const typed of [
      '\u0645\u062d\u0640\u0645\u062f',
      '\u0e14\u0e35\u0e46',
      '\u30b9\u30fc\u30b6\u30f3',
      '\u4f50\u3005\u6728',
    ])
      expect(first(schema, { ...form, [field]: typed }), typed).toBe('ok');
  });

  it('a real name of fillers and the marks names use between letters is told the rule', () => {
    expect(first(CertificationInput, { ...certification, name: '\u0e46-\u0e46' })).toBe(texts.realNameFormat.id);
    expect(first(CertificationInput, { ...certification, name: '\u30fc\u30fb\u30fc' })).toBe(texts.realNameFormat.id);
  });
});

describe('a person’s real name (a bank card’s holder, a certification)', () => {
  const forms: [string, v.GenericSchema, Record<string, unknown>, string][] = [
    ['bank card holder', BankCardInput, card, 'real_name'],
    ['certification name', CertificationInput, certification, 'name'],
  ];
  const known = { [texts.realNameFormat.id]: 1, [texts.fillInformation.id]: 1, [HIDDEN]: 1 };
  const first = (schema: v.GenericSchema, input: unknown) => {
    const result = v.safeParse(schema, input, { abortEarly: true });
    return result.success ? 'ok' : firstIssueTextId(result.issues, known);
  };

  it.each(forms)('%s: names of every script and the marks names use are accepted', (_f, schema, form, field) => {
    for (const name of [
      'Somchai Jaidee',
      'สมศักดิ์ ศักดิ์สิทธิ์ชัย',
      'राजेश कुमार',
      'क्‍ष', // a half form: ZWJ after the virama
      'محمد عبد الله',
      '王小明',
      '阿卜杜勒·拉赫曼',
      'ナカムラ・ケン',
      'スーザン',
      "Seán O'Brien",
      'Jean-Luc Picard',
      'Martin Luther King Jr.',
      'N\u2019Golo Kanté',
    ])
      expect(first(schema, { ...form, [field]: name }), name).toBe('ok');
  });

  it.each(forms)(
    '%s: emoji, digits, symbols or a name past 60 characters are told the rule',
    (_f, schema, form, field) => {
      for (const name of ['😀😀', 'John 3', '$$$', 'a@b', '<b>x</b>', '...', 'A'.repeat(300), 'A'.repeat(61)])
        expect(first(schema, { ...form, [field]: name }), name).toBe(texts.realNameFormat.id);
      expect(first(schema, { ...form, [field]: 'A'.repeat(60) })).toBe('ok');
      expect(first(schema, { ...form, [field]: '' })).toBe(texts.fillInformation.id);
    },
  );
});

describe('isolating a text set into plain text', () => {
  it('wraps it in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE, and unwraps it', () => {
    expect(isolate('محمد')).toBe('\u2068محمد\u2069');
    expect(withoutIsolate(isolate('Blue heron'))).toBe('Blue heron');
    expect(withoutIsolate('Blue heron')).toBe('Blue heron');
  });
});

describe('lengths count characters as a reader does (grapheme clusters), not code units', () => {
  // A Thai syllable of a consonant, a vowel mark and a tone mark: one character to a reader, three UTF-16 units.
  const SYLLABLE = 'ดิ์';
  const cases: [string, v.GenericSchema, Record<string, unknown>, string, number, string][] = [
    ['nickname', EditProfileInput, {}, 'nickname', NICKNAME_MAX, texts.enterNickname.id],
    ['bank card label', BankCardInput, card, 'label', PAYEE_LABEL_MAX, texts.payeeLabelFormat.id],
    ['bank card holder', BankCardInput, card, 'real_name', REAL_NAME_MAX, texts.realNameFormat.id],
    ['wallet alias', WalletInput, wallet, 'alias', WALLET_ALIAS_MAX, texts.payeeLabelFormat.id],
    ['payee label (rename)', PayeeLabelInput, { kind: 'wallet', id: '1' }, 'label', 30, texts.payeeLabelFormat.id],
    [
      'anti-phishing code',
      v.object({ phrase: antiPhishingCode }),
      {},
      'phrase',
      ANTI_PHISHING_MAX_LENGTH,
      texts.antiPhishingCodeFormat.id,
    ],
    ['chat message', sendChatMessage.input, {}, 'body', CHAT_MESSAGE_MAX, chatTexts.chatTooLong.id],
    ['certification name', CertificationInput, certification, 'name', REAL_NAME_MAX, texts.realNameFormat.id],
    [
      'an operator’s answer in the chat',
      consoleReplyConversation.input,
      { id: '1' },
      'body',
      CHAT_MESSAGE_MAX,
      consoleTexts.consoleReplyTooLong.id,
    ],
  ];
  const known = Object.fromEntries(cases.map((row) => [row[5], 1]));
  const first = (schema: v.GenericSchema, input: unknown) => {
    const result = v.safeParse(schema, input, { abortEarly: true });
    return result.success ? 'ok' : firstIssueTextId(result.issues, known);
  };

  it('counts a Thai syllable, a Devanagari conjunct and an emoji family once each', () => {
    expect(characterCount('สมศักดิ์ ศักดิ์สิทธิ์ชัย')).toBe(14);
    expect('สมศักดิ์ ศักดิ์สิทธิ์ชัย'.length).toBe(24);
    // क्ष is one conjunct since Unicode 15.1's grapheme rules (Node.js 24's ICU), then मा.
    expect(characterCount('क्षमा')).toBe(2);
    expect(characterCount('👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦')).toBe(3);
    expect(unitsFor(20)).toBe(20 * UNITS_PER_CHARACTER);
  });

  it.each(cases)(
    '%s: its most characters are accepted however many units they take',
    (_f, schema, form, field, max) => {
      expect(SYLLABLE.repeat(max).length).toBeGreaterThan(max);
      expect(first(schema, { ...form, [field]: SYLLABLE.repeat(max) })).toBe('ok');
    },
  );

  it.each(cases)('%s: one character more is refused with its own text', (_f, schema, form, field, max, text) => {
    expect(first(schema, { ...form, [field]: SYLLABLE.repeat(max + 1) })).toBe(text);
  });

  it.each(cases)(
    '%s: one letter under a pile of marks is refused by its units',
    (_f, schema, form, field, max, text) => {
      // Thai SARA I is a mark of combining class 0, which the rule on stacked marks (non-starters) lets pass.
      const piled = `${'ก'.repeat(max - 1)}ก${'\u0E34'.repeat(unitsFor(max))}`;
      expect(characterCount(piled)).toBe(max);
      expect(first(schema, { ...form, [field]: piled })).toBe(text);
    },
  );
});
