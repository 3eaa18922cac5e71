// The reality check: the money beside the reminder of time in the app (features/protection/ReminderDialog.tsx). Our
// rule, so that the reminder shows the stakes as well as the minutes:
// - what counts: real-money options only — the caller's USDT ledger entries of kind `option_stake` (the stakes, posted
//   negative, shown as a positive sum) and `option_payout` (what settlements paid back, a void's refund included);
//   the net result is payouts − stakes. Practice money (the practice account's own assets) is never counted. Contract
//   fills are left out: their realised result needs each coin's cost basis, which no single entry carries;
// - this session: from the moment the app was started on this device (the reminder's time counts from there too), or
//   from this session's sign-in when that came later (before it this device was not signed in to the account);
// - today: the customer's calendar day in their time zone, the day a statement uses.
import * as v from 'valibot';
import { get, returns } from './endpoint.ts';
import { decimal, isoDay, isoTime, shape, signedDecimal } from './answers.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';

/** The ledger kinds the reality check counts, and in which column. */
export const REALITY_CHECK_KINDS = { stakes: 'option_stake', payouts: 'option_payout' } as const;

/** Staked, paid back and their difference over one span (USDT, decimal strings). */
export const MoneyFigures = shape({
  stakes: decimal,
  payouts: decimal,
  /** payouts − stakes: negative when the span lost money. */
  net: signedDecimal,
});
export type MoneyFigures = v.InferOutput<typeof MoneyFigures>;

export const RealityCheck = shape({
  asset: v.string(),
  /** Where "this session" began (the later of the app's start and the sign-in), as the server took it. */
  since: isoTime,
  /** Today, in the time zone sent. */
  day: isoDay,
  session: MoneyFigures,
  today: MoneyFigures,
});
export type RealityCheck = v.InferOutput<typeof RealityCheck>;

/**
 * The caller's stakes, payouts and net result this session and today. `since`: when the app started on this device, in
 * ms since the epoch (UTC); `tz`: the device's IANA time zone, as a statement takes it.
 */
export const realityCheck = get(
  '/users/protection/money',
  v.object({
    since: matching(/^\d{1,15}$/, texts.invalidRequest),
    tz: matching(/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, texts.invalidRequest),
  }),
  returns(RealityCheck),
);
