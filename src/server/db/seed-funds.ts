// Money settings on first start: the recharge channels, the withdrawal rules, the VIP levels and
// the points rule (the demo account's points to redeem are granted by domain/demo.ts). Only what is missing is added.
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { configEntries, rechargeChannels, vipLevels, withdrawRules } from './schema.ts';

/**
 * Demo deposit addresses and a demo bank account. Each address passes its chain's own check (TRON base58check with
 * version byte 0x41; EIP-55 mixed-case checksum for ERC20 and BEP20), so a wallet a customer pastes it into takes it;
 * their 20 bytes are the first 20 of SHA-256("coinvest demo deposit <chain>"), so they belong to no known wallet.
 * tests/unit/chain-address.test.ts reads every one by its chain's standard.
 */
export const RECHARGE_CHANNELS = [
  {
    kind: 'crypto',
    name: 'USDT (TRC20)',
    currency: 'USDT',
    chain: 'TRC20',
    address: 'TDQ4YkrW7fhZzLG6czaiffaUsdAvsaKtK2',
    minAmount: '10',
    sort: 1,
  },
  {
    kind: 'crypto',
    name: 'USDT (ERC20)',
    currency: 'USDT',
    chain: 'ERC20',
    address: '0xAf8051ba9ef50Df892541D059b26eaB1AcE52610',
    minAmount: '20',
    sort: 2,
  },
  {
    kind: 'crypto',
    name: 'USDT (BEP20)',
    currency: 'USDT',
    chain: 'BEP20',
    address: '0x14A85a23ebde84805576a35fc5555873Df336831',
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
