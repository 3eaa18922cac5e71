// A write sent again with the same Idempotency-Key (a retry after a lost answer, a double tap)
// is applied once and every copy gets the first answer; the key cannot be reused for another body.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import * as v from 'valibot';
import { startHarness, type Harness } from './harness.ts';
import { testServices } from './test-app.ts';
import {
  PASSWORD,
  PAYPASS,
  customer,
  dbState,
  expectLedgerBalanced,
  lockedFor,
  newPhone,
  refused,
  registerByPhone,
  waitersOnLocks,
} from './helpers.ts';
import { addCard, withdraw } from './funds-helpers.ts';
import { editProfile, register, sendSmsCode } from '../../src/api-contract/account.ts';
import { post as declarePost, returns } from '../../src/api-contract/endpoint.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import {
  idempotencyKeys,
  ledgerEntries,
  optionOrders,
  sessions,
  users,
  verificationCodes,
  withdrawOrders,
} from '../../src/server/db/schema.ts';
import { USDT, post } from '../../src/server/domain/ledger.ts';
import { claimIdempotencyKey, idempotencyScope } from '../../src/server/domain/idempotency.ts';
import { router } from '../../src/server/http/handle.ts';
import { Refusal } from '../../src/server/domain/refusal.ts';
import { PreparedSecrets } from '../../src/server/domain/accounts.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { serverTexts } from '../../src/api-contract/server-texts.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A fresh number with a code sent to it, and the registration form for it. */
async function registrationForm() {
  const phone = newPhone();
  h.clock.advance(61_000);
  await h.call(sendSmsCode, { userphone: phone });
  return { mode: 'phone', phone, code: h.codeFor(phone), password: PASSWORD, paypass: PAYPASS, currency: 'THB' };
}

async function accountsFor(phone: string) {
  const rows = await h.database.db.select().from(users).where(eq(users.phone, phone));
  const sessionRows = rows.length
    ? await h.database.db.select().from(sessions).where(eq(sessions.userId, rows[0]!.id))
    : [];
  return { users: rows.length, sessions: sessionRows.length };
}

it('registering five times in a row with one key creates one account and replays the same answer', async () => {
  const form = await registrationForm();
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await h.call(register, form, { idempotencyKey: 'signup-in-a-row' }));
  expect(answers[0]).toMatchObject({ ret: 1, msg: 'Success', data: { token: expect.any(String) } });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await accountsFor(form.phone)).toEqual({ users: 1, sessions: 1 });
});

it('registering five times at once with one key creates one account and replays the same answer', async () => {
  const form = await registrationForm();
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => h.call(register, form, { idempotencyKey: 'signup-at-once' })),
  );
  expect(answers[0]).toMatchObject({ ret: 1, msg: 'Success' });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await accountsFor(form.phone)).toEqual({ users: 1, sessions: 1 });
});

it('a replayed answer is marked with the idempotent-replay header', async () => {
  const form = new URLSearchParams(await registrationForm()).toString();
  const send = () =>
    h.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { lang: 'en', 'idempotency-key': 'signup-marked', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  const first = await send();
  const second = await send();
  expect(first.headers['idempotent-replay']).toBeUndefined();
  expect(second.headers['idempotent-replay']).toBe('true');
  expect(second.json()).toEqual(first.json());
});

it('a copy sent while the first still runs is "still being processed", marked as no outcome; the first then answers', async () => {
  const form = new URLSearchParams(await registrationForm()).toString();
  const send = () =>
    h.app.inject({
      method: 'POST',
      url: '/api/users/register',
      headers: { lang: 'en', 'idempotency-key': 'signup-busy', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  // The first copy's account waits behind a lock on the users table, holding its key; the copy waits for it 5 s.
  let locked!: () => void;
  let release!: () => void;
  const tableLocked = new Promise<void>((resolve) => (locked = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding = h.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table users in share row exclusive mode`);
    locked();
    await released;
  });
  await tableLocked;
  const first = send();
  await waitersOnLocks(h.database.db, 1);
  const copy = await send();
  expect(copy.json()).toEqual(refused(STILL_PROCESSING));
  expect(copy.headers['idempotent-busy']).toBe('true');
  release();
  await holding;
  const answered = await first;
  expect(answered.json()).toMatchObject({ ret: 1, msg: 'Success' });
  expect(answered.headers['idempotent-busy']).toBeUndefined();
});

it('without a key the second registration is refused as a taken number', async () => {
  const form = await registrationForm();
  expect((await h.call(register, form)).ret).toBe(1);
  expect(await h.call(register, form)).toEqual(refused('This mobile number is already registered!'));
});

it('the same key with a different registration form is refused and creates nothing', async () => {
  const form = await registrationForm();
  expect((await h.call(register, form, { idempotencyKey: 'signup-reused' })).ret).toBe(1);
  const other = await registrationForm();
  const before = await dbState(h);
  expect(await h.call(register, other, { idempotencyKey: 'signup-reused' })).toEqual(
    refused('This Idempotency-Key was already used for a different request: nothing was done. Send a new key.'),
  );
  expect(await dbState(h)).toEqual(before);
  expect(await accountsFor(other.phone)).toEqual({ users: 0, sessions: 0 });
});

/** A logged-in customer with a code sent to a new number, and the profile change that uses it. */
async function phoneChange() {
  const { token } = await registerByPhone(h);
  const phone = newPhone();
  h.clock.advance(61_000);
  await h.call(sendSmsCode, { userphone: phone });
  return { token, phone, input: { nickname: 'Once', phone, code: h.codeFor(phone), password: PASSWORD } };
}
/** A copy's answer while the first copy of its key still runs (after a wait of 5 s). */
const STILL_PROCESSING = serverTexts.idempotencyBusy.message;

const codesUsed = async (phone: string) =>
  (
    await h.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.target, `sms:${phone}`))
  ).filter((row) => row.consumedAt).length;

it('a profile change sent five times in a row with one key is applied once and answered alike', async () => {
  const { token, phone, input } = await phoneChange();
  const answers = [];
  for (let i = 0; i < 5; i++)
    answers.push(await h.call(editProfile, input, { token, idempotencyKey: 'edit-in-a-row' }));
  expect(answers[0]).toMatchObject({ ret: 1, msg: 'Success', data: { nickname: 'Once', phone } });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await codesUsed(phone)).toBe(1);
});

it('a profile change sent five times at once with one key is applied once and answered alike', async () => {
  const { token, phone, input } = await phoneChange();
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => h.call(editProfile, input, { token, idempotencyKey: 'edit-at-once' })),
  );
  expect(answers[0]).toMatchObject({ ret: 1, data: { phone } });
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(await codesUsed(phone)).toBe(1);
});

it('without a key a repeated profile change fails, because its code is used up', async () => {
  const { token, input } = await phoneChange();
  expect((await h.call(editProfile, input, { token })).ret).toBe(1);
  expect(await h.call(editProfile, input, { token })).toEqual(
    refused('The verification code is wrong or has expired!'),
  );
});

it('the same key with a different profile change is refused and changes nothing', async () => {
  const { token } = await registerByPhone(h);
  expect((await h.call(editProfile, { nickname: 'First' }, { token, idempotencyKey: 'edit-reused' })).ret).toBe(1);
  const before = await dbState(h);
  expect(await h.call(editProfile, { nickname: 'Second' }, { token, idempotencyKey: 'edit-reused' })).toEqual(
    refused('This Idempotency-Key was already used for a different request: nothing was done. Send a new key.'),
  );
  expect(await dbState(h)).toEqual(before);
});

it("one customer's key does not replay another customer's answer", async () => {
  const first = await registerByPhone(h);
  const second = await registerByPhone(h);
  const a = await h.call(editProfile, { nickname: 'Same' }, { token: first.token, idempotencyKey: 'shared-key' });
  const b = await h.call(editProfile, { nickname: 'Same' }, { token: second.token, idempotencyKey: 'shared-key' });
  expect(a.data.phone).toBe(first.phone);
  expect(b.data.phone).toBe(second.phone);
});

it('a key longer than 128 characters is refused', async () => {
  const { token } = await registerByPhone(h);
  const before = await dbState(h);
  expect(await h.call(editProfile, { nickname: 'Long' }, { token, idempotencyKey: 'k'.repeat(129) })).toEqual(
    refused('The request is not valid!'),
  );
  expect(await dbState(h)).toEqual(before);
});

// ---- Exactly once through a crash: the effect and the stored answer commit together. ----

/** A test-only write: pays the caller 1 USDT (reference `pay:<note>`), with faults to inject. */
const pay = declarePost('/test/pay', v.object({ note: v.string() }), returns(v.strictObject({ paid: v.string() })));
const faults = {
  crashAfterEffect: 0,
  refuseAfterEffect: false,
  breakThenRefuse: false,
  refuseInside: false,
  breakInside: false,
};
/** How many times the handler of `pay` ran. */
let payRuns = 0;
/** `pay` again, on a route whose `ahead` work refuses. */
const payAfterRefusingAhead = declarePost(
  '/test/pay-after-ahead',
  v.object({ note: v.string() }),
  returns(v.strictObject({ paid: v.string() })),
);
let faulty: FastifyInstance;

async function startFaultyServer() {
  faulty = Fastify();
  await faulty.register(formbody);
  router(
    faulty,
    testServices({ db: h.database.db, clock: h.clock, sender: { send: async () => {} }, market: h.market }),
  )(pay, async (input, { db, caller, clock }) => {
    payRuns++;
    const credit = (reference: string) => ({
      userId: caller.userId,
      asset: USDT,
      amount: '1',
      kind: 'test_credit' as const,
      reference,
    });
    if (faults.refuseInside || faults.breakInside) {
      // The handler's first transaction writes, then refuses inside (or a statement of it fails, as a unique violation
      // would); the handler then counts the attempt (a write kept on purpose, as a wrong password's count is) and
      // refuses.
      try {
        await db.transaction(async (tx) => {
          await post(tx, credit(`pay:${input.note}:inside`), clock.now());
          if (faults.breakInside) await tx.execute(sql`select 1 / 0`);
          throw new Refusal(texts.insufficientBalance.id);
        });
      } catch {
        await post(db, credit(`pay:${input.note}:counted`), clock.now());
        throw new Refusal(texts.insufficientBalance.id);
      }
    }
    await db.transaction((tx) => post(tx, credit(`pay:${input.note}`), clock.now()));
    // The process "dies" after the effect, before the answer is stored.
    if (faults.crashAfterEffect > 0) {
      faults.crashAfterEffect--;
      throw new Error('simulated crash after the effect');
    }
    if (faults.refuseAfterEffect) throw new Refusal(texts.insufficientBalance.id);
    if (faults.breakThenRefuse) {
      // A statement that fails (as a unique violation would) breaks the transaction; the handler refuses.
      await db.execute(sql`select 1 / 0`).catch(() => undefined);
      throw new Refusal(texts.insufficientBalance.id);
    }
    return { paid: input.note };
  });
  // The same write with `ahead` work that refuses, which it must never do: the call goes on with nothing prepared.
  router(
    faulty,
    testServices({ db: h.database.db, clock: h.clock, sender: { send: async () => {} }, market: h.market }),
  )(
    payAfterRefusingAhead,
    async (input, { db, caller, clock, secrets }) => {
      expect(secrets).toBeUndefined();
      await db.transaction((tx) =>
        post(
          tx,
          { userId: caller.userId, asset: USDT, amount: '1', kind: 'test_credit', reference: `pay:${input.note}` },
          clock.now(),
        ),
      );
      return { paid: input.note };
    },
    {
      ahead: async (_input, ctx) => {
        ctx.secrets = new PreparedSecrets();
        throw new Refusal(texts.insufficientBalance.id);
      },
    },
  );
  await faulty.ready();
}

const callPay = async (token: string, note: string, key: string) =>
  (
    await faulty.inject({
      method: 'POST',
      url: '/api/test/pay',
      headers: { lang: 'en', token, 'idempotency-key': key, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ note }).toString(),
    })
  ).json();

const paid = async (note: string) =>
  (
    await h.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.reference, `pay:${note}`))
  ).length;

it('a route whose work ahead refuses anyway answers as its handler does, keyed or not, with nothing prepared', async () => {
  await startFaultyServer();
  const { token } = await customer(h);
  const callAhead = async (note: string, key?: string) =>
    (
      await faulty.inject({
        method: 'POST',
        url: '/api/test/pay-after-ahead',
        headers: {
          lang: 'en',
          token,
          'content-type': 'application/x-www-form-urlencoded',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        payload: new URLSearchParams({ note }).toString(),
      })
    ).json();
  expect(await callAhead('ahead-plain')).toEqual({ ret: 1, msg: 'Success', data: { paid: 'ahead-plain' } });
  expect(await callAhead('ahead-keyed', 'pay-ahead')).toEqual({
    ret: 1,
    msg: 'Success',
    data: { paid: 'ahead-keyed' },
  });
  // Replayed, not run again.
  expect(await callAhead('ahead-keyed', 'pay-ahead')).toEqual({
    ret: 1,
    msg: 'Success',
    data: { paid: 'ahead-keyed' },
  });
  expect(await paid('ahead-plain')).toBe(1);
  expect(await paid('ahead-keyed')).toBe(1);
  await faulty.close();
});

it('a crash after the effect but before the answer is stored leaves no effect; the retry applies it once', async () => {
  await startFaultyServer();
  const { token } = await customer(h);
  faults.crashAfterEffect = 1;
  const crashed = await faulty.inject({
    method: 'POST',
    url: '/api/test/pay',
    headers: { lang: 'en', token, 'idempotency-key': 'pay-crash', 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'note=crash',
  });
  expect(crashed.statusCode).toBe(500);
  expect(await paid('crash')).toBe(0);

  const retried = await callPay(token, 'crash', 'pay-crash');
  expect(retried).toEqual({ ret: 1, msg: 'Success', data: { paid: 'crash' } });
  expect(await callPay(token, 'crash', 'pay-crash')).toEqual(retried);
  expect(await paid('crash')).toBe(1);
  await expectLedgerBalanced(h);
});

it('a claim left pending by a killed process is taken over at once by the retry, and applied once', async () => {
  const { token, id: userId } = await customer(h);
  // What a SIGKILL between the claim and the commit leaves: a pending claim that nobody holds.
  const scoped = idempotencyScope(`${userId}:/test/pay`, 'pay-killed');
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ note: 'killed' }))
    .digest('hex');
  expect(await claimIdempotencyKey(h.database.db, scoped, fingerprint, h.clock.now())).toEqual({ kind: 'claimed' });

  // Taken over because no transaction holds the claim, not because a wait ran out: wall-clock time stands still during
  // the retry and the harness's clock has not moved since the claim, so no timeout (the wait for a first copy to
  // answer, a claim's age) can end; a retry that waited for one would never answer.
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    expect(await callPay(token, 'killed', 'pay-killed')).toEqual({ ret: 1, msg: 'Success', data: { paid: 'killed' } });
  } finally {
    vi.useRealTimers();
  }
  expect(await callPay(token, 'killed', 'pay-killed')).toMatchObject({ ret: 1, data: { paid: 'killed' } });
  expect(await paid('killed')).toBe(1);
});

it('ten copies of one keyed write at once apply it once and all get the same answer', async () => {
  const { token } = await customer(h);
  const answers = await Promise.all(Array.from({ length: 10 }, () => callPay(token, 'at-once', 'pay-at-once')));
  for (const answer of answers) expect(answer).toEqual({ ret: 1, msg: 'Success', data: { paid: 'at-once' } });
  expect(await paid('at-once')).toBe(1);
});

it('a refused keyed write is answered with its refusal again on retry', async () => {
  const { token } = await customer(h);
  faults.refuseAfterEffect = true;
  try {
    const first = await callPay(token, 'refused', 'pay-refused');
    expect(first).toEqual(refused('Insufficient balance!'));
    // The handler's own transaction had committed (a savepoint of the request's transaction):
    // as without a key, writes made before a refusal stay; the answer is stored with them.
    expect(await paid('refused')).toBe(1);
    faults.refuseAfterEffect = false;
    expect(await callPay(token, 'refused', 'pay-refused')).toEqual(first);
    expect(await paid('refused')).toBe(1);
  } finally {
    faults.refuseAfterEffect = false;
  }
});

it('a failed statement inside a refused keyed write rolls back its writes and still stores the refusal', async () => {
  const { token } = await customer(h);
  faults.breakThenRefuse = true;
  try {
    const first = await callPay(token, 'broken', 'pay-broken');
    expect(first).toEqual(refused('Insufficient balance!'));
    faults.breakThenRefuse = false;
    expect(await callPay(token, 'broken', 'pay-broken')).toEqual(first);
    expect(await paid('broken')).toBe(0);
  } finally {
    faults.breakThenRefuse = false;
  }
});

it('a keyed write whose first transaction refuses keeps none of its writes, and what it wrote after is kept', async () => {
  const { token } = await customer(h);
  faults.refuseInside = true;
  try {
    const runsBefore = payRuns;
    const first = await callPay(token, 'inside', 'pay-inside');
    expect(first).toEqual(refused('Insufficient balance!'));
    // The first transaction ran in the keyed one directly: its refusal rolled the keyed one back whole, and the
    // handler ran again with savepoints, as without a key.
    expect(payRuns - runsBefore).toBe(2);
    expect(await paid('inside:inside')).toBe(0);
    expect(await paid('inside:counted')).toBe(1);
    expect(await paid('inside')).toBe(0);
    faults.refuseInside = false;
    expect(await callPay(token, 'inside', 'pay-inside')).toEqual(first);
    expect(await paid('inside:counted')).toBe(1);
  } finally {
    faults.refuseInside = false;
  }
});

it('a keyed write whose first transaction breaks, then writes on, is run again and keeps what it wrote after', async () => {
  const { token } = await customer(h);
  faults.breakInside = true;
  try {
    const runsBefore = payRuns;
    // The count after the failed statement went to a broken transaction: the handler ran again with savepoints.
    expect(await callPay(token, 'broken-inside', 'pay-broken-inside')).toEqual(refused('Insufficient balance!'));
    expect(payRuns - runsBefore).toBe(2);
    expect(await paid('broken-inside:inside')).toBe(0);
    expect(await paid('broken-inside:counted')).toBe(1);
  } finally {
    faults.breakInside = false;
  }
});

it('wrong payment passwords sent with keys still count toward the lock', async () => {
  const user = await customer(h, '100');
  const card = await addCard(h, user.token);
  for (let i = 0; i < 5; i++) {
    expect(
      await withdraw(
        h,
        user.token,
        { target: 'bank', target_id: String(card.id), amount: '20', paypass: '999999' },
        `wrong-${i}`,
      ),
    ).toEqual(refused('The payment password is wrong!'));
  }
  expect(
    await withdraw(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20' }, 'right-after-lock'),
  ).toEqual(lockedFor('15 minutes'));
  expect(await h.database.db.select().from(withdrawOrders).where(eq(withdrawOrders.userId, user.id))).toEqual([]);
});

it('keyed option buys and withdrawals sent twice at once each apply once; the ledger still balances', async () => {
  const user = await customer(h, '1000');
  const card = await addCard(h, user.token);
  await h.tick();
  const product = (await h.call(optionProducts, { code: 'BTC' })).data.lists[0]!;
  const buy = { code: 'BTC', direction: 'up', amount: '10', product_id: String(product.id) };
  const asks: (() => Promise<{ ret: number; msg: string }>)[] = [];
  for (let i = 0; i < 10; i++) {
    for (let copy = 0; copy < 2; copy++) {
      asks.push(() => h.call(placeOption, buy, { token: user.token, idempotencyKey: `buy-${i}` }));
      asks.push(() =>
        withdraw(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20' }, `withdraw-${i}`),
      );
    }
  }
  // A copy that finds its first still running after 5 s is told so, and the customer asks again with the same key:
  // forty calls of one customer take turns on its lock, which on a loaded machine can take that long.
  const answers = await Promise.all(
    asks.map(async (ask) => {
      let answer = await ask();
      for (let tries = 1; answer.msg === STILL_PROCESSING && tries < 5; tries++) answer = await ask();
      return answer;
    }),
  );
  for (const answer of answers) expect(answer).toMatchObject({ ret: 1 });
  expect(await h.database.db.select().from(optionOrders).where(eq(optionOrders.userId, user.id))).toHaveLength(10);
  expect(await h.database.db.select().from(withdrawOrders).where(eq(withdrawOrders.userId, user.id))).toHaveLength(10);
  const pending = await h.database.db.select().from(idempotencyKeys);
  expect(pending.filter((row) => row.response === null)).toEqual([]);
  await expectLedgerBalanced(h);
});
