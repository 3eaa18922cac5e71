// The provably fair blind box. A draw's outcome is fixed by the committed server seed,
// the client seed and the nonce (api-contract/blindbox.ts): nothing here, in the HTTP calls or in the
// operator commands can choose it. A draw takes the cost, the prize's stock and pays the prize in
// one transaction; a sold-out prize refuses the draw (never re-rolled to another prize: fairness).
import { serverTexts } from '../../api-contract/server-texts.ts';
import Big from 'big.js';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { countedKeysetQuery, idKey, type KeysetOrder } from './paged-query.ts';
import type { Executor, Tx } from '../db/connection.ts';
import { boxDraws, boxPrizes, boxSeeds, coins, configEntries } from '../db/schema.ts';
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
} from '../../api-contract/blindbox.ts';
import type { CursorPage } from '../../api-contract/envelope.ts';
import { texts } from '../../api-contract/texts.ts';
import { POINTS, isWholePoints } from '../../api-contract/rewards.ts';
import { Refusal } from './refusal.ts';
import { visibleContent } from './content-languages.ts';
import { USDT, post } from './ledger.ts';
import { refusePreTrade } from './pre-trade-checks.ts';
import { configEntriesOf, configValue, setConfigEntry } from './config-entries.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { changesOf, type Term } from './settings.ts';
import { checkRewardCap, type CapOptions, type RewardCaps } from './reward-caps.ts';
import { latestPrices } from './prices.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';

/** The ledger kind of a draw's cost and of its prize. */
export const BLIND_BOX_KIND = 'blind_box';
/**
 * A draw's prize entry is referenced as its cost's with this ending (`blindbox:<seed>:<nonce>:prize`): a prize in the
 * asset the draw was paid in would otherwise be a second entry of one kind, reference, account and asset, which the
 * ledger refuses. The two entries are still one movement (the proof of liabilities takes them together).
 */
export const PRIZE_REFERENCE_END = ':prize';
/** The config group (act) of the blind box's settings. */
const CONFIG_ACT = 'blindbox';
/** Config entries (act `blindbox`): the cost of one draw per way of paying. */
export const COST_KEYS: Record<PayWith, string> = { points: 'cost_points', usdt: 'cost_usdt' };
/** A client seed for users who never chose one: random, so no two users share a sequence. */
const newClientSeed = () => randomBytes(8).toString('hex');

type SeedRow = typeof boxSeeds.$inferSelect;
type PrizeRow = typeof boxPrizes.$inferSelect;

export const seedState = (seed: SeedRow): SeedState => ({
  seed_id: seed.id,
  server_hash: seed.serverHash,
  client_seed: seed.clientSeed,
  next_nonce: seed.nextNonce,
});

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
  seed.prizeTable.length === current.length &&
  seed.prizeTable.every((entry, index) => entry.id === current[index]!.id && entry.weight === current[index]!.weight);

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

/** An amount of the blind box (a prize, a cost) as written: 0 or more, up to 12 digits and 8 decimals. */
const BOX_AMOUNT = /^\d{1,12}(\.\d{1,8})?$/;

export async function boxCosts(db: Executor): Promise<BoxCost[]> {
  const rows = await configEntriesOf(db, CONFIG_ACT);
  return PAY_WITH.flatMap((pay) => {
    const value = rows.find((row) => row.key === COST_KEYS[pay])?.value;
    return value && BOX_AMOUNT.test(value) && new Big(value).gt(0)
      ? [{ pay, asset: PAY_ASSET[pay], amount: new Big(value).toFixed() }]
      : [];
  });
}

/** The cost of one draw per way of paying as the operator set it ('0': that way of paying is off). */
async function costTerms(db: Executor): Promise<Record<PayWith, string>> {
  const costs = await boxCosts(db);
  return Object.fromEntries(
    PAY_WITH.map((pay) => [pay, costs.find((cost) => cost.pay === pay)?.amount ?? '0']),
  ) as Record<PayWith, string>;
}

/** The cost of a draw, written `points=100` or `usdt=1`: an amount, 0 turning that way of paying off. */
const COST_TERMS: Record<string, Term<Record<PayWith, string>>> = Object.fromEntries(
  PAY_WITH.map((pay) => [
    pay,
    {
      // Points are whole numbers (isWholePoints).
      takes: (value: string) => BOX_AMOUNT.test(value) && (PAY_ASSET[pay] !== POINTS || isWholePoints(value)),
      set: (row: Partial<Record<PayWith, string>>, value: string) => (row[pay] = new Big(value).toFixed()),
    },
  ]),
);

/**
 * Sets the cost of one draw per way of paying named (`points=100`, `usdt=0`…) with its audit entry
 * (the costs before and after), in the caller's transaction: every entry point's way in. Draws to come pay it.
 */
export async function setBoxCostsAs(
  tx: Tx,
  actor: Actor,
  changes: readonly string[],
  now: Date,
): Promise<Record<PayWith, string>> {
  const set = changesOf(changes, COST_TERMS, 'points=100 or usdt=1 (0 turns that way of paying off)');
  await tx.select().from(configEntries).where(eq(configEntries.act, CONFIG_ACT)).for('update');
  const before = await costTerms(tx);
  for (const pay of PAY_WITH)
    if (set[pay] !== undefined) await setConfigEntry(tx, CONFIG_ACT, COST_KEYS[pay], set[pay]);
  const after = await costTerms(tx);
  await appendAudit(tx, actor, 'blindbox.cost', 'blindbox:cost', { before, after }, now);
  return after;
}

/** A prize of a table to publish, at its place (`sort`) in the table; no stock is unlimited, an amount of 0 is "thanks
 * for playing". */
export type NewPrize = Pick<typeof boxPrizes.$inferInsert, 'name' | 'asset' | 'amount' | 'weight' | 'stock' | 'sort'>;

const PRIZE_ASSET = /^[A-Z][A-Z0-9]{1,11}$/;

/**
 * Reads a prize table as operators write it, "<name>:<asset>:<amount>:<weight>[:<stock>];…" (weights
 * in parts per million; no stock: unlimited; amount 0: thanks for playing), refusing the first
 * prize that is not one. Whether the weights sum to 100 % is publishing's rule.
 */
export function parsePrizeTable(written: string): NewPrize[] {
  const parts = written
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.length) throw new Refusal(consoleTexts.consolePrizeTableEmpty.id);
  return parts.map((part, index) => {
    const n = String(index + 1);
    const [name = '', asset = '', amount = '', weight = '', stock, ...extra] = part
      .split(':')
      .map((field) => field.trim());
    if (!name || extra.length) throw new Refusal(consoleTexts.consolePrizeUnreadable.id, { n, prize: part });
    // A prize's name is what customers read in the prize table and their draws: the rule and the length of a name on
    // the Content page.
    const shown = visibleContent('title', name);
    if (!PRIZE_ASSET.test(asset)) throw new Refusal(consoleTexts.consolePrizeAsset.id, { n, asset });
    if (!BOX_AMOUNT.test(amount)) throw new Refusal(consoleTexts.consolePrizeAmount.id, { n, amount });
    if (asset === POINTS && !isWholePoints(amount))
      throw new Refusal(consoleTexts.consolePrizePoints.id, { n, amount });
    if (!/^[1-9]\d{0,6}$/.test(weight)) throw new Refusal(consoleTexts.consolePrizeWeight.id, { n, weight });
    if (stock !== undefined && !/^\d{1,9}$/.test(stock))
      throw new Refusal(consoleTexts.consolePrizeStock.id, { n, stock });
    return {
      name: shown,
      asset,
      amount,
      weight: Number(weight),
      stock: stock === undefined ? null : Number(stock),
      sort: index + 1,
    };
  });
}

/** A prize as the audit log keeps it, before and after a change. */
const prizeTerms = (row: PrizeRow) => ({
  id: row.id,
  name: row.name,
  asset: row.asset,
  amount: new Big(row.amount).toFixed(),
  weight: row.weight,
  stock: row.stock,
});

/** The latest recorded price of each coin among `assets`, as checkRewardCap values a prize paid in a coin. */
async function coinPricesOf(db: Executor, assets: readonly string[]): Promise<CapOptions> {
  return {
    coinPrices: await latestPrices(
      db,
      assets.filter((asset) => asset !== USDT && asset !== POINTS),
    ),
  };
}

/**
 * Publishes a prize table written as operators write it, whose odds sum to exactly 100 % and whose prizes each pay
 * USDT, points or a coin of the coins table (else consolePrizeAsset names the first that does not), with its
 * audit entry (the tables before and after), in the caller's transaction: every entry point's way in. The
 * prizes in force are retired, not deleted (draws and committed seeds reference them): the new table
 * applies to seeds committed from now on, never to a seed already committed (its next roll may be known).
 * Any customer may win a prize, unreviewed: each pays at most the bound of its asset in `caps`, a coin's valued at
 * its latest recorded price (reward-caps.ts).
 * @throws Refusal consoleRewardAboveCap (field `table`, naming the prize) for the first prize above its bound.
 */
export async function publishPrizeTableAs(
  tx: Tx,
  actor: Actor,
  written: string,
  now: Date,
  caps: RewardCaps,
): Promise<PrizeRow[]> {
  const prizes = parsePrizeTable(written);
  // A prize pays into a balance the customer can use: USDT, points or a coin's. The lock-up and liquidity balances move
  // only with their orders (a prize there would be locked for good and break the books' check), and a balance of an
  // asset that is no coin could never be sold or withdrawn.
  const assets = [...new Set(prizes.map((prize) => prize.asset))];
  const coinCodes = new Set(
    (await tx.select({ code: coins.code }).from(coins).where(inArray(coins.code, assets))).map((row) => row.code),
  );
  const unpayable = prizes.findIndex(
    (prize) => prize.asset !== USDT && prize.asset !== POINTS && !coinCodes.has(prize.asset),
  );
  if (unpayable >= 0)
    throw new Refusal(consoleTexts.consolePrizeAsset.id, { n: String(unpayable + 1), asset: prizes[unpayable]!.asset });
  const total = prizes.reduce((sum, prize) => sum + prize.weight, 0);
  if (total !== WEIGHT_TOTAL)
    throw new Refusal(consoleTexts.consolePrizeWeightsSum.id, { total: String(total), full: String(WEIGHT_TOTAL) });
  const valued = await coinPricesOf(tx, assets);
  for (const prize of prizes)
    checkRewardCap(caps, prize.asset, prize.amount, 'table', { ...valued, named: prize.name });
  // Two tables published at once: the second waits here, then retires the first (one table in force).
  const before = await tx
    .select()
    .from(boxPrizes)
    .where(eq(boxPrizes.active, true))
    .orderBy(asc(boxPrizes.sort), asc(boxPrizes.id))
    .for('update');
  await tx.update(boxPrizes).set({ active: false }).where(eq(boxPrizes.active, true));
  await tx.insert(boxPrizes).values(prizes);
  const after = await activePrizes(tx);
  // A prize keeps the names operators wrote in other languages for a prize of the same English name, in this table or
  // any earlier one (a name brought back gets its versions back): per language, the newest such prize's version.
  const named = after.map((prize) => ({ to: String(prize.id), name: prize.name }));
  await tx.execute(sql`
    insert into content_translations (kind, item, lang, title, body)
    select distinct on (m."to", t.lang) 'prize', m."to", t.lang, t.title, t.body
    from jsonb_to_recordset(${JSON.stringify(named)}::jsonb) as m("to" text, name text)
    join box_prizes p on p.name = m.name and p.id::text <> m."to"
    join content_translations t on t.kind = 'prize' and t.item = p.id::text
    order by m."to", t.lang, p.id desc
    on conflict do nothing`);
  await appendAudit(
    tx,
    actor,
    'prizes.publish',
    'prizes',
    { before: before.map(prizeTerms), after: after.map(prizeTerms) },
    now,
  );
  return after;
}

/**
 * Restocks a prize of the table in force, the stock written as a whole number or "unlimited", with
 * its audit entry, in the caller's transaction: every entry point's way in. A retired prize cannot be restocked.
 * A prize above the bound of its asset in `caps` (one published before the bound was lowered, a coin's whose price
 * rose) may have its stock lowered, to 0 included, but not raised (reward-caps.ts).
 * @throws Refusal consoleRewardAboveCap (field `stock`, naming the prize) for a stock raised on such a prize.
 */
export async function restockPrizeAs(
  tx: Tx,
  actor: Actor,
  id: number,
  stock: string,
  now: Date,
  caps: RewardCaps,
): Promise<PrizeRow> {
  if (!/^(\d{1,9}|unlimited)$/.test(stock)) throw new Refusal(consoleTexts.consoleRestockFormat.id);
  const [before] = await tx
    .select()
    .from(boxPrizes)
    .where(and(eq(boxPrizes.id, id), eq(boxPrizes.active, true)))
    .for('update');
  if (!before) throw new Refusal(consoleTexts.consolePrizeNotFound.id, { id: String(id) });
  const raised = stock === 'unlimited' || (before.stock !== null && Number(stock) > before.stock);
  if (raised)
    checkRewardCap(caps, before.asset, before.amount, 'stock', {
      ...(await coinPricesOf(tx, [before.asset])),
      named: before.name,
    });
  const [after] = await tx
    .update(boxPrizes)
    .set({ stock: stock === 'unlimited' ? null : Number(stock) })
    .where(eq(boxPrizes.id, id))
    .returning();
  await appendAudit(
    tx,
    actor,
    'prize.restock',
    `prize:${id}`,
    { before: prizeTerms(before), after: prizeTerms(after!) },
    now,
  );
  return after!;
}

/** The blind box as operators read it: the table in force with its odds and expected value, and the cost of a draw. */
export async function blindBoxTerms(db: Executor) {
  const [rows, costs] = await Promise.all([activePrizes(db), costTerms(db)]);
  const prizes = rows.map(publicPrize);
  const assets = [...new Set(prizes.filter((prize) => new Big(prize.amount).gt(0)).map((prize) => prize.asset))];
  return {
    prizes,
    odds_total: oddsPercent(tableTotal(prizes)),
    expected: Object.fromEntries(assets.map((asset) => [asset, expectedValue(prizes, asset)])),
    costs,
  };
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

/** A prize with a stock and none of it left. */
const isSoldOut = (prize: { stock: number | null }) => prize.stock !== null && prize.stock <= 0;

/**
 * The blind box as a customer reads it: the prizes, odds and stock of the table their seed committed to, the costs, the
 * expected value per draw (offered only while a draw is possible), the points' USDT rate and their seed's state.
 */
export async function blindBoxInfo(db: Executor, userId: number, now: Date): Promise<BlindBoxInfo> {
  const seed = await activeSeed(db, userId, now);
  const [rows, current, costs, rate] = await Promise.all([
    seedPrizes(db, seed),
    activePrizes(db),
    boxCosts(db),
    configValue(db, 'points', 'usdt_per_point'),
  ]);
  // The odds shown are the ones the caller's next draw uses: the table its seed committed to.
  const prizes = rows.map(publicPrize);
  const assets = [...new Set(prizes.filter((prize) => new Big(prize.amount).gt(0)).map((prize) => prize.asset))];
  // As `draw` refuses: a table that is not whole, no cost, or a prize sold out (which closes the box for the seed). No
  // expected value is offered then, since no draw returns one; one counting a sold-out prize would promise it.
  const available =
    prizes.length > 0 && tableTotal(prizes) === WEIGHT_TOTAL && costs.length > 0 && !prizes.some(isSoldOut);
  return {
    prizes,
    available,
    costs,
    expected: available ? Object.fromEntries(assets.map((asset) => [asset, expectedValue(prizes, asset)])) : {},
    usdt_per_point: rate ?? null,
    seed: seedState(seed),
    table_current: isCurrentTable(seed, current),
  };
}

/**
 * One draw paid `pay`, in the caller's transaction: everything below commits together or not at all. `shownCost`: the
 * cost of a draw the customer confirmed (a decimal of the asset paid with), when the request sent it; a draw whose
 * cost is another one now (an operator changed it meanwhile) is refused (blindBoxCostChanged, naming the cost now) and
 * nothing moves. While a prize of the seed's table is sold out, every draw on it is refused (prizeSoldOut), whatever
 * its roll, and nothing moves.
 */
export async function draw(
  tx: Tx,
  userId: number,
  pay: PayWith,
  now: Date,
  shownCost?: string,
): Promise<{ draw: BoxDraw; seed: SeedState }> {
  // A draw is paid play (points or USDT for a chance of a prize): a time-out stops it like any order.
  await refusePreTrade(tx, userId, now);
  const seed = await activeSeed(tx, userId, now, true);
  const prizes = await seedPrizes(tx, seed);
  if (!prizes.length || tableTotal(prizes) !== WEIGHT_TOTAL) throw new Refusal(serverTexts.blindBoxUnavailable.id);
  // A prize of the table sold out closes the box for this seed until it is restocked, whatever the roll: a refusal only
  // when the roll lands on it would tell the customer, before paying and for free (rotate, ask again), that their next
  // roll is that prize, to be drawn for sure once it is restocked.
  if (prizes.some(isSoldOut)) throw new Refusal(serverTexts.prizeSoldOut.id);
  const cost = (await boxCosts(tx)).find((option) => option.pay === pay);
  if (!cost) throw new Refusal(serverTexts.blindBoxUnavailable.id);
  if (shownCost !== undefined && !new Big(shownCost).eq(cost.amount))
    throw new Refusal(serverTexts.blindBoxCostChanged.id, { 0: new Big(cost.amount), 1: cost.asset });

  const nonce = seed.nextNonce;
  const roll = await drawRoll(seed.serverSeed, seed.clientSeed, nonce);
  const prize = prizeFor(roll, prizes)!;

  // One guarded statement takes the stock: under any number of parallel draws it never goes below 0.
  const [taken] = await tx
    .update(boxPrizes)
    .set({ stock: sql`case when ${boxPrizes.stock} is null then null else ${boxPrizes.stock} - 1 end` })
    .where(and(eq(boxPrizes.id, prize.id), sql`(${boxPrizes.stock} is null or ${boxPrizes.stock} > 0)`))
    .returning({ id: boxPrizes.id });
  // Its last one taken by a draw that committed after the stock was read above.
  if (!taken)
    throw new Refusal(prize.stock === null ? serverTexts.blindBoxUnavailable.id : serverTexts.prizeSoldOut.id);

  const reference = `blindbox:${seed.id}:${nonce}`;
  try {
    await post(
      tx,
      { userId, asset: cost.asset, amount: new Big(cost.amount).neg().toFixed(8), kind: BLIND_BOX_KIND, reference },
      now,
    );
  } catch (error) {
    if (error instanceof Refusal && error.textId === texts.insufficientBalance.id && pay === 'points')
      throw new Refusal(texts.notEnoughPoints.id);
    throw error;
  }
  // An amount of 0 is "thanks for playing": post() writes no entry for it.
  await post(
    tx,
    {
      userId,
      asset: prize.asset,
      amount: new Big(prize.amount).toFixed(8),
      kind: BLIND_BOX_KIND,
      reference: `${reference}${PRIZE_REFERENCE_END}`,
    },
    now,
  );

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
  return {
    revealed: { seed_id: old.id, server_seed: old.serverSeed, server_hash: old.serverHash },
    seed: seedState(seed),
  };
}

function drawView(
  row: typeof boxDraws.$inferSelect,
  seed: Pick<SeedRow, 'serverHash' | 'serverSeed' | 'revealedAt'>,
): BoxDraw {
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

const NEWEST_DRAW_FIRST: KeysetOrder<{ draw: typeof boxDraws.$inferSelect }> = {
  keys: [idKey(boxDraws.id, (row) => row.draw.id)],
  direction: 'desc',
};

/**
 * The caller's draws, newest first, by cursor (`cursor` '' for the head), with the seed revealed where it has been
 * rotated; `total` counts them all (the check's summary).
 */
export async function drawHistory(
  db: Executor,
  userId: number,
  cursor: string,
): Promise<CursorPage<BoxDraw> & { total: number }> {
  const seed = { serverHash: boxSeeds.serverHash, serverSeed: boxSeeds.serverSeed, revealedAt: boxSeeds.revealedAt };
  const draws = (after?: SQL) =>
    db
      .select({ draw: boxDraws, seed })
      .from(boxDraws)
      .innerJoin(boxSeeds, eq(boxSeeds.id, boxDraws.seedId))
      .where(and(eq(boxDraws.userId, userId), after))
      .$dynamic();
  const listed = await countedKeysetQuery(db, draws, NEWEST_DRAW_FIRST, { cursor }, DRAWS_PAGE_SIZE);
  return { lists: listed.lists.map((row) => drawView(row.draw, row.seed)), next: listed.next, total: listed.total };
}
