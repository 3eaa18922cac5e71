// Money settings on first start: the recharge channels, the withdrawal rules, the VIP levels and
// the points rule (the demo account's points to redeem are granted by domain/demo.ts). Only what is missing is added.
import { sql } from 'drizzle-orm';
import type { Db } from './connection.ts';
import { configEntries, rechargeChannels, vipLevels, withdrawRules } from './schema.ts';

/**
 * Demo deposit channels and a demo bank account. Each crypto channel keeps a demo extended public key (BIP-32, account
 * level: m/44'/195'/0' for TRON, m/44'/60'/0' for the EVM chains, under the master seed SHA-256("coinvest demo deposit
 * <chain>")), so each customer is shown their own address (domain/deposit-addresses.ts). The seeds are public: these
 * keys are for the demo only, never for real funds; an operator puts their own wallet's account key in `xpub`. The
 * shared `address` (shown only where a channel has no key) passes its chain's own check (TRON base58check with version
 * byte 0x41; EIP-55 for ERC20 and BEP20); its 20 bytes are the first 20 of SHA-256("coinvest demo deposit <chain>").
 * tests/unit/chain-address.test.ts reads every one by its chain's standard.
 */
export const RECHARGE_CHANNELS = [
  {
    kind: 'crypto',
    name: 'USDT (TRC20)',
    currency: 'USDT',
    chain: 'TRC20',
    address: 'TDQ4YkrW7fhZzLG6czaiffaUsdAvsaKtK2',
    xpub: 'xpub6CNRpP1cyvB4kGszPWUviBxL8hCpnfQu79yA7HKjNrKJKZWdva4vs7AvDnqZ2qbFyELuRJaHfhi4LDMi9h6851PQvhox5QGABcT1gigFdha',
    minAmount: '10',
    sort: 1,
  },
  {
    kind: 'crypto',
    name: 'USDT (ERC20)',
    currency: 'USDT',
    chain: 'ERC20',
    address: '0xAf8051ba9ef50Df892541D059b26eaB1AcE52610',
    xpub: 'xpub6C9jGfEdUHrnVtubXXoYqU2U8DpfDdcMTpS86DGFHNDXrQatZ7fZn16B8nEWBUVawHCJhcvcCqCd6hQs4cbd7u9BtvpeEpMync5HqjJnnwW',
    minAmount: '20',
    sort: 2,
  },
  {
    kind: 'crypto',
    name: 'USDT (BEP20)',
    currency: 'USDT',
    chain: 'BEP20',
    address: '0x14A85a23ebde84805576a35fc5555873Df336831',
    xpub: 'xpub6D71MuCbwuA2VKCad4MTcFX1o5iekDeraHZJ3tsByLzegfut4poaABooZ8Bee72h1PEqgfssbVLs2VXu7n4v2r9vMhwCKf74U4GV7puoEdk',
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
