// The migration that gave ledger entries their seq numbers the entries already there in the best order known before
// it: by their time, then their id (the order statements used). Entries written after it draw higher numbers. Run by
// taking the column away from a database with entries and applying the migration's own SQL file again.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { USDT, post } from '../../src/server/domain/ledger.ts';

const MIGRATION = new URL('../../src/server/db/migrations/0024_ledger_sequence.sql', import.meta.url);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

it('numbers existing entries by time then id, and later entries after them', async () => {
  const { id } = await customer(h);
  const postAt = (at: string, reference: string) =>
    h.database.db.transaction((tx) =>
      post(tx, { userId: id, asset: USDT, amount: '1', kind: 'test_credit', reference }, new Date(at)),
    );
  // Written in another order than their times: ids and times disagree, and two share a time.
  await postAt('2026-11-03T00:00:00Z', 'third');
  await postAt('2026-11-01T00:00:00Z', 'first');
  await postAt('2026-11-02T00:00:00Z', 'second-a');
  await postAt('2026-11-02T00:00:00Z', 'second-b');

  const db = h.database.db;
  await db.execute(sql`alter table ledger_entries drop column seq`);
  for (const statement of readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint'))
    await db.execute(sql.raw(statement));

  const ordered = async () =>
    rowsOf<{ reference: string }>(
      await db.execute(sql`select reference from ledger_entries where user_id = ${id} order by seq`),
    ).map((row) => row.reference);
  expect(await ordered()).toEqual(['first', 'second-a', 'second-b', 'third']);
  // Every entry of the database is numbered once, in (time, id) order.
  const [check] = rowsOf<{ entries: number; numbered: number; in_order: boolean }>(
    await db.execute(sql`
      select count(*)::int as entries, count(distinct seq)::int as numbered,
        bool_and(seq = n) as in_order
      from (select seq, row_number() over (order by created_at, id) as n from ledger_entries) o`),
  );
  expect(check!.in_order).toBe(true);
  expect(check!.numbered).toBe(check!.entries);
  // A posting after the migration takes effect after every entry before it, whatever its time.
  await postAt('2026-10-01T00:00:00Z', 'after-migration');
  expect((await ordered()).at(-1)).toBe('after-migration');
});
