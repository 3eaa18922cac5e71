// The operator's commands for money and certification (run as `npm run ops -- …`): the lists show
// what waits for review, a rejection needs the reason the customer will see, test balances are
// refused in production, and a mistake prints how to do it right, changing nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced } from './helpers.ts';
import {
  addCard,
  addTronWallet,
  balanceOf,
  cryptoRecharge,
  fundsState,
  ops,
  opsOk,
  uploadedPicture,
  withdrawn,
} from './funds-helpers.ts';
import { USAGE, runOperatorCommand } from '../../src/server/ops/commands.ts';
import { userInfo } from '../../src/api-contract/account.ts';
import { submitCertification } from '../../src/api-contract/certification.ts';
import { certifications } from '../../src/server/db/schema.ts';
import { addDays } from '../../src/api-contract/earn.ts';
import { lockupOrders, lockupProduct, lockupSubscribe } from '../../src/api-contract/lockup.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const usernameOf = async (token: string) => (await h.call(userInfo, {}, { token })).data.username;
/** A username in a pattern as itself (a mobile number's `+` included). */
const inPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Data lines of a printed table (the header and its rule dropped). */
const rowsOf = (output: string) => output.split('\n').slice(2);

describe('the lists', () => {
  it('recharges: the pending ones by default, with who, how much, what is credited and the hash', async () => {
    expect(await opsOk(h, 'recharges')).toBe('No pending recharges.');
    const user = await customer(h);
    const name = await usernameOf(user.token);
    const waiting = await cryptoRecharge(h, user.token, '12.5');
    const approved = await cryptoRecharge(h, user.token, '30');
    await opsOk(h, 'recharge', 'approve', String(approved.id));

    const pending = await opsOk(h, 'recharges');
    expect(pending.split('\n')[0]).toMatch(/^id\s+order\s+user\s+channel\s+paid\s+credit\s+evidence\s+status\s+at$/);
    expect(rowsOf(pending)).toHaveLength(1);
    expect(rowsOf(pending)[0]).toMatch(
      new RegExp(
        `^${waiting.id}\\s+${waiting.order_no}\\s+${inPattern(name)}\\s+USDT \\(TRC20\\)\\s+12\\.5 USDT\\s+12\\.5 USDT\\s+${waiting.hash}\\s+pending\\s`,
      ),
    );
    expect(rowsOf(await opsOk(h, 'recharges', 'success'))).toEqual([
      expect.stringMatching(new RegExp(`^${approved.id}\\s.*\\s30 USDT\\s+30 USDT\\s.*\\ssuccess\\s`)),
    ]);
    expect(rowsOf(await opsOk(h, 'recharges', 'all'))).toHaveLength(2);
    expect(await ops(h, 'recharges', 'waiting')).toEqual({
      ok: false,
      output: 'Use one of: pending, success, rejected, all.',
    });
  });

  it('withdrawals: the ones in review, with the payee in full (the operator pays it) and the baht amount', async () => {
    const user = await customer(h, '500');
    const name = await usernameOf(user.token);
    const card = await addCard(h, user.token, { bank_number: '555000111222' });
    const wallet = await addTronWallet(h, user.token);
    const toBank = await withdrawn(h, user.token, { target: 'bank', target_id: String(card.id), amount: '100' });
    const toWallet = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '20' });
    await opsOk(h, 'withdrawal', 'reject', String(toWallet.id), 'Wrong network');

    const rows = rowsOf(await opsOk(h, 'withdrawals'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(
      new RegExp(
        `^${toBank.id}\\s+${toBank.order_no}\\s+${inPattern(name)}\\s+100 USDT \\(3380\\.00 THB\\)\\s+1\\s+Somchai Jaidee · Kasikornbank · 555000111222\\s+review\\s`,
      ),
    );
    expect(rowsOf(await opsOk(h, 'withdrawals', 'fail'))).toEqual([
      expect.stringContaining(`My TRON · TRC20 · ${wallet.address}`),
    ]);
  });

  it('certifications: the submissions in review, with the document and its pictures', async () => {
    const user = await customer(h);
    const image = await uploadedPicture(h, user.token);
    expect(
      (
        await h.call(
          submitCertification,
          { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
          { token: user.token },
        )
      ).ret,
    ).toBe(1);
    const rows = rowsOf(await opsOk(h, 'certifications'));
    expect(rows).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\d+\\s+${inPattern(await usernameOf(user.token))}\\s+primary\\s+passport\\s+Somchai Jaidee\\s+AA98765432\\s+front: ${image}\\s+review\\s`,
        ),
      ),
    ]);
  });
});

describe('a rejection needs a reason the customer will see', () => {
  it('refuses a recharge, withdrawal or certification rejection without one (or unquoted), and changes nothing', async () => {
    const user = await customer(h, '100');
    const recharge = await cryptoRecharge(h, user.token, '10');
    const wallet = await addTronWallet(h, user.token);
    const withdrawal = await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '10' });
    const image = await uploadedPicture(h, user.token);
    await h.call(
      submitCertification,
      { level: 'primary', doc_type: 'passport', name: 'Somchai Jaidee', number: 'AA98765432', image },
      { token: user.token },
    );
    const [submission] = await h.database.db.select().from(certifications);
    const before = {
      funds: await fundsState(h, user.id),
      certifications: await h.database.db.select().from(certifications),
    };

    const needReason = {
      ok: false,
      output: 'Give the reason the customer will see, in quotes: reject <id> "<reason>".',
    };
    for (const [kind, id] of [
      ['recharge', recharge.id],
      ['withdrawal', withdrawal.id],
      ['certification', submission!.id],
    ] as const) {
      expect(await ops(h, kind, 'reject', String(id)), kind).toEqual(needReason);
      expect(await ops(h, kind, 'reject', String(id), '   '), kind).toEqual(needReason);
      expect(await ops(h, kind, 'reject', String(id), 'not', 'quoted'), kind).toEqual(needReason);
      expect(await ops(h, kind, 'reject', String(id), 'x'.repeat(501)), kind).toEqual({
        ok: false,
        output: 'Keep the reason under 500 characters.',
      });
    }
    expect({
      funds: await fundsState(h, user.id),
      certifications: await h.database.db.select().from(certifications),
    }).toEqual(before);
  });
});

describe('mistakes print how to do it right', () => {
  it('names an order by an id that exists', async () => {
    expect(await ops(h, 'recharge', 'approve', '999999')).toEqual({ ok: false, output: 'No recharge 999999.' });
    expect(await ops(h, 'withdrawal', 'approve', '999999')).toEqual({ ok: false, output: 'No withdrawal 999999.' });
    expect(await ops(h, 'certification', 'approve', '999999')).toEqual({
      ok: false,
      output: 'No certification 999999.',
    });
    expect(await ops(h, 'recharge', 'approve', 'R20261122000001')).toEqual({
      ok: false,
      output: 'Name it by its id (see the list command).',
    });
    expect(await ops(h, 'recharge', 'approve')).toEqual({
      ok: false,
      output: 'Name it by its id (see the list command).',
    });
    expect((await ops(h, 'recharge', 'credit', '1')).output).toMatch(/^Usage: recharge approve/);
    expect(await ops(h, 'recharge', 'approve', '1', 'blocks=5')).toEqual({
      ok: false,
      output: 'Cannot read "blocks=5": use height=… or remark=….',
    });
  });

  it('an unknown command prints the usage', async () => {
    expect(await ops(h, 'refund', '1')).toEqual({ ok: false, output: USAGE });
    expect(await ops(h, 'constructor')).toEqual({ ok: false, output: USAGE });
    expect(await ops(h)).toEqual({ ok: true, output: USAGE });
  });
});

describe('test balances', () => {
  it('credits through the ledger in development', async () => {
    const user = await customer(h);
    const name = await usernameOf(user.token);
    expect(await opsOk(h, 'credit', name, 'USDT', '250.5')).toBe(
      `Credited 250.5 USDT to ${name} (user ${user.id}) as a test balance.`,
    );
    expect(await balanceOf(h, user.id)).toEqual({ available: '250.50000000', frozen: '0.00000000' });
    expect((await fundsState(h, user.id)).entries).toMatchObject([
      { kind: 'test_credit', bucket: 'available', amount: '250.50000000' },
    ]);
    expect(await ops(h, 'credit', 'nobody_here', 'USDT', '1')).toEqual({ ok: false, output: 'No user "nobody_here".' });
    for (const args of [
      [name, 'USDT', '0'],
      [name, 'USDT', '-5'],
      [name, 'usdt', '5'],
      [name, 'USDT'],
      [name, 'USDT', '5', 'extra'],
    ]) {
      expect(await ops(h, 'credit', ...args), args.join(' ')).toEqual({
        ok: false,
        output: 'Usage: credit <username> <asset> <amount>, e.g. credit demo USDT 500',
      });
    }
    expect(await balanceOf(h, user.id)).toEqual({ available: '250.50000000', frozen: '0.00000000' });
  });

  it('refuses them on a production server and credits nothing', async () => {
    const user = await customer(h);
    const name = await usernameOf(user.token);
    expect(
      await runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: true }, [
        'credit',
        name,
        'USDT',
        '500',
      ]),
    ).toEqual({
      ok: false,
      output: 'Test balances are for development only: this server runs in production mode.',
    });
    expect(await fundsState(h, user.id)).toMatchObject({ balances: [], entries: [] });
  });
});

describe('lock-up products', () => {
  it('days=N sets the period of orders placed from now on; an order already placed keeps its own', async () => {
    const user = await customer(h, '1000');
    const before = await h.call(lockupSubscribe, { product_id: '1', amount: '100' }, { token: user.token });
    expect(before.data).toMatchObject({ days: 7 });

    // Its names state the old period ("Lock-up 7 days", "ขุดแบบล็อก 7 วัน"…): the answer says which to write again.
    expect(await opsOk(h, 'lockup', '1', 'days=2')).toBe(
      'Lock-up 1 (Lock-up 7 days, 2 days): 0.000800 a day, 100.00000000–50000.00000000 USDT, quota none, active. Orders already placed keep their terms.\n' +
        "Its name still says 7 in en, zh, th, jp, ar, hi: write them again on the console's Content page (Lock-up products).",
    );
    expect((await h.call(lockupProduct, { id: '1' })).data).toMatchObject({ id: 1, days: 2 });
    const after = await h.call(lockupSubscribe, { product_id: '1', amount: '100' }, { token: user.token });
    expect(after.data).toMatchObject({ days: 2, end_day: addDays(after.data.start_day, 1) });

    const orders = (await h.call(lockupOrders, {}, { token: user.token })).data.lists;
    expect(orders.find((order) => order.id === before.data.id)).toMatchObject({
      days: 7,
      end_day: addDays(before.data.start_day, 6),
      status: 'processing',
    });
    // A name that does not state the old period (2) says nothing more.
    expect(await opsOk(h, 'lockup', '1', 'days=3650')).toMatch(/^Lock-up 1 \(Lock-up 7 days, 3650 days\)[^\n]*$/);
    await opsOk(h, 'lockup', '1', 'days=7');
  });

  it('refuses a period outside 1–3650 days and changes nothing', async () => {
    for (const days of ['0', '3651', '-1', '1.5', '07', 'week', '']) {
      expect(await ops(h, 'lockup', '1', `days=${days}`), days).toEqual({
        ok: false,
        output: `Cannot apply "days=${days}": use rate=0.001, days=1..3650, min=100, max=50000, quota=none|5000000 or active=true|false.`,
      });
    }
    // One bad change among good ones applies none of them.
    expect((await ops(h, 'lockup', '1', 'rate=0.002', 'days=0')).ok).toBe(false);
    // A minimum above the maximum would leave no amount to subscribe: refused, with the rate beside it not applied.
    const terms = (await h.call(lockupProduct, { id: '1' })).data;
    expect(await ops(h, 'lockup', '1', 'rate=0.002', 'min=60000')).toEqual({
      ok: false,
      output:
        'The minimum 60,000 USDT would be above the maximum 50,000 USDT: no amount could be subscribed. Nothing changed.',
    });
    expect(await ops(h, 'lockup', '1', 'max=50')).toMatchObject({ ok: false });
    expect((await h.call(lockupProduct, { id: '1' })).data).toEqual(terms);
    expect((await h.call(lockupProduct, { id: '1' })).data).toMatchObject({ days: 7, daily_rate: '0.0008' });
  });
});
