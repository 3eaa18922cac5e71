// The operator console's calls, apart from the customer app's: the console's own front end
// imports this module, the PWA never does. Every call but the sign-in needs an operator's session
// (not a customer's), and each names the role it needs (endpoint.ts `console`); the server checks it
// on every call. The integrity line: no call here sets an outcome or a price, or moves a balance
// other than through a reviewed order's own ledger entries (tests/server/console-integrity.test.ts).
import { calendarMoment, isCalendarDay } from './calendar.ts';
import { consoleTexts } from './console-texts.ts';
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { NoInput, get, post, returns, type ConsoleAccess } from './endpoint.ts';
import { AUTHENTICATOR_CODE, cursor, matching, required } from './fields.ts';
import { texts } from './texts.ts';
import { AddressLock } from './address-lock.ts';
import { PayoutHold } from './account-freeze.ts';
import { PendingLoosening, ProtectionLimits } from './protection.ts';
import { decimal, isoTime, nothing, shape, signedDecimal, whole } from './answers.ts';
import { HouseExposure } from './console-house.ts';
import { CursorPaged } from './envelope.ts';
import { hiddenCharacters, maxCharacters, visibleText } from './visible-text.ts';
import { asciiDigits, digitOf } from './typed-digits.ts';

export const OPERATOR_ROLES = ['reviewer', 'content', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
/** Lower-case, so 'Reviewer' and 'reviewer' cannot be two operators in the audit log. */
export const OPERATOR_NAME = /^[a-z][a-z0-9._-]{1,31}$/;
/** The name the command line acts under in the audit log and in four eyes: no operator may take it. */
export const COMMAND_LINE_OPERATOR = 'ops';
export const OPERATOR_PASSWORD_MIN = 12;
export const OPERATOR_PASSWORD_MAX = 128;
export const REASON_MAX = 500;

const access = (role: ConsoleAccess) => ({ console: role });
const recordId = matching(/^\d{1,9}$/, consoleTexts.consoleRecordNotFound);
const operatorName = matching(OPERATOR_NAME, consoleTexts.consoleOperatorNameFormat);
/** Whether a text holds a letter or a digit of any script: what makes words, which a reason must have. */
const SAYS_SOMETHING = /[\p{L}\p{N}]/u;
/** A rejection's reason, which the customer will see: visible text as every text a customer reads (visible-text.ts:
 * composed, no invisible or direction-changing character; lines allowed, spaces around it neither counted nor kept),
 * no private-use character, given, holding at least one letter or digit (marks with no letter under them or
 * punctuation alone tell the customer nothing: refused as no reason), and at most REASON_MAX
 * characters as a reader counts them. */
const reason = v.pipe(
  visibleText(consoleTexts.consoleEnterReason, { lines: true }),
  v.nonEmpty(consoleTexts.consoleEnterReason.id),
  v.check((given) => SAYS_SOMETHING.test(given), consoleTexts.consoleEnterReason.id),
  maxCharacters(REASON_MAX, consoleTexts.consoleReasonTooLong.id),
);
/** The texts of the reason rule, by what it breaks. */
const REASON_TEXTS = [
  consoleTexts.consoleEnterReason,
  consoleTexts.consoleReasonTooLong,
  texts.hiddenCharacters,
  texts.privateUseCharacters,
  texts.stackedMarks,
];
/** The reason rule above for the console's form and the server's reviews alike: the reason as kept, or the text of the
 * rule it breaks (one of REASON_TEXTS). */
export function checkRejectionReason(given: string): { reason: string } | { broken: MessageDescriptor } {
  const checked = v.safeParse(reason, given);
  if (checked.success) return { reason: checked.output };
  const broken = checked.issues[0].message;
  return { broken: REASON_TEXTS.find((text) => text.id === broken) ?? consoleTexts.consoleEnterReason };
}
/** The most characters an approval's remark may have, as a reader counts them. */
export const REMARK_MAX = 200;
/** The most digits a block height may have. */
const BLOCK_HEIGHT_DIGITS = 20;
/** Whether `typed` is '' or a whole number written in digits of one script (ASCII, Arabic-Indic, Devanagari, Thai,
 * full-width…: typed-digits.ts), as an operator types it in the console's language: no sign, mark or space inside. */
function isBlockHeight(typed: string): boolean {
  const digits = [...typed].map(digitOf);
  if (digits.length > BLOCK_HEIGHT_DIGITS || digits.some((digit) => !digit)) return false;
  return new Set(digits.map((digit) => digit?.system)).size <= 1;
}
/** The block height an approval may give, which the customer reads in the recharge details: a whole number of up to 20
 * digits, typed in the digits of any of the six languages' scripts and kept in ASCII ('٨٤٠١٢٣' is kept as '840123'),
 * or '' for none; spaces around it are left out. One holding an invisible or direction-changing character is refused
 * with the text saying so, anything else not digits ('12.5', '-7', '1,234') with the height's own text. */
const blockHeight = v.pipe(
  v.string(consoleTexts.consoleBlockHeightFormat.id),
  v.trim(),
  v.check((typed) => hiddenCharacters(typed).length === 0, texts.hiddenCharacters.id),
  v.check(isBlockHeight, consoleTexts.consoleBlockHeightFormat.id),
  v.transform(asciiDigits),
);
/** An approval's remark, which the customer reads too: visible text on one line (visible-text.ts, as the rejection's
 * reason), at most REMARK_MAX characters as a reader counts them, or ''. */
const remark = v.pipe(visibleText(null), maxCharacters(REMARK_MAX, texts.invalidRequest.id));
const approval = v.object({ block_height: v.optional(blockHeight, ''), remark: v.optional(remark, '') });
/** The texts of the approval rule, by what it breaks. */
const APPROVAL_TEXTS = [
  consoleTexts.consoleBlockHeightFormat,
  texts.hiddenCharacters,
  texts.stackedMarks,
  texts.invalidRequest,
];
/** The approval rule above for the console's calls and the operator command alike: the block height and remark as
 * kept ('' when not given), or the text of the rule one breaks (one of APPROVAL_TEXTS). */
export function checkRechargeApproval(given: {
  blockHeight?: string;
  remark?: string;
}): { blockHeight: string; remark: string } | { broken: MessageDescriptor } {
  const checked = v.safeParse(approval, { block_height: given.blockHeight, remark: given.remark });
  if (checked.success) return { blockHeight: checked.output.block_height, remark: checked.output.remark };
  const broken = checked.issues[0].message;
  return { broken: APPROVAL_TEXTS.find((text) => text.id === broken) ?? texts.invalidRequest };
}
const optionalText = (max: number) =>
  v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, texts.invalidRequest.id)), '');
/** A UTC day ('2026-11-27') or an instant with its offset ('2026-11-27T00:00:00+07:00', '…Z'): the console sends
 * the operator's own midnight as an instant. */
const dayOrInstant = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(
      /^(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?)?$/,
      consoleTexts.consoleDateFormat.id,
    ),
    // Written right, its day must also exist on the calendar (api-contract/calendar.ts): "2026-02-30" is not 2 March; a
    // moment's clock and offset must exist too.
    v.check((given) => given === '' || isCalendarDay(given.slice(0, 10)), texts.calendarDate.id),
    v.check((given) => given.length <= 10 || calendarMoment(given) !== null, consoleTexts.consoleDateFormat.id),
  ),
  '',
);
const statusOf = <T extends string>(values: readonly T[]) =>
  v.optional(v.picklist([...values, 'all'], texts.invalidRequest.id), values[0]);
const idAndReason = v.object({ id: recordId, reason });

// ---- Operators and sessions -----------------------------------------------------------------

export const OperatorView = shape({
  name: v.string(),
  role: v.picklist(OPERATOR_ROLES),
  must_change_password: v.boolean(),
});
export type OperatorView = v.InferOutput<typeof OperatorView>;

/** Name, password and the authenticator's code, all three every time. */
export const consoleSignIn = post(
  '/console/sign-in',
  v.object({
    name: required(texts.enterUsernameAndPassword),
    password: required(texts.enterUsernameAndPassword),
    code: matching(AUTHENTICATOR_CODE, texts.enterAuthenticatorCode, texts.authenticatorCodeWrong),
  }),
  returns(shape({ token: v.string(), operator: OperatorView })),
  { auth: false },
);
/** Who is signed in; allowed before the first password is changed (the console asks for it). */
export const consoleMe = get('/console/me', NoInput, returns(OperatorView), access('operator'));
/** The first password (printed by `ops operator add`) must be changed before any other call works. */
export const consoleChangePassword = post(
  '/console/password',
  v.object({
    password: required(texts.enterOldPassword),
    new_password: v.pipe(
      v.string(consoleTexts.consolePasswordFormat.id),
      v.minLength(OPERATOR_PASSWORD_MIN, consoleTexts.consolePasswordFormat.id),
      v.maxLength(OPERATOR_PASSWORD_MAX, consoleTexts.consolePasswordFormat.id),
    ),
  }),
  returns(OperatorView),
  access('operator'),
);
export const consoleSignOut = post('/console/sign-out', NoInput, returns(nothing), access('operator'));

// ---- The reviewer's work: recharges, withdrawals, certifications, customers ---------------------

/** `service`: customer service conversations waiting for an answer (api-contract/console-service.ts). */
export const ReviewQueues = shape({ recharges: whole, withdrawals: whole, certifications: whole, service: whole });
/** What waits for review now. */
export const consoleQueues = get('/console/queues', NoInput, returns(ReviewQueues), access('reviewer'));

export const ConsoleRecharge = shape({
  id: whole,
  order_no: v.string(),
  user_id: whole,
  /** The customer's username; a closed account's, the one it held when it closed (its row's is `closed:<id>`). */
  username: v.string(),
  /** The customer's account is closed: the console tags the name "Closed". */
  closed: v.boolean(),
  kind: v.string(),
  channel: v.string(),
  /** A crypto recharge's chain (TRC20, ERC20, BEP20, BTC); null for a bank transfer. */
  chain: v.nullable(v.string()),
  /** Where the customer was told to pay: their own deposit address on a channel with an extended public key (the
   * transfer must have gone to it), the channel's one address, or its bank account number. */
  address: v.string(),
  currency: v.string(),
  amount: decimal,
  /** Units of `currency` per credited unit, recorded when the customer reported the payment (1 for USDT itself). */
  rate: decimal,
  asset: v.string(),
  actual_amount: decimal,
  /** Its value in USDT: what an approved one credited, what a waiting one would at its recorded rate; null when it
   * credits another asset. */
  usdt_value: v.nullable(decimal),
  hash: v.nullable(v.string()),
  /** The transfer receipt's upload id (GET /api/uploads/<id> with the console token), or null for a crypto recharge. */
  receipt: v.nullable(v.string()),
  block_height: v.string(),
  remark: v.string(),
  reason: v.string(),
  status: v.string(),
  created_at: isoTime,
  reviewed_at: v.nullable(isoTime),
  /** Four eyes: who approved it so far, and how many approvals it needs (2 when it credits more than FOUR_EYES_USDT).
   */
  approvals: v.array(v.string()),
  approvals_needed: whole,
});
export type ConsoleRecharge = v.InferOutput<typeof ConsoleRecharge>;
/** A recharge as its review page reads it: the recharge, and its four eyes in full. */
export const ConsoleRechargeDetail = shape({
  ...ConsoleRecharge.entries,
  /** Four eyes: the caller approved it already (a second reviewer must give the other approval). */
  approved_by_you: v.boolean(),
  /** Four eyes: each approval given so far, first approver first, with when it was given. */
  approved: v.array(shape({ operator: v.string(), at: isoTime })),
});
export const consoleRecharges = get(
  '/console/recharges',
  v.object({ status: statusOf(['pending', 'success', 'rejected'] as const) }),
  returns(v.array(ConsoleRecharge)),
  access('reviewer'),
);
export const consoleRecharge = get(
  '/console/recharge',
  v.object({ id: recordId }),
  returns(ConsoleRechargeDetail),
  access('reviewer'),
);
/** Credits it, or, above the four-eyes amount, records the first of two approvals (the answer's status stays
 * 'pending'): the same rule as `ops recharge approve`. */
export const consoleApproveRecharge = post(
  '/console/recharge/approve',
  v.object({ id: recordId, ...approval.entries }),
  returns(ConsoleRecharge),
  access('reviewer'),
);
export const consoleRejectRecharge = post(
  '/console/recharge/reject',
  idAndReason,
  returns(ConsoleRecharge),
  access('reviewer'),
);

export const ConsoleWithdrawal = shape({
  id: whole,
  order_no: v.string(),
  user_id: whole,
  /** The customer's username; a closed account's, the one it held when it closed (its row's is `closed:<id>`). */
  username: v.string(),
  /** The customer's account is closed: the console tags the name "Closed". */
  closed: v.boolean(),
  asset: v.string(),
  amount: decimal,
  fee: decimal,
  total: decimal,
  actual_amount: decimal,
  target: v.string(),
  payee_name: v.string(),
  payee_account: v.string(),
  payee_network: v.string(),
  fiat_currency: v.string(),
  fiat_amount: v.nullable(decimal),
  /** The amount's value in USDT (the fee not included); null for another asset. */
  usdt_value: v.nullable(decimal),
  status: v.string(),
  reason: v.string(),
  hash: v.string(),
  created_at: isoTime,
  reviewed_at: v.nullable(isoTime),
  /** Four eyes: who approved it so far, and how many approvals it needs (2 above FOUR_EYES_USDT). */
  approvals: v.array(v.string()),
  approvals_needed: whole,
});
export type ConsoleWithdrawal = v.InferOutput<typeof ConsoleWithdrawal>;
export const SignInSeen = shape({ at: isoTime, ip: v.string(), device: v.string() });
/** The customer's orders in USDT, all of them (not only the latest listed): approved deposits at what they credited,
 * waiting ones at their recorded rate, withdrawals by their amount; orders in another asset are only counted. */
export const UsdtTotals = shape({
  deposits_credited: decimal,
  deposits_waiting: decimal,
  withdrawals_paid: decimal,
  withdrawals_waiting: decimal,
  /** The customer's deposits credited less withdrawals paid. */
  net: signedDecimal,
  /** Orders in an asset other than USDT, left out of the sums. */
  not_in_usdt: whole,
});
export type UsdtTotals = v.InferOutput<typeof UsdtTotals>;
/** The USDT balance after each posting of the last BALANCE_HISTORY_DAYS days (its ledger entries, at most
 * BALANCE_HISTORY_MAX, the newest), oldest first, from the ledger itself. A posting that moves both buckets (a
 * withdrawal's freeze: available down, frozen up by the same amount) is one point, so no point shows a balance that
 * existed only between the two entries of one statement. */
export const BalanceHistory = shape({
  since: isoTime,
  /** The balance before the first point. */
  opening: shape({ available: decimal, frozen: decimal }),
  points: v.array(
    shape({
      at: isoTime,
      /** The ledger kind of the posting's entries (ledger-kinds.ts names it). */
      kind: v.string(),
      /** What the posting changed in each bucket, USDT ('0' for a bucket it left alone). */
      available_change: signedDecimal,
      frozen_change: signedDecimal,
      /** The balance after it, USDT. */
      available: decimal,
      frozen: decimal,
      total: decimal,
    }),
  ),
  /** More entries than BALANCE_HISTORY_MAX in the period: the oldest are left out (`opening` counts them). */
  capped: v.boolean(),
});
export type BalanceHistory = v.InferOutput<typeof BalanceHistory>;
export const BALANCE_HISTORY_DAYS = 30;
export const BALANCE_HISTORY_MAX = 200;
/** A customer's latest deposits and withdrawals with their USDT totals and balance history: what the withdrawal and
 * recharge pages weigh an order against. */
export const CustomerHistory = shape({
  deposits: v.array(ConsoleRecharge),
  withdrawals: v.array(ConsoleWithdrawal),
  totals: UsdtTotals,
  balance_history: BalanceHistory,
});
/** The withdrawal's payee as saved (null when the customer deleted it since): a payee saved just before the
 * withdrawal is a warning sign, cooling-off or not. */
export const PayeeAge = shape({
  saved_at: isoTime,
  /** When withdrawals to it were allowed (PAYEE_COOLING_HOURS after saving, as configured when it was saved). */
  usable_at: isoTime,
  /** Its cooling-off is over now. */
  cooled: v.boolean(),
  /** Seconds from saving it to this withdrawal's request. */
  saved_before_seconds: whole,
});
export type PayeeAge = v.InferOutput<typeof PayeeAge>;
/** A withdrawal with what a reviewer weighs it against: the customer's deposits, withdrawals and recent sign-ins. */
export const ConsoleWithdrawalDetail = shape({
  withdrawal: ConsoleWithdrawal,
  /** Four eyes: the caller approved it already (a second reviewer must give the other approval). */
  approved_by_you: v.boolean(),
  payee: v.nullable(PayeeAge),
  /** The customer's withdrawal address lock now (read only here: only the customer turns it on or off). */
  address_lock: AddressLock,
  /** In review and held by the customer's own account freeze: it cannot be paid out until unfrozen (null: not held). */
  held: v.nullable(PayoutHold),
  /** Four eyes: each approval given so far, first approver first, with when it was given; shown beside a hold too. */
  approved: v.array(shape({ operator: v.string(), at: isoTime })),
  ...CustomerHistory.entries,
  sign_ins: v.array(SignInSeen),
});
export const consoleWithdrawals = get(
  '/console/withdrawals',
  v.object({ status: statusOf(['review', 'success', 'fail'] as const) }),
  returns(v.array(ConsoleWithdrawal)),
  access('reviewer'),
);
export const consoleWithdrawal = get(
  '/console/withdrawal',
  v.object({ id: recordId }),
  returns(ConsoleWithdrawalDetail),
  access('reviewer'),
);
/**
 * What an operator records of a payout, which the customer reads and copies from the withdrawal's details: nothing, or
 * its transaction hash (a chain's txid, "0x…" on EVM chains) or the bank's transfer reference: 4 to 128 Latin letters,
 * digits or dashes, so no space, invisible or direction-changing character can stand in what is copied.
 */
const payoutReference = v.optional(
  v.pipe(
    v.string(consoleTexts.consolePayoutHashFormat.id),
    v.trim(),
    v.regex(/^([A-Za-z0-9-]{4,128})?$/, consoleTexts.consolePayoutHashFormat.id),
  ),
  '',
);
/** The payout reference rule above for the console's calls and the operator command alike: the reference as kept
 * ('' when not given), or the text of the rule it breaks. */
export function checkPayoutReference(given: string | undefined): { hash: string } | { broken: MessageDescriptor } {
  const checked = v.safeParse(payoutReference, given);
  return checked.success ? { hash: checked.output } : { broken: consoleTexts.consolePayoutHashFormat };
}
/** Pays it out, or, above the four-eyes amount, records the first of two approvals (the answer's status stays
 * 'review'). */
export const consoleApproveWithdrawal = post(
  '/console/withdrawal/approve',
  v.object({ id: recordId, hash: payoutReference }),
  returns(ConsoleWithdrawal),
  access('reviewer'),
);
export const consoleRejectWithdrawal = post(
  '/console/withdrawal/reject',
  idAndReason,
  returns(ConsoleWithdrawal),
  access('reviewer'),
);

export const ConsoleCertification = shape({
  id: whole,
  user_id: whole,
  /** The customer's username; a closed account's, the one it held when it closed (its row's is `closed:<id>`). */
  username: v.string(),
  /** The customer's account is closed: the console tags the name "Closed". */
  closed: v.boolean(),
  level: v.string(),
  doc_type: v.nullable(v.string()),
  name: v.string(),
  number: v.string(),
  /** The document's pictures by side ('front', 'back', 'hold'): upload ids, read with the console token. */
  pictures: v.record(v.string(), v.string()),
  status: v.string(),
  reason: v.string(),
  created_at: isoTime,
  reviewed_at: v.nullable(isoTime),
});
export const consoleCertifications = get(
  '/console/certifications',
  v.object({ status: statusOf(['review', 'verified', 'rejected'] as const) }),
  returns(v.array(ConsoleCertification)),
  access('reviewer'),
);
export const consoleCertification = get(
  '/console/certification',
  v.object({ id: recordId }),
  returns(ConsoleCertification),
  access('reviewer'),
);
export const consoleApproveCertification = post(
  '/console/certification/approve',
  v.object({ id: recordId }),
  returns(ConsoleCertification),
  access('reviewer'),
);
export const consoleRejectCertification = post(
  '/console/certification/reject',
  idAndReason,
  returns(ConsoleCertification),
  access('reviewer'),
);

/**
 * A closed account as the console shows it (closed_accounts): when it closed, the username, mobile number (as stored,
 * E.164) and e-mail address it held until then, and what the closure ended with the account: its `closure_balance`
 * and `points_closure` ledger entries (reference `closure:<id>`), each as the amount it took to zero (positive), in
 * asset order; none when the closure ended nothing.
 */
export const ConsoleClosure = shape({
  closed_at: isoTime,
  username: v.string(),
  phone: v.nullable(v.string()),
  email: v.nullable(v.string()),
  ended: v.array(shape({ asset: v.string(), amount: decimal, kind: v.string() })),
});
export type ConsoleClosure = v.InferOutput<typeof ConsoleClosure>;
/** A customer as the console lists one. `username`, `phone` and `email` are the account's now: a closed account's
 * row keeps none of its own (its username is `closed:<id>`), and `closed` says what it held and when it closed. */
export const ConsoleCustomer = shape({
  id: whole,
  username: v.string(),
  phone: v.nullable(v.string()),
  email: v.nullable(v.string()),
  nickname: v.string(),
  level: whole,
  verification: v.string(),
  advanced_verification: v.string(),
  created_at: isoTime,
  /** The closure, when the account is closed; null while it is open. */
  closed: v.nullable(ConsoleClosure),
});
/** Customers whose username or e-mail address starts with the text in any letter case or compatibility form (as login
 * reads a name: "ＨＯＬＤＥＲ" finds "holder@example.com"), or whose mobile number starts with it written any way (at
 * most 20); a closed account by the username, mobile number or e-mail address it held when it closed, read the same
 * way. */
export const consoleFindCustomers = get(
  '/console/customers',
  v.object({
    query: v.pipe(required(consoleTexts.consoleEnterSearch), v.maxLength(254, consoleTexts.consoleEnterSearch.id)),
  }),
  returns(v.array(ConsoleCustomer)),
  access('reviewer'),
);
/**
 * Accounts whose mobile number is not in E.164: `duplicate`, several accounts holding one handset (`phone`, its E.164
 * number), or `not_mobile`, a stored number that is no mobile number. Each with what it holds (real balances, available
 * and frozen): listed to be settled with the customers, never merged.
 */
export const consolePhoneDuplicates = get(
  '/console/customers/phones',
  NoInput,
  returns(
    v.array(
      shape({
        user_id: whole,
        username: v.string(),
        kind: v.picklist(['duplicate', 'not_mobile']),
        phone: v.nullable(v.string()),
        stored_phone: v.string(),
        holds: v.array(shape({ asset: v.string(), amount: decimal })),
        found_at: isoTime,
      }),
    ),
  ),
  access('reviewer'),
);
export const ConsoleOptionOrder = shape({
  id: whole,
  coin: v.string(),
  direction: v.string(),
  amount: decimal,
  status: v.string(),
  outcome: v.nullable(v.string()),
  payout: v.nullable(decimal),
  created_at: isoTime,
});
export const ConsoleContractOrder = shape({
  id: whole,
  coin: v.string(),
  side: v.string(),
  type: v.string(),
  status: v.string(),
  quantity: decimal,
  /** A small balance's conversion to USDT (a market sell the customer asked for as a conversion, not one placed). */
  dust_conversion: v.boolean(),
  created_at: isoTime,
});
/** One customer, read only: balances, the latest ledger entries, the latest orders of each kind. */
export const consoleCustomer = get(
  '/console/customer',
  v.object({ id: recordId }),
  returns(
    shape({
      customer: ConsoleCustomer,
      balances: v.array(shape({ asset: v.string(), available: decimal, frozen: decimal })),
      ledger: v.array(
        shape({
          id: whole,
          asset: v.string(),
          bucket: v.string(),
          amount: signedDecimal,
          kind: v.string(),
          reference: v.string(),
          created_at: isoTime,
        }),
      ),
      recharges: v.array(ConsoleRecharge),
      withdrawals: v.array(ConsoleWithdrawal),
      options: v.array(ConsoleOptionOrder),
      contracts: v.array(ConsoleContractOrder),
      /** The customer's own limits and time-out as in force, and the loosenings waiting: shown, never changed here. */
      protection: shape({ limits: ProtectionLimits, pending: v.array(PendingLoosening) }),
    }),
  ),
  access('reviewer'),
);
/** One customer's deposits, withdrawals, USDT totals and balance history (the recharge page's side column). */
export const consoleCustomerHistory = get(
  '/console/customer/history',
  v.object({ id: recordId }),
  returns(CustomerHistory),
  access('reviewer'),
);

// ---- The admin's work: operators and the audit log (option products and pairs: console-products.ts) --

export const ConsoleOperator = shape({
  name: v.string(),
  role: v.picklist(OPERATOR_ROLES),
  must_change_password: v.boolean(),
  created_at: isoTime,
  disabled_at: v.nullable(isoTime),
});
export const consoleOperators = get('/console/operators', NoInput, returns(v.array(ConsoleOperator)), access('admin'));
/** A new operator: the first password and the authenticator's otpauth:// URI are shown this once. */
export const consoleAddOperator = post(
  '/console/operators/add',
  v.object({ name: operatorName, role: v.picklist(OPERATOR_ROLES, consoleTexts.consoleOperatorRole.id) }),
  returns(
    shape({
      name: v.string(),
      role: v.picklist(OPERATOR_ROLES),
      password: v.string(),
      otpauth_uri: v.pipe(v.string(), v.startsWith('otpauth://totp/')),
    }),
  ),
  access('admin'),
);
/** Disables an operator and ends their sessions (the account and its audit entries stay). */
export const consoleDisableOperator = post(
  '/console/operators/disable',
  v.object({ name: operatorName }),
  returns(ConsoleOperator),
  access('admin'),
);

/** One field's difference: added (before null), removed (after null) or changed; values as JSON text. */
export const AuditChange = shape({
  path: v.string(),
  before: v.nullable(v.string()),
  after: v.nullable(v.string()),
});
export type AuditChange = v.InferOutput<typeof AuditChange>;
export const AuditEntry = shape({
  id: whole,
  at: isoTime,
  operator: v.string(),
  address: v.string(),
  action: v.string(),
  target: v.string(),
  before: v.unknown(),
  after: v.unknown(),
  /** What differs between before and after, field by field (nested fields by their path: 'details.amount'). */
  changes: v.array(AuditChange),
});
export type AuditEntry = v.InferOutput<typeof AuditEntry>;
export const AUDIT_PAGE_SIZE = 50;
/**
 * The audit log, newest first (by entry id, the order entries were appended), AUDIT_PAGE_SIZE entries a page,
 * filtered by operator, action prefix ('withdrawal' finds 'withdrawal.approve'…), target and time: `from` and `to` as
 * UTC days (both included) or as instants (`from` included, `to` excluded). `cursor` is a previous answer's `next`
 * (absent for the newest); entries appended meanwhile never shift the pages. `total` counts the matching entries.
 */
export const consoleAuditLog = get(
  '/console/audit',
  v.object({
    operator: optionalText(32),
    action: optionalText(64),
    target: optionalText(64),
    from: dayOrInstant,
    to: dayOrInstant,
    cursor,
  }),
  returns(CursorPaged(AuditEntry, shape({ total: whole }))),
  access('admin'),
);

// ---- The admin's system page: the feed, settlement, the outbox, the books' check, the processes -----

/** The audit log's name for what the server records by itself (a mismatch of the books): no operator may take it. */
export const SYSTEM_OPERATOR = 'system';
/** What the books' check compares (server/domain/reconciliation.ts). */
export const RECONCILIATION_CHECKS = [
  'available',
  'frozen',
  'negative',
  'reserve',
  'lockup',
  'option_payout',
  'exposure',
] as const;
/** One thing that disagrees: `target` names it ('balance:<user>:<asset>', 'option:<id>'); amounts as decimal strings,
 * 'none' for a payout entry there is not (or should not be). */
export const ReconciliationMismatch = shape({
  kind: v.picklist(RECONCILIATION_CHECKS),
  target: v.string(),
  user_id: whole,
  asset: v.string(),
  expected: v.string(),
  found: v.string(),
});
export type ReconciliationMismatch = v.InferOutput<typeof ReconciliationMismatch>;
export const ReconciliationView = shape({
  started_at: isoTime,
  finished_at: isoTime,
  /** host:pid of the process that ran it. */
  process: v.string(),
  ok: v.boolean(),
  checked_balances: whole,
  mismatches: v.array(ReconciliationMismatch),
});
export const ConsoleSystem = shape({
  as_of: isoTime,
  /** The process that answered. */
  this_process: shape({ id: v.string(), version: v.string(), build: v.string() }),
  /** The market feed: under the simulator there are no exchanges (`simulated`). */
  feed: shape({
    simulated: v.boolean(),
    exchanges: v.array(
      shape({
        exchange: v.string(),
        connected: v.boolean(),
        last_trade_at: v.nullable(isoTime),
        reconnects: whole,
        malformed_frames: whole,
        /** When the feed's holder last wrote the row. */
        updated_at: isoTime,
      }),
    ),
    coins: v.array(
      shape({
        coin: v.string(),
        /** Since when the coin is halted (fewer than two fresh exchange prices); null when it is not. */
        halted_since: v.nullable(isoTime),
        last_tick_at: v.nullable(isoTime),
        last_price: v.nullable(decimal),
        /** Per exchange: its last trade of the coin. */
        exchanges: v.record(v.string(), isoTime),
      }),
    ),
  }),
  /** Option orders past their end time and not settled yet, and the oldest one's end. */
  settlement: shape({ due: whole, oldest_due_at: v.nullable(isoTime), oldest_age_seconds: v.nullable(whole) }),
  /** Per channel: messages waiting, those failed in the last 24 h, the oldest waiting one. */
  outbox: v.array(
    shape({
      channel: v.string(),
      queued: whole,
      failed_24h: whole,
      oldest_queued_at: v.nullable(isoTime),
      oldest_queued_age_seconds: v.nullable(whole),
    }),
  ),
  /** The latest run of the books' check; null before the first. */
  reconciliation: v.nullable(ReconciliationView),
  /** How often it runs (RECONCILE_EVERY_SECONDS). */
  reconcile_every_seconds: whole,
  /** Server processes on this database: `alive` when seen within 30 s and not stopped. */
  processes: v.array(
    shape({
      id: v.string(),
      host: v.string(),
      pid: whole,
      version: v.string(),
      build: v.string(),
      started_at: isoTime,
      last_seen_at: isoTime,
      stopped_at: v.nullable(isoTime),
      alive: v.boolean(),
    }),
  ),
  /** What a win of the open options would pay, per coin and direction (the House page's figures). */
  exposure: v.array(HouseExposure),
});
export type ConsoleSystem = v.InferOutput<typeof ConsoleSystem>;
/** The system page: read only, refreshed while open. */
export const consoleSystem = get('/console/system', NoInput, returns(ConsoleSystem), access('admin'));
