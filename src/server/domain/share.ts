// The invitation permission (sharing needs it) and the counts of the share page. Our rule: the permission
// is active when the user's primary certification is verified (checked, not stored, so it follows
// the certification), or when the operator has granted it (`invite_permissions`, with a reason);
// revoking removes only the operator's grant, never a certification.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { invitePermissions, users } from '../db/schema.ts';
import { findUser } from './accounts.ts';
import { openFriendsOf } from './referrals.ts';

export interface InviteFigures {
  permission: boolean;
  /** Why it is active: the certification, the operator's grant, both, or neither. */
  grantedBy: { certification: boolean; operator: boolean };
  code: string;
  invited: number;
  certified: number;
}

export async function inviteFigures(db: Executor, userId: number): Promise<InviteFigures> {
  const user = await findUser(db, userId);
  const [granted] = await db
    .select({ userId: invitePermissions.userId })
    .from(invitePermissions)
    .where(eq(invitePermissions.userId, userId));
  const counts = await invitedCounts(db, userId);
  const certification = user.verification === 'verified';
  const operator = granted !== undefined;
  return {
    permission: certification || operator,
    grantedBy: { certification, operator },
    code: user.inviteCode,
    ...counts,
  };
}

/**
 * People who registered with the user's code and whose account is open, and how many of them have a verified primary
 * certification. A closed account counts toward no reward (the welfare task friend_certified, the referral reward for
 * a friend closed before verification): a friend who left is no longer one the user brought, so the counts the share
 * page shows leave them out as the tasks do, and match the friends list (referredFriendsOf).
 */
export async function invitedCounts(db: Executor, userId: number): Promise<{ invited: number; certified: number }> {
  const [row] = await db
    .select({
      invited: sql<number>`count(*)::int`,
      certified: sql<number>`(count(*) filter (where ${users.verification} = 'verified'))::int`,
    })
    .from(users)
    .where(openFriendsOf(userId));
  return { invited: Number(row?.invited ?? 0), certified: Number(row?.certified ?? 0) };
}

/** The operator's grant (idempotent: granting again keeps the first grant and its reason). */
export async function grantInvitePermission(db: Executor, userId: number, reason: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insert(invitePermissions)
    .values({ userId, reason, grantedAt: now })
    .onConflictDoNothing()
    .returning({ userId: invitePermissions.userId });
  return inserted.length > 0;
}

/** Removes the operator's grant; a verified primary certification still grants the permission. */
export async function revokeInvitePermission(db: Executor, userId: number): Promise<boolean> {
  const removed = await db
    .delete(invitePermissions)
    .where(eq(invitePermissions.userId, userId))
    .returning({ userId: invitePermissions.userId });
  return removed.length > 0;
}
