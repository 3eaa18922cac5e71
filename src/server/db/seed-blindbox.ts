// Demo blind box and activities on first start. The prize table's odds sum to 100 %; its expected
// value is below the cost, stated plainly on the blind box page (a draw returns on average
// 30 points + 0.29 USDT for 100 points or 1 USDT).
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { activities, boxPrizes, configEntries } from './schema.ts';
import { sanitizeRichText } from '../../api-contract/rich-text.ts';

export const BLIND_BOX_COSTS = { cost_points: '100', cost_usdt: '1' };

/** Weights in parts per million (sum 1,000,000). */
export const DEMO_PRIZES = [
  { name: 'Grand prize', asset: 'USDT', amount: '100', weight: 1_000, stock: 5, sort: 1 },
  { name: 'Big prize', asset: 'USDT', amount: '10', weight: 9_000, stock: 50, sort: 2 },
  { name: 'Lucky USDT', asset: 'USDT', amount: '1', weight: 100_000, stock: null, sort: 3 },
  { name: '200 points', asset: 'POINT', amount: '200', weight: 50_000, stock: null, sort: 4 },
  { name: '50 points', asset: 'POINT', amount: '50', weight: 400_000, stock: null, sort: 5 },
  { name: 'Thanks for playing', asset: 'POINT', amount: '0', weight: 440_000, stock: null, sort: 6 },
];

export function demoActivities(now: Date) {
  const day = 86_400_000;
  return [
    {
      title: 'Blind box week: draw and win up to 100 USDT',
      cover: '/activities/blind-box-week.svg',
      body: sanitizeRichText(
        '<h3>Provably fair blind box</h3><p>Every draw is decided by your seed pair, committed before you draw. Rotate your seed to reveal it and <strong>verify every draw</strong> yourself.</p><ul><li>100 points or 1 USDT per draw</li><li>Published odds, summing to 100 %</li></ul>',
      ),
      startsAt: new Date(now.getTime() - 2 * day),
      endsAt: new Date(now.getTime() + 30 * day),
      sort: 1,
    },
    {
      title: 'New year trading festival',
      cover: '/activities/trading-festival.svg',
      body: sanitizeRichText(
        '<h3>Coming soon</h3><p>Trade options during the festival and collect points for every order.</p>',
      ),
      startsAt: new Date(now.getTime() + 20 * day),
      endsAt: new Date(now.getTime() + 50 * day),
      sort: 2,
    },
  ];
}

/** Seeds only what is missing: the costs, the first prize table, two activities. */
export async function seedBlindBox(db: Db, now = new Date()): Promise<void> {
  await db
    .insert(configEntries)
    .values(Object.entries(BLIND_BOX_COSTS).map(([key, value]) => ({ act: 'blindbox', key, value })))
    .onConflictDoNothing();
  const [{ prizes }] = (await db.select({ prizes: sql<number>`count(*)::int` }).from(boxPrizes)) as [
    { prizes: number },
  ];
  if (Number(prizes) === 0) await db.insert(boxPrizes).values(DEMO_PRIZES);
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(activities)) as [{ count: number }];
  if (Number(count) === 0) await db.insert(activities).values(demoActivities(now));
}
