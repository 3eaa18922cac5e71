// Closing an account (the rules are stated in api-contract/closure.ts): only with every real balance zero (but points
// too few to redeem and amounts too small to withdraw or sell, which end with the account) and nothing open, confirmed
// with a password; what the law makes us keep is kept until `kept_until`, the rest is deleted in the
// same transaction. A closed account signs in no more by any way (password, code, passkey): its username, phone and
// e-mail leave the users row (kept in closed_accounts), its passkeys are deleted, so every sign-in meets the refusal an
// unknown account meets today, and no more. Its phone and e-mail register again only CONTACT_REUSE_DAYS later.
import Big from 'big.js';
import { and, eq, gt, inArray, isNull, notLike, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import {
  addressLocks,
  balances,
  bankCards,
  contentTranslations,
  closedAccounts,
  contractOrders,
  liquidityRecords,
  lockupOrders,
  messageReads,
  messages,
  notificationSettings,
  optionOrders,
  passkeys,
  phoneDuplicates,
  priceAlerts,
  pushSubscriptions,
  rechargeOrders,
  recoveryCodes,
  sessions,
  twoFactors,
  uploads,
  users,
  wallets,
  webauthnChallenges,
  withdrawOrders,
} from '../db/schema.ts';
import {
  CONTACT_REUSE_DAYS,
  RETENTION_YEARS,
  pointsEndingWithAccount,
  type ClosedAccount,
  type CloseSecret,
  type EndingBalance,
} from '../../api-contract/closure.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { checkLoginPasswordOf, checkPayPasswordOf, findUser, usernameKey, type PreparedSecrets } from './accounts.ts';
import type { CodeChannel } from './code-sender.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { PRACTICE_ASSETS, post } from './ledger.ts';
import { closureBalancesIn, sameAsShown } from './closure-balances.ts';
import { pointsRule } from './points.ts';
import { Refusal } from './refusal.ts';
import { endCertificationsInReview } from './certification.ts';

const DAY_MS = 86_400_000;

/** closure + RETENTION_YEARS, on the calendar (UTC). */
export function keptUntil(closedAt: Date): Date {
  const until = new Date(closedAt);
  until.setUTCFullYear(until.getUTCFullYear() + RETENTION_YEARS);
  return until;
}

/** The username a closed account's row keeps: no login name can be it (a login name is a phone, an e-mail address or
 * letters, digits and '_'), so it matches no sign-in and frees the real one. */
export const closedUsername = (userId: number) => `closed:${userId}`;

/**
 * What closing ends with the account, as refuseIfNotClosable finds it: `points`, the points balance (a whole number as
 * a decimal string, '0' when none) that is below the redemption minimum, so could never be redeemed; closeAccount
 * ends it with a `points_closure` ledger entry. `balances`, the available amounts below their asset's withdrawal
 * minimum that cannot be sold (closure-balances.ts), in asset order; closeAccount ends each with a `closure_balance`
 * entry.
 */
export interface EndedWithAccount {
  points: string;
  balances: EndingBalance[];
}

/**
 * What holds user `userId`'s account from closing at `now`, every reason found, in the order the close refuses them
 * (each a Refusal with its translated text): a coin no withdrawal can take and no order can sell now, its market
 * having no current price (closureBalancesIn's `unmovable`: closeBalanceUnmovable names it and says to sell it once
 * its market trades); a real balance not zero (available or frozen, any asset; the practice account's assets do not
 * count) other than those that end with the account (closeBalanceLeft names every one); points at or above the
 * redemption minimum (the points rule's `min_points`: closePointsRedeemable says they can be redeemed first; points
 * below it cannot be redeemed and end with the account); then an open option, contract order, liquidity redemption,
 * lock-up, withdrawal in review or recharge in review, one text each kind. Practice orders move no real money and do
 * not hold the closure. Also answers what closing would end: `ended` (EndedWithAccount: the points below the minimum,
 * and the available amounts below their asset's withdrawal minimum that cannot be sold, closureBalancesIn's `ending`).
 * `lock`: the closing transaction locks the account's balance rows (for update); the closing page's read does not.
 */
export async function closureHolds(
  db: Executor,
  userId: number,
  now: Date,
  lock: boolean,
): Promise<{ holds: Refusal[]; ended: EndedWithAccount }> {
  const reading = db
    .select({ asset: balances.asset, available: balances.available, frozen: balances.frozen })
    .from(balances)
    .where(and(eq(balances.userId, userId), notLike(balances.asset, PRACTICE_ASSETS)))
    .orderBy(balances.asset);
  const held = lock ? await reading.for('update') : await reading;
  const notZero = (row: (typeof held)[number]) => !new Big(row.available).eq(0) || !new Big(row.frozen).eq(0);
  const points = held.find((row) => row.asset === POINTS && new Big(row.frozen).eq(0));
  const { ending, unmovable } = await closureBalancesIn(db, userId, held, now, lock);
  const holds: Refusal[] = [];
  // A coin no withdrawal can take and no market prices now could never be made zero by the customer, nor valued to end
  // it: named first, with what to do, so the customer is not sent to empty what cannot be emptied.
  if (unmovable.length) holds.push(new Refusal(serverTexts.closeBalanceUnmovable.id, { 0: unmovable.join(', ') }));
  const ends = new Set(ending.map((balance) => balance.asset));
  // Money (and points frozen, which no redemption could take): that text names every asset still held.
  const left = held.filter((row) => row !== points && !ends.has(row.asset) && notZero(row));
  if (left.length)
    holds.push(new Refusal(serverTexts.closeBalanceLeft.id, { 0: left.map((row) => row.asset).join(', ') }));
  const ended: EndedWithAccount = { points: '0', balances: ending };
  if (points && !new Big(points.available).eq(0)) {
    const { min_points } = await pointsRule(db);
    const endingPoints = pointsEndingWithAccount(points.available, min_points);
    if (endingPoints === null)
      holds.push(
        new Refusal(serverTexts.closePointsRedeemable.id, {
          0: new Big(points.available),
          1: new Big(min_points),
        }),
      );
    else ended.points = endingPoints;
  }
  const any = async (query: Promise<unknown[]>) => (await query).length > 0;
  const open: [Promise<unknown[]>, keyof typeof serverTexts][] = [
    [
      db
        .select({ id: optionOrders.id })
        .from(optionOrders)
        .where(
          and(
            eq(optionOrders.userId, userId),
            eq(optionOrders.practice, false),
            inArray(optionOrders.status, ['opening', 'holding']),
          ),
        )
        .limit(1),
      'closeOptionOpen',
    ],
    [
      db
        .select({ id: contractOrders.id })
        .from(contractOrders)
        .where(
          and(
            eq(contractOrders.userId, userId),
            eq(contractOrders.practice, false),
            inArray(contractOrders.status, ['open', 'filling', 'waiting', 'attached']),
          ),
        )
        .limit(1),
      'closeContractOpen',
    ],
    [
      db
        .select({ id: liquidityRecords.id })
        .from(liquidityRecords)
        .where(and(eq(liquidityRecords.userId, userId), inArray(liquidityRecords.status, ['submitted', 'waiting'])))
        .limit(1),
      'closeEarnOpen',
    ],
    [
      db
        .select({ id: lockupOrders.id })
        .from(lockupOrders)
        .where(and(eq(lockupOrders.userId, userId), eq(lockupOrders.status, 'processing')))
        .limit(1),
      'closeEarnOpen',
    ],
    [
      db
        .select({ id: withdrawOrders.id })
        .from(withdrawOrders)
        .where(and(eq(withdrawOrders.userId, userId), eq(withdrawOrders.status, 'review')))
        .limit(1),
      'closeWithdrawalOpen',
    ],
    [
      db
        .select({ id: rechargeOrders.id })
        .from(rechargeOrders)
        .where(and(eq(rechargeOrders.userId, userId), eq(rechargeOrders.status, 'pending')))
        .limit(1),
      'closeRechargeOpen',
    ],
  ];
  // One after another: a transaction runs one statement at a time (a query runs when awaited). A text said once
  // (liquidity and lock-up share one): a query whose text is already said is not run.
  for (const [query, text] of open)
    if (!holds.some((hold) => hold.textId === serverTexts[text].id) && (await any(query)))
      holds.push(new Refusal(serverTexts[text].id));
  return { holds, ended };
}

/**
 * Refuses, with the first of closureHolds' reasons, while the account cannot close; then, when the amounts that would
 * end with it are not exactly `shown` (asset → the amount the customer was shown and agreed to leave: same assets,
 * same amounts), with closeEndingChanged: a balance, a price or a rule moved since. Answers what closing ends.
 * Read inside the closing transaction, after the account's balance rows are locked.
 */
export async function refuseIfNotClosable(
  tx: Executor,
  userId: number,
  shown: ReadonlyMap<string, string>,
  now: Date,
): Promise<EndedWithAccount> {
  const { holds, ended } = await closureHolds(tx, userId, now, true);
  if (holds.length) throw holds[0]!;
  // Only what the customer was shown and agreed to leave behind: a balance, a price or a rule that moved since refuses.
  if (!sameAsShown(ended.balances, shown)) throw new Refusal(serverTexts.closeEndingChanged.id);
  return ended;
}

/**
 * Closes the account of `userId`, confirmed by its login password (`secret_kind` 'login') or payment password ('pay'),
 * checked like every password of a signed-in customer (five wrong lock it for 15 minutes; a wrong one refuses with
 * its text). Then, in one transaction: the refusals of `refuseIfNotClosable`; the row of what is kept
 * (closed_accounts: username, phone, e-mail, the dates); the users row loses its username (closedUsername), phone,
 * e-mail, nickname, avatar, password hashes and anti-phishing code and gets `closed_at`; and what is not kept is
 * deleted (see RETENTION_YEARS). Points below the redemption minimum end with one `points_closure` ledger entry
 * (reference `closure:<userId>`) taking the balance to zero; each available amount below its asset's withdrawal
 * minimum that cannot be sold, when it is exactly what `shown` names (asset → amount, the close request's `amounts`),
 * ends with one `closure_balance` entry of its asset (same reference) taking it to zero, not paid out; no other ledger
 * entry or balance is touched: every balance still equals its entries, and the books' check still balances. The caller
 * drops its cached sessions of the user (`cache.sessions.hold`). A certification still in review is rejected with the
 * reason `certificationEnded` (serverTexts.certificationEndedByClosure, in the customer's language). Returns the dates
 * the page states. `prepared`: the password verified before the call's transaction (PreparedSecrets), if it was.
 */
export async function closeAccount(
  db: Executor,
  userId: number,
  confirm: { kind: CloseSecret; secret: string },
  shown: ReadonlyMap<string, string>,
  now: Date,
  certificationEnded: string,
  prepared?: PreparedSecrets,
): Promise<ClosedAccount> {
  const user = await findUser(db, userId);
  // Either password comes in the call's `secret`: its refusals name that field.
  if (confirm.kind === 'login') await checkLoginPasswordOf(db, user, confirm.secret, 'secret', now, prepared);
  else await checkPayPasswordOf(db, user, confirm.secret, 'secret', now, prepared);
  const contactsFreeAt = new Date(now.getTime() + CONTACT_REUSE_DAYS * DAY_MS);
  const until = keptUntil(now);
  await db.transaction(async (tx) => {
    // The users row first: two closings at once pass one at a time, and the second finds it closed.
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!row || row.closedAt) throw new Refusal(serverTexts.wrongCredentials.id);
    const ended = await refuseIfNotClosable(tx, userId, shown, now);
    // Points too few to redeem end with the account: an entry of their own, so every points movement is in the ledger.
    await post(
      tx,
      {
        userId,
        asset: POINTS,
        amount: new Big(ended.points).neg().toFixed(8),
        kind: 'points_closure',
        reference: `closure:${userId}`,
      },
      now,
    );
    // Amounts too small to withdraw or sell, which the customer agreed to leave: one entry each, ending at zero.
    for (const balance of ended.balances)
      await post(
        tx,
        {
          userId,
          asset: balance.asset,
          amount: new Big(balance.amount).neg().toFixed(8),
          kind: 'closure_balance',
          reference: `closure:${userId}`,
        },
        now,
      );
    await tx.insert(closedAccounts).values({
      userId,
      username: row.username,
      phone: row.phone,
      email: row.email,
      closedAt: now,
      contactsFreeAt,
      keptUntil: until,
    });
    await tx
      .update(users)
      .set({
        username: closedUsername(userId),
        phone: null,
        email: null,
        nickname: '',
        avatar: '',
        passwordHash: '',
        paypassHash: null,
        antiPhishingCode: null,
        closedAt: now,
      })
      .where(eq(users.id, userId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    // A certification still in review ends with the account, rejected with its reason; no operator approves it after.
    await endCertificationsInReview(tx, userId, certificationEnded, now);
    await tx.delete(passkeys).where(eq(passkeys.userId, userId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
    await tx.delete(twoFactors).where(eq(twoFactors.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    await tx.delete(notificationSettings).where(eq(notificationSettings.userId, userId));
    await tx.delete(bankCards).where(eq(bankCards.userId, userId));
    await tx.delete(wallets).where(eq(wallets.userId, userId));
    await tx.delete(addressLocks).where(eq(addressLocks.userId, userId));
    await tx.delete(priceAlerts).where(eq(priceAlerts.userId, userId));
    await tx.delete(phoneDuplicates).where(eq(phoneDuplicates.userId, userId));
    await tx.delete(messageReads).where(eq(messageReads.userId, userId));
    const own = tx.select({ id: messages.id }).from(messages).where(eq(messages.userId, userId));
    await tx.delete(messageReads).where(inArray(messageReads.messageId, own));
    // The other languages' versions of the customer's own messages (security notices name their devices and places).
    const ownItems = tx
      .select({ item: sql<string>`${messages.id}::text` })
      .from(messages)
      .where(eq(messages.userId, userId));
    await tx
      .delete(contentTranslations)
      .where(and(eq(contentTranslations.kind, 'message'), inArray(contentTranslations.item, ownItems)));
    await tx.delete(messages).where(eq(messages.userId, userId));
    // The avatar's own copy; the documents and receipts stay with the records that refer to them.
    await tx.delete(uploads).where(and(eq(uploads.userId, userId), eq(uploads.isPublic, true)));
  });
  return {
    closed_at: now.toISOString(),
    contacts_free_at: contactsFreeAt.toISOString(),
    kept_until: until.toISOString(),
  };
}

/**
 * Whether the phone (E.164) or e-mail address is still resting after the closure of the account that held it (as its
 * phone, its e-mail, or its username in any letter case, accounts.ts usernameKey): it registers again (or becomes
 * another account's) only from that closure's `contacts_free_at`.
 */
export async function contactResting(db: Executor, channel: CodeChannel, address: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ userId: closedAccounts.userId })
    .from(closedAccounts)
    .where(
      and(
        or(
          channel === 'sms' ? eq(closedAccounts.phone, address) : eq(closedAccounts.email, address),
          sql`${usernameKey(closedAccounts.username)} = ${usernameKey(address)}`,
        ),
        gt(closedAccounts.contactsFreeAt, now),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Refuses a phone or e-mail address still resting after a closure (contactResting), saying for how long it rests. */
export async function refuseRestingContact(db: Executor, channel: CodeChannel, address: string, now: Date) {
  if (await contactResting(db, channel, address, now))
    throw new Refusal(serverTexts.contactResting.id, { 0: CONTACT_REUSE_DAYS });
}
