// Bank cards and wallet addresses: where a customer's withdrawals go. Every read and delete is
// scoped to the owner; another user's id answers as if it did not exist. A payee added is usable
// for withdrawals only after a cooling-off period (PAYEE_COOLING_HOURS), and its owner is told at
// once by a station message: whoever took over a session cannot add an address and drain the
// account before the owner can react. Deleting is immediate.
import { serverTexts } from '../../api-contract/server-texts.ts';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { bankCards, rechargeChannels, rechargeOrders, users, wallets } from '../db/schema.ts';
import { BANK_NAMES, MAX_BANK_CARDS, MAX_WALLETS, type BankCode } from '../../api-contract/constants.ts';
import { Period } from '../../api-contract/period-text.ts';
import {
  maskBankNumber,
  type BankCard,
  type Chain,
  type Wallet,
  type WalletCurrency,
} from '../../api-contract/payouts.ts';
import { texts } from '../../api-contract/texts.ts';
import { readAddress } from '../../api-contract/chain-address.ts';
import { Refusal } from './refusal.ts';
import { isUniqueViolation } from './accounts.ts';
import { postSecurityNotice } from './security-notices.ts';
import { isolate } from '../../api-contract/visible-text.ts';
import type { Translate } from '../i18n.ts';
import { refuseWhileFrozen } from './account-freeze.ts';
import { mobileNumber } from './phone-numbers.ts';
import { addressesShownTo } from './deposit-addresses.ts';

export type BankCardRow = typeof bankCards.$inferSelect;
export type WalletRow = typeof wallets.$inferSelect;

/** The cooling-off period of a new payee when the configuration gives none. */
export const DEFAULT_PAYEE_COOLING_MS = 24 * 3_600_000;

/**
 * When withdrawals to a payee may start: the time fixed when it was saved (its cooling-off period then, as its owner
 * was told in the station message), so a later change of PAYEE_COOLING_HOURS neither shortens nor lengthens a wait
 * already promised. A payee saved before that time was kept waits `coolingMs` (the period configured now) after it
 * was saved, as it always did.
 */
export const payeeUsableAt = (payee: { createdAt: Date; usableAt: Date | null }, coolingMs: number): Date =>
  payee.usableAt ?? new Date(payee.createdAt.getTime() + coolingMs);

/** The cooling-off a payee was given, in ms: from saved to usable (payeeUsableAt). */
export const payeeWaitMs = (payee: { createdAt: Date; usableAt: Date | null }, coolingMs: number): number =>
  payeeUsableAt(payee, coolingMs).getTime() - payee.createdAt.getTime();

/** A withdrawal to a payee still cooling off is refused, saying the wait that payee was given. */
export function refuseCoolingPayee(payee: BankCardRow | WalletRow, coolingMs: number, now: Date): void {
  if (payeeUsableAt(payee, coolingMs) > now)
    throw new Refusal(texts.payeeCooling.id, { 0: new Period(payeeWaitMs(payee, coolingMs)) });
}

/** The station message its owner gets when a payee is added, in every language (security-notices.ts). */
async function tellOwner(tx: Tx, userId: number, payee: string, coolingMs: number, now: Date): Promise<void> {
  const write = (tl: Translate) => ({
    title: tl(serverTexts.payeeAddedTitle),
    content:
      coolingMs > 0
        ? tl(serverTexts.payeeAddedCooling, { 0: payee, 1: new Period(coolingMs) })
        : tl(serverTexts.payeeAdded, { 0: payee }),
  });
  await postSecurityNotice(tx, userId, write, now);
}

/** The usable time and the seconds left until it, at `now`. */
function usability(payee: BankCardRow | WalletRow, coolingMs: number, now: Date) {
  const at = payeeUsableAt(payee, coolingMs);
  return {
    usable_at: at.toISOString(),
    cooling_seconds: Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000)),
  };
}

export function toBankCard(row: BankCardRow, coolingMs: number, now: Date): BankCard {
  return {
    id: row.id,
    real_name: row.realName,
    ifsc: row.ifsc,
    bank_code: row.bankCode as BankCode,
    bank_name: BANK_NAMES[row.bankCode as BankCode] ?? row.bankCode,
    bank_number: maskBankNumber(row.bankNumber),
    phone: row.phone,
    email: row.email,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    ...usability(row, coolingMs, now),
  };
}

/** The stored address as the customer sees it: its standard spelling where it reads, else as stored. */
const shownAddress = (row: WalletRow) => {
  const reading = readAddress(row.chain as Chain, row.address);
  return reading.ok ? reading.address : row.address;
};

export function toWallet(row: WalletRow, coolingMs: number, now: Date): Wallet {
  return {
    id: row.id,
    alias: row.alias,
    currency: row.currency as WalletCurrency,
    chain: row.chain as Chain,
    address: shownAddress(row),
    created_at: row.createdAt.toISOString(),
    ...usability(row, coolingMs, now),
  };
}

export const bankCardsOf = (db: Executor, userId: number) =>
  db.select().from(bankCards).where(eq(bankCards.userId, userId)).orderBy(asc(bankCards.id));
export const walletsOf = (db: Executor, userId: number) =>
  db.select().from(wallets).where(eq(wallets.userId, userId)).orderBy(asc(wallets.id));

/** Serialises one user's additions, so the caps hold under parallel requests. */
const lockUser = (tx: Tx, userId: number) =>
  tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');

export interface BankCardFields {
  real_name: string;
  ifsc: string;
  bank_code: BankCode;
  bank_number: string;
  phone: string;
  email: string;
  label?: string;
}

/** What a customer needs to add a payee: the cooling-off period and the translator of the request. */
export interface PayeeAddition {
  coolingMs: number;
  now: Date;
}

export async function addBankCard(
  tx: Tx,
  userId: number,
  card: BankCardFields,
  { coolingMs, now }: PayeeAddition,
): Promise<BankCard> {
  // The holder's number as one canonical value (E.164), as every phone number is kept; refused before anything else.
  const phone = mobileNumber(card.phone);
  await lockUser(tx, userId);
  // A frozen account adds no payee (a freeze committed first is seen: account-freeze.ts).
  await refuseWhileFrozen(tx, userId, now);
  const [held] = await tx.select({ n: count() }).from(bankCards).where(eq(bankCards.userId, userId));
  if (Number(held?.n ?? 0) >= MAX_BANK_CARDS) throw new Refusal(texts.bankCardLimit.id, { 0: MAX_BANK_CARDS });
  // One account at one bank is one payee, as one address is one wallet: a second row would list twice as the same
  // "•••• 7890" and hold its own cooling time. The customer's row is locked above, so two adds cannot both pass.
  const [existing] = await tx
    .select({ id: bankCards.id })
    .from(bankCards)
    .where(
      and(
        eq(bankCards.userId, userId),
        eq(bankCards.bankCode, card.bank_code),
        eq(bankCards.bankNumber, card.bank_number),
      ),
    );
  if (existing) throw new Refusal(serverTexts.bankCardExists.id);
  const [row] = await tx
    .insert(bankCards)
    .values({
      userId,
      realName: card.real_name,
      ifsc: card.ifsc,
      bankCode: card.bank_code,
      bankNumber: card.bank_number,
      phone,
      email: card.email,
      label: card.label ?? '',
      createdAt: now,
      usableAt: new Date(now.getTime() + coolingMs),
    })
    .returning();
  const added = toBankCard(row!, coolingMs, now);
  await tellOwner(tx, userId, `${added.bank_name} ${added.bank_number}`, coolingMs, now);
  return added;
}

export async function deleteBankCard(db: Executor, userId: number, id: number): Promise<void> {
  const removed = await db
    .delete(bankCards)
    .where(and(eq(bankCards.id, id), eq(bankCards.userId, userId)))
    .returning({ id: bankCards.id });
  if (!removed.length) throw new Refusal(texts.payeeNotFound.id);
}

// EVM addresses saved before they were stored in their EIP-55 form were stored in lower case: compared without case.
const EVM_CHAINS: readonly Chain[] = ['ERC20', 'BEP20'];
const sameAddress = (chain: Chain, address: string) =>
  EVM_CHAINS.includes(chain) ? sql`lower(${wallets.address}) = ${address.toLowerCase()}` : eq(wallets.address, address);

/**
 * Rewrites EVM wallet addresses stored in lower case (as they were before the EIP-55 form was kept) in their EIP-55
 * form, so every stored address is in its standard spelling. PostgreSQL has no keccak-256, so this runs at start,
 * after the migrations, rather than in one; it is idempotent and changes no address (only the case of its letters).
 * Answers how many were rewritten.
 */
export async function storeWalletAddressesChecksummed(db: Executor): Promise<number> {
  const lowerCase = await db
    .select({ id: wallets.id, chain: wallets.chain, address: wallets.address })
    .from(wallets)
    .where(and(inArray(wallets.chain, [...EVM_CHAINS]), sql`${wallets.address} ~ '^0x[0-9a-f]*[a-f][0-9a-f]*$'`));
  let rewritten = 0;
  for (const row of lowerCase) {
    const reading = readAddress(row.chain as Chain, row.address);
    if (!reading.ok || reading.address === row.address) continue;
    const changed = await db
      .update(wallets)
      .set({ address: reading.address })
      .where(and(eq(wallets.id, row.id), eq(wallets.address, row.address)))
      .returning({ id: wallets.id });
    rewritten += changed.length;
  }
  return rewritten;
}

/**
 * Refuses an address that is a deposit address of the platform: a recharge channel's one address (offered now or not),
 * the caller's own address under a channel's key or a key it held before (domain/deposit-addresses.ts), or one any
 * customer was given to pay a recharge to. A payout there leaves the platform's wallet for its own, the customer
 * charged and paid nothing.
 * Compared without letter case: one EVM key is one address on every EVM chain in any case (EIP-55 only sets the case),
 * bech32 has no case, and a base58check address that differs only in case fails its checksum.
 * @throws Refusal depositAddressOurs.
 */
export async function refuseDepositAddress(db: Executor, userId: number, address: string): Promise<void> {
  const folded = address.toLowerCase();
  const channels = await db
    .select({
      address: rechargeChannels.address,
      chain: rechargeChannels.chain,
      xpub: rechargeChannels.xpub,
      previousXpubs: rechargeChannels.previousXpubs,
    })
    .from(rechargeChannels);
  if (channels.some((channel) => addressesShownTo(channel, userId).some((ours) => ours.toLowerCase() === folded)))
    throw new Refusal(serverTexts.depositAddressOurs.id);
  const [given] = await db
    .select({ id: rechargeOrders.id })
    .from(rechargeOrders)
    .where(sql`lower(${rechargeOrders.address}) = ${folded}`)
    .limit(1);
  if (given) throw new Refusal(serverTexts.depositAddressOurs.id);
}

export interface WalletFields {
  alias: string;
  currency: WalletCurrency;
  chain: Chain;
  address: string;
}

export async function addWallet(
  tx: Tx,
  userId: number,
  wallet: WalletFields,
  { coolingMs, now }: PayeeAddition,
): Promise<Wallet> {
  await refuseDepositAddress(tx, userId, wallet.address);
  await lockUser(tx, userId);
  // A frozen account adds no payee (a freeze committed first is seen: account-freeze.ts).
  await refuseWhileFrozen(tx, userId, now);
  const [held] = await tx.select({ n: count() }).from(wallets).where(eq(wallets.userId, userId));
  if (Number(held?.n ?? 0) >= MAX_WALLETS) throw new Refusal(texts.walletLimit.id, { 0: MAX_WALLETS });
  const [existing] = await tx
    .select({ id: wallets.id })
    .from(wallets)
    .where(
      and(
        eq(wallets.userId, userId),
        eq(wallets.currency, wallet.currency),
        eq(wallets.chain, wallet.chain),
        sameAddress(wallet.chain, wallet.address),
      ),
    );
  if (existing) throw new Refusal(serverTexts.walletExists.id);
  try {
    const [row] = await tx
      .insert(wallets)
      .values({ userId, ...wallet, createdAt: now, usableAt: new Date(now.getTime() + coolingMs) })
      .returning();
    const added = toWallet(row!, coolingMs, now);
    await tellOwner(
      tx,
      userId,
      // The alias isolated: whatever its direction, the address tail after it reads in its real order.
      `${isolate(added.alias)} (${added.currency} ${added.chain} …${added.address.slice(-6)})`,
      coolingMs,
      now,
    );
    return added;
  } catch (error) {
    if (isUniqueViolation(error)) throw new Refusal(serverTexts.walletExists.id);
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

/** Renames one of the caller's payees: a bank card's label, a wallet's alias. */
export async function editPayeeLabel(
  db: Executor,
  userId: number,
  kind: 'bank' | 'wallet',
  id: number,
  label: string,
): Promise<void> {
  const changed =
    kind === 'bank'
      ? await db
          .update(bankCards)
          .set({ label })
          .where(and(eq(bankCards.id, id), eq(bankCards.userId, userId)))
          .returning({ id: bankCards.id })
      : await db
          .update(wallets)
          .set({ alias: label })
          .where(and(eq(wallets.id, id), eq(wallets.userId, userId)))
          .returning({ id: wallets.id });
  if (!changed.length) throw new Refusal(texts.payeeNotFound.id);
}
