// The provably fair blind box (issue 12). A draw's outcome is fixed by the committed server seed,
// the client seed and the nonce (contract/blindbox.ts): nothing here, in the HTTP calls or in the
// operator commands can choose it. A draw takes the cost, the prize's stock and pays the prize in
// one transaction; a sold-out prize refuses the draw (never re-rolled to another prize: fairness).
import { serverTexts } from '../../contract/server-texts.ts';
import Big from 'big.js';
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../db/connection.ts';
import { boxDraws, boxPrizes, boxSeeds, configEntries } from '../db/schema.ts';
import {
  DRAWS_PAGE_SIZE,
  PAY_ASSET,
  PAY_WITH,
  WEIGHT_TOTAL,
  drawRoll,
  expectedValue,
  oddsPercent,
  prizeFor,
  sha256Hex,
  tableTotal,
  type BlindBoxInfo,
  type BoxCost,
  type BoxDraw,
  type BoxPrize,
  type PayWith,
  type SeedRotation,
  type SeedState,
} from '../../contract/blindbox.ts';
import type { Paged } from '../../contract/envelope.ts';
import { texts } from '../../contract/texts.ts';
import { Refusal } from './refusal.ts';
import { post } from './ledger.ts';
import { configEntriesOf, configValue, setConfigEntry } from './config-entries.ts';

/** The ledger kind of a draw's cost and of its prize. */
export const BLIND_BOX_KIND = 'blind_box';
/** The config group (act) of the blind box's settings. */
const CONFIG_ACT = 'blindbox';
/** Config entries (act `blindbox`): the cost of one draw per way of paying. */
export const COST_KEYS: Record<PayWith, string> = { points: 'cost_points', usdt: 'cost_usdt' };
/** A client seed for users who never chose one: random, so no two users share a sequence. */
const newClientSeed = () => randomBytes(8).toString('hex');

type SeedRow = typeof boxSeeds.$inferSelect;
type PrizeRow = typeof boxPrizes.$inferSelect;

export const seedState = (seed: SeedRow): SeedState => ({ seed_id: seed.id, server_hash: seed.serverHash, client_seed: seed.clientSeed, next_nonce: seed.nextNonce });

/**
 * Commits a new secret server seed (only its SHA-256 is shown until it is rotated) together with the
 * prize table in force now: every draw with this seed maps onto that table, whatever is published later.
 */
async function commitSeed(db: Executor, userId: number, clientSeed: string, now: Date): Promise<void> {
  const serverSeed = randomBytes(32).toString('hex');
  const prizeTable = (await activePrizes(db)).map(({ id, weight }) => ({ id, weight }));
  // box_seeds_one_active: a parallel first call created it already, and that one stands.
  await db
    .insert(boxSeeds)
    .values({ userId, serverSeed, serverHash: await sha256Hex(serverSeed), clientSeed, prizeTable, createdAt: now })
    .onConflictDoNothing();
}

/** The prizes of a seed's committed table, in its order, with the committed weights (and today's stock). */
async function seedPrizes(db: Executor, seed: SeedRow): Promise<PrizeRow[]> {
  if (!seed.prizeTable.length) return [];
  const rows = await db
    .select()
    .from(boxPrizes)
    .where(
      inArray(
        boxPrizes.id,
        seed.prizeTable.map((entry) => entry.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return seed.prizeTable.flatMap(({ id, weight }) => {
    const row = byId.get(id);
    return row ? [{ ...row, weight }] : [];
  });
}

/** Whether a seed's table is the one published now (else a rotation brings the new one). */
const isCurrentTable = (seed: SeedRow, current: readonly PrizeRow[]) =>
  seed.prizeTable.length === current.length && seed.prizeTable.every((entry, index) => entry.id === current[index]!.id && entry.weight === current[index]!.weight);

/** The caller's unrevealed seed, created on first use; `lock` takes it FOR UPDATE (a draw, a rotation). */
export async function activeSeed(db: Executor, userId: number, now: Date, lock = false): Promise<SeedRow> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const query = db
      .select()
      .from(boxSeeds)
      .where(and(eq(boxSeeds.userId, userId), isNull(boxSeeds.revealedAt)));
    const [seed] = lock ? await query.for('update') : await query;
    if (seed) return seed;
    await commitSeed(db, userId, newClientSeed(), now);
  }
  throw new Error(`no active blind box seed for user ${userId}`);
}

/** The active prizes in table order: the order the roll walks. */
export async function activePrizes(db: Executor): Promise<PrizeRow[]> {
  return db.select().from(boxPrizes).where(eq(boxPrizes.active, true)).orderBy(asc(boxPrizes.sort), asc(boxPrizes.id));
}

export async function boxCosts(db: Executor): Promise<BoxCost[]> {
  const rows = await configEntriesOf(db, CONFIG_ACT);
  return PAY_WITH.flatMap((pay) => {
    const value = rows.find((row) => row.key === COST_KEYS[pay])?.value;
    return value && /^\d{1,12}(\.\d{1,8})?$/.test(value) && new Big(value).gt(0) ? [{ pay, asset: PAY_ASSET[pay], amount: new Big(value).toFixed() }] : [];
  });
}

/** The blind box's settings as the operator set them (the cost of a draw per way of paying), by key. */
export const blindBoxSettings = (db: Executor) => db.select().from(configEntries).where(eq(configEntries.act, CONFIG_ACT)).orderBy(asc(configEntries.key));

/** Sets the cost of one draw per way of paying given (an amount; 0 turns that way of paying off). */
export async function setBoxCosts(tx: Tx, costs: Partial<Record<PayWith, string>>): Promise<void> {
  for (const [pay, amount] of Object.entries(costs) as [PayWith, string | undefined][]) {
    if (amount !== undefined) await setConfigEntry(tx, CONFIG_ACT, COST_KEYS[pay], new Big(amount).toFixed());
  }
}

/** A prize of a table to publish, at its place (`sort`) in the table; no stock is unlimited, an amount of 0 is "thanks for playing". */
export type NewPrize = Pick<typeof boxPrizes.$inferInsert, 'name' | 'asset' | 'amount' | 'weight' | 'stock' | 'sort'>;

/**
 * Publishes a prize table whose odds sum to exactly 100 %. The prizes in force are retired, not
 * deleted (draws and committed seeds reference them): the new table applies to seeds committed from now on.
 */
export async function publishPrizeTable(tx: Tx, prizes: readonly NewPrize[]): Promise<void> {
  const total = prizes.reduce((sum, prize) => sum + prize.weight, 0);
  if (total !== WEIGHT_TOTAL) throw new Refusal(`The weights sum to ${total}, not ${WEIGHT_TOTAL} (100 %): nothing changed.`);
  await tx.update(boxPrizes).set({ active: false }).where(eq(boxPrizes.active, true));
  await tx.insert(boxPrizes).values([...prizes]);
}

/** Restocks a prize of the table in force (null: unlimited); a retired prize cannot be restocked. */
export async function restockPrize(db: Executor, id: number, stock: number | null): Promise<PrizeRow> {
  const [row] = await db
    .update(boxPrizes)
    .set({ stock })
    .where(and(eq(boxPrizes.id, id), eq(boxPrizes.active, true)))
    .returning();
  if (!row) throw new Refusal(`No active prize ${id} (see: prizes).`);
  return row;
}

const publicPrize = (row: PrizeRow): BoxPrize => ({
  id: row.id,
  name: row.name,
  asset: row.asset,
  amount: new Big(row.amount).toFixed(),
  weight: row.weight,
  odds: oddsPercent(row.weight),
  stock: row.stock,
});

export async function blindBoxInfo(db: Executor, userId: number, now: Date): Promise<BlindBoxInfo> {
  const seed = await activeSeed(db, userId, now);
  const [rows, current, costs, rate] = await Promise.all([seedPrizes(db, seed), activePrizes(db), boxCosts(db), configValue(db, 'points', 'usdt_per_point')]);
  // The odds shown are the ones the caller's next draw uses: the table its seed committed to.
  const prizes = rows.map(publicPrize);
  const assets = [...new Set(prizes.filter((prize) => new Big(prize.amount).gt(0)).map((prize) => prize.asset))];
  return {
    prizes,
    available: prizes.length > 0 && tableTotal(prizes) === WEIGHT_TOTAL && costs.length > 0,
    costs,
    expected: Object.fromEntries(assets.map((asset) => [asset, expectedValue(prizes, asset)])),
    usdt_per_point: rate ?? null,
    seed: seedState(seed),
    table_current: isCurrentTable(seed, current),
  };
}

/** One draw, in the caller's transaction: everything below commits together or not at all. */
export async function draw(tx: Tx, userId: number, pay: PayWith, now: Date): Promise<{ draw: BoxDraw; seed: SeedState }> {
  const seed = await activeSeed(tx, userId, now, true);
  const prizes = await seedPrizes(tx, seed);
  if (!prizes.length || tableTotal(prizes) !== WEIGHT_TOTAL) throw new Refusal(serverTexts.blindBoxUnavailable.id);
  const cost = (await boxCosts(tx)).find((option) => option.pay === pay);
  if (!cost) throw new Refusal(serverTexts.blindBoxUnavailable.id);

  const nonce = seed.nextNonce;
  const roll = await drawRoll(seed.serverSeed, seed.clientSeed, nonce);
  const prize = prizeFor(roll, prizes)!;

  // One guarded statement takes the stock: under any number of parallel draws it never goes below 0.
  const [taken] = await tx
    .update(boxPrizes)
    .set({ stock: sql`case when ${boxPrizes.stock} is null then null else ${boxPrizes.stock} - 1 end` })
    .where(and(eq(boxPrizes.id, prize.id), sql`(${boxPrizes.stock} is null or ${boxPrizes.stock} > 0)`))
    .returning({ id: boxPrizes.id });
  if (!taken) throw new Refusal(prize.stock === null ? serverTexts.blindBoxUnavailable.id : serverTexts.prizeSoldOut.id);

  const reference = `blindbox:${seed.id}:${nonce}`;
  try {
    await post(tx, { userId, asset: cost.asset, amount: new Big(cost.amount).neg().toFixed(8), kind: BLIND_BOX_KIND, reference }, now);
  } catch (error) {
    if (error instanceof Refusal && error.textId === texts.insufficientBalance.id && pay === 'points') throw new Refusal(texts.notEnoughPoints.id);
    throw error;
  }
  // An amount of 0 is "thanks for playing": post() writes no entry for it.
  await post(tx, { userId, asset: prize.asset, amount: new Big(prize.amount).toFixed(8), kind: BLIND_BOX_KIND, reference: `${reference}:prize` }, now);

  const table = prizes.map(({ id, weight }) => ({ id, weight }));
  const [row] = await tx
    .insert(boxDraws)
    .values({
      userId,
      seedId: seed.id,
      nonce,
      clientSeed: seed.clientSeed,
      roll,
      prizeId: prize.id,
      prizeName: prize.name,
      prizeAsset: prize.asset,
      prizeAmount: prize.amount,
      costAsset: cost.asset,
      cost: cost.amount,
      prizeTable: table,
      createdAt: now,
    })
    .returning();
  const [next] = await tx
    .update(boxSeeds)
    .set({ nextNonce: nonce + 1 })
    .where(eq(boxSeeds.id, seed.id))
    .returning();
  return { draw: drawView(row!, next!), seed: seedState(next!) };
}

/** Reveals the caller's seed and commits a new one (with a new client seed, when given). */
export async function rotate(tx: Tx, userId: number, clientSeed: string | null, now: Date): Promise<SeedRotation> {
  const old = await activeSeed(tx, userId, now, true);
  await tx.update(boxSeeds).set({ revealedAt: now }).where(eq(boxSeeds.id, old.id));
  await commitSeed(tx, userId, clientSeed ?? old.clientSeed, now);
  const seed = await activeSeed(tx, userId, now);
  return { revealed: { seed_id: old.id, server_seed: old.serverSeed, server_hash: old.serverHash }, seed: seedState(seed) };
}

function drawView(row: typeof boxDraws.$inferSelect, seed: Pick<SeedRow, 'serverHash' | 'serverSeed' | 'revealedAt'>): BoxDraw {
  return {
    id: row.id,
    seed_id: row.seedId,
    nonce: row.nonce,
    client_seed: row.clientSeed,
    roll: row.roll,
    prize_id: row.prizeId,
    prize_name: row.prizeName,
    prize_asset: row.prizeAsset,
    prize_amount: new Big(row.prizeAmount).toFixed(),
    cost_asset: row.costAsset,
    cost: new Big(row.cost).toFixed(),
    prize_table: row.prizeTable,
    server_hash: seed.serverHash,
    // The secret stays secret until the seed is rotated: only then can anyone check the draws.
    server_seed: seed.revealedAt ? seed.serverSeed : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The caller's draws, newest first, with the seed revealed where it has been rotated. */
export async function drawHistory(db: Executor, userId: number, page: number): Promise<Paged<BoxDraw>> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({ draw: boxDraws, seed: { serverHash: boxSeeds.serverHash, serverSeed: boxSeeds.serverSeed, revealedAt: boxSeeds.revealedAt } })
      .from(boxDraws)
      .innerJoin(boxSeeds, eq(boxSeeds.id, boxDraws.seedId))
      .where(eq(boxDraws.userId, userId))
      .orderBy(desc(boxDraws.id))
      .limit(DRAWS_PAGE_SIZE)
      .offset((page - 1) * DRAWS_PAGE_SIZE),
    db.select({ n: count() }).from(boxDraws).where(eq(boxDraws.userId, userId)),
  ]);
  return { lists: rows.map((row) => drawView(row.draw, row.seed)), page, total: Number(counted?.n ?? 0) };
}
