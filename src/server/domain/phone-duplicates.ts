// Stored mobile numbers brought to E.164 (domain/phone-numbers.ts) where that is unambiguous. Two accounts on one
// handset are never merged (either may hold money): they are listed for operators.
import { and, asc, eq, inArray, notInArray, notLike, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { balances, phoneDuplicates, users } from '../db/schema.ts';
import { PRACTICE_ASSETS } from './ledger.ts';
import { canonicalMobile } from './phone-numbers.ts';

/** What one pass did: numbers rewritten to E.164, accounts listed as sharing a handset, numbers that are no mobile. */
export interface PhonePass {
  converted: number;
  duplicates: number;
  notMobile: number;
}

const BATCH = 500;

/**
 * Brings every stored mobile number that is not yet E.164 to it where that is unambiguous: the number is a mobile
 * number (Thailand the default country) and no other account holds the same handset. An account registered with its
 * number (username = number) keeps logging in with it: the username follows. The others keep their number as stored
 * and are listed in phone_duplicates (`duplicate`: with every account of the handset, the one already in E.164
 * included; `not_mobile`); a listing that no longer holds is dropped. Safe to run on every start: a second pass
 * changes nothing. Run it in one transaction (`tx`).
 */
export async function bringPhonesToE164(tx: Executor, now: Date): Promise<PhonePass> {
  const stored = await tx.select({ id: users.id, phone: users.phone }).from(users).where(notLike(users.phone, '+%'));
  const byNumber = new Map<string, { id: number; phone: string }[]>();
  const notMobile: { id: number; phone: string }[] = [];
  for (const row of stored) {
    const number = canonicalMobile(row.phone!);
    if (number === null) notMobile.push({ id: row.id, phone: row.phone! });
    else byNumber.set(number, [...(byNumber.get(number) ?? []), { id: row.id, phone: row.phone! }]);
  }
  // Accounts already holding one of these numbers in E.164 share the handset too.
  for (let at = 0; at < byNumber.size; at += BATCH) {
    const numbers = [...byNumber.keys()].slice(at, at + BATCH);
    const holders = await tx
      .select({ id: users.id, phone: users.phone })
      .from(users)
      .where(inArray(users.phone, numbers));
    for (const holder of holders) byNumber.get(holder.phone!)!.push({ id: holder.id, phone: holder.phone! });
  }
  const single = [...byNumber].filter(([, accounts]) => accounts.length === 1);
  const shared = [...byNumber].filter(([, accounts]) => accounts.length > 1);
  for (let at = 0; at < single.length; at += BATCH) {
    const values = single
      .slice(at, at + BATCH)
      .map(([number, [account]]) => sql`(${account!.id}::integer, ${number}::text)`);
    await tx.execute(sql`
      update users set
        username = case when users.username = users.phone then canonical.phone else users.username end,
        phone = canonical.phone
      from (values ${sql.join(values, sql`, `)}) as canonical(id, phone)
      where users.id = canonical.id`);
  }
  const listed = [
    ...shared.flatMap(([number, accounts]) =>
      accounts.map((account) => ({ userId: account.id, kind: 'duplicate', phone: number, storedPhone: account.phone })),
    ),
    ...notMobile.map((account) => ({
      userId: account.id,
      kind: 'not_mobile',
      phone: null,
      storedPhone: account.phone,
    })),
  ];
  const ids = listed.map((row) => row.userId);
  await tx.delete(phoneDuplicates).where(ids.length ? notInArray(phoneDuplicates.userId, ids) : undefined);
  for (let at = 0; at < listed.length; at += BATCH)
    await tx
      .insert(phoneDuplicates)
      .values(listed.slice(at, at + BATCH).map((row) => ({ ...row, foundAt: now })))
      .onConflictDoUpdate({
        target: phoneDuplicates.userId,
        set: { kind: sql`excluded.kind`, phone: sql`excluded.phone`, storedPhone: sql`excluded.stored_phone` },
      });
  return {
    converted: single.length,
    duplicates: shared.reduce((sum, [, accounts]) => sum + accounts.length, 0),
    notMobile: notMobile.length,
  };
}

/** The ids of the accounts holding the handset `number` (E.164): by their stored number, or listed as its duplicate. */
export async function holdersOfPhone(db: Executor, number: string): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      or(
        eq(users.phone, number),
        inArray(
          users.id,
          db
            .select({ id: phoneDuplicates.userId })
            .from(phoneDuplicates)
            .where(and(eq(phoneDuplicates.kind, 'duplicate'), eq(phoneDuplicates.phone, number))),
        ),
      ),
    );
  return rows.map((row) => row.id);
}

/** One listed account, as operators see it, with its real non-zero balances (available + frozen, decimal strings). */
export interface ListedPhone {
  userId: number;
  username: string;
  kind: 'duplicate' | 'not_mobile';
  phone: string | null;
  storedPhone: string;
  holds: { asset: string; amount: string }[];
  foundAt: Date;
}

/**
 * The accounts listed by `bringPhonesToE164`, the accounts of one handset together, with what each holds (practice
 * balances left out): an operator settles with the customers which number each keeps; nothing here merges them.
 */
export async function listedPhones(db: Executor): Promise<ListedPhone[]> {
  const rows = await db
    .select({
      userId: phoneDuplicates.userId,
      username: users.username,
      kind: phoneDuplicates.kind,
      phone: phoneDuplicates.phone,
      storedPhone: phoneDuplicates.storedPhone,
      foundAt: phoneDuplicates.foundAt,
    })
    .from(phoneDuplicates)
    .innerJoin(users, eq(users.id, phoneDuplicates.userId))
    .orderBy(asc(phoneDuplicates.kind), asc(phoneDuplicates.phone), asc(phoneDuplicates.userId));
  const held = rows.length
    ? await db
        .select({
          userId: balances.userId,
          asset: balances.asset,
          amount: sql<string>`trim_scale(${balances.available} + ${balances.frozen})::text`,
        })
        .from(balances)
        .where(
          and(
            inArray(
              balances.userId,
              rows.map((row) => row.userId),
            ),
            sql`${balances.available} + ${balances.frozen} > 0`,
            notLike(balances.asset, PRACTICE_ASSETS),
          ),
        )
        .orderBy(asc(balances.asset))
    : [];
  return rows.map((row) => ({
    ...row,
    kind: row.kind as ListedPhone['kind'],
    holds: held.filter((entry) => entry.userId === row.userId).map(({ asset, amount }) => ({ asset, amount })),
  }));
}
