// The data export's parts beyond the orders and the ledger: the customer's own freeze, saved bank cards and wallets,
// sign-in history, passkeys (names and dates, never a key), daily check-ins, blind box seed pairs (a server seed once
// revealed, its digest before) and draws, claimed reward tasks, the invitation permission, price alerts, push
// subscriptions (the push service's host only, never the endpoint's path or its keys), notification settings and
// practice account, each
// holding the caller's rows and none of another customer's who has the same records; the archive holds every part
// named in EXPORT_PARTS, in that order.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { EXPORT_PATH } from '../../src/api-contract/closure.ts';
import { EXPORT_PARTS } from '../../src/server/domain/data-export.ts';
import { openPracticeAccount, resetPracticeAccount } from '../../src/server/domain/practice.ts';
import {
  accountFreezes,
  bankCards,
  boxDraws,
  boxPrizes,
  boxSeeds,
  checkIns,
  invitePermissions,
  loginHistory,
  notificationSettings,
  passkeys,
  priceAlerts,
  pushSubscriptions,
  wallets,
  welfareClaims,
} from '../../src/server/db/schema.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()), 240_000);
afterAll(() => h.close());

const at = (text: string) => new Date(`${text}Z`);

/**
 * One of each record for `userId`, every text of it carrying `mark` (the customer's own), at times of `day`
 * (YYYY-MM-DD).
 */
async function recordsOf(userId: number, mark: string, day: string) {
  const db = h.database.db;
  await db.insert(accountFreezes).values({
    userId,
    frozenSince: at(`${day}T01:00:00`),
    unfreezeAt: at(`${day}T02:00:00`),
    updatedAt: at(`${day}T01:30:00`),
  });
  const [card] = await db
    .insert(bankCards)
    .values({
      userId,
      realName: `${mark} holder`,
      ifsc: 'SBIN0000001',
      bankCode: 'SBIN',
      bankNumber: `${mark}-0001`,
      phone: `${mark}-phone`,
      email: `${mark}@example.com`,
      label: `${mark} rent`,
      createdAt: at(`${day}T03:00:00`),
      usableAt: at(`${day}T04:00:00`),
    })
    .returning();
  const [wallet] = await db
    .insert(wallets)
    .values({
      userId,
      alias: `${mark} wallet`,
      currency: 'USDT',
      chain: 'TRC20',
      address: `T${mark}Address`,
      createdAt: at(`${day}T05:00:00`),
      usableAt: null,
    })
    .returning();
  const [login] = await db
    .insert(loginHistory)
    .values({
      userId,
      at: at(`${day}T06:00:00`),
      succeeded: false,
      method: 'password',
      device: `${mark} phone`,
      address: '203.0.113.*',
      country: 'TH',
      noticeDay: day,
    })
    .returning();
  await db.insert(checkIns).values([
    { userId, day, streak: 1, reward: '3', createdAt: at(`${day}T07:00:00`) },
    { userId, day: day.replace(/-01$/, '-02'), streak: 2, reward: '5', createdAt: at(`${day}T07:00:00`) },
  ]);
  const [prize] = await db
    .insert(boxPrizes)
    .values({ name: `${mark} prize`, asset: 'USDT', amount: '2', weight: 1_000_000, active: false })
    .returning();
  const [seed] = await db
    .insert(boxSeeds)
    .values({
      userId,
      serverSeed: `${mark}-server-seed`,
      serverHash: `${mark}-server-hash`,
      clientSeed: `${mark}-client`,
      createdAt: at(`${day}T08:00:00`),
    })
    .returning();
  // An older pair, revealed when it was replaced by the one above: its server seed is the customer's now.
  const [revealed] = await db
    .insert(boxSeeds)
    .values({
      userId,
      serverSeed: `${mark}-revealed-seed`,
      serverHash: `${mark}-revealed-hash`,
      clientSeed: `${mark}-old-client`,
      nextNonce: 4,
      createdAt: at(`${day}T07:30:00`),
      revealedAt: at(`${day}T07:59:00`),
    })
    .returning();
  await db.insert(passkeys).values({
    id: `${mark}-credential-id`,
    userId,
    publicKey: Buffer.from(`${mark}-public-key`),
    counter: 7,
    transports: ['internal'],
    deviceType: 'multiDevice',
    backedUp: true,
    name: `${mark} laptop`,
    createdAt: at(`${day}T07:40:00`),
    lastUsedAt: at(`${day}T07:50:00`),
  });
  await db.insert(invitePermissions).values({ userId, grantedAt: at(`${day}T07:45:00`), reason: `${mark} partner` });
  const table = [{ id: prize!.id, weight: 1_000_000 }];
  const [draw] = await db
    .insert(boxDraws)
    .values({
      userId,
      seedId: seed!.id,
      nonce: 0,
      clientSeed: `${mark}-client`,
      roll: 123_456,
      prizeId: prize!.id,
      prizeName: `${mark} prize`,
      prizeAsset: 'USDT',
      prizeAmount: '2',
      costAsset: 'POINTS',
      cost: '10',
      prizeTable: table,
      createdAt: at(`${day}T09:00:00`),
    })
    .returning();
  await db.insert(welfareClaims).values({
    userId,
    taskCode: `${mark}_task`,
    asset: 'USDT',
    reward: '1.5',
    claimedAt: at(`${day}T10:00:00`),
  });
  const [alert] = await db
    .insert(priceAlerts)
    .values({
      userId,
      coin: 'BTC',
      kind: 'above',
      price: mark === 'mine' ? '65000' : '70000',
      createdAt: at(`${day}T11:00:00`),
      checkedThrough: at(`${day}T11:30:00`),
    })
    .returning();
  const [subscription] = await db
    .insert(pushSubscriptions)
    .values({
      userId,
      endpoint: `https://fcm.googleapis.com/fcm/send/${mark}-endpoint-path`,
      p256dh: `${mark}-p256dh-key`,
      auth: `${mark}-auth-key`,
      language: 'th',
      device: `${mark} browser`,
      createdAt: at(`${day}T12:00:00`),
    })
    .returning();
  await db.insert(notificationSettings).values({ userId, off: [`${mark}_kind`] });
  return {
    card: card!,
    wallet: wallet!,
    login: login!,
    prize: prize!,
    seed: seed!,
    revealed: revealed!,
    draw: draw!,
    alert,
    subscription,
  };
}

it('exports the caller’s own freeze, payees, sign-ins, passkeys, check-ins, seeds, draws, claims, permission, alerts, pushes and practice money only', async () => {
  const user = await customer(h, '5');
  const other = await customer(h, '7');
  const mine = await recordsOf(user.id, 'mine', '2025-03-01');
  await recordsOf(other.id, 'theirs', '2025-04-01');
  await h.database.db.transaction((tx) => openPracticeAccount(tx, user.id, at('2025-03-01T13:00:00')));
  await h.database.db.transaction((tx) => openPracticeAccount(tx, other.id, at('2025-04-01T13:00:00')));
  await resetPracticeAccount(h.database.db, other.id, at('2025-04-01T14:00:00'));

  const response = await h.app.inject({ url: EXPORT_PATH, headers: { lang: 'en', token: user.token } });
  expect(response.headers['content-type']).toBe('application/zip');
  const files = unzipSync(new Uint8Array(response.rawPayload));
  // Every part of EXPORT_PARTS, in its order, and no other.
  expect(Object.keys(files)).toEqual([
    'README.txt',
    ...EXPORT_PARTS.flatMap((part) => [`${part}.json`, `${part}.csv`]),
  ]);
  const json = (part: string) => JSON.parse(strFromU8(files[`${part}.json`]!)) as Record<string, unknown>[];

  expect(json('account_freeze')).toEqual([
    {
      frozen_since: '2025-03-01T01:00:00.000Z',
      unfreeze_at: '2025-03-01T02:00:00.000Z',
      updated_at: '2025-03-01T01:30:00.000Z',
    },
  ]);
  expect(json('bank_cards')).toEqual([
    {
      id: mine.card.id,
      real_name: 'mine holder',
      ifsc: 'SBIN0000001',
      bank_code: 'SBIN',
      bank_number: 'mine-0001',
      phone: 'mine-phone',
      email: 'mine@example.com',
      label: 'mine rent',
      created_at: '2025-03-01T03:00:00.000Z',
      usable_at: '2025-03-01T04:00:00.000Z',
    },
  ]);
  expect(json('wallets')).toEqual([
    {
      id: mine.wallet.id,
      alias: 'mine wallet',
      currency: 'USDT',
      chain: 'TRC20',
      address: 'TmineAddress',
      created_at: '2025-03-01T05:00:00.000Z',
      usable_at: null,
    },
  ]);
  // The registration's own sign-in is there too, before the attempt written here.
  expect(json('login_history').at(-1)).toEqual({
    id: mine.login.id,
    at: '2025-03-01T06:00:00.000Z',
    succeeded: false,
    method: 'password',
    device: 'mine phone',
    address: '203.0.113.*',
    country: 'TH',
    notice_day: '2025-03-01',
  });
  expect(json('check_ins')).toEqual([
    { day: '2025-03-01', streak: 1, reward: '3.00000000', created_at: '2025-03-01T07:00:00.000Z' },
    { day: '2025-03-02', streak: 2, reward: '5.00000000', created_at: '2025-03-01T07:00:00.000Z' },
  ]);
  expect(json('box_draws')).toEqual([
    {
      id: mine.draw.id,
      seed_id: mine.seed.id,
      nonce: 0,
      client_seed: 'mine-client',
      roll: 123_456,
      prize_id: mine.prize.id,
      prize_name: 'mine prize',
      prize_asset: 'USDT',
      prize_amount: '2.00000000',
      cost_asset: 'POINTS',
      cost: '10.00000000',
      prize_table: [{ id: mine.prize.id, weight: 1_000_000 }],
      created_at: '2025-03-01T09:00:00.000Z',
    },
  ]);
  // Seed pairs in the order made (by number): the revealed one's server seed, the one in use with its digest only.
  expect(json('box_seeds')).toEqual([
    {
      id: mine.seed.id,
      server_hash: 'mine-server-hash',
      server_seed: null,
      client_seed: 'mine-client',
      next_nonce: 0,
      created_at: '2025-03-01T08:00:00.000Z',
      revealed_at: null,
    },
    {
      id: mine.revealed.id,
      server_hash: 'mine-revealed-hash',
      server_seed: 'mine-revealed-seed',
      client_seed: 'mine-old-client',
      next_nonce: 4,
      created_at: '2025-03-01T07:30:00.000Z',
      revealed_at: '2025-03-01T07:59:00.000Z',
    },
  ]);
  // A passkey's name and dates, never its key, credential id or counter.
  expect(json('passkeys')).toEqual([
    {
      name: 'mine laptop',
      device_type: 'multiDevice',
      backed_up: true,
      created_at: '2025-03-01T07:40:00.000Z',
      last_used_at: '2025-03-01T07:50:00.000Z',
    },
  ]);
  expect(json('invite_permission')).toEqual([{ granted_at: '2025-03-01T07:45:00.000Z', reason: 'mine partner' }]);
  expect(json('welfare_claims')).toEqual([
    { task_code: 'mine_task', asset: 'USDT', reward: '1.50000000', claimed_at: '2025-03-01T10:00:00.000Z' },
  ]);
  // The alerts job's own mark (checked_through) is left out.
  expect(json('price_alerts')).toEqual([
    {
      id: mine.alert!.id,
      coin: 'BTC',
      kind: 'above',
      price: '65000.000000000000',
      percent: null,
      created_at: '2025-03-01T11:00:00.000Z',
      fired_at: null,
      fired_price: null,
      fired_tick_at: null,
      fired_from_price: null,
    },
  ]);
  expect(json('push_subscriptions')).toEqual([
    {
      id: mine.subscription!.id,
      endpoint_host: 'fcm.googleapis.com',
      language: 'th',
      device: 'mine browser',
      created_at: '2025-03-01T12:00:00.000Z',
    },
  ]);
  expect(json('notification_settings')).toEqual([{ off: ['mine_kind'] }]);
  expect(json('practice_account')).toEqual([{ resets: 0, opened_at: '2025-03-01T13:00:00.000Z', reset_at: null }]);
  expect(json('practice_balances')).toEqual([
    { asset: 'practice:USDT', available: '10000.00000000', frozen: '0.00000000' },
  ]);
  // The CSV files say the same, decimals as numbers, times as UTC wall-clock text.
  expect(strFromU8(files['check_ins.csv']!)).toContain('"2025-03-01","1","3.00000000","2025-03-01 07:00:00"');
  expect(strFromU8(files['push_subscriptions.csv']!)).toContain('"fcm.googleapis.com","th","mine browser"');

  // Nothing of the other customer, no push endpoint's path or key, no unrevealed server seed.
  const everything = Object.values(files)
    .map((bytes) => strFromU8(bytes))
    .join('\n');
  expect(everything).not.toContain('theirs');
  expect(everything).not.toMatch(/endpoint-path|p256dh|auth-key|server-seed|checked_through|credential-id|public-key/);
});
