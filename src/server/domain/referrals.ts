// Referrals: the people who registered with a customer's invitation code, and the referral reward.
//
// The reward (our rule): when an invited friend's primary certification is verified, the inviter is credited the
// amount the operator set (console, "Referral reward"; config act `referral`, key `reward`; USDT), once per friend:
// referral_rewards' primary key is the friend, so a friend pays at most once whatever happens to their certification
// later. It is paid in the verifying transaction through the ledger (kind `referral_reward`, reference
// `referral:<friend id>`). "0" (the default) turns it off: nothing is paid and nothing is owed later, since the reward
// is what the setting said at the moment of the verification. A closed inviter's account is paid nothing, nor is an
// inviter for a friend whose account closed before the verification, or for a "friend" certified with one of the
// inviter's own identity documents (they invited themselves) or with a document verified for another account before
// (one document is one person: an inviter who never certified could otherwise be paid again and again for accounts
// certified with one passport).
import Big from 'big.js';
import { and, asc, eq, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { sqlFlags, type Executor, type Tx } from '../db/connection.ts';
import { certifications, configEntries, ledgerEntries, referralRewards, users } from '../db/schema.ts';
import { maskUsername } from '../../api-contract/activities.ts';
import { maskContact } from '../../api-contract/masking.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import {
  REFERRAL_ASSET,
  REFERRAL_PAGE_SIZE,
  referralRewardOff,
  type ReferralRule,
  type ReferredFriend,
} from '../../api-contract/share.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { configValue, setConfigEntry } from './config-entries.ts';
import { post } from './ledger.ts';
import { idKey, keysetQuery, timeKey, type KeysetOrder } from './paged-query.ts';
import { changesOf, type Term } from './settings.ts';
import { checkRewardCap, type RewardCaps } from './reward-caps.ts';

/** Where the reward is configured: config_entries act `referral`, key `reward` (an amount of USDT; "0": off). */
export const REFERRAL_CONFIG = { act: 'referral', key: 'reward' } as const;
/** The ledger kind of the reward, and the kinds the referral list shows as what a friend earned the inviter. */
export const REFERRAL_KIND = 'referral_reward' as const;
/** The reward's ledger reference: one per friend. */
export const referralReference = (friendId: number) => `referral:${friendId}`;

const REWARD_AMOUNT = /^\d{1,12}(\.\d{1,8})?$/;

/** The reward as now set: `amount` USDT per certified friend, "0" when it is off or was never set. */
export async function referralRule(db: Executor): Promise<ReferralRule> {
  const stored = await configValue(db, REFERRAL_CONFIG.act, REFERRAL_CONFIG.key);
  const amount = stored && REWARD_AMOUNT.test(stored) ? new Big(stored).toFixed() : '0';
  return { asset: REFERRAL_ASSET, amount };
}

const REWARD_TERMS: Record<string, Term<{ amount: string }>> = {
  amount: { takes: (value) => REWARD_AMOUNT.test(value), set: (row, value) => (row.amount = new Big(value).toFixed()) },
};

/**
 * Sets the reward (`amount=5`; `amount=0` turns it off) with its audit entry (the rule before and after), in the
 * caller's transaction: every entry point's way in. Friends verified from now on are paid it; what was paid stays.
 * @throws Refusal (console term refused) for an amount that is not a decimal of at most 12 digits and 8 decimals;
 * consoleRewardAboveCap (field `amount`) for one above the USDT bound of `caps` (reward-caps.ts).
 */
export async function setReferralRewardAs(
  tx: Tx,
  actor: Actor,
  changes: readonly string[],
  now: Date,
  caps: RewardCaps,
): Promise<ReferralRule> {
  const set = changesOf(changes, REWARD_TERMS, 'amount=5 (USDT per certified friend; 0 turns the reward off)');
  if (set.amount !== undefined) checkRewardCap(caps, REFERRAL_ASSET, set.amount, 'amount');
  // Two operators setting it at once: the second waits here, and its "before" is the first one's rule.
  await tx
    .select()
    .from(configEntries)
    .where(and(eq(configEntries.act, REFERRAL_CONFIG.act), eq(configEntries.key, REFERRAL_CONFIG.key)))
    .for('update');
  const before = await referralRule(tx);
  if (set.amount !== undefined) await setConfigEntry(tx, REFERRAL_CONFIG.act, REFERRAL_CONFIG.key, set.amount);
  const after = await referralRule(tx);
  await appendAudit(tx, actor, 'referral.reward', 'referral:reward', { before, after }, now);
  return after;
}

/** A document number as compared: upper case, without the dashes it may be written with (spaces are gone already). */
const documentKey = (number: SQL | AnyColumn) => sql`upper(replace(${number}, '-', ''))`;

/**
 * SQL, true when the friend's (`friendId`: a column or a value) verified primary certification carries a document (type
 * and number, compared by documentKey) of one of the inviter's (`inviterId`) own primary certifications, verified or in
 * review: the inviter invited themselves, and nothing is paid for such a "friend" (the referral reward, the welfare
 * task for a certified friend).
 */
export const invitedThemselves = (friendId: SQL | AnyColumn | number, inviterId: SQL | AnyColumn | number): SQL => sql`
  exists (
    select 1 from ${certifications} friend_doc
    join ${certifications} own_doc
      on own_doc.user_id = ${inviterId} and own_doc.level = 'primary' and own_doc.status in ('verified', 'review')
        and own_doc.doc_type = friend_doc.doc_type
        and ${documentKey(sql`own_doc.number`)} = ${documentKey(sql`friend_doc.number`)}
    where friend_doc.user_id = ${friendId} and friend_doc.level = 'primary' and friend_doc.status = 'verified'
  )`;

/**
 * SQL, true when the document (type and number, compared by documentKey) of the friend's (`friendId`: a column or a
 * value) verified primary certification is verified for another account too: any such account when `earlierOnly` is
 * false, else only one reviewed earlier, or at the same moment and submitted earlier.
 */
const verifiedForAnother = (friendId: SQL | AnyColumn | number, earlierOnly: boolean): SQL => sql`
  exists (
    select 1 from ${certifications} friend_doc
    join ${certifications} other_doc
      on other_doc.user_id <> friend_doc.user_id and other_doc.level = 'primary' and other_doc.status = 'verified'
        and other_doc.doc_type = friend_doc.doc_type
        and ${documentKey(sql`other_doc.number`)} = ${documentKey(sql`friend_doc.number`)}
        ${earlierOnly ? sql`and (other_doc.reviewed_at, other_doc.id) < (friend_doc.reviewed_at, friend_doc.id)` : sql``}
    where friend_doc.user_id = ${friendId} and friend_doc.level = 'primary' and friend_doc.status = 'verified'
  )`;

/**
 * SQL, true when the document (type and number, compared by documentKey) of the friend's (`friendId`: a column or a
 * value) verified primary certification was verified before for another account (a primary certification reviewed
 * earlier, or at the same moment and submitted earlier): the person is not a new friend, whoever invited them.
 */
export const certifiedBefore = (friendId: SQL | AnyColumn | number): SQL => verifiedForAnother(friendId, true);

/** Advisory lock class (the first key of pg_advisory_xact_lock(int, int)) of one identity document: the second key is
 * the hash of its type and documentKey. */
const DOCUMENT_LOCK = 0x72646f63; // 'rdoc'

/**
 * Whether the friend invited is no new person: the inviter themselves (invitedThemselves), or a document verified for
 * another account. Two accounts certified with one document and verified at once (two operators, two processes) pass
 * here one at a time: the friend's document is locked first, so the second reads the first's verification once it
 * committed, and, being the later to be paid, counts every other account verified with it, whatever the review times
 * say (the clock of the request that committed second may read earlier).
 */
const noNewFriend = async (tx: Executor, friendId: number, inviterId: number): Promise<boolean> => {
  await tx.execute(sql`
    select pg_advisory_xact_lock(${DOCUMENT_LOCK}::int, hashtext(doc_type || ':' || ${documentKey(sql`number`)}))
    from ${certifications} where user_id = ${friendId} and level = 'primary' and status = 'verified'`);
  const flags = await sqlFlags(tx, {
    self: invitedThemselves(friendId, inviterId),
    another: verifiedForAnother(friendId, false),
  });
  return flags.self || flags.another;
};

/**
 * Pays the inviter of `friendId` the reward in force, once per friend: call it in the transaction that verifies the
 * friend's primary certification. Nothing when the friend was invited by no one, the reward is off, the friend's or the
 * inviter's account is closed, the friend's document is the inviter's own or was verified for another account before
 * (noNewFriend), or this friend was paid for before. Answers whether it paid.
 */
export async function payReferralReward(tx: Executor, friendId: number, now: Date): Promise<boolean> {
  const [friend] = await tx
    .select({ invitedBy: users.invitedBy, closedAt: users.closedAt })
    .from(users)
    .where(eq(users.id, friendId));
  // A friend whose account closed before the verification is no friend who joined.
  if (friend?.invitedBy == null || friend.closedAt) return false;
  const rule = await referralRule(tx);
  if (referralRewardOff(rule)) return false;
  // The inviter's row held (key share) until the verification commits: a closure of theirs in flight, which takes the
  // row for update, is waited for and then seen, so no closed account is credited.
  const [inviter] = await tx
    .select({ closedAt: users.closedAt })
    .from(users)
    .where(eq(users.id, friend.invitedBy))
    .for('key share');
  if (!inviter || inviter.closedAt) return false;
  if (await noNewFriend(tx, friendId, friend.invitedBy)) return false;
  const paid = await tx
    .insert(referralRewards)
    .values({ friendId, inviterId: friend.invitedBy, asset: rule.asset, amount: rule.amount, paidAt: now })
    .onConflictDoNothing()
    .returning({ friendId: referralRewards.friendId });
  if (!paid.length) return false;
  await post(
    tx,
    {
      userId: friend.invitedBy,
      asset: rule.asset,
      amount: rule.amount,
      kind: REFERRAL_KIND,
      reference: referralReference(friendId),
    },
    now,
  );
  return true;
}

interface FriendRow {
  id: number;
  username: string;
  phone: string | null;
  email: string | null;
  createdAt: Date;
  level: number;
  verification: string;
}
const NEWEST_FIRST: KeysetOrder<FriendRow> = {
  keys: [timeKey(users.createdAt, (row) => row.createdAt), idKey(users.id, (row) => row.id)],
  direction: 'desc',
};

/**
 * The users rows of the friends `userId` brought who are still with the platform: registered with its invitation code,
 * their account open. A closed account counts toward no reward and no figure (the friends list, the share page's
 * counts, the welfare task friend_certified); what it earned the inviter stays in the inviter's ledger.
 */
export const openFriendsOf = (userId: number): SQL => and(eq(users.invitedBy, userId), isNull(users.closedAt))!;

/**
 * The people who registered with `userId`'s invitation code and whose account is open (a closed account counts toward
 * no reward, and the counts leave it out: share.ts invitedCounts), newest first, a page after `cursor`: each masked
 * (the username by maskUsername, the mobile number or else the e-mail by maskContact), with when they joined, their
 * VIP level, whether they are certified, and the caller's ledger entries their activity earned (kind
 * `referral_reward`, oldest first). What a closed friend earned the caller stays in the caller's ledger.
 * @throws Refusal (the request is not valid) for a cursor that is not one of this list's.
 */
export async function referredFriendsOf(
  db: Executor,
  userId: number,
  cursor: string,
): Promise<CursorPage<ReferredFriend>> {
  const page = await keysetQuery(
    (after: SQL | undefined) =>
      db
        .select({
          id: users.id,
          username: users.username,
          phone: users.phone,
          email: users.email,
          createdAt: users.createdAt,
          level: users.level,
          verification: users.verification,
        })
        .from(users)
        .where(and(openFriendsOf(userId), after))
        .$dynamic(),
    NEWEST_FIRST,
    { cursor },
    REFERRAL_PAGE_SIZE,
  );
  const references = page.lists.map((friend) => referralReference(friend.id));
  const entries = references.length
    ? await db
        .select()
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.userId, userId),
            eq(ledgerEntries.kind, REFERRAL_KIND),
            inArray(ledgerEntries.reference, references),
          ),
        )
        .orderBy(asc(ledgerEntries.seq))
    : [];
  return {
    next: page.next,
    lists: page.lists.map((friend) => ({
      id: friend.id,
      name: maskUsername(friend.username),
      contact: friend.phone || friend.email ? maskContact((friend.phone || friend.email)!) : '',
      joined_at: friend.createdAt.toISOString(),
      vip_level: friend.level,
      certified: friend.verification === 'verified',
      earned: entries
        .filter((entry) => entry.reference === referralReference(friend.id))
        .map((entry) => ({
          id: entry.id,
          kind: entry.kind,
          asset: entry.asset,
          amount: new Big(entry.amount).toFixed(8),
          created_at: entry.createdAt.toISOString(),
        })),
    })),
  };
}
