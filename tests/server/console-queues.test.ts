// The review queues for a day of volume: oldest first with each item's wait by the server's clock, late past its
// kind's target, searched by order number or customer a page at a time; claims so two reviewers do not work one item
// (exactly one holds it when both ask at once, it runs out, a decision ends it, a take-over is explicit and audited),
// the next item after a decision, and four eyes as the approver sees it. On PostgreSQL also across two server
// processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { addCard, cryptoRecharge, uploadedPicture, withdrawn } from './funds-helpers.ts';
import { NEW_PASSWORD, enrolled, operatorToken, signInAs, type Enrolled } from './console-helpers.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import * as c from '../../src/api-contract/console.ts';
import * as q from '../../src/api-contract/console-queues.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { rowsOf } from '../../src/server/db/connection.ts';
import { auditLog, rechargeOrders, reviewClaims, users } from '../../src/server/db/schema.ts';

let h: Harness;
let reviewer1: string;
let reviewer2: string;
let enrolment: Enrolled[] = [];
let passwordsChanged = false;
beforeAll(async () => {
  h = await startHarness();
  enrolment = [await enrolled(h, 'reviewer1', 'reviewer'), await enrolled(h, 'reviewer2', 'reviewer')];
  await signBackIn();
});
afterAll(() => h.close());

/** Both reviewers signed in afresh: a test that moves the clock by hours outlives their console sessions. */
async function signBackIn() {
  [reviewer1, reviewer2] = (await Promise.all(
    enrolment.map(async (operator) => {
      if (!passwordsChanged) {
        const first = await signInAs(h, operator);
        const token = first.data.token;
        await h.call(c.consoleChangePassword, { password: operator.password, new_password: NEW_PASSWORD }, { token });
        return token;
      }
      const again = await signInAs(h, operator, NEW_PASSWORD);
      expect(again, JSON.stringify(again)).toMatchObject({ ret: 1 });
      return again.data.token;
    }),
  )) as [string, string];
  passwordsChanged = true;
}

const as = (token: string) => ({ token });
const MINUTE = 60_000;
const queue = async (token: string, input: Record<string, string>) => {
  const answer = await h.call(q.consoleQueue, input, as(token));
  expect(answer, JSON.stringify(answer)).toMatchObject({ ret: 1 });
  return answer.data;
};
const claim = (token: string, kind: q.ReviewKind, id: number, takeOver = false) =>
  h.call(q.consoleClaimItem, { kind, id: String(id), take_over: takeOver ? '1' : '' }, as(token));
/** Every waiting item of a kind out of the way, so each test starts from an empty queue. */
async function emptyQueue(kind: q.ReviewKind) {
  for (let page = await queue(reviewer1, { kind }); page.lists.length > 0; page = await queue(reviewer1, { kind }))
    for (const item of page.lists) {
      const id = String(item.id);
      const reason = 'Cleared for the next test';
      if (kind === 'recharge') await h.call(c.consoleRejectRecharge, { id, reason }, as(reviewer1));
      if (kind === 'withdrawal') await h.call(c.consoleRejectWithdrawal, { id, reason }, as(reviewer1));
      if (kind === 'certification') await h.call(c.consoleRejectCertification, { id, reason }, as(reviewer1));
    }
  expect((await queue(reviewer1, { kind })).total).toBe(0);
}

describe('the queues', () => {
  it('lists the oldest first with each item’s wait, late past the target, and searches by order number', async () => {
    await emptyQueue('recharge');
    const user = await customer(h);
    const first = await cryptoRecharge(h, user.token, '10');
    h.clock.advance(20 * MINUTE);
    const second = await cryptoRecharge(h, user.token, '20');
    h.clock.advance(MINUTE);
    const third = await cryptoRecharge(h, user.token, '30');
    h.clock.advance(5_000);

    const page = await queue(reviewer1, { kind: 'recharge' });
    expect(page).toMatchObject({ next: null, total: 3, target_minutes: 15 });
    expect(page.lists.map((item) => [item.id, item.amount, item.waiting_seconds, item.late])).toEqual([
      [first.id, '10', 21 * 60 + 5, true],
      [second.id, '20', 60 + 5, false],
      [third.id, '30', 5, false],
    ]);
    expect(page.lists[0]).toMatchObject({ order_no: first.order_no, username: expect.any(String), claimed_by: null });

    // The whole readable number, or its start (the day), in any case.
    expect((await queue(reviewer1, { kind: 'recharge', query: second.order_no })).lists.map((item) => item.id)).toEqual(
      [second.id],
    );
    expect(
      (await queue(reviewer1, { kind: 'recharge', query: second.order_no.slice(0, 9).toLowerCase() })).total,
    ).toBeGreaterThanOrEqual(3);
    expect(await queue(reviewer1, { kind: 'recharge', query: 'R19990101' })).toMatchObject({ lists: [], total: 0 });
    // Decided ones leave the waiting queue, and show (without a wait) in "all".
    await h.call(c.consoleApproveRecharge, { id: String(first.id) }, as(reviewer1));
    expect((await queue(reviewer1, { kind: 'recharge' })).lists.map((item) => item.id)).toEqual([second.id, third.id]);
    const all = await queue(reviewer1, { kind: 'recharge', status: 'all', query: first.order_no });
    expect(all.lists).toMatchObject([{ id: first.id, status: 'success', waiting_seconds: null, late: false }]);
  });

  it('searches by customer (username and e-mail in any case or width, mobile number) and pages like the other lists', async () => {
    await emptyQueue('recharge');
    const [one, other] = [await customer(h), await customer(h)];
    await h.database.db.update(users).set({ email: 'Queue.Search@example.com' }).where(eq(users.id, other.id));
    const [username] = rowsOf<{ username: string }>(
      await h.database.db.execute(sql`select username from users where id = ${one.id}`),
    ).map((row) => row.username);
    const mine = [await cryptoRecharge(h, one.token, '11'), await cryptoRecharge(h, one.token, '12')];
    const theirs = await cryptoRecharge(h, other.token, '13');
    const ids = async (query: string) =>
      (await queue(reviewer2, { kind: 'recharge', query })).lists.map((item) => item.id);
    expect(await ids(username!)).toEqual(mine.map((order) => order.id));
    expect(await ids(one.phone)).toEqual(mine.map((order) => order.id));
    expect(await ids('queue.search@')).toEqual([theirs.id]);
    // In any case or width, as login reads a name; "＿" folds to "_", which is no wildcard for the "." there.
    expect(await ids('ＱＵＥＵＥ.ｓｅａｒｃｈ@')).toEqual([theirs.id]);
    expect(await ids('queue＿search@')).toEqual([]);
    // One page holds them all: it says it is the last.
    expect(await queue(reviewer2, { kind: 'recharge' })).toMatchObject({ next: null, total: 3 });
    expect(await h.call(q.consoleQueue, { kind: 'payout' }, as(reviewer2))).toMatchObject({ ret: 0 });
  });

  it('pages by a cursor: items decided meanwhile hide none, new ones show at the end, the last page says so', async () => {
    await emptyQueue('recharge');
    const user = await customer(h);
    const model = await cryptoRecharge(h, user.token, '10');
    const [row] = await h.database.db.select().from(rechargeOrders).where(eq(rechargeOrders.id, model.id));
    const copy = (at: number) => {
      const { id: _id, ...rest } = row!;
      h.clock.advance(1_000);
      return { ...rest, orderNo: `${row!.orderNo}-${at}`, hash: `${row!.hash}-${at}`, createdAt: h.clock.now() };
    };
    const copies = await h.database.db
      .insert(rechargeOrders)
      .values(Array.from({ length: q.QUEUE_PAGE_SIZE + 1 }, (_, at) => copy(at)))
      .returning({ id: rechargeOrders.id });
    const ids = [model.id, ...copies.map((item) => item.id)];

    const first = await queue(reviewer1, { kind: 'recharge' });
    expect(first.total).toBe(q.QUEUE_PAGE_SIZE + 2);
    expect(first.lists.map((item) => item.id)).toEqual(ids.slice(0, q.QUEUE_PAGE_SIZE));
    expect(first.next).toEqual(expect.any(String));
    // Two items of the first page are decided and one more arrives while the reviewer reads it: an offset would skip
    // two items; the cursor continues after the last one shown and reaches the new one.
    for (const id of ids.slice(0, 2))
      expect(await h.call(c.consoleApproveRecharge, { id: String(id) }, as(reviewer1))).toMatchObject({ ret: 1 });
    const [late] = await h.database.db.insert(rechargeOrders).values(copy(99)).returning({ id: rechargeOrders.id });
    const second = await queue(reviewer1, { kind: 'recharge', cursor: first.next! });
    expect(second.lists.map((item) => item.id)).toEqual([...ids.slice(q.QUEUE_PAGE_SIZE), late!.id]);
    expect(second).toMatchObject({ next: null, total: q.QUEUE_PAGE_SIZE + 1 });
    // A cursor of another list's shape, or made up, is refused, never a 500.
    for (const cursor of ['1', '1.2.3', 'x'])
      expect(await h.call(q.consoleQueue, { kind: 'recharge', cursor }, as(reviewer1))).toMatchObject({ ret: 0 });
    await emptyQueue('recharge');
  });

  it('marks a certification late after a day, and finds it by the customer', async () => {
    await emptyQueue('certification');
    const user = await customer(h);
    const image = await uploadedPicture(h, user.token);
    const sent = await h.call(
      submitCertification,
      { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
      { token: user.token },
    );
    expect(sent.ret, sent.msg).toBe(1);
    h.clock.advance(23 * 60 * MINUTE);
    await signBackIn();
    expect((await queue(reviewer1, { kind: 'certification', query: user.phone })).lists).toMatchObject([
      { order_no: '', amount: null, detail: 'primary · Somchai Jaidee', late: false },
    ]);
    h.clock.advance(61 * MINUTE);
    await signBackIn();
    expect((await queue(reviewer1, { kind: 'certification' })).lists).toMatchObject([{ late: true }]);
    expect((await queue(reviewer1, { kind: 'certification' })).target_minutes).toBe(24 * 60);
  });
});

describe('claims', () => {
  it('gives an item to exactly one of two reviewers asking at once; the queue names the holder', async () => {
    const user = await customer(h);
    const orders = [await cryptoRecharge(h, user.token, '15'), await cryptoRecharge(h, user.token, '16')];
    for (const order of orders) {
      const answers = await Promise.all([
        claim(reviewer1, 'recharge', order.id),
        claim(reviewer2, 'recharge', order.id),
      ]);
      expect(answers.map((answer) => answer.ret)).toEqual([1, 1]);
      expect(answers.filter((answer) => answer.data.mine)).toHaveLength(1);
      const holder = answers.find((answer) => answer.data.mine)!.data.holder;
      // Both answers name the one holder.
      expect(answers.map((answer) => answer.data.holder)).toEqual([holder, holder]);
      const listed = (await queue(reviewer1, { kind: 'recharge', query: order.order_no })).lists[0];
      expect(listed?.claimed_by).toBe(holder);
    }
  });

  it('is renewed by its holder, runs out after CLAIM_MINUTES, and is released by its holder only', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '17');
    const first = await claim(reviewer1, 'recharge', order.id);
    expect(first.data).toMatchObject({ holder: 'reviewer1', mine: true });
    h.clock.advance(4 * MINUTE);
    const renewed = await claim(reviewer1, 'recharge', order.id);
    // A renewal keeps when the claim began and moves when it ends.
    expect(renewed.data.claimed_at).toBe(first.data.claimed_at);
    expect(new Date(renewed.data.expires_at!).getTime() - h.clock.now().getTime()).toBe(q.CLAIM_MINUTES * MINUTE);
    expect((await claim(reviewer2, 'recharge', order.id)).data).toMatchObject({ holder: 'reviewer1', mine: false });
    expect(
      (await h.call(q.consoleReleaseItem, { kind: 'recharge', id: String(order.id) }, as(reviewer2))).data,
    ).toMatchObject({ holder: 'reviewer1' });
    h.clock.advance(q.CLAIM_MINUTES * MINUTE);
    expect((await queue(reviewer2, { kind: 'recharge', query: order.order_no })).lists[0]?.claimed_by).toBeNull();
    expect((await claim(reviewer2, 'recharge', order.id)).data).toMatchObject({ holder: 'reviewer2', mine: true });
    expect(
      (await h.call(q.consoleReleaseItem, { kind: 'recharge', id: String(order.id) }, as(reviewer2))).data,
    ).toMatchObject({ holder: null, mine: false });
    expect((await claim(reviewer1, 'recharge', order.id)).data).toMatchObject({ holder: 'reviewer1', mine: true });
  });

  it('ends with the decision (whoever decides); a decided item cannot be claimed', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '18');
    expect((await claim(reviewer1, 'recharge', order.id)).data.mine).toBe(true);
    // The claim is advice: reviewer2 may still decide, and the decision ends reviewer1's claim.
    expect((await h.call(c.consoleApproveRecharge, { id: String(order.id) }, as(reviewer2))).ret).toBe(1);
    const left = await h.database.db
      .select()
      .from(reviewClaims)
      .where(and(eq(reviewClaims.kind, 'recharge'), eq(reviewClaims.itemId, order.id)));
    expect(left).toEqual([]);
    expect(await claim(reviewer1, 'recharge', order.id)).toMatchObject({
      ret: 0,
      msg: expect.stringContaining(String(order.id)),
    });
    expect(await claim(reviewer1, 'recharge', 999_999)).toMatchObject({ ret: 0 });
  });

  it('is taken over only when asked, with an audit entry naming both operators', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '19');
    await claim(reviewer1, 'recharge', order.id);
    const taken = await claim(reviewer2, 'recharge', order.id, true);
    expect(taken.data).toMatchObject({ holder: 'reviewer2', mine: true });
    expect((await claim(reviewer1, 'recharge', order.id)).data).toMatchObject({ holder: 'reviewer2', mine: false });
    const entries = await h.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `recharge:${order.id}`));
    expect(entries).toMatchObject([
      {
        operator: 'reviewer2',
        action: 'review.takeover',
        before: { holder: 'reviewer1' },
        after: { holder: 'reviewer2' },
      },
    ]);
    // Taking over one's own claim, or a free item, is a plain claim: no entry.
    await claim(reviewer2, 'recharge', order.id, true);
    expect(
      await h.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `recharge:${order.id}`)),
    ).toHaveLength(1);
  });

  it('gives the next oldest item nobody else holds after a decision, and none when the queue is done', async () => {
    await emptyQueue('recharge');
    const user = await customer(h);
    const [a, b, d] = [
      await cryptoRecharge(h, user.token, '21'),
      await cryptoRecharge(h, user.token, '22'),
      await cryptoRecharge(h, user.token, '23'),
    ];
    await claim(reviewer2, 'recharge', b.id);
    const next = async (token: string) =>
      (await h.call(q.consoleClaimNext, { kind: 'recharge' }, as(token))).data?.id ?? null;
    expect(await next(reviewer1)).toBe(a.id);
    await h.call(c.consoleApproveRecharge, { id: String(a.id) }, as(reviewer1));
    // b is reviewer2's: reviewer1 gets d, reviewer2 asking again gets its own b back.
    expect(await next(reviewer1)).toBe(d.id);
    expect(await next(reviewer2)).toBe(b.id);
    await h.call(c.consoleApproveRecharge, { id: String(d.id) }, as(reviewer1));
    expect(await next(reviewer1)).toBeNull();
  });
});

describe('four eyes', () => {
  it('tells the first approver of a large withdrawal that a second operator must approve, and skips it for them', async () => {
    await emptyQueue('withdrawal');
    const user = await customer(h, '30000');
    const card = await addCard(h, user.token);
    const order = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '20000' });
    const id = String(order.id);
    await claim(reviewer1, 'withdrawal', order.id);
    expect((await h.call(c.consoleWithdrawal, { id }, as(reviewer1))).data.approved_by_you).toBe(false);
    expect((await h.call(c.consoleApproveWithdrawal, { id }, as(reviewer1))).data).toMatchObject({
      status: 'review',
      approvals: ['reviewer1'],
    });
    expect((await h.call(c.consoleWithdrawal, { id }, as(reviewer1))).data.approved_by_you).toBe(true);
    expect((await h.call(c.consoleWithdrawal, { id }, as(reviewer2))).data.approved_by_you).toBe(false);
    // The first approval frees it for the second reviewer; the queue shows the approval.
    expect((await queue(reviewer2, { kind: 'withdrawal' })).lists).toMatchObject([
      { id: order.id, approvals: ['reviewer1'], approvals_needed: 2, claimed_by: null },
    ]);
    expect((await h.call(q.consoleClaimNext, { kind: 'withdrawal' }, as(reviewer1))).data).toBeNull();
    expect((await h.call(q.consoleClaimNext, { kind: 'withdrawal' }, as(reviewer2))).data).toMatchObject({
      id: order.id,
      mine: true,
    });
    // The server still refuses her second approval.
    expect(await h.call(c.consoleApproveWithdrawal, { id }, as(reviewer1))).toMatchObject({ ret: 0 });
  });

  it('shows the first approval of a large recharge in the queue by its credit, and skips it for its approver', async () => {
    await emptyQueue('recharge');
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '12000');
    const id = String(order.id);
    await claim(reviewer1, 'recharge', order.id);
    expect((await h.call(c.consoleApproveRecharge, { id }, as(reviewer1))).data).toMatchObject({
      status: 'pending',
      approvals: ['reviewer1'],
    });
    expect((await queue(reviewer2, { kind: 'recharge' })).lists).toMatchObject([
      { id: order.id, approvals: ['reviewer1'], approvals_needed: 2, claimed_by: null },
    ]);
    expect((await h.call(q.consoleClaimNext, { kind: 'recharge' }, as(reviewer1))).data).toBeNull();
    expect((await h.call(q.consoleClaimNext, { kind: 'recharge' }, as(reviewer2))).data).toMatchObject({
      id: order.id,
      mine: true,
    });
    expect((await h.call(c.consoleApproveRecharge, { id }, as(reviewer2))).data).toMatchObject({ status: 'success' });
  });
});

describe('claims across two server processes on one PostgreSQL', () => {
  let servers: ServerProcess[] = [];
  let tokens: string[] = [];
  beforeAll(async () => {
    const [{ name }] = rowsOf<{ name: string }>(
      await h.database.db.execute(sql`select current_database() as name`),
    ) as [{ name: string }];
    const env = {
      NODE_ENV: 'development',
      DATABASE_URL: inject('pgAdminUrl').replace(/\/[^/]*$/, `/${name}`),
      WEB_ROOT: '',
      WORKERS: '',
      TRUST_PROXY_HOPS: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    };
    servers = await Promise.all(['first', 'second'].map((server) => startServer({ name: server, env })));
    // The servers keep real time: sessions made now, on the same clock.
    h.clock.set(new Date());
    tokens = [await operatorToken(h, 'reviewer3', 'reviewer'), await operatorToken(h, 'reviewer4', 'reviewer')];
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  const claimOn = async (server: number, id: number) => {
    const response = await fetch(`${servers[server]!.base}/api/console/claim`, {
      method: 'POST',
      headers: { lang: 'en', token: tokens[server]!, 'content-type': 'application/x-www-form-urlencoded' },
      body: `kind=recharge&id=${id}`,
    });
    return (await response.json()) as { ret: number; data: q.ReviewClaim };
  };

  it('gives each item to exactly one of two reviewers on two processes', async () => {
    for (let n = 0; n < 6; n++) {
      const order = await cryptoRecharge(h, (await customer(h)).token, String(100 + n));
      const answers = await Promise.all([claimOn(0, order.id), claimOn(1, order.id)]);
      expect(answers.map((answer) => answer.ret)).toEqual([1, 1]);
      expect(answers.filter((answer) => answer.data.mine)).toHaveLength(1);
      const [row, ...more] = await h.database.db
        .select()
        .from(reviewClaims)
        .where(and(eq(reviewClaims.kind, 'recharge'), eq(reviewClaims.itemId, order.id)));
      expect(more).toEqual([]);
      expect(answers.map((answer) => answer.data.holder)).toEqual([
        answers.find((answer) => answer.data.mine)!.data.holder,
        answers.find((answer) => answer.data.mine)!.data.holder,
      ]);
      expect(row).toBeTruthy();
    }
  });
});
