// Recharges: a customer reports a payment, nothing is credited until the operator approves
// it; an approval credits once (balance, cumulative recharge, VIP level), a rejection credits
// nothing and carries a reason the customer sees. Refusals answer their texts and record nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import {
  addTronWallet,
  approvedRecharge,
  balanceOf,
  cryptoRecharge,
  fundsState,
  newHash,
  ops,
  payoutReported,
  opsOk,
  picturePng,
  uploadedPicture,
  withdrawn,
} from './funds-helpers.ts';
import { rechargeChannels, rechargeOrder, rechargeRecords, submitRecharge } from '../../src/api-contract/funds.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { levelProgress } from '../../src/api-contract/rewards.ts';
import { ledgerEntries, rechargeChannels as channels } from '../../src/server/db/schema.ts';
import { readAddress } from '../../src/api-contract/chain-address.ts';
import { consoleRecharge } from '../../src/api-contract/console.ts';
import { depositAddressOf } from '../../src/server/domain/deposit-addresses.ts';
import { operatorToken } from './console-helpers.ts';
import type { CHAINS } from '../../src/api-contract/constants.ts';

type Chain = (typeof CHAINS)[number];
/** A valid BEP20 address an operator might have set (EIP-55). */
const OPERATOR_SET = '0x14A85a23ebde84805576a35fc5555873Df336831'.toLowerCase();
import { MAX_PENDING_RECHARGES } from '../../src/api-contract/constants.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const entriesOf = (userId: number) =>
  h.database.db
    .select({
      kind: ledgerEntries.kind,
      asset: ledgerEntries.asset,
      bucket: ledgerEntries.bucket,
      amount: ledgerEntries.amount,
      reference: ledgerEntries.reference,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .orderBy(asc(ledgerEntries.id));

it('lists the active channels: three USDT chains at rate 1 and the baht bank account at the THB rate', async () => {
  const user = await customer(h);
  const res = await h.call(rechargeChannels, {}, { token: user.token });
  expect(res.ret).toBe(1);
  expect(res.data.lists.map((c) => [c.id, c.kind, c.currency, c.asset, c.chain, c.rate, c.min_amount])).toEqual([
    [1, 'crypto', 'USDT', 'USDT', 'TRC20', '1.00000000', '10.00000000'],
    [2, 'crypto', 'USDT', 'USDT', 'ERC20', '1.00000000', '20.00000000'],
    [3, 'crypto', 'USDT', 'USDT', 'BEP20', '1.00000000', '10.00000000'],
    [4, 'bank', 'THB', 'USDT', null, '33.80000000', '300.00000000'],
  ]);
});

/** Runs a migration's data statements again on this database, as an older one's rows are brought up to date (its
 * columns exist already). */
async function runMigration(file: string): Promise<void> {
  const migration = readFileSync(new URL(`../../src/server/db/migrations/${file}`, import.meta.url), 'utf8');
  for (const statement of migration.split('--> statement-breakpoint'))
    if (!statement.includes('ALTER TABLE')) await h.database.db.execute(sql.raw(statement));
}
const channelRows = async () =>
  new Map(
    (await h.database.db.select().from(channels).where(eq(channels.kind, 'crypto'))).map((row) => [row.chain, row]),
  );

it('shows each customer their own deposit address, derived from the channel’s key, that passes its chain’s check', async () => {
  const [first, second] = [await customer(h), await customer(h)];
  const shown = async (token: string) =>
    (await h.call(rechargeChannels, {}, { token })).data.lists.filter((c) => c.kind === 'crypto');
  const rows = await channelRows();
  const [mine, theirs] = [await shown(first.token), await shown(second.token)];
  expect(mine.map((channel) => channel.chain)).toEqual(['TRC20', 'ERC20', 'BEP20']);
  mine.forEach((channel, index) => {
    const row = rows.get(channel.chain)!;
    expect(channel.address).toBe(depositAddressOf(channel.chain as Chain, row.xpub!, first.id));
    expect(readAddress(channel.chain as Chain, channel.address)).toEqual({ ok: true, address: channel.address });
    // Nobody else is shown it, nor the channel's one shared address.
    expect(channel.address).not.toBe(theirs[index]!.address);
    expect(channel.address).not.toBe(row.address);
  });
  // The recharge records where the customer was told to pay, and the reviewer reads it beside the hash.
  const order = await cryptoRecharge(h, first.token, '25', String(mine[0]!.id));
  expect(order.address).toBe(mine[0]!.address);
  const admin = await operatorToken(h, 'recharge-reader', 'reviewer');
  expect((await h.call(consoleRecharge, { id: String(order.id) }, { token: admin })).data).toMatchObject({
    chain: 'TRC20',
    address: mine[0]!.address,
  });
  // A channel without a key shows its one address to everyone.
  await h.database.db.update(channels).set({ xpub: null }).where(eq(channels.chain, 'BEP20'));
  try {
    expect((await shown(second.token)).find((c) => c.chain === 'BEP20')!.address).toBe(rows.get('BEP20')!.address);
  } finally {
    await h.database.db
      .update(channels)
      .set({ xpub: rows.get('BEP20')!.xpub })
      .where(eq(channels.chain, 'BEP20'));
  }
});

it('keeps seeded addresses that pass their chain’s check; the migrations mend the channels seeded before', async () => {
  const before = await channelRows();
  for (const row of before.values())
    expect(readAddress(row.chain as Chain, row.address)).toEqual({ ok: true, address: row.address });

  // A database seeded before: the old demo addresses, which fail their checksums, and no keys.
  const old = { TRC20: 'TQrZ8kB6mDn9yV3xWcYhJ4sPfE2uA7LgKt', ERC20: '0x7d3B4e1A9c0F2b6E8a5D9c1F3e7A2b4C6d8E0f1A' };
  for (const [chain, address] of Object.entries(old)) {
    expect(readAddress(chain as Chain, address)).toMatchObject({ ok: false, problem: 'checksum' });
    await h.database.db.update(channels).set({ address }).where(eq(channels.chain, chain));
  }
  await h.database.db.update(channels).set({ xpub: null });
  // An address set by an operator stays as it is, and gets no demo key.
  await h.database.db.update(channels).set({ address: OPERATOR_SET }).where(eq(channels.chain, 'BEP20'));
  await runMigration('0027_demo_deposit_addresses.sql');
  await runMigration('0047_deposit_address_per_customer.sql');
  const after = await channelRows();
  for (const chain of ['TRC20', 'ERC20']) expect(after.get(chain)).toEqual(before.get(chain));
  expect(after.get('BEP20')).toMatchObject({ address: OPERATOR_SET, xpub: null });
  await h.database.db
    .update(channels)
    .set({ address: before.get('BEP20')!.address, xpub: before.get('BEP20')!.xpub })
    .where(eq(channels.chain, 'BEP20'));
});

describe('approval', () => {
  it('credits nothing while pending; the approval credits the balance, the cumulative recharge and the VIP level', async () => {
    const user = await customer(h);
    const hash = newHash();
    const submitted = await h.call(
      submitRecharge,
      { kind: 'crypto', channel_id: '1', amount: '25.5', hash },
      { token: user.token },
    );
    expect(submitted).toMatchObject({
      ret: 1,
      data: {
        kind: 'crypto',
        chain: 'TRC20',
        currency: 'USDT',
        amount: '25.50000000',
        rate: '1.00000000',
        actual_amount: '25.50000000',
        hash,
        status: 'pending',
        reason: '',
        reviewed_at: null,
      },
    });
    expect(submitted.data.order_no).toBe(`R20261122${String(submitted.data.id).padStart(6, '0')}`);
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '0.00000000' });
    expect((await h.call(userInfo, {}, { token: user.token })).data).toMatchObject({
      level: 0,
      recharge_total: '0.00000000',
    });

    const output = await opsOk(
      h,
      'recharge',
      'approve',
      String(submitted.data.id),
      'height=81234567',
      'remark=checked on tronscan',
    );
    expect(output).toContain('25.5 USDT credited');
    expect(await balanceOf(h, user.id)).toEqual({ available: '25.50000000', frozen: '0.00000000' });
    expect(await entriesOf(user.id)).toEqual([
      {
        kind: 'recharge',
        asset: 'USDT',
        bucket: 'available',
        amount: '25.50000000',
        reference: `recharge:${submitted.data.id}`,
      },
    ]);
    expect((await h.call(userInfo, {}, { token: user.token })).data).toMatchObject({
      level: 1,
      recharge_total: '25.50000000',
    });
    expect((await h.call(levelProgress, {}, { token: user.token })).data).toEqual({
      level: 1,
      name: 'VIP1',
      recharge_total: '25.50000000',
      next_level: 2,
      next_name: 'VIP2',
      next_start: '500',
      needed: '474.50000000',
    });
    expect((await h.call(rechargeOrder, { id: String(submitted.data.id) }, { token: user.token })).data).toMatchObject({
      status: 'success',
      block_height: '81234567',
      remark: 'checked on tronscan',
      reviewed_at: h.clock.now().toISOString(),
    });
  });

  it('a second approval, or a rejection after it, is refused and credits nothing more', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '40');
    await opsOk(h, 'recharge', 'approve', String(order.id));
    const after = await fundsState(h, user.id);
    const info = (await h.call(userInfo, {}, { token: user.token })).data;

    expect(await ops(h, 'recharge', 'approve', String(order.id))).toEqual({
      ok: false,
      output: `Recharge ${order.order_no} was already reviewed (Approved).`,
    });
    expect(await ops(h, 'recharge', 'reject', String(order.id), 'too late')).toEqual({
      ok: false,
      output: `Recharge ${order.order_no} was already reviewed (Approved).`,
    });
    expect(await fundsState(h, user.id)).toEqual(after);
    expect((await h.call(userInfo, {}, { token: user.token })).data).toEqual(info);
    expect(info.recharge_total).toBe('40.00000000');
  });

  it('two approvals at once credit once', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '30');
    const results = await Promise.all([
      ops(h, 'recharge', 'approve', String(order.id)),
      ops(h, 'recharge', 'approve', String(order.id)),
    ]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(await balanceOf(h, user.id)).toEqual({ available: '30.00000000', frozen: '0.00000000' });
    expect((await h.call(userInfo, {}, { token: user.token })).data.recharge_total).toBe('30.00000000');
  });
});

describe('rejection', () => {
  it('credits nothing and shows the reason; it cannot be approved afterwards, and the hash may be claimed again', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '50');
    expect(await opsOk(h, 'recharge', 'reject', String(order.id), 'No such transaction on the TRON chain')).toContain(
      'rejected',
    );

    expect(await h.call(rechargeOrder, { id: String(order.id) }, { token: user.token })).toMatchObject({
      ret: 1,
      data: {
        status: 'rejected',
        reason: 'No such transaction on the TRON chain',
        reviewed_at: h.clock.now().toISOString(),
      },
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '0.00000000' });
    expect(await entriesOf(user.id)).toEqual([]);
    expect((await h.call(userInfo, {}, { token: user.token })).data).toMatchObject({
      level: 0,
      recharge_total: '0.00000000',
    });

    expect(await ops(h, 'recharge', 'approve', String(order.id))).toEqual({
      ok: false,
      output: `Recharge ${order.order_no} was already reviewed (Rejected).`,
    });
    expect(await balanceOf(h, user.id)).toEqual({ available: '0.00000000', frozen: '0.00000000' });
    // A rejected claim does not block the rightful one.
    expect(
      (
        await h.call(
          submitRecharge,
          { kind: 'crypto', channel_id: '1', amount: '50', hash: order.hash },
          { token: user.token },
        )
      ).ret,
    ).toBe(1);
  });

  it('the records split into unfinished and completed', async () => {
    const user = await customer(h);
    const pending = await cryptoRecharge(h, user.token, '10');
    const approved = await cryptoRecharge(h, user.token, '11');
    const rejected = await cryptoRecharge(h, user.token, '12');
    await opsOk(h, 'recharge', 'approve', String(approved.id));
    await opsOk(h, 'recharge', 'reject', String(rejected.id), 'Wrong amount');
    const ids = async (status: string) =>
      (await h.call(rechargeRecords, { status }, { token: user.token })).data.lists.map((o) => o.id);
    expect(await ids('all')).toEqual([rejected.id, approved.id, pending.id]);
    expect(await ids('unfinished')).toEqual([pending.id]);
    expect(await ids('completed')).toEqual([rejected.id, approved.id]);
  });
});

/** A customer with 1,000 USDT and a withdrawal of 500 of it to their TRON wallet, waiting for review. */
async function withdrawing() {
  const user = await customer(h, '1000');
  const wallet = await addTronWallet(h, user.token);
  return {
    user,
    order: await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '500' }),
  };
}

describe('refusals record nothing', () => {
  async function expectRefused(token: string, userId: number, input: Record<string, string>, msg: string) {
    const before = await fundsState(h, userId);
    expect(await h.call(submitRecharge, input, { token })).toEqual(refused(msg));
    expect(await fundsState(h, userId)).toEqual(before);
  }

  it('refuses a hash already submitted, by the same user or another, pending or credited', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const order = await cryptoRecharge(h, a.token, '15');
    const used = 'This transaction hash has already been submitted!';
    await expectRefused(a.token, a.id, { kind: 'crypto', channel_id: '1', amount: '15', hash: order.hash }, used);
    await expectRefused(b.token, b.id, { kind: 'crypto', channel_id: '3', amount: '99', hash: order.hash }, used);
    await opsOk(h, 'recharge', 'approve', String(order.id));
    await expectRefused(b.token, b.id, { kind: 'crypto', channel_id: '1', amount: '15', hash: order.hash }, used);
  });

  // A hex transaction hash names the same payment in any letter case or with its "0x" prefix.
  it('refuses the same transaction hash spelt in capitals or with "0x" or "0X"', async () => {
    const user = await customer(h);
    const order = await cryptoRecharge(h, user.token, '100');
    const used = 'This transaction hash has already been submitted!';
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '1', amount: '100', hash: order.hash.toUpperCase() },
      used,
    );
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '2', amount: '100', hash: `0x${order.hash}` },
      used,
    );
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '1', amount: '100', hash: `0X${order.hash.toUpperCase()}` },
      used,
    );
  });

  // A payout of the platform moved the coin from its wallet to the customer's: the same transaction is no deposit, and
  // seen on a chain explorer it is a real, confirmed transfer of the very amount.
  it('refuses the hash of a withdrawal the platform paid out, however the operator spelt it', async () => {
    const { user, order } = await withdrawing();
    const payout = newHash();
    await opsOk(h, 'withdrawal', 'approve', String(order.id), `hash=0x${payout.toUpperCase()}`);
    const paidOut = 'This transaction is a withdrawal the platform paid out, not a recharge!';
    for (const hash of [payout, `0x${payout}`, payout.toUpperCase()])
      await expectRefused(user.token, user.id, { kind: 'crypto', channel_id: '1', amount: '500', hash }, paidOut);
    const other = await customer(h);
    await expectRefused(
      other.token,
      other.id,
      { kind: 'crypto', channel_id: '2', amount: '500', hash: payout },
      paidOut,
    );
  });

  // The payee's wallet shows the incoming transfer as soon as it is sent, before the operator records its hash.
  it('a payout reported as a recharge before its hash was recorded is not credited: the approval is refused', async () => {
    const { user, order, payout, reported } = await payoutReported(h);
    await opsOk(h, 'withdrawal', 'approve', String(order.id), `hash=0x${payout}`);
    const before = await fundsState(h, user.id);
    expect(await ops(h, 'recharge', 'approve', String(reported.data.id))).toEqual({
      ok: false,
      output: 'This recharge’s transaction is a withdrawal the platform paid out: reject it.',
    });
    expect(await fundsState(h, user.id)).toEqual(before);
    await opsOk(h, 'recharge', 'reject', String(reported.data.id), 'A withdrawal paid to you');
  });

  // The deposit wallet's history lists incoming deposits beside the payouts: a line copied from the wrong row.
  it('a payout is not recorded with the hash of a deposit: the customer would read another transfer as theirs', async () => {
    const depositor = await customer(h);
    const deposit = await approvedRecharge(h, depositor.token, '300');
    const { user, order } = await withdrawing();
    const before = await fundsState(h, user.id);
    const text = 'This transaction is a recharge credited to a customer, not a payout: check the hash.';
    for (const hash of [deposit.hash, `0x${deposit.hash.toUpperCase()}`])
      expect(await ops(h, 'withdrawal', 'approve', String(order.id), `hash=${hash}`)).toEqual({
        ok: false,
        output: text,
      });
    expect(await fundsState(h, user.id)).toEqual(before);
    await opsOk(h, 'withdrawal', 'approve', String(order.id), `hash=${newHash()}`);
  });

  it('refuses a hash shorter than 60 letters and digits with its text; 60 is enough', async () => {
    const user = await customer(h);
    const text = 'The transaction hash must be at least 60 letters and digits!';
    const hash = newHash().slice(0, 60);
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '1', amount: '10', hash: hash.slice(0, 59) },
      text,
    );
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '1', amount: '10', hash: `${hash.slice(0, 59)}-` },
      text,
    );
    await expectRefused(user.token, user.id, { kind: 'crypto', channel_id: '1', amount: '10', hash: '' }, text);
    expect(
      (await h.call(submitRecharge, { kind: 'crypto', channel_id: '1', amount: '10', hash }, { token: user.token }))
        .ret,
    ).toBe(1);
  });

  it('refuses an amount below the channel minimum; the minimum itself is accepted', async () => {
    const user = await customer(h);
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '1', amount: '9.99999999', hash: newHash() },
      'The minimum amount is: 10 USDT!',
    );
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '2', amount: '19.99', hash: newHash() },
      'The minimum amount is: 20 USDT!',
    );
    const proof = await uploadedPicture(h, user.token);
    await expectRefused(
      user.token,
      user.id,
      { kind: 'bank', channel_id: '4', amount: '299.99', proof },
      'The minimum amount is: 300 THB!',
    );
    expect(
      (
        await h.call(
          submitRecharge,
          { kind: 'crypto', channel_id: '2', amount: '20', hash: newHash() },
          { token: user.token },
        )
      ).ret,
    ).toBe(1);
  });

  it('refuses a bank transfer in baht with more than two decimals; satang are taken', async () => {
    const user = await customer(h);
    const proof = await uploadedPicture(h, user.token);
    await expectRefused(
      user.token,
      user.id,
      { kind: 'bank', channel_id: '4', amount: '1000.125', proof },
      'An amount in THB has at most 2 decimal places!',
    );
    const th = await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '1000.12345678', proof },
      { token: user.token, lang: 'th' },
    );
    expect(th).toEqual(refused('จำนวนเงินสกุล THB มีทศนิยมได้ไม่เกิน 2 ตำแหน่ง!'));
    const taken = await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '1000.50000000', proof },
      { token: user.token },
    );
    expect(taken).toMatchObject({ ret: 1 });
  });

  it('refuses a channel of the other kind or one that does not exist', async () => {
    const user = await customer(h);
    const text = 'This recharge method is not available!';
    await expectRefused(user.token, user.id, { kind: 'crypto', channel_id: '4', amount: '500', hash: newHash() }, text);
    await expectRefused(
      user.token,
      user.id,
      { kind: 'bank', channel_id: '1', amount: '500', proof: await uploadedPicture(h, user.token) },
      text,
    );
    await expectRefused(
      user.token,
      user.id,
      { kind: 'crypto', channel_id: '99', amount: '500', hash: newHash() },
      text,
    );
  });

  it(`refuses more than ${MAX_PENDING_RECHARGES} recharges waiting for review`, async () => {
    const user = await customer(h);
    for (let n = 0; n < MAX_PENDING_RECHARGES; n++) await cryptoRecharge(h, user.token, '10');
    const text = 'You have too many orders waiting for review, please wait for them to be processed!';
    await expectRefused(user.token, user.id, { kind: 'crypto', channel_id: '1', amount: '10', hash: newHash() }, text);
  });
});

describe('bank transfer', () => {
  it('needs a receipt the customer uploaded; another user’s picture is refused', async () => {
    const owner = await customer(h);
    const user = await customer(h);
    const theirs = await uploadedPicture(h, owner.token);
    const before = await fundsState(h, user.id);
    const text = 'Please upload the transfer receipt!';
    expect(
      await h.call(
        submitRecharge,
        { kind: 'bank', channel_id: '4', amount: '1000', proof: theirs },
        { token: user.token },
      ),
    ).toEqual(refused(text));
    expect(
      await h.call(submitRecharge, { kind: 'bank', channel_id: '4', amount: '1000', proof: '' }, { token: user.token }),
    ).toEqual(refused(text));
    expect(
      await h.call(
        submitRecharge,
        { kind: 'bank', channel_id: '4', amount: '1000', proof: '/api/uploads/doesnotexist123' },
        { token: user.token },
      ),
    ).toEqual(refused(text));
    expect(await fundsState(h, user.id)).toEqual(before);
  });

  it('takes one receipt for one recharge: sent again it is refused, nothing recorded; once rejected it may be', async () => {
    const user = await customer(h);
    const proof = await uploadedPicture(h, user.token);
    const form = { kind: 'bank', channel_id: '4', amount: '1000', proof };
    const first = await h.call(submitRecharge, form, { token: user.token });
    expect(first).toMatchObject({ ret: 1 });
    const before = await fundsState(h, user.id);
    for (const [lang, text] of [
      ['en', 'This transfer receipt has already been submitted!'],
      ['th', 'สลิปการโอนนี้ถูกส่งไปแล้ว'],
    ] as const)
      expect(await h.call(submitRecharge, { ...form, amount: '2000' }, { token: user.token, lang })).toEqual(
        refused(text),
      );
    expect(await fundsState(h, user.id)).toEqual(before);
    await opsOk(h, 'recharge', 'reject', String(first.data.id), 'The amount does not match the receipt');
    expect(await h.call(submitRecharge, form, { token: user.token })).toMatchObject({ ret: 1 });
  });

  it('takes one receipt picture for one recharge, uploaded again or by another account; once rejected it may be', async () => {
    const [user, other] = [await customer(h), await customer(h)];
    const picture = picturePng();
    const first = await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '1000', proof: await uploadedPicture(h, user.token, picture) },
      { token: user.token },
    );
    expect(first).toMatchObject({ ret: 1 });
    const again = async (token: string, id: number, lang = 'en') => {
      const before = await fundsState(h, id);
      const form = { kind: 'bank', channel_id: '4', amount: '1000', proof: await uploadedPicture(h, token, picture) };
      const answer = await h.call(submitRecharge, form, { token, lang });
      if (answer.ret === 0) expect(await fundsState(h, id)).toEqual(before);
      return answer;
    };
    // The same file uploaded a second time is a new picture URL, the same receipt.
    expect(await again(user.token, user.id)).toEqual(refused('This transfer receipt has already been submitted!'));
    // Another account's copy of it (a friend's receipt, or one found) is the same transfer.
    expect(await again(other.token, other.id, 'th')).toEqual(refused('สลิปการโอนนี้ถูกส่งไปแล้ว'));
    await opsOk(h, 'recharge', 'approve', String(first.data.id));
    expect(await again(other.token, other.id)).toEqual(refused('This transfer receipt has already been submitted!'));
    // A different picture is another receipt.
    expect(
      await h.call(
        submitRecharge,
        { kind: 'bank', channel_id: '4', amount: '1000', proof: await uploadedPicture(h, other.token) },
        { token: other.token },
      ),
    ).toMatchObject({ ret: 1 });
  });

  it('takes one receipt picture once when two accounts send it at the same moment', async () => {
    const [user, other] = [await customer(h), await customer(h)];
    const picture = picturePng();
    const forms = await Promise.all(
      [user, other].map(async ({ token }) => ({
        token,
        form: { kind: 'bank', channel_id: '4', amount: '500', proof: await uploadedPicture(h, token, picture) },
      })),
    );
    const answers = await Promise.all(forms.map(({ token, form }) => h.call(submitRecharge, form, { token })));
    expect(answers.map(({ ret }) => ret).sort()).toEqual([0, 1]);
    expect(answers.find(({ ret }) => ret === 0)).toEqual(refused('This transfer receipt has already been submitted!'));
  });

  it('takes a receipt sent again after its recharge was rejected', async () => {
    const user = await customer(h);
    const picture = picturePng();
    const form = async () => ({
      kind: 'bank',
      channel_id: '4',
      amount: '1000',
      proof: await uploadedPicture(h, user.token, picture),
    });
    const first = await h.call(submitRecharge, await form(), { token: user.token });
    await opsOk(h, 'recharge', 'reject', String(first.data.id), 'The amount does not match the receipt');
    expect(await h.call(submitRecharge, await form(), { token: user.token })).toMatchObject({ ret: 1 });
  });

  it('credits the baht amount ÷ the THB rate, rounded down to 8 decimals, in USDT', async () => {
    const user = await customer(h);
    const proof = await uploadedPicture(h, user.token);
    const res = await h.call(
      submitRecharge,
      { kind: 'bank', channel_id: '4', amount: '1000', proof },
      { token: user.token },
    );
    // 1000 ÷ 33.80 = 29.585798816…
    expect(res).toMatchObject({
      ret: 1,
      data: {
        kind: 'bank',
        currency: 'THB',
        amount: '1000.00000000',
        rate: '33.80000000',
        asset: 'USDT',
        actual_amount: '29.58579881',
        proof,
        hash: '',
      },
    });
    await opsOk(h, 'recharge', 'approve', String(res.data.id));
    expect(await balanceOf(h, user.id)).toEqual({ available: '29.58579881', frozen: '0.00000000' });
    expect((await h.call(userInfo, {}, { token: user.token })).data).toMatchObject({
      level: 1,
      recharge_total: '29.58579881',
    });
  });
});
