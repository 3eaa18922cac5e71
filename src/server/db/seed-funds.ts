// Money settings on first start: the recharge channels, the withdrawal rules, the VIP levels and
// the points rule (the demo account's points to redeem are granted by domain/demo.ts). Only what is missing is added.
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { configEntries, rechargeChannels, vipLevels, withdrawRules } from './schema.ts';

/** Demo deposit addresses (well-formed for their chains; not real wallets) and a demo bank account. */
export const RECHARGE_CHANNELS = [
  {
    kind: 'crypto',
    name: 'USDT (TRC20)',
    currency: 'USDT',
    chain: 'TRC20',
    address: 'TQrZ8kB6mDn9yV3xWcYhJ4sPfE2uA7LgKt',
    minAmount: '10',
    sort: 1,
  },
  {
    kind: 'crypto',
    name: 'USDT (ERC20)',
    currency: 'USDT',
    chain: 'ERC20',
    address: '0x7d3B4e1A9c0F2b6E8a5D9c1F3e7A2b4C6d8E0f1A',
    minAmount: '20',
    sort: 2,
  },
  {
    kind: 'crypto',
    name: 'USDT (BEP20)',
    currency: 'USDT',
    chain: 'BEP20',
    address: '0x2F9a6C1e4B7d0A3c5E8f1B2d4C6a8E0b3D5f7A9c',
    minAmount: '10',
    sort: 3,
  },
  {
    kind: 'bank',
    name: 'Bank transfer (THB)',
    currency: 'THB',
    chain: null,
    address: '1234567890',
    bankName: 'Kasikornbank',
    accountName: 'Coinvest Co., Ltd.',
    minAmount: '300',
    sort: 4,
  },
];

/** Fee rate and limits of one withdrawal, per asset. */
export const WITHDRAW_RULES = [
  { asset: 'USDT', feeRate: '0.01', minAmount: '10', maxAmount: '50000' },
  { asset: 'BTC', feeRate: '0.005', minAmount: '0.0005', maxAmount: '2' },
  { asset: 'ETH', feeRate: '0.005', minAmount: '0.01', maxAmount: '50' },
];

/** Each level's ceiling in USDT of cumulative recharge; a level starts at the previous one's (the first at 20). */
export const VIP_LEVELS = [
  { level: 1, name: 'VIP1', value: '500' },
  { level: 2, name: 'VIP2', value: '2000' },
  { level: 3, name: 'VIP3', value: '10000' },
  { level: 4, name: 'VIP4', value: '50000' },
  { level: 5, name: 'VIP5', value: '200000' },
  { level: 6, name: 'VIP6', value: '1000000' },
];

/** Points redeem at 0.01 USDT each, at least 100 at a time. */
export const POINTS_RULE = { usdt_per_point: '0.01', min_points: '100' };
export const DEMO_POINTS = '2500';

export async function seedFunds(db: Db): Promise<void> {
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(rechargeChannels)) as [
    { count: number },
  ];
  if (Number(count) === 0) await db.insert(rechargeChannels).values(RECHARGE_CHANNELS);
  await db.insert(withdrawRules).values(WITHDRAW_RULES).onConflictDoNothing();
  await db.insert(vipLevels).values(VIP_LEVELS).onConflictDoNothing();
  await db
    .insert(configEntries)
    .values(Object.entries(POINTS_RULE).map(([key, value]) => ({ act: 'points', key, value })))
    .onConflictDoNothing();
}
