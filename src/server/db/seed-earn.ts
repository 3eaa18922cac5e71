// Earn products on first start: the lock-up products, with their names in the app's six languages, and the liquidity
// ladder of the first day (the operator publishes the following days': `npm run ops -- ladder …`).
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { liquidityRates, lockupProducts } from './schema.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { namesIn } from './seed-translations.ts';

/** Marginal tiers: the first 1,000 USDT at 6 % a year, up to 10,000 at 4 %, the rest at 2.5 %. */
export const FIRST_LADDER = [
  { up_to: '1000', rate: '0.06' },
  { up_to: '10000', rate: '0.04' },
  { up_to: null, rate: '0.025' },
];

export const LOCKUP_PRODUCTS = [
  { name: 'Lock-up 7 days', days: 7, dailyRate: '0.0008', minAmount: '100', maxAmount: '50000', quota: null, sort: 0 },
  {
    name: 'Lock-up 15 days',
    days: 15,
    dailyRate: '0.0010',
    minAmount: '100',
    maxAmount: '100000',
    quota: null,
    sort: 1,
  },
  {
    name: 'Lock-up 30 days',
    days: 30,
    dailyRate: '0.0012',
    minAmount: '500',
    maxAmount: '200000',
    quota: '5000000',
    sort: 2,
  },
  {
    name: 'Lock-up 90 days',
    days: 90,
    dailyRate: '0.0015',
    minAmount: '1000',
    maxAmount: '500000',
    quota: '10000000',
    sort: 3,
  },
];

/** The products' names in the other five languages, by their English name; an operator writes others on the Content
 * page. */
export const LOCKUP_NAMES = Object.fromEntries(
  LOCKUP_PRODUCTS.map(({ name, days }) => [
    name,
    {
      zh: `锁仓${days}天`,
      th: `ขุดแบบล็อก ${days} วัน`,
      jp: `ロックアップ${days}日間`,
      // Arabic counts 3 to 10 days with the plural أيام, 11 and more with the singular يومًا.
      ar: `قفل ${days} ${days <= 10 ? 'أيام' : 'يومًا'}`,
      hi: `लॉक-अप ${days} दिन`,
    },
  ]),
);

/**
 * On every start: the lock-up products when there are none, their names' missing versions (`namesIn`: only for names
 * still as shipped), and the first day's liquidity ladder when none is published (its day in `timeZone`, the earn
 * days' zone).
 */
export async function seedEarn(db: Db, now: Date, timeZone: string): Promise<void> {
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(lockupProducts)) as [
    { count: number },
  ];
  if (Number(count) === 0) await db.insert(lockupProducts).values(LOCKUP_PRODUCTS);
  await namesIn(db, 'lockup', LOCKUP_NAMES);
  const [{ rates }] = (await db.select({ rates: sql<number>`count(*)::int` }).from(liquidityRates)) as [
    { rates: number },
  ];
  if (Number(rates) === 0)
    await db.insert(liquidityRates).values({ day: interestDay(now, timeZone), ladder: FIRST_LADDER, publishedAt: now });
}
