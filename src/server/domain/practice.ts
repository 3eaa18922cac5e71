// The practice account: virtual USDT to learn with. Its money lives in the ledger like real money, under assets of
// its own (practiceAsset: 'practice:USDT', 'practice:BTC'…), so every move of it is an entry and the books reconcile,
// but no call can name those assets (the API contract's asset fields take plain codes), no real balance, list or figure
// counts them, and only the trading calls move them (an order with account=practice) besides the grants below.
//
// Opened on first use with PRACTICE_START USDT: the row of practice_accounts and the grant commit together, and the
// grant's reference `${userId}:${resets}` makes each one a single ledger event. A reset brings every practice asset to
// zero with entries of its own and grants PRACTICE_START again under the next number, in one transaction that holds
// the account's row FOR UPDATE; placing a practice order holds it FOR SHARE, so the two never interleave.
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Executor, type Tx } from '../db/connection.ts';
import { practiceAccounts } from '../db/schema.ts';
import { PRACTICE_START, practiceAsset, type PracticeAccount } from '../../api-contract/practice.ts';
import { texts } from '../../api-contract/texts.ts';
import { PRACTICE_ASSETS, USDT, post } from './ledger.ts';
import { cancelContractOrder } from './contracts.ts';
import { Refusal } from './refusal.ts';

/** Ledger kinds of the practice account's own entries (its trades use the option and contract kinds). */
export const PRACTICE_ENTRY = { grant: 'practice_grant', reset: 'practice_reset' } as const;

type AccountRow = typeof practiceAccounts.$inferSelect;

/**
 * The caller's practice account, opened now with its grant if it never was, in `tx`. `hold`: the row is locked FOR
 * SHARE until `tx` ends (a practice order being placed), so a reset waits for it.
 */
export async function openPracticeAccount(
  tx: Tx,
  userId: number,
  now: Date,
  options: { hold?: boolean } = {},
): Promise<AccountRow & { opened: boolean }> {
  const inserted = await tx
    .insert(practiceAccounts)
    .values({ userId, resets: 0, openedAt: now })
    .onConflictDoNothing()
    .returning();
  if (inserted.length) await grant(tx, userId, 0, now);
  const lock = options.hold ? sql`for share` : sql``;
  const [row] = rowsOf<{ resets: number | string; opened_at: Date | string; reset_at: Date | string | null }>(
    await tx.execute(sql`select resets, opened_at, reset_at from practice_accounts where user_id = ${userId} ${lock}`),
  );
  return {
    userId,
    resets: Number(row!.resets),
    openedAt: new Date(row!.opened_at),
    resetAt: row!.reset_at === null ? null : new Date(row!.reset_at),
    opened: inserted.length > 0,
  };
}

const grant = (tx: Tx, userId: number, number: number, now: Date) =>
  post(
    tx,
    {
      userId,
      asset: practiceAsset(USDT),
      amount: PRACTICE_START,
      kind: PRACTICE_ENTRY.grant,
      reference: `${userId}:${number}`,
    },
    now,
  );

interface HeldRow {
  asset: string;
  available: string;
  frozen: string;
}

/**
 * The practice assets' balances of a user (as the ledger names them: practice:USDT…, in asset order; amounts as
 * decimal strings), optionally locked FOR UPDATE (in a transaction).
 */
export async function practiceBalances(tx: Executor, userId: number, lock: boolean): Promise<HeldRow[]> {
  return rowsOf<HeldRow>(
    await tx.execute(sql`
      select asset, available::text as available, frozen::text as frozen from balances
      where user_id = ${userId} and asset like ${PRACTICE_ASSETS}
      order by asset ${lock ? sql`for update` : sql``}`),
  );
}

function answer(account: AccountRow, held: HeldRow[]): PracticeAccount {
  const plain = (asset: string) => asset.slice(practiceAsset('').length);
  const balances = held
    .map((row) => ({
      asset: plain(row.asset),
      available: new Big(row.available).toFixed(8),
      frozen: new Big(row.frozen).toFixed(8),
    }))
    // Coins sold or reset away are gone from the list; USDT always shows.
    .filter((row) => row.asset === USDT || !new Big(row.available).eq(0) || !new Big(row.frozen).eq(0))
    .sort((a, b) => (a.asset === USDT ? -1 : b.asset === USDT ? 1 : a.asset.localeCompare(b.asset)));
  if (!balances.some((row) => row.asset === USDT))
    balances.unshift({ asset: USDT, available: '0.00000000', frozen: '0.00000000' });
  return {
    balances,
    start_amount: PRACTICE_START,
    resets: account.resets,
    opened_at: account.openedAt.toISOString(),
    reset_at: account.resetAt?.toISOString() ?? null,
  };
}

/** The caller's practice account as the API contract answers it, opened with PRACTICE_START USDT on first use. */
export async function practiceAccountOf(db: Db, userId: number, now: Date): Promise<PracticeAccount> {
  return db.transaction(async (tx) => {
    const account = await openPracticeAccount(tx, userId, now);
    return answer(account, await practiceBalances(tx, userId, false));
  });
}

/**
 * Back to PRACTICE_START USDT and no coins, in one transaction holding the account's row FOR UPDATE. Refused while a
 * practice option is opening or running (its settlement would pay into the new balance) and while a practice market
 * order waits for its tick (it fills or goes void within seconds; cancelling one is no customer's call either), as
 * read once its row is locked. The open and waiting practice orders are cancelled through the cancel path (their
 * reserve comes back, and their attached legs go with them), then every practice asset's balance is brought to zero by
 * entries of kind practice_reset and PRACTICE_START granted again, both referenced `${userId}:${the new number}`: the
 * ledger stays append-only and each reset is one event.
 */
export async function resetPracticeAccount(db: Db, userId: number, now: Date): Promise<PracticeAccount> {
  return db.transaction(async (tx) => {
    const opened = await openPracticeAccount(tx, userId, now);
    const [locked] = rowsOf<{ resets: number | string }>(
      await tx.execute(sql`select resets from practice_accounts where user_id = ${userId} for update`),
    );
    // Opened by this very call: it holds PRACTICE_START already.
    if (opened.opened) return answer(opened, await practiceBalances(tx, userId, false));
    const resets = Number(locked!.resets);

    const [busy] = rowsOf<{ options: number | string }>(
      await tx.execute(sql`
        select count(*)::int as options from option_orders
        where user_id = ${userId} and practice and status in ('opening', 'holding')`),
    );
    if (Number(busy!.options) > 0) throw new Refusal(texts.practiceOptionsOpen.id);

    // Every practice order not yet finished, locked first and read as locked: a matching run that is filling or
    // releasing one of them commits before, and the order is read as it left it (filled and gone, or filling now). An
    // order filling refuses the reset: its fill would take what the reset zeroes. A leg still attached goes with the
    // revoke of its buy (open or waiting, as none is filling); one the buy's fill armed meanwhile is read waiting.
    const orders = rowsOf<{ id: number; status: string }>(
      await tx.execute(sql`
        select id, status from contract_orders
        where user_id = ${userId} and practice and status in ('open', 'waiting', 'attached', 'filling')
        order by id for update`),
    );
    if (orders.some((order) => order.status === 'filling')) throw new Refusal(texts.practiceOrderFilling.id);
    for (const { id, status } of orders)
      if (status !== 'attached') await cancelContractOrder(tx, userId, Number(id), now);

    const next = resets + 1;
    const reference = `${userId}:${next}`;
    for (const row of await practiceBalances(tx, userId, true)) {
      for (const bucket of ['available', 'frozen'] as const) {
        const amount = new Big(row[bucket]);
        if (amount.eq(0)) continue;
        await post(
          tx,
          { userId, asset: row.asset, amount: amount.neg().toFixed(8), kind: PRACTICE_ENTRY.reset, reference, bucket },
          now,
        );
      }
    }
    await grant(tx, userId, next, now);
    const [updated] = rowsOf<{ user_id: number }>(
      await tx.execute(sql`
        update practice_accounts set resets = ${next}, reset_at = ${now.toISOString()}::timestamptz
        where user_id = ${userId} and resets = ${resets}
        returning user_id`),
    );
    if (!updated) throw new Error(`practice account ${userId}: its reset number moved under a held lock`);
    return answer(
      { userId, resets: next, openedAt: opened.openedAt, resetAt: now },
      await practiceBalances(tx, userId, false),
    );
  });
}
