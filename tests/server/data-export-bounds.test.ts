// The data export's bounds: an account whose records pass EXPORT_MAX_BYTES is refused as soon as the files written
// pass it, without reading the rest of its records; a few exports are built at once in a process and one more is
// refused with a text asking to try again; the files, written a batch of rows at a time, are what JSON.stringify and
// the CSV writer write of the whole part.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'drizzle-orm';
import { EXPORT_MAX_BYTES, EXPORT_PATH } from '../../src/api-contract/closure.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { EXPORTS_AT_ONCE } from '../../src/server/domain/data-export.ts';
import { translator } from '../../src/server/i18n.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, rowLocked, waitersOnLocks } from './helpers.ts';

let h: Harness;
beforeAll(async () => void (h = await startHarness()), 240_000);
afterAll(() => h.close());

const exportOf = (token: string) => h.app.inject({ url: EXPORT_PATH, headers: { lang: 'en', token } });

/** `rows` ledger entries of 0.00000001 USDT each for `userId`, written at once (a customer trading for years). */
async function longLedger(userId: number, rows: number) {
  await h.database.db.execute(sql`
    insert into ledger_entries (user_id, asset, bucket, amount, kind, reference, created_at)
    select ${userId}, 'USDT', 'available', 0.00000001, 'test_credit', 'long-ledger:' || n, now()
    from generate_series(1, ${rows}) n`);
}

it('writes each part as JSON.stringify and the CSV writer write it whole, over several batches of rows', async () => {
  const user = await customer(h, '5');
  await longLedger(user.id, 4_321);
  const files = unzipSync(new Uint8Array((await exportOf(user.token)).rawPayload));
  const json = strFromU8(files['ledger.json']!);
  const ledger = JSON.parse(json) as { seq: number; reference: string }[];
  expect(json).toBe(JSON.stringify(ledger, null, 2));
  expect(ledger.length).toBe(4_322);
  expect(ledger.map((entry) => entry.seq)).toEqual(ledger.map((entry) => entry.seq).sort((a, b) => a - b));
  const lines = strFromU8(files['ledger.csv']!).split('\r\n');
  expect(lines.length).toBe(1 + 4_322 + 1);
  expect(lines.at(-2)).toContain('"long-ledger:4321"');
  expect(strFromU8(files['options.json']!)).toBe('[]');
  expect(strFromU8(files['options.csv']!).split('\r\n').length).toBe(2);
}, 60_000);

it('refuses a ledger past the bound once it is read that far, without reading the parts after it', async () => {
  const user = await customer(h, '5');
  // About 290 bytes of JSON and CSV an entry: 120,000 pass the 32 MB.
  await longLedger(user.id, 120_000);
  // The orders' table held: an export that read every part before measuring would wait here.
  const held = await rowLocked(h, sql`lock table option_orders in access exclusive mode`);
  const answer = exportOf(user.token);
  const waited = await waitersOnLocks(h.database.db, 1, answer);
  await held.release();
  expect(waited).toBe(false);
  expect((await answer).json()).toEqual({
    ret: 0,
    msg: translator('en')(serverTexts.exportRecordsTooLarge, { 0: EXPORT_MAX_BYTES / 1024 / 1024 }),
    data: null,
  });
}, 120_000);

it(`builds ${EXPORTS_AT_ONCE} exports at once; one more is told to try again, and is built once they are done`, async () => {
  const users = await Promise.all(Array.from({ length: EXPORTS_AT_ONCE + 1 }, () => customer(h, '5')));
  // The ledger's table held: each export waits at its first read of it.
  const held = await rowLocked(h, sql`lock table ledger_entries in access exclusive mode`);
  const building = users.slice(0, EXPORTS_AT_ONCE).map((user) => exportOf(user.token));
  await waitersOnLocks(h.database.db, EXPORTS_AT_ONCE);
  const more = exportOf(users.at(-1)!.token);
  // It is answered at once, never waiting beside them.
  expect(await waitersOnLocks(h.database.db, EXPORTS_AT_ONCE + 1, more)).toBe(false);
  await held.release();
  expect((await more).json()).toEqual({
    ret: 0,
    msg: translator('en')(serverTexts.exportBusy),
    data: null,
  });
  for (const answer of await Promise.all(building)) {
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(Object.keys(unzipSync(new Uint8Array(answer.rawPayload)))).toContain('ledger.json');
  }
  const again = await exportOf(users.at(-1)!.token);
  expect(again.headers['content-type']).toBe('application/zip');
}, 60_000);
