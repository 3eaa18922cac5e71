// Field schemas shared by the account calls. A failure's message is a text id from texts.ts,
// translated by whoever shows it (the server per request language, the PWA per app locale).
// The builders are marked free of side effects, so a bundle keeps only the schemas it uses.
import * as v from 'valibot';
import { CURRENCIES } from './constants.ts';
import { textById, texts } from './texts.ts';
import type { MessageDescriptor } from '@lingui/core';

/** A present, non-blank string (trimmed); `text` is shown when it is missing. */
export const required = /*#__NO_SIDE_EFFECTS__*/ (text: MessageDescriptor) =>
  v.pipe(v.string(text.id), v.trim(), v.nonEmpty(text.id));

/**
 * Present and matching `pattern`: `missing` when absent or empty, `wrong` when it does not match or is not text (a JSON
 * body's number or list for an amount is given, only not as the API reads it: "Please enter a valid amount!", never
 * "Please enter the amount").
 */
export const matching = /*#__NO_SIDE_EFFECTS__*/ (
  pattern: RegExp,
  missing: MessageDescriptor,
  wrong: MessageDescriptor = missing,
) =>
  v.pipe(
    v.string((issue) => (issue.input === undefined || issue.input === null ? missing.id : wrong.id)),
    v.trim(),
    v.nonEmpty(missing.id),
    v.regex(pattern, wrong.id),
  );

/**
 * Where a paged list continues: a previous answer's `next` (whole numbers joined by '.', at most four), or '' for the
 * list's head. The server checks it against the list's own keys too.
 */
export const cursor = v.optional(
  v.pipe(v.string(texts.invalidRequest.id), v.regex(/^(\d{1,16}(\.\d{1,16}){0,3})?$/, texts.invalidRequest.id)),
  '',
);

/** RFC 5321: an e-mail address has at most 254 characters; it is the longest thing a login name can be. */
export const EMAIL_MAX_LENGTH = 254;

/** Login password: 6-12 letters or numbers (the product's rule for login passwords). */
export const LOGIN_PASSWORD = /^[A-Za-z0-9]{6,12}$/;
/** Payment password: exactly 6 digits (the product's rule for payment passwords). */
export const PAY_PASSWORD = /^\d{6}$/;
/** Verification code: 6 digits (CODE_LENGTH). */
export const CODE = /^\d{6}$/;
/**
 * The characters a phone number may be written with between its digits, as libphonenumber reads them (its
 * VALID_PUNCTUATION, without the invisible ones and the extension's 'x'): spaces, dashes of every kind (the hyphen,
 * dashes, minus, the full-width hyphen-minus and the katakana prolonged sound mark a Japanese keyboard types for one),
 * dots and slashes, brackets (full-width too) and tildes. A regular expression character class.
 */
export const PHONE_SEPARATORS =
  '[\\s().\\-\\u2010-\\u2015\\u2212\\u30fc\\uff0d-\\uff0f\\uff08\\uff09\\uff3b\\uff3d\\[\\]/~\\u2053\\u223c\\uff5e]';

/**
 * A mobile number as people write it: 8-15 digits of any of the six languages' digit systems (ASCII, Arabic-Indic,
 * Extended Arabic-Indic, Devanagari, Thai, full-width), an optional leading plus (inside a bracket too: "(+66) 81…"),
 * and PHONE_SEPARATORS between them. Only its shape: the server reads it as E.164 by libphonenumber's rules (Thailand,
 * area code 66, by default) and refuses what is no mobile number.
 */
export const PHONE = new RegExp(
  `^(?:${PHONE_SEPARATORS}*[+\\uff0b])?${PHONE_SEPARATORS}*(?:[0-9\\u0660-\\u0669\\u06f0-\\u06f9\\u0966-\\u096f\\u0e50-\\u0e59\\uff10-\\uff19]${PHONE_SEPARATORS}*){8,15}$`,
);
/** An uploaded picture, named by the URL /users/upload answered. */
export const UPLOAD_URL = /^\/api\/uploads\/[A-Za-z0-9_-]{10,64}$/;
export const INVITE_CODE = /^[A-Za-z0-9]{4,12}$/;

export const loginPassword = matching(LOGIN_PASSWORD, texts.loginPasswordFormat);
export const payPassword = matching(PAY_PASSWORD, texts.payPasswordFormat);
export const code = matching(CODE, texts.enterCode, texts.codeFormat);
export const phone = matching(PHONE, texts.enterPhone, texts.phoneFormat);
/** What the login screen takes: a username, a mobile number or an e-mail address. */
export const loginName = v.pipe(
  required(texts.enterUsernameAndPassword),
  v.maxLength(EMAIL_MAX_LENGTH, texts.loginNameTooLong.id),
);
export const currency = v.picklist(CURRENCIES, texts.chooseCurrency.id);
/** Optional on the wire (absent or empty), else it must match `pattern` (a regex, so the published document shows it).
 * */
export const optionalMatching = /*#__NO_SIDE_EFFECTS__*/ (pattern: RegExp, wrong: MessageDescriptor) =>
  v.optional(
    v.pipe(v.string(wrong.id), v.trim(), v.regex(new RegExp(`^$|${pattern.source}`, pattern.flags), wrong.id)),
    '',
  );

/** `must=1`: the target must belong to an account (password reset); otherwise it must be free. */
export const mustFlag = v.optional(v.picklist(['0', '1'], texts.invalidRequest.id), '0');

/** The two new passwords of a change or reset must match ('The two passwords entered are inconsistent!'). */
export const samePasswords = <T extends { password: string; repassword: string }>() =>
  v.check<T, string>((input) => input.password === input.repassword, texts.passwordsInconsistent.id);

/** The text of the first failed rule, as an id of texts.ts or of `known` (never valibot's own English). */
export function firstIssueTextId(
  issues: readonly v.BaseIssue<unknown>[],
  known: Record<string, unknown> = textById,
): string {
  const id = issues[0]?.message;
  return id !== undefined && id in known ? id : texts.invalidRequest.id;
}

/** The request field the first failed rule is about (its path's first key), or undefined for a rule of the whole. */
export function firstIssueField(issues: readonly v.BaseIssue<unknown>[]): string | undefined {
  const key = issues[0]?.path?.[0]?.key;
  return typeof key === 'string' ? key : undefined;
}

// ---- Two-factor authentication: the codes the protected calls take in `otp` ---------------------

/** A code of an authenticator app. */
export const AUTHENTICATOR_CODE = /^\d{6}$/;
/** A recovery code: 10 base32 letters and digits, shown as XXXXX-XXXXX; typed in any case, with or without the dash. */
export const RECOVERY_CODE = /^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$/;
/** Either kind of code, as the protected calls take it. */
export const SECOND_FACTOR = new RegExp(`${AUTHENTICATOR_CODE.source}|${RECOVERY_CODE.source}`);

/** What a form sends: the spaces an app shows inside a code ("123 456") are not part of it. */
export const cleanSecondFactor = (typed: string) => typed.replace(/\s+/g, '');

/**
 * The `otp` field of a protected call (withdraw, add a bank card or wallet, change the payment
 * password, the phone or the e-mail): an authenticator code or a recovery code, required by the
 * server only when the caller has two-factor on; absent (left out of the form) or empty otherwise.
 */
export const otp = v.optional(
  v.pipe(
    v.string(texts.authenticatorCodeWrong.id),
    v.trim(),
    v.regex(new RegExp(`^$|${SECOND_FACTOR.source}`), texts.authenticatorCodeWrong.id),
  ),
);
