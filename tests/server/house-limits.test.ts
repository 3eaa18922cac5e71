// The house's limits on options and its result in the console: an order beyond the per-order, the
// per-minute or the exposure cap is refused with the customer's translated text and moves no money;
// orders placed at once cannot together pass a cap; the console's House page shows the caps, the open
// exposure and a result that adds up against the ledger; only an admin changes the caps, each change
// one audit entry.
import Big from 'big.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, moneyState, refused } from './helpers.ts';
import { operatorToken } from './console-helpers.ts';
import { optionProducts, placeOption, type OptionProduct } from '../../src/api-contract/options.ts';
import { consoleChangeHouseCaps, consoleHouse, type ConsoleHouse } from '../../src/api-contract/console-house.ts';
import { auditLog, configEntries, optionOrders } from '../../src/server/db/schema.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { DEFAULT_HOUSE_CAPS, HOUSE_CONFIG_ACT } from '../../src/server/domain/house-limits.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';

const ORDER_LIMIT = (cap: string) => refused(`The maximum purchase amount is: ${cap} USDT!`);
const MINUTE_LIMIT = (cap: string) => refused(`You can buy at most ${cap} USDT per minute, please try again shortly!`);
const EXPOSURE_LIMIT = refused('This direction is at its limit for now, please try a smaller amount!');
const ROLE_REFUSED = refused('Your role does not allow this!');
const ADMIN_IP = '203.0.113.7';

let h: Harness;
let admin: string;
let adminName = 'adam';
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorToken(h, adminName, 'admin');
});
afterAll(() => h.close());

const as = () => ({ token: admin, ip: ADMIN_IP });
async function setCaps(caps: Record<string, string>) {
  const answer = await h.call(consoleChangeHouseCaps, caps, as());
  expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1 });
  return answer.data;
}
const resetCaps = () => setCaps(DEFAULT_HOUSE_CAPS);
// Each test sets the caps it needs; the next starts from the defaults, whatever happened.
afterEach(async () => {
  await resetCaps();
});

async function product(code: string, minutes: number): Promise<OptionProduct> {
  const found = (await h.call(optionProducts, { code })).data.lists.find((p) => p.minutes === minutes);
  if (!found) throw new Error(`no ${minutes}-minute product for ${code}`);
  return found;
}

/** Records a fresh price of every coin at the clock's second: an order needs one to be accepted. */
const freshPrices = () => h.tick();
const place = async (
  token: string,
  code: string,
  direction: 'up' | 'down',
  amount: string,
  minutes = 1,
  lang?: string,
) =>
  h.call(
    placeOption,
    { code, direction, amount, product_id: String((await product(code, minutes)).id) },
    { token, lang },
  );

const lastAuditId = async () =>
  (await h.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).at(-1)?.id ?? 0;
const auditSince = (id: number) =>
  h.database.db.select().from(auditLog).where(gt(auditLog.id, id)).orderBy(asc(auditLog.id));
const storedCaps = () =>
  h.database.db
    .select()
    .from(configEntries)
    .where(eq(configEntries.act, HOUSE_CONFIG_ACT))
    .orderBy(asc(configEntries.key));

/** What a win of the open options of a coin and direction would pay, read straight from the orders. */
async function openPayout(coin: string, direction: string): Promise<string> {
  const [row] = rowsOf<{ payout: string }>(
    await h.database.db.execute(
      sql`select coalesce(sum(trunc(amount * (1 + yield_rate), 8)), 0)::text as payout from option_orders where coin = ${coin} and direction = ${direction} and status in ('opening', 'holding')`,
    ),
  );
  return new Big(row!.payout).toFixed(8);
}

/** The side's running row the triggers keep (house_exposure): it must equal openPayout after any write. */
async function keptPayout(coin: string, direction: string): Promise<string> {
  const [row] = rowsOf<{ open_payout: string }>(
    await h.database.db.execute(
      sql`select open_payout::text as open_payout from house_exposure where coin = ${coin} and direction = ${direction}`,
    ),
  );
  return new Big(row?.open_payout ?? 0).toFixed(8);
}

describe('an order beyond a cap is refused with the customer’s text and moves no money', () => {
  it('the stake per order: above the cap is refused in the customer’s language, the cap itself is accepted', async () => {
    await setCaps({ per_order: '100' });
    const user = await customer(h, '1000');
    await freshPrices();
    const before = await moneyState(h, user.id);
    expect(await place(user.token, 'BTC', 'up', '100.00000001')).toEqual(ORDER_LIMIT('100'));
    expect(await place(user.token, 'BTC', 'down', '250')).toEqual(ORDER_LIMIT('100'));
    expect(await place(user.token, 'BTC', 'up', '250', 1, 'zh')).toEqual(refused('最高购买金额为：100 USDT！'));
    expect(await place(user.token, 'BTC', 'up', '250', 1, 'th')).toEqual(refused('จำนวนเงินซื้อสูงสุดคือ 100 USDT'));
    expect(await moneyState(h, user.id)).toEqual(before);

    expect(await place(user.token, 'BTC', 'up', '100')).toMatchObject({ ret: 1, data: { amount: '100.00000000' } });
    await expectLedgerBalanced(h);
  });

  it('the stakes per customer per minute: counted over the 60 seconds before, this order included', async () => {
    await setCaps({ per_minute: '50' });
    const user = await customer(h, '1000');
    const other = await customer(h, '1000');
    await freshPrices();
    expect((await place(user.token, 'ETH', 'up', '20')).ret).toBe(1);
    expect((await place(user.token, 'ETH', 'down', '20', 5)).ret).toBe(1);
    const before = await moneyState(h, user.id);
    expect(await place(user.token, 'ETH', 'up', '20')).toEqual(MINUTE_LIMIT('50'));
    expect(await place(user.token, 'BTC', 'down', '10.00000001')).toEqual(MINUTE_LIMIT('50'));
    expect(await place(user.token, 'ETH', 'up', '20', 1, 'zh')).toEqual(
      refused('每分钟最多可购买 50 USDT，请稍后再试！'),
    );
    expect(await moneyState(h, user.id)).toEqual(before);
    // Another customer's minute is their own.
    expect((await place(other.token, 'ETH', 'up', '20')).ret).toBe(1);
    // Up to the cap exactly.
    expect((await place(user.token, 'ETH', 'up', '10')).ret).toBe(1);

    // 59 s later the first orders still count; 60 s after them they no longer do.
    h.clock.advance(59_000);
    await freshPrices();
    expect(await place(user.token, 'ETH', 'up', '1')).toEqual(MINUTE_LIMIT('50'));
    h.clock.advance(1_000);
    await freshPrices();
    expect((await place(user.token, 'ETH', 'up', '50')).ret).toBe(1);
    await expectLedgerBalanced(h);
  });

  it('the potential payout of a coin and direction: open orders waiting for their start tick count, settled ones and the other direction do not', async () => {
    await setCaps({ exposure: '100' });
    const user = await customer(h, '1000');
    await freshPrices();
    const { id: productId } = await product('DOT', 1);
    const now = h.clock.now();
    // Orders another way could have left: one accepted and waiting for its start tick, one running,
    // one settled, one the other way; each 10 at 0.8 pays 18 on a win.
    const row = { userId: user.id, coin: 'DOT', productId, amount: '10', minutes: 1, yieldRate: '0.8', startAt: now };
    const running = { startPrice: '5', startPriceAt: now, endAt: new Date(now.getTime() + 60_000) };
    const inserted = await h.database.db
      .insert(optionOrders)
      .values([
        { ...row, direction: 'up', status: 'opening' },
        { ...row, ...running, direction: 'up', status: 'holding' },
        {
          ...row,
          ...running,
          direction: 'up',
          status: 'settled',
          outcome: 'loss',
          payout: '0',
          profit: '-10',
          settledAt: now,
        },
        { ...row, ...running, direction: 'down', status: 'holding' },
      ])
      .returning({ id: optionOrders.id });
    expect(await openPayout('DOT', 'up')).toBe('36.00000000');
    expect(await keptPayout('DOT', 'up')).toBe('36.00000000');

    // 36 + 18 + 18 + 18 = 90: room for 10 more, not for another 18.
    for (let i = 0; i < 3; i++) expect((await place(user.token, 'DOT', 'up', '10')).ret).toBe(1);
    const before = await moneyState(h, user.id);
    expect(await place(user.token, 'DOT', 'up', '10')).toEqual(EXPOSURE_LIMIT);
    expect(await place(user.token, 'DOT', 'up', '10', 1, 'zh')).toEqual(
      refused('该方向暂时已达上限，请尝试更小的金额！'),
    );
    expect(await moneyState(h, user.id)).toEqual(before);
    // 5 at 0.8 pays 9: 99, under the cap; then nothing more fits. The other direction has its own room.
    expect((await place(user.token, 'DOT', 'up', '5')).ret).toBe(1);
    expect(await place(user.token, 'DOT', 'up', '1')).toEqual(EXPOSURE_LIMIT);
    expect(await openPayout('DOT', 'up')).toBe('99.00000000');
    expect(await keptPayout('DOT', 'up')).toBe('99.00000000');
    expect((await place(user.token, 'DOT', 'down', '10')).ret).toBe(1);
    expect(await keptPayout('DOT', 'down')).toBe('36.00000000');

    // The page shows it against the cap.
    const house = (await h.call(consoleHouse, {}, as())).data;
    expect(house.exposure.find((line) => line.coin === 'DOT' && line.direction === 'up')).toEqual({
      coin: 'DOT',
      direction: 'up',
      open_orders: 6,
      open_payout: '99.00000000',
      cap: '100',
      used_percent: '99.00',
    });
    await h.database.db.delete(optionOrders).where(
      inArray(
        optionOrders.id,
        inserted.map(({ id }) => id),
      ),
    );
    expect(await keptPayout('DOT', 'up')).toBe(await openPayout('DOT', 'up'));
    expect(await keptPayout('DOT', 'up')).toBe('63.00000000');
    await expectLedgerBalanced(h);
  });

  it('the running exposure follows every order out of the open states: opened, voided, settled', async () => {
    const user = await customer(h, '1000');
    await freshPrices();
    const start = h.clock.now().getTime();
    const sides = [
      ['ADA', 'up'],
      ['ADA', 'down'],
    ] as const;
    const agree = async (expected: [string, string]) => {
      for (const [index, [coin, direction]] of sides.entries()) {
        expect(await openPayout(coin, direction), `${coin} ${direction}`).toBe(expected[index]);
        expect(await keptPayout(coin, direction), `${coin} ${direction}`).toBe(expected[index]);
      }
    };
    const base = await Promise.all(sides.map(([coin, direction]) => openPayout(coin, direction)));
    const plus = (index: number, amount: string) => new Big(base[index]!).plus(amount).toFixed(8);
    const yieldOf = async (minutes: number) => new Big((await product('ADA', minutes)).yield_rate).plus(1);
    const [one, five] = [await yieldOf(1), await yieldOf(5)];
    expect((await place(user.token, 'ADA', 'up', '10')).ret).toBe(1);
    expect((await place(user.token, 'ADA', 'up', '20', 5)).ret).toBe(1);
    expect((await place(user.token, 'ADA', 'down', '10')).ret).toBe(1);
    const win = (amount: string, rate: Big) => new Big(amount).times(rate).round(8, Big.roundDown);
    const upOpen = win('10', one).plus(win('20', five)).toFixed(8);
    await agree([plus(0, upOpen), plus(1, win('10', one).toFixed(8))]);

    // Opened at the next tick: still open, nothing moves.
    await h.market.record([{ coin: 'ADA', at: new Date(start + 1_000), price: '0.5', volume: '1' }]);
    h.clock.set(new Date(start + 1_000));
    await openAllPending(h.database.db, h.clock.now());
    await agree([plus(0, upOpen), plus(1, win('10', one).toFixed(8))]);

    // One accepted with no tick after it within 10 s is void: its payout leaves the exposure.
    expect((await place(user.token, 'ADA', 'down', '30')).ret).toBe(1);
    await agree([plus(0, upOpen), plus(1, win('10', one).plus(win('30', one)).toFixed(8))]);
    h.clock.set(new Date(start + 12_000));
    await openAllPending(h.database.db, h.clock.now());
    await agree([plus(0, upOpen), plus(1, win('10', one).toFixed(8))]);

    // The 1-minute orders end and settle (a win up, a loss down): only the 5-minute order stays open.
    await h.market.record([{ coin: 'ADA', at: new Date(start + 61_000), price: '0.6', volume: '1' }]);
    h.clock.set(new Date(start + 62_000));
    await settleAllDue(h.database.db, h.clock.now());
    await agree([plus(0, win('20', five).toFixed(8)), plus(1, '0')]);
    await expectLedgerBalanced(h);
  });
});

describe('orders placed at once cannot together pass a cap', () => {
  // A side's first order finds no row to lock (its insert makes it); a later one locks the row it finds: both ways, the
  // orders of one side wait for each other.
  it.each([
    { side: 'up' as const, before: 0, open: 'no order', fit: 5 },
    { side: 'down' as const, before: 1, open: 'one order', fit: 4 },
  ])(
    'the exposure cap: of eight orders from eight customers at once on a side with $open open before, $fit fit and the rest are refused, moving nothing',
    async ({ side, before, fit }) => {
      await setCaps({ exposure: '100' });
      const { id } = await product('LTC', 1);
      const order = { code: 'LTC', direction: side, amount: '10', product_id: String(id) };
      const earlier = [];
      for (let i = 0; i < before; i++) earlier.push(await customer(h, '100'));
      await freshPrices();
      for (const buyer of earlier)
        expect(await h.call(placeOption, order, { token: buyer.token })).toMatchObject({ ret: 1 });
      const buyers = [];
      for (let i = 0; i < 8; i++) buyers.push(await customer(h, '100'));
      await freshPrices();
      const answers = await Promise.all(buyers.map((buyer) => h.call(placeOption, order, { token: buyer.token })));
      expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(fit);
      expect(answers.filter((answer) => answer.ret !== 1)).toEqual(
        Array.from({ length: 8 - fit }, () => EXPOSURE_LIMIT),
      );
      expect(await openPayout('LTC', side)).toBe('90.00000000');
      expect(await keptPayout('LTC', side)).toBe('90.00000000');
      for (const [index, buyer] of buyers.entries()) {
        const state = await moneyState(h, buyer.id);
        expect(state.orders, `buyer ${index}`).toHaveLength(answers[index]!.ret === 1 ? 1 : 0);
        expect(state.balances[0]!.available, `buyer ${index}`).toBe(
          answers[index]!.ret === 1 ? '90.00000000' : '100.00000000',
        );
      }
      await expectLedgerBalanced(h);
    },
  );

  it('the per-minute cap: of five orders of one customer at once, two fit', async () => {
    await setCaps({ per_minute: '50' });
    const user = await customer(h, '1000');
    await freshPrices();
    const { id } = await product('XRP', 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.call(
          placeOption,
          { code: 'XRP', direction: 'down', amount: '20', product_id: String(id) },
          { token: user.token },
        ),
      ),
    );
    expect(answers.filter((answer) => answer.ret === 1)).toHaveLength(2);
    expect(answers.filter((answer) => answer.ret !== 1)).toEqual(Array.from({ length: 3 }, () => MINUTE_LIMIT('50')));
    expect((await moneyState(h, user.id)).balances[0]!.available).toBe('960.00000000');
    await expectLedgerBalanced(h);
  });
});

describe('the console’s House page', () => {
  /** The ledger's own sums of option entries since `from`: what the page must show. */
  async function ledgerSums(from: string) {
    const [row] = rowsOf<{ stakes: string; payouts: string }>(
      await h.database.db.execute(sql`
        select coalesce(-sum(amount) filter (where kind = 'option_stake'), 0)::text as stakes, coalesce(sum(amount) filter (where kind = 'option_payout'), 0)::text as payouts
        from ledger_entries where kind in ('option_stake', 'option_payout') and created_at >= ${from}::timestamptz`),
    );
    return { stakes: new Big(row!.stakes).toFixed(8), payouts: new Big(row!.payouts).toFixed(8) };
  }

  function expectAddsUp(house: ConsoleHouse) {
    for (const period of [house.today, house.week]) {
      const sum = (pick: (row: (typeof period.rows)[number]) => string) =>
        period.rows.reduce((total, row) => total.plus(pick(row)), new Big(0)).toFixed(8);
      for (const row of period.rows)
        expect(new Big(row.stakes).minus(row.payouts).toFixed(8), `${row.coin} ${row.minutes}`).toBe(row.result);
      expect(period.totals).toEqual({
        stakes: sum((row) => row.stakes),
        payouts: sum((row) => row.payouts),
        result: sum((row) => row.result),
        open_payout: sum((row) => row.open_payout),
      });
      expect(new Big(period.totals.stakes).minus(period.totals.payouts).toFixed(8)).toBe(period.totals.result);
    }
    // Every open option is in one product's row and in one coin and direction's line.
    const exposed = house.exposure.reduce((total, line) => total.plus(line.open_payout), new Big(0)).toFixed(8);
    expect(house.today.totals.open_payout).toBe(exposed);
    expect(house.week.totals.open_payout).toBe(exposed);
  }

  it('shows stakes taken, payouts paid and their difference per coin and product, as the ledger has them, beside the open exposure', async () => {
    const [winner, loser] = [await customer(h, '1000'), await customer(h, '1000')];
    await freshPrices();
    const start = h.clock.now().getTime();
    expect((await place(winner.token, 'SOL', 'up', '10')).ret).toBe(1);
    expect((await place(loser.token, 'SOL', 'down', '20')).ret).toBe(1);
    expect((await place(winner.token, 'SOL', 'up', '30', 5)).ret).toBe(1);
    // They open at the next recorded price; a minute later SOL is higher: up wins 10 × 1.8, down loses.
    await h.market.record([{ coin: 'SOL', at: new Date(start + 1_000), price: '150', volume: '1' }]);
    h.clock.set(new Date(start + 1_000));
    await openAllPending(h.database.db, h.clock.now());
    await h.market.record([{ coin: 'SOL', at: new Date(start + 61_000), price: '151', volume: '1' }]);
    h.clock.set(new Date(start + 62_000));
    await settleAllDue(h.database.db, h.clock.now());
    const settled = await h.database.db
      .select()
      .from(optionOrders)
      .where(and(eq(optionOrders.coin, 'SOL'), eq(optionOrders.minutes, 1)))
      .orderBy(asc(optionOrders.id));
    expect(settled.map((order) => [order.status, order.outcome])).toEqual([
      ['settled', 'win'],
      ['settled', 'loss'],
    ]);

    const answer = await h.call(consoleHouse, {}, as());
    expect(answer.ret, answer.msg).toBe(1);
    const house = answer.data;
    expect(house.caps).toEqual(DEFAULT_HOUSE_CAPS);
    expect(house.time_zone).toBe('Asia/Bangkok');
    // The harness's day: 2026-11-22 in Bangkok started at 17:00 UTC the day before.
    expect(house.today).toMatchObject({ from_day: '2026-11-22', from: '2026-11-21T17:00:00.000Z' });
    expect(house.week).toMatchObject({ from_day: '2026-11-16', from: '2026-11-15T17:00:00.000Z' });
    expect(house.today.rows.filter((row) => row.coin === 'SOL')).toEqual([
      {
        coin: 'SOL',
        minutes: 1,
        stakes: '30.00000000',
        payouts: '18.00000000',
        result: '12.00000000',
        open_payout: '0.00000000',
      },
      {
        coin: 'SOL',
        minutes: 5,
        stakes: '30.00000000',
        payouts: '0.00000000',
        result: '30.00000000',
        open_payout: '55.50000000',
      },
    ]);
    expect(house.exposure.find((line) => line.coin === 'SOL' && line.direction === 'up')).toEqual({
      coin: 'SOL',
      direction: 'up',
      open_orders: 1,
      open_payout: '55.50000000',
      cap: '1000000',
      used_percent: '0.01',
    });
    // The totals are the ledger's own sums: the customers' option entries are the house's result turned over.
    expect(house.today.totals).toMatchObject(await ledgerSums(house.today.from));
    expect(house.week.totals).toMatchObject(await ledgerSums(house.week.from));
    expectAddsUp(house);

    // Tomorrow (hours later: the admin signs in again): today starts empty, the week keeps what was done.
    h.clock.set(new Date('2026-11-22T17:00:00Z'));
    adminName = 'adam.next';
    admin = await operatorToken(h, adminName, 'admin');
    const tomorrow = (await h.call(consoleHouse, {}, as())).data;
    expect(tomorrow.today).toMatchObject({
      from_day: '2026-11-23',
      totals: { stakes: '0.00000000', payouts: '0.00000000', result: '0.00000000' },
    });
    expect(tomorrow.today.rows.every((row) => row.stakes === '0.00000000' && row.payouts === '0.00000000')).toBe(true);
    expect(tomorrow.week.totals).toEqual(house.week.totals);
    expectAddsUp(tomorrow);
  });
});

describe('the caps', () => {
  it('are changed by an admin: orders to come meet them, and one audit entry says who, from where, before and after', async () => {
    const since = await lastAuditId();
    expect(await setCaps({ per_order: '2500.5', per_minute: '6000' })).toEqual({
      exposure: '1000000',
      per_order: '2500.5',
      per_minute: '6000',
    });
    expect((await h.call(consoleHouse, {}, as())).data.caps).toEqual({
      exposure: '1000000',
      per_order: '2500.5',
      per_minute: '6000',
    });
    const entries = await auditSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operator: adminName,
      address: ADMIN_IP,
      action: 'house.caps',
      target: 'house:caps',
      before: DEFAULT_HOUSE_CAPS,
      after: { exposure: '1000000', per_order: '2500.5', per_minute: '6000' },
    });
    const user = await customer(h, '5000');
    await freshPrices();
    expect(await place(user.token, 'ADA', 'up', '2500.50000001')).toEqual(ORDER_LIMIT('2,500.5'));
  });

  it('refuse what is no amount above 0, and an empty change, changing nothing and leaving no entry', async () => {
    const [since, stored] = [await lastAuditId(), await storedCaps()];
    const help = 'use exposure=1000000, per_order=50000 or per_minute=100000 (USDT, above 0).';
    for (const [input, msg] of [
      [{ per_order: '0' }, `Cannot apply "per_order=0": ${help}`],
      [{ exposure: '-5' }, `Cannot apply "exposure=-5": ${help}`],
      [{ per_minute: 'lots' }, `Cannot apply "per_minute=lots": ${help}`],
      [{ per_order: '' }, `Cannot apply "per_order=": ${help}`],
      [{ per_order: '10', exposure: '1e6' }, `Cannot apply "exposure=1e6": ${help}`],
      [{}, 'Nothing to change.'],
      [{ yield: '0.9' }, 'The request is not valid!'],
    ] as const)
      expect(await h.call(consoleChangeHouseCaps, input, as()), JSON.stringify(input)).toEqual(refused(msg));
    expect([await auditSince(since), await storedCaps()]).toEqual([[], stored]);
  });

  it('are shown and changed by an admin only: a reviewer or a content operator is refused and changes nothing', async () => {
    const [reviewer, writer] = [await operatorToken(h, 'rita', 'reviewer'), await operatorToken(h, 'cora', 'content')];
    const [since, stored] = [await lastAuditId(), await storedCaps()];
    for (const token of [reviewer, writer]) {
      expect(await h.call(consoleChangeHouseCaps, { exposure: '1' }, { token })).toEqual(ROLE_REFUSED);
      expect(await h.call(consoleHouse, {}, { token })).toEqual(ROLE_REFUSED);
    }
    const user = await customer(h, '100');
    await freshPrices();
    // A customer's token is no console session.
    expect((await h.call(consoleChangeHouseCaps, { exposure: '1' }, { token: user.token })).ret).toBe(-1);
    expect([await auditSince(since), await storedCaps()]).toEqual([[], stored]);
    expect((await place(user.token, 'DOGE', 'up', '10')).ret).toBe(1);
  });
});
