// The validation texts, through firstError and the API contract's schemas (the same ones the server uses).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ChangePasswordInput,
  ChangePayPasswordInput,
  EditProfileInput,
  ForgotPasswordInput,
  LoginForm,
  LoginInput,
  RegisterInput,
} from '../../src/api-contract/account.ts';
import { domainToUnicode } from 'node:url';
import { canonicalEmail } from '../../src/api-contract/email-address.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { firstError } from '../../src/lib/validate.ts';

const T = {
  usernameAndPassword: 'Please enter your username and password first!',
  agreement: 'Please make sure to read the agreement and try again!',
  loginPassword: 'The login password must be 6-12 letters or numbers!',
  payPassword: 'Payment password must be 6 digits only!',
  inconsistent: 'The two passwords entered are inconsistent!',
};

describe('the validation texts are the product wording', () => {
  it('texts.ts carries them verbatim', () => {
    expect(texts.enterUsernameAndPassword.message).toBe(T.usernameAndPassword);
    expect(texts.readAgreement.message).toBe(T.agreement);
    expect(texts.loginPasswordFormat.message).toBe(T.loginPassword);
    expect(texts.payPasswordFormat.message).toBe(T.payPassword);
    expect(texts.passwordsInconsistent.message).toBe(T.inconsistent);
  });
});

describe('login', () => {
  const form = { username: 'customer1', password: 'secret1', agree: true };

  it.each([
    ['empty username', { ...form, username: '' }],
    ['blank username', { ...form, username: '   ' }],
    ['empty password', { ...form, password: '' }],
    ['blank password', { ...form, password: ' \t ' }],
    ['both empty', { ...form, username: '', password: '' }],
  ])('%s → enter username and password', (_, input) => {
    expect(firstError(LoginForm, input)).toBe(T.usernameAndPassword);
  });

  it('agreement not ticked → read the agreement', () => {
    expect(firstError(LoginForm, { ...form, agree: false })).toBe(T.agreement);
  });

  it('an empty field is reported before the agreement', () => {
    expect(firstError(LoginForm, { ...form, password: '', agree: false })).toBe(T.usernameAndPassword);
  });

  it('a field left out entirely is a malformed request (forms always send every field)', () => {
    expect(firstError(LoginForm, { password: 'secret1', agree: true })).toBe(texts.invalidRequest.message);
  });

  it('a valid form → null; the wire input needs no agreement', () => {
    expect(firstError(LoginForm, form)).toBeNull();
    expect(firstError(LoginInput, { username: 'customer1', password: 'secret1' })).toBeNull();
  });
});

describe('register', () => {
  const byPhone = {
    mode: 'phone',
    phone: '0812345678',
    code: '123456',
    password: 'abc123',
    paypass: '123456',
    currency: 'THB',
    invite: '',
  };
  const byEmail = {
    mode: 'email',
    email: 'Customer1@Example.com',
    code: '123456',
    password: 'abc123',
    paypass: '123456',
    currency: 'USD',
  };

  it('valid inputs → null', () => {
    expect(firstError(RegisterInput, byPhone)).toBeNull();
    expect(firstError(RegisterInput, byEmail)).toBeNull();
    expect(firstError(RegisterInput, { ...byPhone, invite: 'AB12cd' })).toBeNull();
    expect(firstError(RegisterInput, { ...byPhone, password: 'ABCdef123456' })).toBeNull();
  });

  it.each([
    ['5 characters', 'abc12'],
    ['13 characters', 'abcdef1234567'],
    ['symbols', 'abc12!'],
    ['a space inside', 'abc 123'],
    ['empty', ''],
  ])('login password with %s → 6-12 letters or numbers', (_, password) => {
    expect(firstError(RegisterInput, { ...byPhone, password })).toBe(T.loginPassword);
  });

  it.each([
    ['5 digits', '12345'],
    ['7 digits', '1234567'],
    ['letters', 'abcdef'],
    ['digits and a letter', '12345a'],
    ['empty', ''],
  ])('payment password with %s → 6 digits only', (_, paypass) => {
    expect(firstError(RegisterInput, { ...byPhone, paypass })).toBe(T.payPassword);
  });

  it('code missing / short / not digits', () => {
    expect(firstError(RegisterInput, { ...byPhone, code: '' })).toBe(texts.enterCode.message);
    expect(firstError(RegisterInput, { ...byPhone, code: undefined })).toBe(texts.enterCode.message);
    expect(firstError(RegisterInput, { ...byPhone, code: '12345' })).toBe(texts.codeFormat.message);
    expect(firstError(RegisterInput, { ...byPhone, code: '12345a' })).toBe(texts.codeFormat.message);
  });

  it('phone missing or bad', () => {
    expect(firstError(RegisterInput, { ...byPhone, phone: '' })).toBe(texts.enterPhone.message);
    expect(firstError(RegisterInput, { ...byPhone, phone: '08-1234' })).toBe(texts.phoneFormat.message);
    expect(firstError(RegisterInput, { ...byPhone, phone: '12345' })).toBe(texts.phoneFormat.message);
    expect(firstError(RegisterInput, { ...byPhone, phone: '08abc12345' })).toBe(texts.phoneFormat.message);
    expect(firstError(RegisterInput, { ...byPhone, phone: '081234567890123456' })).toBe(texts.phoneFormat.message);
  });

  // The form lets through what a person writes; the server reads it as E.164 and refuses what is no mobile number.
  it.each([
    ['national', '0812345678'],
    ['without the 0', '812345678'],
    ['with 66', '66812345678'],
    ['+66 with spaces', '+66 81 234 5678'],
    ['with dashes and brackets', '(081) 234-5678'],
    ['Arabic-Indic digits (ar)', '٠٨١٢٣٤٥٦٧٨'],
    ['Extended Arabic-Indic digits', '۰۸۱۲۳۴۵۶۷۸'],
    ['Devanagari digits (hi)', '०८१२३४५६७८'],
    ['Thai digits (th)', '๐๘๑๒๓๔๕๖๗๘'],
    ['full-width digits (zh, jp)', '＋６６ ８１２３４５６７８'],
  ])('a mobile number written %s passes the form', (_, phone) => {
    expect(firstError(RegisterInput, { ...byPhone, phone })).toBeNull();
  });

  it('e-mail missing or bad', () => {
    expect(firstError(RegisterInput, { ...byEmail, email: '' })).toBe(texts.enterEmail.message);
    expect(firstError(RegisterInput, { ...byEmail, email: 'customer1' })).toBe(texts.emailFormat.message);
    expect(firstError(RegisterInput, { ...byEmail, email: 'customer1@example' })).toBe(texts.emailFormat.message);
    expect(firstError(RegisterInput, { ...byEmail, email: 'al ice@example.com' })).toBe(texts.emailFormat.message);
  });

  it.each([
    'customer1@example.com..',
    'customer1@example..com',
    'customer1@-example.com',
    'customer1@example-.com',
    'customer1@.example.com',
    '.customer1@example.com',
    'customer1.@example.com',
    'al..ice@example.com',
    'customer1@example.c',
    'customer1@example.123',
    `${'a'.repeat(65)}@example.com`,
    // Specials outside a quoted string: a mailer reads each as another address (a comment, a list, a group, a route).
    'customer1(note)@example.com',
    'customer1,customer2@example.com',
    'customer1;customer2@example.com',
    'team:customer2@example.com',
    'customer1<customer2>@example.com',
    'customer1[1]@example.com',
    'customer1\\customer2@example.com',
  ])('e-mail %s: no address by RFC 5321 and the DNS rules, refused', (email) => {
    expect(firstError(RegisterInput, { ...byEmail, email })).toBe(texts.emailFormat.message);
  });

  it.each([
    ['Customer1@Example.COM.', 'customer1@example.com'],
    ['a.b+tag@mail.example.co.th', 'a.b+tag@mail.example.co.th'],
    ['สมชาย@ตัวอย่าง.ไทย', 'สมชาย@ตัวอย่าง.ไทย'],
    // A domain's ASCII form (IDNA's A-labels, Punycode) is the same domain as its letters: kept as the letters.
    ['user@xn--72c1a1bt4awk9o.xn--o3cw4h', 'user@ตัวอย่าง.ไทย'],
    ['a@xn--bcher-kva.de', 'a@bücher.de'],
    ['A@XN--BCHER-KVA.DE', 'a@bücher.de'],
    ['a@bücher.de', 'a@bücher.de'],
    ['a@mail.xn--mnchen-3ya.xn--p1ai', 'a@mail.münchen.рф'],
    ['राम@उदाहरण.भारत', 'राम@उदाहरण.भारत'],
    ['a@b.co', 'a@b.co'],
    ["o'brien!#$%&*/=?^_`{|}~-@example.com", "o'brien!#$%&*/=?^_`{|}~-@example.com"],
    // A domain is read as IDNA reads it: the full-width forms and the ideographic full stop of Chinese and Japanese
    // input, and the Thai SARA AM as NIKHAHIT and SARA AA, are one domain with their plain spellings.
    ['someone＠ｅｘａｍｐｌｅ．ｃｏｍ', 'someone@example.com'],
    ['someone@example。co。th', 'someone@example.co.th'],
    ['somchai@\u0e01\u0e33.th', 'somchai@\u0e01\u0e4d\u0e32.th'],
  ])('e-mail %s is kept as %s', (email, kept) => {
    const result = v.safeParse(RegisterInput, { ...byEmail, email });
    expect(result.success && result.output.mode === 'email' && result.output.email).toBe(kept);
    expect(canonicalEmail(email)).toBe(kept);
  });

  it("reads a domain's ASCII form as IDNA does, and keeps a label that is not one as it is", () => {
    // The same reading as the WHATWG URL standard's (Node's), label by label.
    for (const domain of ['xn--bcher-kva.de', 'xn--72c1a1bt4awk9o.xn--o3cw4h', 'xn--fsqu00a.xn--0zwm56d', 'xn--p1ai'])
      expect(canonicalEmail(`a@${domain}`)).toBe(`a@${domainToUnicode(domain)}`);
    // Not Punycode, or Punycode of no domain a registry would give (upper case, ASCII only, a dot): left as typed.
    for (const domain of ['xn--.de', 'xn--99999999999999.de', 'xn--abc-.de', 'xn--ab-5ga.de', 'xn--a-ecp.de'])
      expect(canonicalEmail(`a@${domain}`), domain).toBe(`a@${domain}`);
    // Reading it twice changes nothing.
    for (const typed of ['a@xn--bcher-kva.de', 'a@XN--BCHER-KVA.de', 'a@ｘｎ--bcher-kva.de'])
      expect(canonicalEmail(canonicalEmail(typed))).toBe(canonicalEmail(typed));
  });

  it('the mode decides which contact is checked', () => {
    expect(firstError(RegisterInput, { ...byEmail, mode: 'phone', phone: '' })).toBe(texts.enterPhone.message);
    expect(firstError(RegisterInput, { ...byPhone, mode: 'email', email: 'bad' })).toBe(texts.emailFormat.message);
    expect(firstError(RegisterInput, { ...byPhone, mode: 'fax' })).toBe(texts.invalidRequest.message);
  });

  it('currency missing or unknown', () => {
    expect(firstError(RegisterInput, { ...byPhone, currency: 'XYZ' })).toBe(texts.chooseCurrency.message);
    expect(firstError(RegisterInput, { ...byPhone, currency: '' })).toBe(texts.chooseCurrency.message);
    expect(firstError(RegisterInput, { ...byPhone, currency: undefined })).toBe(texts.chooseCurrency.message);
  });

  it('invitation code: optional, but checked when given', () => {
    expect(firstError(RegisterInput, { ...byPhone, invite: undefined })).toBeNull();
    expect(firstError(RegisterInput, { ...byPhone, invite: 'a!' })).toBe(texts.inviteCodeFormat.message);
  });
});

describe('change and forgot password', () => {
  const change = { oldpass: 'old123', password: 'new123', repassword: 'new123' };
  const forgot = { mode: 'phone', phone: '0812345678', code: '123456', password: 'new123', repassword: 'new123' };

  it('valid inputs → null', () => {
    expect(firstError(ChangePasswordInput, change)).toBeNull();
    expect(firstError(ForgotPasswordInput, forgot)).toBeNull();
    expect(firstError(ForgotPasswordInput, { ...forgot, mode: 'email', phone: undefined, email: 'a@b.co' })).toBeNull();
  });

  it('two different new passwords → inconsistent', () => {
    expect(firstError(ChangePasswordInput, { ...change, repassword: 'new124' })).toBe(T.inconsistent);
    expect(firstError(ForgotPasswordInput, { ...forgot, repassword: 'new124' })).toBe(T.inconsistent);
    expect(firstError(ForgotPasswordInput, { ...forgot, mode: 'email', email: 'a@b.co', repassword: 'other1' })).toBe(
      T.inconsistent,
    );
  });

  it('repeat missing → inconsistent', () => {
    expect(firstError(ChangePasswordInput, { ...change, repassword: '' })).toBe(T.inconsistent);
  });

  it('old password required when modifying', () => {
    expect(firstError(ChangePasswordInput, { ...change, oldpass: '' })).toBe(texts.enterOldPassword.message);
  });

  it('the new password follows the login password rule', () => {
    expect(firstError(ChangePasswordInput, { ...change, password: 'abc', repassword: 'abc' })).toBe(T.loginPassword);
    expect(firstError(ForgotPasswordInput, { ...forgot, password: 'abc!defg', repassword: 'abc!defg' })).toBe(
      T.loginPassword,
    );
  });

  it('forgot password needs a code', () => {
    expect(firstError(ForgotPasswordInput, { ...forgot, code: '' })).toBe(texts.enterCode.message);
    expect(firstError(ForgotPasswordInput, { ...forgot, code: '123' })).toBe(texts.codeFormat.message);
  });
});

describe('payment password', () => {
  const input = { oldpaypass: '111111', password: '222222', repassword: '222222' };

  it('valid → null (with the old one, or with a code)', () => {
    expect(firstError(ChangePayPasswordInput, input)).toBeNull();
    expect(firstError(ChangePayPasswordInput, { code: '123456', password: '222222', repassword: '222222' })).toBeNull();
  });

  it('6 digits only', () => {
    expect(firstError(ChangePayPasswordInput, { ...input, password: '22222', repassword: '22222' })).toBe(
      T.payPassword,
    );
    expect(firstError(ChangePayPasswordInput, { ...input, password: 'abcdef', repassword: 'abcdef' })).toBe(
      T.payPassword,
    );
    expect(firstError(ChangePayPasswordInput, { ...input, oldpaypass: '1234' })).toBe(T.payPassword);
  });

  it('inconsistent repeat', () => {
    expect(firstError(ChangePayPasswordInput, { ...input, repassword: '222223' })).toBe(T.inconsistent);
  });
});

describe('edit profile', () => {
  it('valid → null', () => {
    expect(firstError(EditProfileInput, { nickname: 'Customer1' })).toBeNull();
    expect(firstError(EditProfileInput, { currency: 'JPY' })).toBeNull();
    expect(firstError(EditProfileInput, { phone: '0812345678', code: '123456', password: 'secret123' })).toBeNull();
  });

  it('a new phone or e-mail needs the login password too (a session alone must not move them)', () => {
    expect(firstError(EditProfileInput, { phone: '0812345678', code: '123456' })).toBe(
      texts.enterLoginPassword.message,
    );
    expect(firstError(EditProfileInput, { email: 'a@b.co', code: '123456' })).toBe(texts.enterLoginPassword.message);
  });

  it('nothing to change → fill in the information', () => {
    expect(firstError(EditProfileInput, {})).toBe(texts.fillInformation.message);
  });

  it('a new phone or e-mail needs its code', () => {
    expect(firstError(EditProfileInput, { phone: '0812345678' })).toBe(texts.enterCode.message);
    expect(firstError(EditProfileInput, { email: 'a@b.co' })).toBe(texts.enterCode.message);
  });

  it('bad nickname, phone, e-mail, currency', () => {
    expect(firstError(EditProfileInput, { nickname: '' })).toBe(texts.enterNickname.message);
    expect(firstError(EditProfileInput, { nickname: 'x'.repeat(21) })).toBe(texts.enterNickname.message);
    expect(firstError(EditProfileInput, { phone: 'abc', code: '123456' })).toBe(texts.phoneFormat.message);
    expect(firstError(EditProfileInput, { email: 'nope', code: '123456' })).toBe(texts.emailFormat.message);
    expect(firstError(EditProfileInput, { currency: 'BTC' })).toBe(texts.chooseCurrency.message);
  });
});

describe('firstError never shows valibot English', () => {
  it('a wrong type falls back to a text of texts.ts', () => {
    const known = new Set<string>(Object.values(texts).map((text) => text.message));
    expect(known.has(firstError(LoginForm, null) ?? '')).toBe(true);
    expect(known.has(firstError(RegisterInput, 42) ?? '')).toBe(true);
  });
});
