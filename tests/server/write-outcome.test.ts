// What became of a write whose answer was lost (api-contract/write-outcome.ts): the app asks with the write's path and
// Idempotency-Key and tells the customer; a key the server never received is given up, so a late copy applies nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { lockupProducts, lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';
import { writeOutcome } from '../../src/api-contract/write-outcome.ts';
import { balances, idempotencyKeys } from '../../src/server/db/schema.ts';
import { idempotencyScope, writeScope } from '../../src/server/domain/idempotency.ts';
import { onPostgres, startHarness, type Harness } from './harness.ts';
import { customer, refused, rowLocked } from './helpers.ts';

let h: Harness;
let week: number;
beforeAll(async () => {
  h = await startHarness();
  week = (await h.call(lockupProducts)).data.lists.find((product) => product.days === 7)!.id;
});
afterAll(() => h.close());

const usdtOf = async (userId: number) =>
  (await h.database.db.select().from(balances).where(eq(balances.userId, userId))).find((row) => row.asset === 'USDT')
    ?.available;
const DAY_MS = 86_400_000;
/** Asked as the app asks: with when the write was first sent, by the device's clock (now, unless said). */
const outcomeOf = (token: string, key: string, path = lockupSubscribe.path, sentAt = new Date()) =>
  h.call(writeOutcome, { path, key, sent_at: sentAt.toISOString() }, { token });
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const keyRow = async (userId: number, key: string) => {
  const { id } = idempotencyScope(writeScope(userId, lockupSubscribe.path), key);
  return (await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, id)))[0];
};
const subscribe = (token: string, key: string, amount = '150') =>
  h.call(lockupSubscribe, { product_id: String(week), amount }, { token, idempotencyKey: key });

describe('the outcome of a write whose answer was lost', () => {
  it('says a subscription went through, with when it was received', async () => {
    const user = await customer(h, '1000');
    const at = h.clock.now().toISOString();
    expect((await subscribe(user.token, 'key-applied')).ret).toBe(1);
    expect(await outcomeOf(user.token, 'key-applied')).toEqual({
      ret: 1,
      msg: expect.any(String),
      data: { state: 'applied', msg: null, received_at: at },
    });
    // Asking again changes nothing, and the subscription is not placed twice by a retry with its key.
    expect((await outcomeOf(user.token, 'key-applied')).data.state).toBe('applied');
    expect((await subscribe(user.token, 'key-applied')).ret).toBe(1);
    expect(await usdtOf(user.id)).toBe('850.00000000');
  });

  it('says a refused write was not done, with the refusal as answered', async () => {
    const user = await customer(h, '10');
    const answer = await subscribe(user.token, 'key-refused');
    expect(answer.ret).toBe(0);
    expect(await outcomeOf(user.token, 'key-refused')).toMatchObject({
      ret: 1,
      data: { state: 'refused', msg: answer.msg, received_at: expect.any(String) },
    });
  });

  it('gives up a key never received: a copy arriving later applies nothing', async () => {
    const user = await customer(h, '1000');
    expect((await outcomeOf(user.token, 'key-late')).data).toEqual({
      state: 'not_received',
      msg: null,
      received_at: null,
    });
    expect(await subscribe(user.token, 'key-late')).toEqual(refused(serverTexts.idempotencyKeyReused.message));
    expect(await usdtOf(user.id)).toBe('1000.00000000');
    expect((await outcomeOf(user.token, 'key-late')).data.state).toBe('not_received');
    // A new key places it once.
    expect((await subscribe(user.token, 'key-new')).ret).toBe(1);
    expect(await usdtOf(user.id)).toBe('850.00000000');
  });

  it('says a write still being worked on is in progress, and one that died before its transaction was not done', async () => {
    const user = await customer(h, '1000');
    const { id: key } = idempotencyScope(writeScope(user.id, lockupSubscribe.path), 'key-pending');
    // A claim committed, its request still preparing (or dead): what handle.ts leaves before the keyed transaction.
    await h.database.db.execute(
      sql`insert into idempotency_keys (key, fingerprint, created_at) values (${key}, 'a request', ${h.clock.now()})`,
    );
    expect((await outcomeOf(user.token, 'key-pending')).data.state).toBe('in_progress');
    h.clock.advance(59_000);
    expect((await outcomeOf(user.token, 'key-pending')).data.state).toBe('in_progress');
    h.clock.advance(2_000);
    expect((await outcomeOf(user.token, 'key-pending')).data.state).toBe('not_received');
    expect(await subscribe(user.token, 'key-pending')).toEqual(refused(serverTexts.idempotencyKeyReused.message));
    expect(await usdtOf(user.id)).toBe('1000.00000000');
  });

  // A transaction holding the key beside the call needs a second connection: the embedded database has one.
  it.skipIf(!onPostgres())(
    'says a write whose transaction holds its key is in progress, however long it takes',
    async () => {
      const user = await customer(h, '1000');
      const { id: key } = idempotencyScope(writeScope(user.id, lockupSubscribe.path), 'key-held');
      const long = new Date(h.clock.now().getTime() - 10 * 60_000);
      await h.database.db.execute(
        sql`insert into idempotency_keys (key, fingerprint, created_at) values (${key}, 'a request', ${long})`,
      );
      // The applying transaction, on a connection of its own (PostgreSQL), holds the row while the outcome is asked.
      const holding = await rowLocked(h, sql`select key from idempotency_keys where key = ${key} for update`);
      const answer = await outcomeOf(user.token, 'key-held');
      await holding.release();
      expect(answer.data.state).toBe('in_progress');
    },
  );

  it("finds only the caller's own keys", async () => {
    const owner = await customer(h, '1000');
    const other = await customer(h);
    expect((await subscribe(owner.token, 'key-shared')).ret).toBe(1);
    expect((await outcomeOf(other.token, 'key-shared')).data.state).toBe('not_received');
    expect((await outcomeOf(owner.token, 'key-shared')).data.state).toBe('applied');
  });

  it('answers a key deleted by its retention "expired", never "not received", and gives nothing up', async () => {
    const user = await customer(h, '1000');
    expect((await subscribe(user.token, 'key-month-old')).ret).toBe(1);
    // What the retention job does to a key past its horizon (jobs/idempotency-retention.ts).
    const { id } = idempotencyScope(writeScope(user.id, lockupSubscribe.path), 'key-month-old');
    await h.database.db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, id));
    const expired = { state: 'expired', msg: null, received_at: null };
    expect((await outcomeOf(user.token, 'key-month-old', lockupSubscribe.path, daysAgo(33))).data).toEqual(expired);
    // Asked again the same; the key is not given up (no row written), and the customer is never told to place it again.
    expect((await outcomeOf(user.token, 'key-month-old', lockupSubscribe.path, daysAgo(40))).data).toEqual(expired);
    expect(await keyRow(user.id, 'key-month-old')).toBeUndefined();
    // Within the margin for the device's clock before the horizon: expired too.
    expect((await outcomeOf(user.token, 'key-month-old', lockupSubscribe.path, daysAgo(31.5))).data).toEqual(expired);
    // A device clock far ahead of the server's cannot be taken at its word.
    const ahead = new Date(Date.now() + 3 * DAY_MS);
    expect((await outcomeOf(user.token, 'key-month-old', lockupSubscribe.path, ahead)).data).toEqual(expired);
    expect(await usdtOf(user.id)).toBe('850.00000000');
  });

  it('still answers a recent unknown key "not received", and a kept key by its answer whatever its age', async () => {
    const user = await customer(h, '1000');
    expect((await outcomeOf(user.token, 'key-recent', lockupSubscribe.path, daysAgo(29))).data.state).toBe(
      'not_received',
    );
    expect(await subscribe(user.token, 'key-recent')).toEqual(refused(serverTexts.idempotencyKeyReused.message));
    expect((await subscribe(user.token, 'key-kept')).ret).toBe(1);
    // A device whose clock was far behind when it sent: the key is still there and says what it did.
    expect((await outcomeOf(user.token, 'key-kept', lockupSubscribe.path, daysAgo(60))).data.state).toBe('applied');
    expect(await usdtOf(user.id)).toBe('850.00000000');
  });

  it('refuses a path that is no customer write, and a key no client sends', async () => {
    const user = await customer(h);
    expect(await outcomeOf(user.token, 'key-x', '/lockup/orders')).toEqual(refused('The request is not valid!'));
    expect(await outcomeOf(user.token, 'key-x', '/console/withdrawals/approve')).toEqual(
      refused('The request is not valid!'),
    );
    expect(await outcomeOf(user.token, 'k'.repeat(129))).toEqual(refused('The request is not valid!'));
  });

  it('answers an app from before sent_at by a kept key, and a key not found "ask again", giving nothing up', async () => {
    const user = await customer(h, '1000');
    // An app version from before `sent_at` (still open after an update was deployed) asks with the path and key alone.
    const askedByOldApp = (key: string) =>
      h.call(writeOutcome, { path: lockupSubscribe.path, key } as never, { token: user.token });
    expect((await subscribe(user.token, 'key-old-app')).ret).toBe(1);
    expect((await askedByOldApp('key-old-app')).data).toMatchObject({ state: 'applied', msg: null });
    // Not found: without when it was sent it cannot be told apart from a key deleted by its retention, and that app has
    // no word for `expired`. It keeps the write and asks again; the next start's app asks with sent_at.
    const unknown = await askedByOldApp('key-unknown-old-app');
    expect(unknown).toMatchObject({ ret: 1, data: { state: 'in_progress', msg: null, received_at: null } });
    expect(await keyRow(user.id, 'key-unknown-old-app')).toBeUndefined();
    expect((await outcomeOf(user.token, 'key-unknown-old-app')).data.state).toBe('not_received');
    expect(await usdtOf(user.id)).toBe('850.00000000');
  });
});
