// Closing an account and taking one's data (our addition): the data export, an archive of everything the account
// holds, any time; and closing, only with every balance zero (points too few to redeem, and amounts too small to
// withdraw or sell, excepted: they end with the account, the latter with the customer's explicit consent) and nothing
// open, confirmed twice. What the law makes us
// keep is kept, for a stated time, and said so on the page; the rest is deleted at once. The rules are stated here, so
// the page and the server say the same.
import Big from 'big.js';
import * as v from 'valibot';
import { NoInput, get, post, returns } from './endpoint.ts';
import { decimal, isoTime, shape } from './answers.ts';
import { optionalMatching, required } from './fields.ts';
import { ASSET_AMOUNTS, eachAssetOnce } from './asset-amounts.ts';
import { texts } from './texts.ts';

/**
 * Product rule: the phone number and e-mail address of a closed account register again only this many days after
 * the closure. Why: a number or address released at once could be taken by someone else while messages, payments and
 * support tickets still name it, and a person could close and reopen to reset the welcome rewards or a time-out;
 * 180 days outlasts the longest of those (the half-year session limit, the reviews and disputes of the last orders).
 */
export const CONTACT_REUSE_DAYS = 180;

/**
 * Product rule: what the law makes us keep of a closed account — every ledger entry, every order (options, contracts,
 * recharges, withdrawals, liquidity and lock-up), the identity certifications with their document pictures, the
 * customer-service conversation, and the username, phone and e-mail it was reached by (closed_accounts) — is kept this
 * many years after the closure (`kept_until`), the record-keeping period anti-money-laundering laws set after a
 * business relationship ends (five years in the EU's AML directive and in the FATF's recommendations). Everything else
 * is deleted at closure: nickname, avatar, sessions (ended), passkeys, two-factor, payees (bank cards and wallets),
 * push subscriptions and notification settings, price alerts, the withdrawal address lock, the anti-phishing code, the
 * password hashes, and the station messages with their read marks. No job deletes the kept records at `kept_until`
 * yet (domain/SECURITY.md, closing an account).
 */
export const RETENTION_YEARS = 5;

/**
 * The data export's archive is built in memory on the server; above this many bytes of its files it is refused with a
 * text that says so: with the document pictures (an account keeps at most 100 MB of them), that it fits without them;
 * when the records alone pass it (about 110,000 ledger entries), to ask customer service for the archive. The rows are
 * read a batch at a time and the refusal comes as soon as the files written pass the bound, so no more than about
 * this much of an account is held in memory by one export.
 */
export const EXPORT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The data export: `GET /api/users/export` with the session's token (`?documents=1` adds the identity documents'
 * pictures). It answers a ZIP archive (application/zip, `attachment`) of the caller's own data, each part as a JSON
 * file and a CSV file: profile, ledger, orders, messages, sessions, certifications, and a README in the request's
 * language naming them and every column. No contract endpoint: its answer is a file, not an envelope; a refusal (no
 * session, too large) is the usual envelope.
 */
export const EXPORT_PATH = '/api/users/export';

/**
 * The points that end with the account when it closes: the points balance when it is above zero and below the
 * redemption minimum (`minPoints`, the points rule's `min_points`), as such points can never be redeemed; null when
 * none would end (no points, or enough to redeem, which holds the closure instead). Decimal strings of whole points.
 * The server's closure and the closing page both read it.
 */
export function pointsEndingWithAccount(balance: string, minPoints: string): string | null {
  const points = new Big(balance);
  return points.gt(0) && points.lt(minPoints) ? points.toFixed() : null;
}

/**
 * One available balance closing would end with the account: an amount the customer can do nothing with, as no
 * withdrawal can take it (it is below `least_amount`, the withdrawal minimum plus that withdrawal's fee, which is
 * frozen on top of the amount) and it cannot be sold (USDT is never sold; a coin's amount is one no order can sell,
 * dustOf at its latest recorded price). `amount`, `min_amount` and `least_amount` are decimal strings of 8 decimals, in
 * `asset`.
 */
export const EndingBalance = shape({
  asset: v.string(),
  /** The available amount that ends with the account, not paid out. */
  amount: decimal,
  /** The asset's withdrawal minimum (the withdrawal rule's `min_amount`). */
  min_amount: decimal,
  /** The least balance a withdrawal takes: `min_amount` plus its fee (withdrawFee at the rule's rate). */
  least_amount: decimal,
});
export type EndingBalance = v.InferOutput<typeof EndingBalance>;

/**
 * What closing would end with the account now, for the closing page to list before the customer consents: every
 * available balance below the least balance a withdrawal of its asset takes (its minimum plus fee) that cannot be sold
 * (EndingBalance), in asset order; empty when there is none. Frozen amounts, amounts a withdrawal can take, and
 * amounts an order can still sell are never in it: they hold the closure. Read again by the close itself, which goes
 * ahead only when it finds exactly these. `holds`: what holds the closure now, each reason a sentence in the caller's
 * language, in the order the close would refuse them (the balances still held by name, points enough to redeem, an
 * open option, order, redemption or lock-up, a withdrawal or recharge in review); empty when the account can close.
 * Absent from an answer kept before it was added (the app then lists none).
 */
export const closureEnding = get(
  '/users/close/ending',
  NoInput,
  returns(shape({ lists: v.array(EndingBalance), holds: v.optional(v.array(v.string())) })),
);

/** How closing is confirmed the second time: the login password, or the payment password. */
export const CLOSE_SECRETS = ['login', 'pay'] as const;
export type CloseSecret = (typeof CLOSE_SECRETS)[number];

export const ClosedAccount = shape({
  closed_at: isoTime,
  /** From when its phone and e-mail register again (closure + CONTACT_REUSE_DAYS). */
  contacts_free_at: isoTime,
  /** Until when the records the law makes us keep are kept (closure + RETENTION_YEARS). */
  kept_until: isoTime,
});
export type ClosedAccount = v.InferOutput<typeof ClosedAccount>;

/**
 * Closes the caller's account, confirmed with the login password (`secret_kind=login`) or the payment password (`pay`),
 * after the page's own confirmation dialog. Refused while any balance (every asset, frozen included; the practice
 * account's virtual money does not count) is not zero, or while an option, a contract order, a liquidity redemption, a
 * lock-up, a withdrawal or a recharge under review is open. Points may be left: points below the redemption minimum
 * (`min_points` of the points rule, `pointRecords`) could never be redeemed, so they end with the account (a ledger
 * entry of kind `points_closure`), and the page says how many before the customer confirms; points at or above it are
 * refused until redeemed. An available amount below the least balance a withdrawal of its asset takes (its minimum plus
 * fee) that cannot be sold (closureEnding) does not hold the closure either: the page lists each one, says it ends with
 * the account and is not paid out, and asks for the customer's consent; `amounts` (asset-amounts.ts ASSET_AMOUNTS, ''
 * for none) carries what the customer was shown, and the closure goes ahead only when the server finds exactly those
 * assets and amounts (else it is refused, closeEndingChanged, nothing written); each then ends with a ledger entry of
 * kind `closure_balance`. A coin no withdrawal can take whose market has no current price cannot be valued, so it never
 * ends: it holds the closure, and the refusal names it and says to sell it once its market trades again
 * (closeBalanceUnmovable). Every session ends with it.
 */
export const closeAccount = post(
  '/users/close',
  v.object({
    secret_kind: v.picklist(CLOSE_SECRETS, texts.invalidRequest.id),
    // The page asks for it before sending (a text of its own, kept out of the start's texts).
    secret: required(texts.invalidRequest),
    amounts: v.pipe(optionalMatching(ASSET_AMOUNTS, texts.invalidRequest), eachAssetOnce(texts.invalidRequest)),
  }),
  returns(ClosedAccount),
);
