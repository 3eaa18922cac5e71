// Idempotency-Keys are deleted once past their retention (jobs/idempotency-retention.ts), in batches, leaving every
// younger key, and a key a request still holds, for later; the write-outcome lookup then answers such a key "expired".
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import { lockupProducts, lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { IDEMPOTENCY_KEY_RETENTION_MS } from '../../src/api-contract/constants.ts';
import { writeOutcome } from '../../src/api-contract/write-outcome.ts';
import { idempotencyKeys } from '../../src/server/db/schema.ts';
import { idempotencyScope, writeScope } from '../../src/server/domain/idempotency.ts';
import { deleteOldIdempotencyKeys } from '../../src/server/jobs/idempotency-retention.ts';
import { startHarness, type Harness } from './harness.ts';
import { customer, rowLocked } from './helpers.ts';

const DAY_MS = 86_400_000;
let h: Harness;
let week: number;
beforeAll(async () => {
  h = await startHarness();
  week = (await h.call(lockupProducts)).data.lists.find((product) => product.days === 7)!.id;
});
afterAll(() => h.close());

const subscribe = (token: string, key: string) =>
  h.call(lockupSubscribe, { product_id: String(week), amount: '150' }, { token, idempotencyKey: key });
const idOf = (userId: number, key: string) => idempotencyScope(writeScope(userId, lockupSubscribe.path), key).id;
const keptOf = async (ids: string[]) =>
  (
    await h.database.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(inArray(idempotencyKeys.key, ids))
  )
    .map((row) => row.key)
    .sort();

it('deletes the keys past the horizon in batches and leaves the younger ones', async () => {
  const user = await customer(h, '1000');
  for (const key of ['old-1', 'old-2', 'old-3']) expect((await subscribe(user.token, key)).ret).toBe(1);
  // In two steps: a session unused for 30 days ends.
  h.clock.advance(IDEMPOTENCY_KEY_RETENTION_MS / 2);
  expect((await subscribe(user.token, 'young-1')).ret).toBe(1);
  h.clock.advance(IDEMPOTENCY_KEY_RETENTION_MS / 2 - DAY_MS);
  expect((await subscribe(user.token, 'young-2')).ret).toBe(1);
  h.clock.advance(DAY_MS + 1000);
  const ids = ['old-1', 'old-2', 'old-3', 'young-1', 'young-2'].map((key) => idOf(user.id, key));

  const run = await deleteOldIdempotencyKeys(h.database.db, h.clock.now(), { batch: 2 });
  expect(run.deleted).toBeGreaterThanOrEqual(3);
  expect(run.batches).toBeGreaterThanOrEqual(2);
  expect(await keptOf(ids)).toEqual([idOf(user.id, 'young-1'), idOf(user.id, 'young-2')].sort());
  // Run again (or by a second process): nothing more goes.
  expect((await deleteOldIdempotencyKeys(h.database.db, h.clock.now())).deleted).toBe(0);

  // The lookup, asked about the deleted key with when the app sent it (before the horizon), never says "not received".
  const sentAt = new Date(Date.now() - IDEMPOTENCY_KEY_RETENTION_MS - DAY_MS).toISOString();
  const answer = await h.call(
    writeOutcome,
    { path: lockupSubscribe.path, key: 'old-1', sent_at: sentAt },
    { token: user.token },
  );
  expect(answer.data).toEqual({ state: 'expired', msg: null, received_at: null });
  expect(await keptOf([idOf(user.id, 'old-1')])).toEqual([]);
});

// A transaction holding a key beside the job, on a second connection of the pool.
it('leaves a key a request holds for the next run, and two runs at once share the work', async () => {
  const user = await customer(h, '1000');
  for (const key of ['held', 'free-1', 'free-2']) expect((await subscribe(user.token, key)).ret).toBe(1);
  h.clock.advance(IDEMPOTENCY_KEY_RETENTION_MS + DAY_MS);
  const held = idOf(user.id, 'held');
  const holding = await rowLocked(h, sql`select key from idempotency_keys where key = ${held} for update`);
  const runs = await Promise.all([
    deleteOldIdempotencyKeys(h.database.db, h.clock.now(), { batch: 1 }),
    deleteOldIdempotencyKeys(h.database.db, h.clock.now(), { batch: 1 }),
  ]);
  // The two free keys, and what the first test left, which is past the horizon too by now.
  expect(runs[0].deleted + runs[1].deleted).toBeGreaterThanOrEqual(2);
  expect(await keptOf([held, idOf(user.id, 'free-1'), idOf(user.id, 'free-2')])).toEqual([held]);
  await holding.release();
  expect((await deleteOldIdempotencyKeys(h.database.db, h.clock.now())).deleted).toBe(1);
});
