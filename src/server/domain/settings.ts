// The terms an operator sets on products (option products, contract pairs, lock-up products): which
// values each term takes and the queries, in one place for every entry point (the operator command and the
// console). A change is a list of `term=value` strings as an operator writes them; a term or value
// outside its rule is refused and nothing changes. Terms apply to orders to come only: no setting
// touches an order already placed, a balance or a price.
import Big from 'big.js';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { contractPairs, lockupProducts, optionProducts } from '../db/schema.ts';
import { AMOUNT, isPositiveAmount } from '../../api-contract/markets.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { CONTRACT_PAIR_TAKES, OPTION_PRODUCT_TAKES, isFlag } from '../../api-contract/console-products.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { Refusal } from './refusal.ts';

/** The longest lock-up period an operator can set: ten years. */
export const MAX_LOCKUP_DAYS = 3650;

/** One term an operator writes as `term=value` (shared by the terms of welfare tasks and the blind box's cost). */
export interface Term<Row> {
  /** Whether the written value is one this term takes. */
  takes(value: string): boolean;
  set(row: Partial<Row>, value: string): void;
}

export const flag: Term<{ active: boolean }> = {
  takes: isFlag,
  set: (row, value) => (row.active = value === 'true'),
};

/** The columns to set from `term=value` strings, or a refusal naming the first one that does not apply. */
export function changesOf<Row>(
  changes: readonly string[],
  terms: Record<string, Term<Row>>,
  help: string,
): Partial<Row> {
  const set: Partial<Row> = {};
  for (const change of changes) {
    // Split at the first '=' only: "yield=0.8=1" is a value of "0.8=1", which no term takes.
    const at = change.indexOf('=');
    const [key, value] = at < 0 ? [change, ''] : [change.slice(0, at), change.slice(at + 1)];
    const term = Object.hasOwn(terms, key) ? terms[key] : undefined;
    if (!term?.takes(value)) throw new Refusal(consoleTexts.consoleTermRefused.id, { change, help });
    term.set(set, value);
  }
  if (!Object.keys(set).length) throw new Refusal(consoleTexts.consoleNothingToChange.id);
  return set;
}

type OptionProduct = typeof optionProducts.$inferInsert;
const OPTION_PRODUCT_HELP = 'yield=0.85 (above 0, at most 1: 85 % is 0.85), min=1 or active=true|false';
const OPTION_PRODUCT_TERMS: Record<string, Term<OptionProduct>> = {
  yield: { takes: OPTION_PRODUCT_TAKES.yield, set: (row, value) => (row.yieldRate = value) },
  min: { takes: OPTION_PRODUCT_TAKES.min, set: (row, value) => (row.minAmount = value) },
  active: flag,
};

export const optionProductList = (db: Executor) =>
  db.select().from(optionProducts).orderBy(asc(optionProducts.coin), asc(optionProducts.sort));

async function changeOptionProduct(db: Executor, id: number, changes: readonly string[]) {
  const set = changesOf(changes, OPTION_PRODUCT_TERMS, OPTION_PRODUCT_HELP);
  const [row] = await db.update(optionProducts).set(set).where(eq(optionProducts.id, id)).returning();
  if (!row) throw new Refusal(consoleTexts.consoleProductNotFound.id, { id });
  return row;
}

type OptionProductRow = typeof optionProducts.$inferSelect;
/** An option product's terms as operators read and write them (the console's list, the audit log's before and after).
 * */
export const optionProductTerms = (row: OptionProductRow) => ({
  id: row.id,
  coin: row.coin,
  minutes: row.minutes,
  yield: row.yieldRate,
  min: row.minAmount,
  active: row.active,
});

/** changeOptionProduct with its audit entry (before and after the terms), in the caller's transaction: every entry
 * point's way in. */
export async function changeOptionProductAs(
  tx: Executor,
  actor: Actor,
  id: number,
  changes: readonly string[],
  now: Date,
) {
  const [before] = await tx.select().from(optionProducts).where(eq(optionProducts.id, id)).for('update');
  const after = await changeOptionProduct(tx, id, changes);
  await appendAudit(
    tx,
    actor,
    'product.change',
    `product:${after.id}`,
    { before: before && optionProductTerms(before), after: optionProductTerms(after) },
    now,
  );
  return after;
}

type ContractPair = typeof contractPairs.$inferInsert;
const CONTRACT_PAIR_TERMS: Record<string, Term<ContractPair>> = {
  tick: { takes: CONTRACT_PAIR_TAKES.tick, set: (row, value) => (row.priceDecimals = Number(value)) },
  step: { takes: CONTRACT_PAIR_TAKES.step, set: (row, value) => (row.quantityDecimals = Number(value)) },
  min: { takes: CONTRACT_PAIR_TAKES.min, set: (row, value) => (row.minNotional = value) },
  fee: { takes: CONTRACT_PAIR_TAKES.fee, set: (row, value) => (row.feeRate = value) },
  band: { takes: CONTRACT_PAIR_TAKES.band, set: (row, value) => (row.priceBand = value) },
  active: flag,
};

export const contractPairList = (db: Executor) => db.select().from(contractPairs).orderBy(asc(contractPairs.coin));

/** Trading rules only: no term sets a fill price or an order's status (fills come from recorded ticks). */
async function changeContractPair(db: Executor, coin: string, changes: readonly string[]) {
  const set = changesOf(
    changes,
    CONTRACT_PAIR_TERMS,
    'tick=0..8, step=0..8, min=5, fee=0.001 (below 0.1), band=0.1 or active=true|false',
  );
  const [row] = await db.update(contractPairs).set(set).where(eq(contractPairs.coin, coin.toUpperCase())).returning();
  if (!row) throw new Refusal(consoleTexts.consolePairNotFound.id, { coin: coin.toUpperCase() });
  return row;
}

type ContractPairRow = typeof contractPairs.$inferSelect;
/** A pair's trading rules as operators read and write them (the console's list, the audit log's before and after). */
export const contractPairTerms = (row: ContractPairRow) => ({
  coin: row.coin,
  tick: row.priceDecimals,
  step: row.quantityDecimals,
  min: row.minNotional,
  fee: row.feeRate,
  band: row.priceBand,
  active: row.active,
});

/** changeContractPair with its audit entry (before and after the rules), in the caller's transaction: every entry
 * point's way in. */
export async function changeContractPairAs(
  tx: Executor,
  actor: Actor,
  coin: string,
  changes: readonly string[],
  now: Date,
) {
  const [before] = await tx
    .select()
    .from(contractPairs)
    .where(eq(contractPairs.coin, coin.toUpperCase()))
    .for('update');
  const after = await changeContractPair(tx, coin, changes);
  await appendAudit(
    tx,
    actor,
    'pair.change',
    `pair:${after.coin}`,
    { before: before && contractPairTerms(before), after: contractPairTerms(after) },
    now,
  );
  return after;
}

type LockupProduct = typeof lockupProducts.$inferInsert;
const LOCKUP_PRODUCT_TERMS: Record<string, Term<LockupProduct>> = {
  rate: { takes: (value) => /^0(\.\d{1,6})?$/.test(value), set: (row, value) => (row.dailyRate = value) },
  // The period of orders placed from now on: an order stores its own days and end day.
  days: {
    takes: (value) => /^[1-9]\d{0,3}$/.test(value) && Number(value) <= MAX_LOCKUP_DAYS,
    set: (row, value) => (row.days = Number(value)),
  },
  min: { takes: isPositiveAmount, set: (row, value) => (row.minAmount = value) },
  max: { takes: isPositiveAmount, set: (row, value) => (row.maxAmount = value) },
  quota: {
    takes: (value) => value === 'none' || AMOUNT.test(value),
    set: (row, value) => (row.quota = value === 'none' ? null : value),
  },
  active: flag,
};

export const lockupProductList = (db: Executor) =>
  db.select().from(lockupProducts).orderBy(asc(lockupProducts.sort), asc(lockupProducts.id));

/**
 * Changes lock-up product `id` by `changes` ("rate=0.001", "days=7", "min=100", "max=50000", "quota=none|5000000",
 * "active=true|false"; each as LOCKUP_PRODUCT_TERMS takes it) and answers the row. Refuses an unknown product
 * (consoleLockupNotFound) and a minimum left above the maximum (consoleLockupRangeEmpty): run it in a transaction,
 * which the refusal takes back. Orders already placed keep their own terms.
 */
export async function changeLockupProduct(db: Executor, id: number, changes: readonly string[]) {
  const set = changesOf(
    changes,
    LOCKUP_PRODUCT_TERMS,
    `rate=0.001, days=1..${MAX_LOCKUP_DAYS}, min=100, max=50000, quota=none|5000000 or active=true|false`,
  );
  const [row] = await db.update(lockupProducts).set(set).where(eq(lockupProducts.id, id)).returning();
  if (!row) throw new Refusal(consoleTexts.consoleLockupNotFound.id, { id: String(id) });
  // A minimum above the maximum leaves no amount a customer could subscribe: refused, and the caller's transaction
  // takes the change back.
  if (new Big(row.minAmount).gt(row.maxAmount))
    throw new Refusal(consoleTexts.consoleLockupRangeEmpty.id, {
      0: new Big(row.minAmount),
      1: new Big(row.maxAmount),
    });
  return row;
}
