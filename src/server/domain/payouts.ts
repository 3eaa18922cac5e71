// Bank cards and wallet addresses: where a customer's withdrawals go. Every read and delete is
// scoped to the owner; another user's id answers as if it did not exist.
import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { bankCards, users, wallets } from '../db/schema.ts';
import { BANK_NAMES, MAX_BANK_CARDS, MAX_WALLETS, type BankCode } from '../../contract/constants.ts';
import { maskBankNumber, type BankCard, type Chain, type Wallet, type WalletCurrency } from '../../contract/payouts.ts';
import { texts } from '../../contract/texts.ts';
import { Refusal } from './refusal.ts';
import { isUniqueViolation } from './accounts.ts';

export type BankCardRow = typeof bankCards.$inferSelect;
export type WalletRow = typeof wallets.$inferSelect;

export function toBankCard(row: BankCardRow): BankCard {
  return {
    id: row.id,
    real_name: row.realName,
    ifsc: row.ifsc,
    bank_code: row.bankCode as BankCode,
    bank_name: BANK_NAMES[row.bankCode as BankCode] ?? row.bankCode,
    bank_number: maskBankNumber(row.bankNumber),
    phone: row.phone,
    email: row.email,
    created_at: row.createdAt.toISOString(),
  };
}

export function toWallet(row: WalletRow): Wallet {
  return {
    id: row.id,
    alias: row.alias,
    currency: row.currency as WalletCurrency,
    chain: row.chain as Chain,
    address: row.address,
    created_at: row.createdAt.toISOString(),
  };
}

export const bankCardsOf = (db: Executor, userId: number) => db.select().from(bankCards).where(eq(bankCards.userId, userId)).orderBy(asc(bankCards.id));
export const walletsOf = (db: Executor, userId: number) => db.select().from(wallets).where(eq(wallets.userId, userId)).orderBy(asc(wallets.id));

/** Serialises one user's additions, so the caps hold under parallel requests. */
const lockUser = (tx: Tx, userId: number) => tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');

export interface BankCardFields {
  real_name: string;
  ifsc: string;
  bank_code: BankCode;
  bank_number: string;
  phone: string;
  email: string;
}

export async function addBankCard(tx: Tx, userId: number, card: BankCardFields, now: Date): Promise<BankCard> {
  await lockUser(tx, userId);
  const [held] = await tx.select({ n: count() }).from(bankCards).where(eq(bankCards.userId, userId));
  if (Number(held?.n ?? 0) >= MAX_BANK_CARDS) throw new Refusal(texts.bankCardLimit.id, { 0: MAX_BANK_CARDS });
  const [row] = await tx
    .insert(bankCards)
    .values({ userId, realName: card.real_name, ifsc: card.ifsc, bankCode: card.bank_code, bankNumber: card.bank_number, phone: card.phone, email: card.email, createdAt: now })
    .returning();
  return toBankCard(row!);
}

export async function deleteBankCard(db: Executor, userId: number, id: number): Promise<void> {
  const removed = await db
    .delete(bankCards)
    .where(and(eq(bankCards.id, id), eq(bankCards.userId, userId)))
    .returning({ id: bankCards.id });
  if (!removed.length) throw new Refusal(texts.payeeNotFound.id);
}

export interface WalletFields {
  alias: string;
  currency: WalletCurrency;
  chain: Chain;
  address: string;
}

export async function addWallet(tx: Tx, userId: number, wallet: WalletFields, now: Date): Promise<Wallet> {
  await lockUser(tx, userId);
  const [held] = await tx.select({ n: count() }).from(wallets).where(eq(wallets.userId, userId));
  if (Number(held?.n ?? 0) >= MAX_WALLETS) throw new Refusal(texts.walletLimit.id, { 0: MAX_WALLETS });
  const [existing] = await tx
    .select({ id: wallets.id })
    .from(wallets)
    .where(and(eq(wallets.userId, userId), eq(wallets.currency, wallet.currency), eq(wallets.chain, wallet.chain), eq(wallets.address, wallet.address)));
  if (existing) throw new Refusal(texts.walletExists.id);
  try {
    const [row] = await tx
      .insert(wallets)
      .values({ userId, ...wallet, createdAt: now })
      .returning();
    return toWallet(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new Refusal(texts.walletExists.id);
    throw error;
  }
}

export async function deleteWallet(db: Executor, userId: number, id: number): Promise<void> {
  const removed = await db
    .delete(wallets)
    .where(and(eq(wallets.id, id), eq(wallets.userId, userId)))
    .returning({ id: wallets.id });
  if (!removed.length) throw new Refusal(texts.payeeNotFound.id);
}
