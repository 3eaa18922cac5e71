// Price alerts (api-contract/price-alerts.ts): the caller's own list, add and delete, and the weighing of the waiting
// alerts against the recorded ticks (jobs/schedule.ts startPriceAlertsJob runs it in every server process).
//
// Weighing goes coin by coin, each in a transaction holding the coin's mark (price_alert_marks) FOR UPDATE SKIP
// LOCKED: another process weighing at the same time takes the other coins. The alerts that follow the mark are
// weighed together against the ticks recorded after it: the ticks' highest and lowest price and largest 24-hour move
// pick by index the alerts they can meet, so a second with nothing met reads a tick or two and touches no alert. A
// new alert is weighed on its own from created_at until it reaches the mark, then follows it. Each alert gets the
// FIRST tick after its creation that meets it; one that did is fired by `update … where fired_at is null returning`,
// in the transaction that writes its station message, queues its push and moves the mark: the update decides, so
// an alert fires once whoever weighs it, however often, and a restart goes on from the mark.
import Big from 'big.js';
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { isTrue, rowsOf, sqlFlags, type Db, type Executor, type Tx } from '../db/connection.ts';
import { priceAlerts, users } from '../db/schema.ts';
import {
  PRICE_ALERT_MOVE_HOURS,
  PRICE_ALERTS_MAX,
  type PriceAlert,
  type PriceAlertKind,
} from '../../api-contract/price-alerts.ts';
import { alertAlreadyMet } from '../../api-contract/price-alert-met.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { LOCALES, type Locale } from '../../api-contract/constants.ts';
import { translator } from '../i18n.ts';
import { Refusal, refusalOf } from './refusal.ts';
import { lastRecordedPrice } from '../market/market.ts';
import { refuseUnlistedCoin } from './markets.ts';
import { queueNotices } from './notices.ts';
import { simulatedTick } from './prices.ts';

type Row = typeof priceAlerts.$inferSelect;

/** A figure as people read it: no padding zeros. */
const figure = (value: string) => new Big(value).toFixed();
const iso = (at: Date | null) => (at ? at.toISOString() : null);

function toPriceAlert(row: Row): PriceAlert {
  return {
    id: row.id,
    code: row.coin,
    kind: row.kind as PriceAlertKind,
    price: row.price === null ? null : figure(row.price),
    percent: row.percent === null ? null : figure(row.percent),
    created_at: row.createdAt.toISOString(),
    fired_at: iso(row.firedAt),
    fired_price: row.firedPrice === null ? null : figure(row.firedPrice),
    fired_tick_at: iso(row.firedTickAt),
    fired_from_price: row.firedFromPrice === null ? null : figure(row.firedFromPrice),
  };
}

/** The caller's alerts: every waiting one (newest first), then the latest PRICE_ALERTS_MAX fired (last fired first). */
export async function listPriceAlerts(db: Executor, userId: number): Promise<{ lists: PriceAlert[]; max: number }> {
  const [waiting, fired] = await Promise.all([
    db
      .select()
      .from(priceAlerts)
      .where(and(eq(priceAlerts.userId, userId), isNull(priceAlerts.firedAt)))
      .orderBy(desc(priceAlerts.id)),
    db
      .select()
      .from(priceAlerts)
      .where(and(eq(priceAlerts.userId, userId), sql`${priceAlerts.firedAt} is not null`))
      .orderBy(desc(priceAlerts.firedAt), desc(priceAlerts.id))
      .limit(PRICE_ALERTS_MAX),
  ]);
  return { lists: [...waiting, ...fired].map(toPriceAlert), max: PRICE_ALERTS_MAX };
}

/**
 * Adds an alert (the API contract has checked its fields). The customer's row is locked first, so two adds at once
 * count one after the other: never more than PRICE_ALERTS_MAX waiting.
 */
export async function addPriceAlert(
  db: Executor,
  userId: number,
  input: { code: string; kind: PriceAlertKind; price: string; percent: string },
  now: Date,
): Promise<PriceAlert> {
  return db.transaction(async (tx) => {
    await refuseUnlistedCoin(tx, input.code);
    // An alert the last recorded price already meets would go off at once: the customer is told, and chooses again.
    const last = input.kind === 'move' ? null : await lastRecordedPrice(tx, input.code);
    const met = last && alertAlreadyMet(input, new Big(last.price).toFixed());
    if (met) throw refusalOf(met);
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [held] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(priceAlerts)
      .where(and(eq(priceAlerts.userId, userId), isNull(priceAlerts.firedAt)));
    if (Number(held?.count ?? 0) >= PRICE_ALERTS_MAX) throw new Refusal(texts.priceAlertsFull.id);
    const move = input.kind === 'move';
    const [row] = await tx
      .insert(priceAlerts)
      .values({
        userId,
        coin: input.code,
        kind: input.kind,
        price: move ? null : input.price,
        percent: move ? input.percent : null,
        createdAt: now,
        // Only ticks recorded after it was made count; it catches up on its own, then follows its coin's mark.
        checkedThrough: now,
      })
      .returning();
    return toPriceAlert(row!);
  });
}

/** Deletes one of the caller's alerts; another customer's is refused exactly like one that does not exist. */
export async function deletePriceAlert(db: Executor, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(priceAlerts)
    .where(and(eq(priceAlerts.id, id), eq(priceAlerts.userId, userId)))
    .returning({ id: priceAlerts.id });
  if (!deleted.length) throw new Refusal(texts.priceAlertNotFound.id);
}

/**
 * The most ticks of a coin one run weighs (ten minutes of the feed's pace): after a long downtime the backlog is
 * weighed a slice per run (the job runs every second), not in one statement over days of ticks; hours without a
 * tick (a halt) cost nothing.
 */
export const WEIGH_SLICE_TICKS = 600;
/** The same for a new alert still catching up on its own, in time (ten minutes of ticks). */
const JOIN_SLICE = '10 minutes';
/** New alerts caught up per coin and run, each with lookups of its own (the rest on the next run). */
export const JOIN_BATCH = 500;

interface Weighed {
  id: number;
  user_id: number;
  coin: string;
  kind: PriceAlertKind;
  price: string | null;
  percent: string | null;
  /** The first tick that met the condition. */
  hit_at: string | null;
  hit_price: string | null;
  from_price: string | null;
  /** The first tick that met it came from the simulated feed (it carries no exchanges' prices). */
  simulated: boolean | null;
}

/** A coin to weigh: its latest tick, whether it has a mark yet and whether a new alert is catching up. */
interface Weighing {
  coin: string;
  latest: string;
  marked: boolean;
  joining: boolean;
}

/** SQL boolean: some alert waits to fire (one read off price_alerts_waiting_idx). */
export const priceAlertWaits = sql`exists (select 1 from price_alerts where fired_at is null)`;

/**
 * Weighs every waiting alert against the ticks recorded since it was last weighed, and fires those met; returns how
 * many this call fired. Any number of processes may run it at once: each coin is weighed by one of them at a time.
 */
export async function weighPriceAlerts(db: Db, now: Date): Promise<number> {
  // Most steps find no alert waiting at all: one read off price_alerts_waiting_idx says so. The query below costs its
  // planning every time (a lateral read and three subqueries: 4.5 ms of the embedded database's CPU against 0.1 ms
  // for this one, measured), and it runs after every step of ticks.
  if (!(await sqlFlags(db, { waits: priceAlertWaits })).waits) return 0;
  // The coins with an alert waiting and something to weigh: a tick after the mark (or no mark yet), or a new alert.
  const coins = rowsOf<Weighing>(
    await db.execute(sql`
      select c.code as coin, to_json(l.at) #>> '{}' as latest, m.coin is not null as marked,
        exists (select 1 from price_alerts a
          where a.coin = c.code and a.fired_at is null and a.checked_through is not null) as joining
      from coins c
      cross join lateral (select max(t.at) as at from price_ticks t where t.coin = c.code) l
      left join price_alert_marks m on m.coin = c.code
      where l.at is not null
        and exists (select 1 from price_alerts a where a.coin = c.code and a.fired_at is null)
        and (m.checked_through is null or m.checked_through < l.at
          or exists (select 1 from price_alerts a
            where a.coin = c.code and a.fired_at is null and a.checked_through is not null))
      order by c.code`),
  );
  let fired = 0;
  for (const coin of coins) fired += await db.transaction((tx) => weighCoin(tx, coin, now));
  return fired;
}

/**
 * One coin, in one transaction holding its mark: the alerts that follow the mark are weighed against the ticks
 * recorded after it (up to a slice), the new ones each from where it stands; what met fires, the new ones that caught
 * up follow the mark from now on, and the mark moves to the last tick weighed.
 */
async function weighCoin(tx: Tx, { coin, latest, marked, joining }: Weighing, now: Date): Promise<number> {
  // A coin's first mark is its latest tick: no alert follows it yet, every one starts on its own from created_at.
  if (!marked)
    await tx.execute(sql`
      insert into price_alert_marks (coin, checked_through) values (${coin}, ${latest}::timestamptz)
      on conflict do nothing`);
  const [mark] = rowsOf<{ from: string; through: string }>(
    await tx.execute(sql`
      select to_json(m.checked_through) #>> '{}' as "from",
        to_json(coalesce(
          (select t.at from price_ticks t where t.coin = m.coin and t.at > m.checked_through
            order by t.at offset ${WEIGH_SLICE_TICKS - 1} limit 1),
          greatest(m.checked_through, ${latest}::timestamptz))) #>> '{}' as through
      from price_alert_marks m where m.coin = ${coin}
      for update skip locked`),
  );
  // Another process is weighing this coin now.
  if (!mark) return 0;
  const moved = Date.parse(mark.through) > Date.parse(mark.from);
  const met = [
    ...(moved ? await weighFollowing(tx, coin, mark.from, mark.through) : []),
    ...(joining ? await weighJoining(tx, coin, mark.through) : []),
  ];
  const fired = await fireAll(tx, met, now);
  if (moved)
    await tx.execute(
      sql`update price_alert_marks set checked_through = ${mark.through}::timestamptz where coin = ${coin}`,
    );
  return fired;
}

/**
 * How much older than 24 hours before a tick the price a move is measured against may be. The feed records every
 * second; a coin with no tick in that minute (halted, or the servers down) has no measure then: its last price before
 * is older, and the move "in 24 hours" its message states would be one over a longer time.
 */
const MOVE_FROM_WITHIN = '1 minute';

/** A move's measure: the recorded price 24 hours before a tick (the last at or before that time, within a minute). */
const priceBefore = (coin: string, at: SQL) => sql`(
  select p.price from price_ticks p
  where p.coin = ${coin} and p.at <= ${at} - ${`${PRICE_ALERT_MOVE_HOURS} hours`}::interval
    and p.at > ${at} - ${`${PRICE_ALERT_MOVE_HOURS} hours`}::interval - ${MOVE_FROM_WITHIN}::interval
  order by p.at desc limit 1)`;

/**
 * The alerts that follow the coin's mark, against the ticks in (from, through]: the ticks' highest and lowest prices
 * and largest move pick, by index, the alerts any of them can meet (none, most of the time), and each of those gets
 * the first tick that meets it.
 */
async function weighFollowing(tx: Tx, coin: string, from: string, through: string): Promise<Weighed[]> {
  return rowsOf<Weighed>(
    await tx.execute(sql`
      with ticks as materialized (
        select t.at, t.price, ${priceBefore(coin, sql`t.at`)} as from_price, ${simulatedTick(sql`t`)} as simulated
        from price_ticks t
        where t.coin = ${coin} and t.at > ${from}::timestamptz and t.at <= ${through}::timestamptz
      ),
      bounds as (
        select max(price) as high, min(price) as low, max(abs(price - from_price) * 100 / from_price) as moved
        from ticks
      ),
      candidates as (
        select a.* from price_alerts a, bounds b
        where a.coin = ${coin} and a.fired_at is null and a.checked_through is null and a.kind = 'above'
          and a.price <= b.high
        union all
        select a.* from price_alerts a, bounds b
        where a.coin = ${coin} and a.fired_at is null and a.checked_through is null and a.kind = 'below'
          and a.price >= b.low
        union all
        select a.* from price_alerts a, bounds b
        where a.coin = ${coin} and a.fired_at is null and a.checked_through is null and a.kind = 'move'
          and a.percent <= b.moved
      )
      select c.id, c.user_id, c.coin, c.kind, c.price::text as price, c.percent::text as percent,
        to_json(hit.at) #>> '{}' as hit_at, hit.price::text as hit_price, hit.from_price::text as from_price,
        hit.simulated
      from candidates c
      cross join lateral (
        select k.at, k.price, case when c.kind = 'move' then k.from_price end as from_price, k.simulated
        from ticks k
        where k.at > c.created_at and (
          (c.kind = 'above' and k.price >= c.price)
          or (c.kind = 'below' and k.price <= c.price)
          or (c.kind = 'move' and k.from_price is not null and abs(k.price - k.from_price) * 100 >= c.percent * k.from_price)
        )
        order by k.at limit 1
      ) hit
      order by c.id`),
  );
}

/**
 * The new alerts of the coin (up to JOIN_BATCH), each against its own ticks after max(created_at, checked_through) up
 * to the mark's new place (a slice at most): those met are answered; the others that reached the mark follow it from
 * now on (checked_through null), the rest keep where they stopped.
 */
async function weighJoining(tx: Tx, coin: string, through: string): Promise<Weighed[]> {
  return rowsOf<Weighed>(
    await tx.execute(sql`
      with joining as (
        select a.id, a.user_id, a.coin, a.kind, a.price, a.percent,
          greatest(a.created_at, a.checked_through) as start
        from price_alerts a
        where a.coin = ${coin} and a.fired_at is null and a.checked_through is not null
        order by a.id
        limit ${JOIN_BATCH}
      ),
      windows as (
        select j.*, least(${through}::timestamptz, j.start + ${JOIN_SLICE}::interval) as through
        from joining j
      ),
      found as (
        select w.*, hit.at as hit_at, hit.price as hit_price, hit.from_price, hit.simulated
        from windows w
        left join lateral (
          select t.at, t.price, case when w.kind = 'move' then ${priceBefore(coin, sql`t.at`)} end as from_price,
            ${simulatedTick(sql`t`)} as simulated
          from price_ticks t
          where t.coin = ${coin} and t.at > w.start and t.at <= w.through and (
            (w.kind = 'above' and t.price >= w.price)
            or (w.kind = 'below' and t.price <= w.price)
            or (w.kind = 'move' and abs(t.price - ${priceBefore(coin, sql`t.at`)}) * 100
              >= w.percent * ${priceBefore(coin, sql`t.at`)})
          )
          order by t.at limit 1
        ) hit on true
      ),
      -- Runs whether or not the select below reads it (PostgreSQL runs every data-modifying WITH to completion).
      advanced as (
        update price_alerts a
        set checked_through = case when f.through >= ${through}::timestamptz then null else f.through end
        from found f
        where a.id = f.id and f.hit_at is null
        returning a.id
      )
      select f.id, f.user_id, f.coin, f.kind, f.price::text as price, f.percent::text as percent,
        to_json(f.hit_at) #>> '{}' as hit_at, f.hit_price::text as hit_price, f.from_price::text as from_price,
        f.simulated
      from found f
      where f.hit_at is not null
      order by f.id`),
  );
}

/**
 * Fires the alerts of a batch that met their condition, set-based: `update … where fired_at is null returning` says
 * which ones fire now (none that fired already, in another process or an earlier run), and only those get their
 * station message (English in its row, the other languages beside it) and their push, in this same transaction.
 */
async function fireAll(tx: Tx, rows: readonly Weighed[], now: Date): Promise<number> {
  const hits = rows.filter((row) => row.hit_at !== null);
  if (!hits.length) return 0;
  const met = hits.map((row) => ({ id: Number(row.id), at: row.hit_at, price: row.hit_price, from: row.from_price }));
  const fired = new Set(
    rowsOf<{ id: number }>(
      await tx.execute(sql`
        update price_alerts a
        set fired_at = ${now.toISOString()}::timestamptz, fired_price = m.price, fired_tick_at = m.at,
          fired_from_price = m.from
        from jsonb_to_recordset(${JSON.stringify(met)}::jsonb) as m(id int, at timestamptz, price numeric, "from" numeric)
        where a.id = m.id and a.fired_at is null
        returning a.id`),
    ).map((row) => Number(row.id)),
  );
  const firing = hits.filter((row) => fired.has(Number(row.id)));
  if (!firing.length) return 0;
  // The messages' ids first, so each message and its translations are written knowing whose it is.
  const ids = rowsOf<{ id: number }>(
    await tx.execute(
      sql`select nextval(pg_get_serial_sequence('messages', 'id'))::int as id from generate_series(1, ${firing.length})`,
    ),
  ).map((row) => Number(row.id));
  const said = firing.map((row) => alertMessage(row));
  const at = now.toISOString();
  const posted = firing.map((row, i) => ({
    id: ids[i]!,
    user_id: Number(row.user_id),
    title: said[i]!.en.title,
    content: said[i]!.en.content,
  }));
  await tx.execute(sql`
    insert into messages (id, user_id, title, content, created_at)
    select m.id, m.user_id, m.title, m.content, ${at}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(posted)}::jsonb) as m(id int, user_id int, title text, content text)`);
  const translated = firing.flatMap((_, i) =>
    LOCALES.filter((lang) => lang !== 'en').map((lang) => ({
      item: String(ids[i]),
      lang,
      title: said[i]![lang].title,
      body: said[i]![lang].content,
    })),
  );
  await tx.execute(sql`
    insert into content_translations (kind, item, lang, title, body)
    select 'message', m.item, m.lang, m.title, m.body
    from jsonb_to_recordset(${JSON.stringify(translated)}::jsonb) as m(item text, lang text, title text, body text)`);
  await queueNotices(
    tx,
    firing.map((row, i) => ({
      userId: Number(row.user_id),
      notice: { kind: 'price_alert', id: Number(row.id), message: ids[i]!, texts: said[i]! },
    })),
    now,
  );
  return firing.length;
}

/** '2026-11-22 08:00:05 UTC': the recorded tick's time, to the second, as every reader can place it. */
export const utcSecond = (at: Date) => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export type AlertTexts = Record<Locale, { title: string; content: string }>;

/**
 * What a fired alert says, in each of the app's languages: the coin, the condition, the recorded price and time, after
 * "Simulated prices, not a real market" when the tick came from the simulated feed (every screen showing such a price
 * says so, and a notification is read outside the app).
 */
export function alertMessage(
  row: Pick<Weighed, 'coin' | 'kind' | 'price' | 'percent' | 'hit_at' | 'hit_price' | 'from_price' | 'simulated'>,
): AlertTexts {
  const at = utcSecond(new Date(row.hit_at!));
  const price = figure(row.hit_price!);
  return Object.fromEntries(
    LOCALES.map((lang) => {
      const t = translator(lang);
      const title = t(serverTexts.priceAlertTitle, { 0: row.coin });
      let content: string;
      if (row.kind === 'move') {
        const from = new Big(row.from_price!);
        const change = new Big(price).div(from).minus(1).times(100).round(2, Big.roundHalfUp);
        const signed = `${change.gt(0) ? '+' : change.lt(0) ? '−' : ''}${change.abs().toFixed(2)}`;
        content = t(serverTexts.priceAlertMove, {
          0: row.coin,
          1: signed,
          2: price,
          3: at,
          4: figure(from.toFixed()),
          5: figure(row.percent!),
        });
      } else {
        content = t(row.kind === 'above' ? serverTexts.priceAlertAbove : serverTexts.priceAlertBelow, {
          0: row.coin,
          1: price,
          2: at,
          3: figure(row.price!),
        });
      }
      return [
        lang,
        { title, content: isTrue(row.simulated) ? t(serverTexts.simulatedPricesFirst, { 0: content }) : content },
      ];
    }),
  ) as AlertTexts;
}
