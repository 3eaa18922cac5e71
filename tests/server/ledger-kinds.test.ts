// Every movement named: the server posts only the kinds declared in api-contract/ledger-kinds.ts (each with a name in
// the six languages, tests/unit/ledger-kinds.test.ts). post(), postMany(), freeze() and unfreeze() take a LedgerKind
// (checked by the compiler); postRows() reads its kinds from SQL, so it refuses an undeclared one at run time. The
// posting paths are walked here and every kind and asset the ledger then holds is one with a name.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, grant } from './helpers.ts';
import { approvedRecharge } from './funds-helpers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import { assetName, isLedgerKind } from '../../src/api-contract/ledger-kinds.ts';
import { drawBlindBox } from '../../src/api-contract/blindbox.ts';
import { isPracticeAsset } from '../../src/api-contract/practice.ts';
import { postRows, type Posting } from '../../src/server/domain/ledger.ts';
import { LIQUIDITY_ENTRY, redeemLiquidity, subscribeLiquidity } from '../../src/server/domain/liquidity.ts';
import { LOCKUP_ENTRY, payLockupDay, subscribeLockup } from '../../src/server/domain/lockup.ts';
import { CONTRACT_ENTRY } from '../../src/server/domain/contracts.ts';
import { DUST_ENTRY } from '../../src/server/domain/contract-entries.ts';
import { PRACTICE_ENTRY, openPracticeAccount, resetPracticeAccount } from '../../src/server/domain/practice.ts';
import { BLIND_BOX_KIND } from '../../src/server/domain/blindbox.ts';
import { redeem } from '../../src/server/domain/points.ts';
import { checkInOnce } from '../../src/server/domain/check-in.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedBlindBox(h.database.db, h.clock.now());
});
afterAll(() => h.close());

it('the kinds the domain names are all declared', () => {
  const named = [
    ...Object.values(LIQUIDITY_ENTRY),
    ...Object.values(LOCKUP_ENTRY),
    ...Object.values(CONTRACT_ENTRY),
    ...Object.values(DUST_ENTRY),
    ...Object.values(PRACTICE_ENTRY),
    BLIND_BOX_KIND,
  ];
  expect(named.filter((kind) => !isLedgerKind(kind))).toEqual([]);
  // A posting of a kind with no name does not compile.
  // @ts-expect-error: 'made_up' is no LedgerKind
  const posting: Posting = { userId: 1, asset: 'USDT', amount: '1', kind: 'made_up', reference: 'x' };
  expect(isLedgerKind(posting.kind)).toBe(false);
});

it('every kind written as a literal in the server’s SQL is declared', () => {
  const files = readdirSync('src/server', { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.includes('migrations'),
  );
  const literals = files.flatMap((file) =>
    [...readFileSync(join('src/server', file), 'utf8').matchAll(/'([a-z_]+)'::text as kind/g)].map((m) => m[1]!),
  );
  expect(literals.length).toBeGreaterThan(0);
  expect(literals.filter((kind) => !isLedgerKind(kind))).toEqual([]);
});

it('postRows refuses a row of an undeclared kind and posts nothing', async () => {
  const { id } = await customer(h, '10');
  const before = await kindsOf(id);
  const thrown = await h.database.db
    .transaction((tx) =>
      postRows(
        tx,
        sql`select ${id}::int as user_id, 'USDT'::text as asset, 'available'::text as bucket, 1::numeric as amount,
          'made_up'::text as kind, 'made-up:1'::text as reference`,
        h.clock.now(),
      ),
    )
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(thrown).toBeInstanceOf(Error);
  expect(await kindsOf(id)).toEqual(before);
  await expectLedgerBalanced(h);
});

async function kindsOf(userId?: number): Promise<{ kind: string; asset: string }[]> {
  return rowsOf<{ kind: string; asset: string }>(
    await h.database.db.execute(
      sql`select distinct kind, asset from ledger_entries ${userId === undefined ? sql`` : sql`where user_id = ${userId}`} order by kind, asset`,
    ),
  );
}

it('walking the posting paths leaves only kinds and assets that have a name', async () => {
  const { id, token } = await customer(h, '5000');
  const now = () => h.clock.now();
  const zone = 'Asia/Bangkok';
  await approvedRecharge(h, token, '100');
  await grant(h, id, '5000', 'POINT');
  expect(await h.call(drawBlindBox, { pay: 'usdt' }, { token })).toMatchObject({ ret: 1 });
  expect(await h.call(drawBlindBox, { pay: 'points' }, { token })).toMatchObject({ ret: 1 });
  await h.database.db.transaction((tx) => redeem(tx, id, '1000', now()));
  await checkInOnce(h.database.db, id, now(), zone);
  await h.database.db.transaction((tx) => subscribeLiquidity(tx, id, '100', h.clock, zone));
  await h.database.db.transaction((tx) => redeemLiquidity(tx, id, '10', 'quick', h.clock, zone));
  const [product] = rowsOf<{ id: number; days: number }>(
    await h.database.db.execute(sql`select id, days from lockup_products where active order by id limit 1`),
  );
  const order = await h.database.db.transaction((tx) => subscribeLockup(tx, id, product!.id, '100', now(), zone));
  await h.database.db.transaction((tx) => payLockupDay(tx, order.endDay, now()));
  await h.database.db.transaction((tx) => openPracticeAccount(tx, id, now()));
  await resetPracticeAccount(h.database.db, id, now());
  await expectLedgerBalanced(h);

  const mine = await kindsOf(id);
  for (const kind of [
    'test_credit',
    'recharge',
    'blind_box',
    'points_redeem',
    'yuebao_in',
    'yuebao_out',
    'lockup_subscribe',
    'lockup_income',
    'lockup_end',
    'practice_grant',
  ])
    expect(
      mine.map((row) => row.kind),
      kind,
    ).toContain(kind);
  // The whole ledger of this database (the seeded demo account's included): every kind declared, every asset named.
  const all = await kindsOf();
  expect(all.filter((row) => !isLedgerKind(row.kind))).toEqual([]);
  // A coin's code (USDT, BTC) is its name; the ledger's own assets (YUEBAO, REGULAR, POINT, practice:…) get one.
  const named = (text: { message?: string }) => `named:${text.message ?? ''}`;
  const assets = [...new Set(all.map((row) => row.asset))];
  expect(assets).toEqual(expect.arrayContaining(['YUEBAO', 'REGULAR', 'POINT', 'practice:USDT']));
  for (const asset of assets) {
    const own = ['YUEBAO', 'REGULAR', 'POINT'].includes(asset) || isPracticeAsset(asset);
    expect(assetName(asset, named), asset).toMatch(own ? /^named:./ : new RegExp(`^${asset}$`));
  }
});
