// Registering checks what it refuses before the code (the contact taken or resting, the invitation code) once per
// request: the work ahead of the call's transaction, which decides whether the passwords are hashed there, and the
// handler, which refuses in its order, share one run of the checks. Two registrations of one number at once, each
// with its own code request's code and Idempotency-Key, open one account; the other is a translated refusal, never a
// 500, round after round. On PostgreSQL (the server-pg project), where the two run on two connections at once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, newPhone, phoneRegistration } from './helpers.ts';
import { register, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { users } from '../../src/server/db/schema.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h.close());

let keys = 0;
const form = (phone: string, extra: Record<string, string> = {}) => phoneRegistration(h, phone, extra);

it('looks the invitation code up once per registration', async () => {
  const inviter = await customer(h);
  const { data } = await h.call(userInfo, {}, { token: inviter.token });
  const phone = newPhone();
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const pool = (h.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = pool.query;
  const sent: string[] = [];
  pool.query = function (this: unknown, ...args: unknown[]) {
    const text = args[0];
    sent.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
    return query.apply(this, args);
  };
  try {
    const answer = await h.call(register, form(phone, { invite: data.invite_code.toLowerCase() }));
    expect(answer).toMatchObject({ ret: 1, msg: 'Success' });
  } finally {
    pool.query = query;
  }
  expect(sent.filter((text) => text.includes('"invite_code" = $1'))).toHaveLength(1);
});

it('two registrations of one number at once: one account, the other refused in words', async () => {
  for (let round = 1; round <= 5; round++) {
    const phone = newPhone();
    h.clock.advance(61_000);
    expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
    const both = await Promise.all(
      [1, 2].map(() => h.call(register, form(phone), { idempotencyKey: `register-${++keys}` })),
    );
    expect(both.filter((answer) => answer.ret === 1)).toHaveLength(1);
    const [refusal] = both.filter((answer) => answer.ret !== 1);
    expect(refusal).toMatchObject({ ret: 0, data: null });
    expect(['This mobile number is already registered!', 'The verification code is wrong or has expired!']).toContain(
      refusal!.msg,
    );
  }
});

it('a number taken after the checks passed is refused by the unique index in words, not a 500', async () => {
  const phone = newPhone();
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  // Another account takes the number on a connection of its own, not yet committed: the checks do not see it, and the
  // registration's insert waits on the unique index until it commits.
  let end!: (commit: boolean) => void;
  const ending = new Promise<boolean>((resolve) => (end = resolve));
  let taken!: () => void;
  const holds = new Promise<void>((resolve) => (taken = resolve));
  const other = h.database.db.transaction(async (tx) => {
    await tx.insert(users).values({
      username: phone,
      phone,
      passwordHash: 'x',
      paypassHash: 'x',
      nickname: phone,
      currency: 'THB',
      inviteCode: 'RACE01',
      createdAt: h.clock.now(),
    });
    taken();
    if (!(await ending)) tx.rollback();
  });
  let answer: ReturnType<typeof h.call<typeof register>> | undefined;
  try {
    // The insert's own failure ends this wait too, instead of leaving it to the test's time limit.
    await Promise.race([holds, other]);
    answer = h.call(register, form(phone), { idempotencyKey: `register-${++keys}` });
    // Until the registration waits on the index: it hashes its passwords first, which took more than vi.waitFor's
    // default 1 s in a clean-clone run of every suite at once on 2 cores (it failed at 1.2 s); alone, well under it.
    await vi.waitFor(async () => {
      const [row] = rowsOf<{ waiting: number }>(
        await h.database.db.execute(
          sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        ),
      );
      expect(Number(row!.waiting)).toBe(1);
    }, 30_000);
    end(true);
    await other;
    expect(await answer).toMatchObject({ ret: 0, msg: 'This mobile number is already registered!', data: null });
  } finally {
    // Whatever failed above, the other account's transaction rolls back (a no-op once it committed): its connection
    // goes back to the pool and the registration waiting on its lock goes on, so the file's close waits for neither
    // and the failure is reported at once, not after the close's time limit.
    end(false);
    await Promise.allSettled([other, answer]);
  }
});
