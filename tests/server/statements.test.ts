// Statements: one asset's available balance over a period of days in the customer's time zone, from
// the ledger. Entries are posted at chosen moments around the period's midnights; the statement lists
// exactly those inside, oldest first, and its opening, entries and closing add up. Another customer's
// entries, the frozen bucket and other assets never appear.
import Big from 'big.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, refused } from './helpers.ts';
import { statement, type Statement } from '../../src/api-contract/statements.ts';
import { post, type Posting } from '../../src/server/domain/ledger.ts';

let h: Harness;
let a: { token: string; id: number };
let b: { token: string; id: number };
let postings = 0;

/** Posts one entry at `at` (an ISO time), as the ledger would for a business event then. */
async function postAt(userId: number, at: string, amount: string, extra: Partial<Posting> = {}) {
  await h.database.db.transaction((tx) =>
    post(
      tx,
      { userId, asset: 'USDT', amount, kind: 'test_credit', reference: `statement:${++postings}`, ...extra },
      new Date(at),
    ),
  );
}

const BANGKOK = 'Asia/Bangkok';

beforeAll(async () => {
  h = await startHarness();
  a = await customer(h);
  b = await customer(h);
  // Bangkok is UTC+7: 2026-11-01 starts at 2026-10-31T17:00Z and 2026-11-30 ends at 2026-11-30T17:00Z.
  await postAt(a.id, '2026-10-15T03:00:00Z', '1000');
  await postAt(a.id, '2026-10-31T16:59:59.999Z', '-0.1', { kind: 'option_stake' }); // 23:59:59 on 31 October
  await postAt(a.id, '2026-10-31T17:00:00Z', '250.12345678', { kind: 'recharge' }); // midnight, 1 November
  await postAt(a.id, '2026-11-10T12:00:00Z', '-100.5', { kind: 'option_stake' });
  await postAt(a.id, '2026-11-10T12:01:00Z', '190.95', { kind: 'option_payout' });
  await postAt(a.id, '2026-11-12T00:00:00Z', '-40', { kind: 'withdraw_freeze' });
  await postAt(a.id, '2026-11-12T00:00:00Z', '40', { kind: 'withdraw_freeze', bucket: 'frozen' });
  await postAt(a.id, '2026-11-13T00:00:00Z', '0.5', { asset: 'BTC', kind: 'contract_trade' });
  await postAt(a.id, '2026-11-30T16:59:59Z', '-9.99999999', { kind: 'option_stake' }); // 23:59:59 on 30 November
  await postAt(a.id, '2026-11-30T17:00:00Z', '5', { kind: 'welfare' }); // 1 December
  // B in the same days: none of it is A's.
  await postAt(b.id, '2026-10-20T00:00:00Z', '77');
  await postAt(b.id, '2026-11-05T00:00:00Z', '33', { kind: 'recharge' });
});
afterAll(() => h.close());

async function statementOf(token: string, input: Record<string, string>): Promise<Statement> {
  const answer = await h.call(statement, input, { token });
  expect(answer).toMatchObject({ ret: 1 });
  return answer.data;
}

/** opening + every entry = closing, each entry's balance is the one before plus its amount. */
function expectAddsUp(data: Statement) {
  let balance = new Big(data.opening);
  for (const entry of data.entries) {
    balance = balance.plus(entry.amount);
    expect(entry.balance).toBe(balance.toFixed(8));
  }
  expect(balance.toFixed(8)).toBe(data.closing);
}

it('lists the entries of the period’s days in the customer’s time zone, oldest first, and they add up', async () => {
  const data = await statementOf(a.token, { asset: 'USDT', from: '2026-11-01', to: '2026-11-30', tz: BANGKOK });
  expect(data).toMatchObject({
    asset: 'USDT',
    from: '2026-11-01',
    to: '2026-11-30',
    time_zone: BANGKOK,
    starts_at: '2026-10-31T17:00:00.000Z',
    ends_at: '2026-11-30T17:00:00.000Z',
    opening: '999.90000000',
    closing: '1290.47345679',
  });
  expect(data.entries.map(({ amount, kind }) => [amount, kind])).toEqual([
    ['250.12345678', 'recharge'],
    ['-100.50000000', 'option_stake'],
    ['190.95000000', 'option_payout'],
    ['-40.00000000', 'withdraw_freeze'],
    ['-9.99999999', 'option_stake'],
  ]);
  expectAddsUp(data);
  await expectLedgerBalanced(h);
});

it('reads the same instants as other days in another time zone', async () => {
  // In UTC the entry at 17:00Z on 31 October is still October, the one at 17:00Z on 30 November is in it.
  const data = await statementOf(a.token, { asset: 'USDT', from: '2026-11-01', to: '2026-11-30', tz: 'UTC' });
  expect(data.entries.map((entry) => entry.amount)).toEqual([
    '-100.50000000',
    '190.95000000',
    '-40.00000000',
    '-9.99999999',
    '5.00000000',
  ]);
  expect(data.opening).toBe('1250.02345678');
  expectAddsUp(data);
});

it('covers another asset on its own, and an empty period has equal opening and closing', async () => {
  const btc = await statementOf(a.token, { asset: 'BTC', from: '2026-11-01', to: '2026-11-30', tz: BANGKOK });
  expect(btc).toMatchObject({ opening: '0.00000000', closing: '0.50000000' });
  expect(btc.entries.map((entry) => entry.kind)).toEqual(['contract_trade']);
  const quiet = await statementOf(a.token, { asset: 'USDT', from: '2026-11-14', to: '2026-11-20', tz: BANGKOK });
  expect(quiet).toMatchObject({ entries: [], opening: '1300.47345678', closing: '1300.47345678' });
  // A single day: from = to.
  const one = await statementOf(a.token, { asset: 'USDT', from: '2026-11-10', to: '2026-11-10', tz: BANGKOK });
  expect(one.entries).toHaveLength(2);
  expectAddsUp(one);
});

it('shows each customer only their own entries', async () => {
  const data = await statementOf(b.token, { asset: 'USDT', from: '2026-11-01', to: '2026-11-30', tz: BANGKOK });
  expect(data).toMatchObject({ opening: '77.00000000', closing: '110.00000000' });
  expect(data.entries.map((entry) => entry.amount)).toEqual(['33.00000000']);
  const forA = await statementOf(a.token, { asset: 'USDT', from: '2026-10-01', to: '2026-12-31', tz: BANGKOK });
  expect(forA.entries.map((entry) => entry.id)).not.toContain(data.entries[0]!.id);
  expect(forA.opening).toBe('0.00000000');
  expectAddsUp(forA);
  // Without a session there is no statement.
  expect((await h.call(statement, { from: '2026-11-01', to: '2026-11-30', tz: BANGKOK })).ret).toBe(-1);
});

it('refuses a period it cannot cover, with a translated reason', async () => {
  const ask = (input: Record<string, string>, lang = 'en') => h.call(statement, input, { token: a.token, lang });
  expect(await ask({ from: '2026-11-30', to: '2026-11-01', tz: BANGKOK })).toEqual(
    refused('The first day of the period must not be after the last day!'),
  );
  expect(await ask({ from: '2025-11-29', to: '2026-11-30', tz: BANGKOK })).toEqual(
    refused('A statement covers at most 366 days: please choose a shorter period!'),
  );
  // 366 days (2024 is a leap year) is the most.
  expect((await ask({ from: '2024-01-01', to: '2024-12-31', tz: BANGKOK })).ret).toBe(1);
  expect(await ask({ from: '2026-02-30', to: '2026-03-01', tz: BANGKOK })).toEqual(
    refused('Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!'),
  );
  expect(await ask({ from: '2026-11-01', to: '2026-11-30', tz: 'Mars/Olympus' })).toEqual(
    refused('The time zone of this device is not known: please check its date and time settings!'),
  );
  expect(await ask({ from: '2026-11-01', to: '2026-11-30', tz: BANGKOK, asset: 'usdt' })).toEqual(
    refused('The request is not valid!'),
  );
  const thai = await ask({ from: '2026-11-30', to: '2026-11-01', tz: BANGKOK }, 'th');
  expect(thai.ret).toBe(0);
  expect(thai.msg).not.toBe('The first day of the period must not be after the last day!');
});
