// Shared steps of the account tests: register a user, read the whole database, build uploads.
import { createHash } from 'node:crypto';
import { and, asc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { expect } from 'vitest';
import { register, sendEmailCode, sendSmsCode, userInfo } from '../../src/api-contract/account.ts';
import { optionProducts } from '../../src/api-contract/options.ts';
import { beginTwoFactor, confirmTwoFactor } from '../../src/api-contract/two-factor.ts';
import {
  attemptCounters,
  balances,
  idempotencyKeys,
  ledgerEntries,
  optionOrders,
  optionProducts as optionProductRows,
  sessions,
  uploads,
  users,
  verificationCodes,
} from '../../src/server/db/schema.ts';
import type { Changes } from '../../src/server/db/changes.ts';
import { rowsOf, type Db, type Tx } from '../../src/server/db/connection.ts';
import { USDT, ledgerMismatches, post } from '../../src/server/domain/ledger.ts';
import { base32Decode, TOTP_STEP_SECONDS, totpAt, totpStep } from '../../src/server/domain/totp.ts';
import { png } from '../png.ts';
import type { Harness } from './harness.ts';
import { queryDuration } from '../../src/server/observability/metrics.ts';

export const PASSWORD = 'abc12345';
export const PAYPASS = '123456';

/** A Thai mobile number no earlier test in the file has used, in E.164 as the server stores it (+66 82 000 0001). */
let numbers = 0;
export const newPhone = () => `+668${String(20_000_000 + ++numbers)}`;
export const newEmail = () => `user${++numbers}@example.com`;

/** Sends a code and registers with it (moving the clock past the 60 s resend wait first). */
/** A registration form by mobile number `phone` with the code last sent to it, the test passwords and `extra`. */
export const phoneRegistration = (h: Harness, phone: string, extra: Record<string, string> = {}) => ({
  mode: 'phone',
  phone,
  code: h.codeFor(phone),
  password: PASSWORD,
  paypass: PAYPASS,
  currency: 'THB',
  ...extra,
});

export async function registerByPhone(h: Harness, phone = newPhone(), extra: Record<string, string> = {}) {
  h.clock.advance(61_000);
  expect((await h.call(sendSmsCode, { userphone: phone })).ret).toBe(1);
  const res = await h.call(register, phoneRegistration(h, phone, extra));
  expect(res).toMatchObject({ ret: 1, msg: 'Success' });
  return { phone, token: res.data.token, device: res.data.device };
}

export async function registerByEmail(h: Harness, email = newEmail(), extra: Record<string, string> = {}) {
  h.clock.advance(61_000);
  expect((await h.call(sendEmailCode, { email })).ret).toBe(1);
  const res = await h.call(register, {
    mode: 'email',
    email,
    code: h.codeFor(email),
    password: PASSWORD,
    paypass: PAYPASS,
    currency: 'USD',
    ...extra,
  });
  expect(res).toMatchObject({ ret: 1, msg: 'Success' });
  return { email, token: res.data.token };
}

/** The id of the account behind a session token. */
export async function userIdOf(h: Harness, token: string): Promise<number> {
  const info = await h.call(userInfo, {}, { token });
  expect(info.ret).toBe(1);
  return info.data.id;
}

/** Credits USDT through the ledger, the way a recharge would (kind 'test_credit'). */
let grants = 0;
export async function grant(h: Harness, userId: number, amount: string, asset = USDT) {
  await h.database.db.transaction((tx) =>
    post(tx, { userId, asset, amount, kind: 'test_credit', reference: `grant:${++grants}` }, h.clock.now()),
  );
}

/** A registered customer holding `amount` USDT (none when omitted). */
export async function customer(h: Harness, amount?: string) {
  const { token, phone } = await registerByPhone(h);
  const id = await userIdOf(h, token);
  if (amount) await grant(h, id, amount);
  return { token, phone, id };
}

/** A table with one row per customer's order or request: read whole for one user, oldest first. */
type PerUserTable = PgTable & { userId: AnyPgColumn; id: AnyPgColumn };

/**
 * Everything a money call can move for one user, to prove a refusal changed nothing and a write changed only what it
 * says: balances (by asset) and ledger entries, and the rows of each of `tables` (by default the option orders, as
 * `orders`), each read in full, oldest first.
 */
export async function moneyState<Tables extends Record<string, PerUserTable> = { orders: typeof optionOrders }>(
  h: Harness,
  userId: number,
  tables: Tables = { orders: optionOrders } as unknown as Tables,
) {
  const db = h.database.db;
  const perUser: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(tables))
    perUser[name] = await db.select().from(table).where(eq(table.userId, userId)).orderBy(asc(table.id));
  return {
    balances: await db.select().from(balances).where(eq(balances.userId, userId)).orderBy(asc(balances.asset)),
    entries: await db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, userId))
      .orderBy(asc(ledgerEntries.id)),
    ...(perUser as { [Name in keyof Tables]: Tables[Name]['$inferSelect'][] }),
  };
}

/** The ledger's invariants: entries sum to every balance and no balance is below zero. */
export async function expectLedgerBalanced(h: Harness) {
  const db = h.database.db;
  expect(await ledgerMismatches(db)).toEqual([]);
  expect(
    await db
      .select()
      .from(balances)
      .where(or(lt(balances.available, '0'), lt(balances.frozen, '0'))),
  ).toEqual([]);
}

/** Every table an account call can write, to prove a refusal changed nothing. */
export async function dbState(h: Harness) {
  const db = h.database.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    sessions: await db.select().from(sessions).orderBy(asc(sessions.id)),
    codes: await db.select().from(verificationCodes).orderBy(asc(verificationCodes.id)),
    attempts: await db.select().from(attemptCounters).orderBy(asc(attemptCounters.key)),
    idempotency: await db.select().from(idempotencyKeys).orderBy(asc(idempotencyKeys.key)),
    // Pictures by digest: comparing megabytes byte by byte would take the test seconds.
    uploads: (await db.select().from(uploads).orderBy(asc(uploads.id))).map(({ bytes, ...row }) => ({
      ...row,
      sha256: sha256(bytes),
    })),
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What withTwoFactor answers: the authenticator's base32 secret, the ten recovery codes shown once at the
 * confirmation, and `code(steps)`, what the authenticator app shows at the harness clock's time, `steps` 30-second
 * steps later (or earlier, negative). */
export interface TwoFactorOn {
  secret: string;
  recovery: string[];
  code: (steps?: number) => string;
}

/**
 * Turns two-factor on for the customer signed in with `token` as the app does: the setup, then the authenticator's
 * first code with the login password (PASSWORD), each answer checked to be a success. Then the harness clock moves on
 * one 30-second step, as the code the confirmation used is refused a second time; the next `code()` is a fresh one.
 */
export async function withTwoFactor(h: Harness, token: string): Promise<TwoFactorOn> {
  const setup = await h.call(beginTwoFactor, {}, { token });
  expect(setup, JSON.stringify(setup)).toMatchObject({ ret: 1 });
  const secret = setup.data.secret;
  const code = (steps = 0) => totpAt(base32Decode(secret), totpStep(h.clock.now()) + steps);
  const confirmed = await h.call(confirmTwoFactor, { code: code(), password: PASSWORD }, { token });
  expect(confirmed, JSON.stringify(confirmed)).toMatchObject({ ret: 1 });
  h.clock.advance(TOTP_STEP_SECONDS * 1000);
  return { secret, recovery: confirmed.data.recovery_codes, code };
}

/**
 * A refusal as the user sees it: ret 0, the text (or an expect matcher of it, as expect.stringContaining), no data,
 * whichever request field it names (the envelope's optional `field`; `refusedAbout` checks it).
 */
export const refused = (msg: string) => ({
  ret: 0,
  msg,
  data: null,
  // Read by expect's equality as an asymmetric matcher: the answer has these three and at most a field's name besides.
  asymmetricMatch: (answer: unknown) => {
    if (typeof answer !== 'object' || answer === null) return false;
    const { ret, msg: text, data, field, ...rest } = answer as Record<string, unknown>;
    const named = field === undefined || typeof field === 'string';
    const matcher = msg as unknown as { asymmetricMatch?: (other: unknown) => boolean };
    const said = typeof matcher.asymmetricMatch === 'function' ? matcher.asymmetricMatch(text) : text === msg;
    return ret === 0 && said && data === null && named && Object.keys(rest).length === 0;
  },
  toAsymmetricMatcher: () => `refused(${JSON.stringify(msg)})`,
});
/** A refusal about one request field: ret 0, the text, no data, and `field` naming it as the endpoint's input does. */
export const refusedAbout = (msg: string, field: string) => ({ ret: 0, msg, data: null, field });
/** The refusal of an attempt a limit holds back, in English: `wait` is the time left as the customer reads it ("15
 * minutes", "23.84 hours"). */
export const lockedFor = (wait: string) => refused(`Too many attempts, please try again in ${wait}!`);
/** The English text of a per-minute request limit's refusal (HTTP 429): what is left of the minute, in whole seconds
 * (a whole minute when none of it has passed). The limiter counts on the real clock, so the figure depends on how fast
 * the calls ran. */
export const MINUTE_LEFT = /^Too many attempts, please try again in (1 minute|1 second|([2-9]|[1-5]\d|60) seconds)!$/;
export const TOKEN_EXPIRED = { ret: -1, msg: 'Your login has expired, please log in again!', data: null };

/**
 * Resolves at the first change notice `changes` delivers from now on of `table`'s rows of `user` (or of the whole
 * table). Listeners hear a notice in the order they subscribed: the answers every server started before cached have
 * been dropped by then.
 */
export function noticeOf(changes: Changes, table: string, user: number): Promise<void> {
  return new Promise((resolve) => {
    const stop = changes.subscribe((notice) => {
      const [named, users] = notice.split(':');
      if (named !== table || (users !== undefined && !users.split(',').includes(String(user)))) return;
      stop();
      resolve();
    });
  });
}

/** A real PNG of one pixel (opaque blue, RGBA). */
export function tinyPng(): Uint8Array {
  return new Uint8Array(png(1, () => [0x00, 0xbb, 0xfe, 0xff]));
}

/**
 * A distinct real picture for each `label`: a 2×2 PNG (RGB) whose pixels are the first bytes of the label's SHA-256
 * (the server drops a picture's metadata and anything after its end: only its pixels tell two pictures apart).
 */
export function labelledPng(label: string): Uint8Array<ArrayBuffer> {
  const colours = createHash('sha256').update(label).digest();
  return new Uint8Array(png(2, (x, y) => [...colours.subarray(3 * (2 * y + x), 3 * (2 * y + x) + 3)]));
}

/** POSTs one file to /users/upload the way a browser's FormData does. */
export async function uploadFile(
  h: Harness,
  token: string | undefined,
  file: { bytes: Uint8Array; name: string; type: string; field?: string },
) {
  const form = new FormData();
  form.append(file.field ?? 'image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/upload',
    headers: { lang: 'en', 'content-type': encoded.headers.get('content-type')!, ...(token ? { token } : {}) },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
  return response.json();
}

/** Database statements sent so far by this process, both drivers counted where they leave it (the metrics' count). */
export async function statementsSent(): Promise<number> {
  const { values } = await queryDuration.get();
  return values.find((value) => value.metricName?.endsWith('_count'))?.value ?? 0;
}

/**
 * Starts counting the statements sent on `tx`'s own connection (drizzle's transaction session's client, on either
 * driver); the returned function stops counting and answers how many. Unlike statementsSent, a statement the process
 * sends meanwhile on another connection (a timer's job, another request) is not counted, so a count can be exact.
 */
export function countStatementsOn(tx: Tx): () => number {
  const client = (tx as unknown as { session: { client: Record<'query', (...args: unknown[]) => unknown> } }).session
    .client;
  const own = Object.prototype.hasOwnProperty.call(client, 'query');
  const query = client.query;
  let sent = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    sent += 1;
    return query.apply(this, args);
  };
  return () => {
    if (own) client.query = query;
    else delete (client as Partial<typeof client>).query;
    return sent;
  };
}

/**
 * Holds a row locked as a transaction still working would: runs `lock` (a `select … for update`) in a transaction on a
 * connection of its own and resolves once the lock is taken; `release()` commits that transaction and resolves when it
 * has ended. On PostgreSQL only (the embedded database has one connection).
 */
export async function rowLocked(h: Harness, lock: SQL): Promise<{ release: () => Promise<void> }> {
  let locked!: () => void;
  let release!: () => void;
  const taken = new Promise<void>((resolve) => (locked = resolve));
  const holding = h.database.db.transaction(async (tx) => {
    await tx.execute(lock);
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await taken;
  return {
    release: async () => {
      release();
      await holding;
    },
  };
}

/**
 * Resolves once at least `n` sessions of `db`'s database wait for a lock another transaction holds (PostgreSQL's
 * pg_stat_activity); throws when that never happens in 1,200 looks (about 30 s), so a test that expected a wait fails.
 * With `unless`, it stops looking once that settles first, and answers false (true when the sessions waited): a test
 * that expects a call to be answered without waiting races the call's answer against the wait.
 */
export async function waitersOnLocks(db: Db, n = 1, unless?: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void unless?.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let tries = 0; tries < 1200; tries++) {
    if (settled) return false;
    const [row] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if (Number(row!.n) >= n) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${n} sessions ever waited for a lock`);
}

/**
 * BTC's 1-minute option product with its minimum amount set to `minimum` USDT, and a BTC price recorded now (an order
 * is refused without one): the product as the app lists it.
 */
export async function btcOptionWithMinimum(h: Harness, minimum: string) {
  await h.market.record([{ coin: 'BTC', at: h.clock.now(), price: '97000', volume: '1' }]);
  await h.database.db
    .update(optionProductRows)
    .set({ minAmount: minimum })
    .where(and(eq(optionProductRows.coin, 'BTC'), eq(optionProductRows.minutes, 1)));
  return (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((item) => item.minutes === 1)!;
}
