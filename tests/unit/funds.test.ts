// @vitest-environment jsdom
// Money in and out: the withdraw form's fee / total / received figures and its checks,
// which missing-setup prompt shows, the recharge credit preview and checks, and the paged record lists.
import Big from 'big.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RechargeOrder, WithdrawOrder, WithdrawRule } from '../../src/api-contract/funds.ts';
import { configureApi } from '../../src/lib/api.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { session } from '../../src/lib/session.ts';
import {
  creditPreview,
  rechargeProblem,
  rechargeRecord,
  rechargeState,
} from '../../src/features/funds/recharge-store.ts';
import {
  loadPayees,
  leftAfterMax,
  maxWithdrawable,
  promptForAnswer,
  sendWithdraw,
  withdrawProblem,
  withdrawPrompt,
  withdrawQuote,
  withdrawRecord,
  withdrawState,
} from '../../src/features/funds/withdraw-store.ts';
import { accountDetails, kindLabel } from '../../src/features/funds/account-details-store.ts';
import { formatPercent, idFromQuery } from '../../src/features/funds/funds-format.ts';
import { readAmount } from '../../src/lib/typed-amount.ts';
import { hasMore } from '../../src/lib/paged-list.ts';
import { deferred, envelope, resetClientState, stubFetch, savedWallet } from './helpers.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);
const pathOf = (url: string) => new URL(url).pathname;

const rule: WithdrawRule = {
  asset: 'USDT',
  fee_rate: '0.01',
  min_amount: '10',
  max_amount: '50000',
  available: '1000',
};
const withdrawal = (amount: string, extra: Partial<{ paypass: string; target_id: string }> = {}) => ({
  target: 'bank' as const,
  target_id: '3',
  amount,
  paypass: '123456',
  ...extra,
});

const rechargeOrder = (id: number): RechargeOrder => ({
  id,
  order_no: `R${id}`,
  kind: 'crypto',
  channel_name: 'USDT TRC20',
  chain: 'TRC20',
  address: 'TXYZ',
  currency: 'USDT',
  amount: '100.00000000',
  rate: '1.00000000',
  asset: 'USDT',
  actual_amount: '100.00000000',
  hash: 'a'.repeat(64),
  proof: '',
  block_height: '',
  remark: '',
  reason: '',
  status: 'pending',
  created_at: '2026-01-02T03:04:05.000Z',
  reviewed_at: null,
});
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => rechargeOrder(from + index));
const page = (lists: unknown[], total: number, number = 1) => envelope(1, 'ok', { lists, page: number, total });
/** A page of a list paged by cursor: `next` continues after it, null on the last. */
const cursorPage = (lists: unknown[], next: string | null) => envelope(1, 'ok', { lists, next });

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-a';
  await settle();
});
afterEach(resetClientState);

describe('the withdraw figures', () => {
  it('shows the fee (rounded up), the total deducted and the amount received before sending', () => {
    expect(withdrawQuote('100', '0.01')).toEqual({
      amount: '100.00000000',
      fee: '1.00000000',
      total: '101.00000000',
      actual: '100.00000000',
    });
    expect(withdrawQuote('0.00000001', '0.015')).toEqual({
      amount: '0.00000001',
      fee: '0.00000001',
      total: '0.00000002',
      actual: '0.00000001',
    });
    expect(withdrawQuote('1234.56789', '0')).toMatchObject({ fee: '0.00000000', total: '1234.56789000' });
  });

  it('shows nothing while the amount is not an amount or the rule is unknown', () => {
    expect(withdrawQuote('', '0.01')).toBeNull();
    expect(withdrawQuote('1.', '0.01')).toBeNull();
    expect(withdrawQuote('0', '0.01')).toBeNull();
    expect(withdrawQuote('10', undefined)).toBeNull();
  });

  it('Max takes the largest amount whose amount + fee fits the balance, and never more than the maximum', () => {
    expect(maxWithdrawable(rule)).toBe('990.0990099');
    expect(withdrawQuote('990.0990099', rule.fee_rate)!.total).toBe('1000.00000000');
    // One unit more and the fee no longer fits.
    expect(new Big(withdrawQuote('990.09900991', rule.fee_rate)!.total).gt(rule.available)).toBe(true);
    expect(maxWithdrawable({ ...rule, available: '100000' })).toBe('50000');
    // 100000 ÷ 1.01 = 99009.90099009…: its fee rounds up to 990.09900991, exactly the rest.
    expect(maxWithdrawable({ ...rule, max_amount: '1000000', available: '100000' })).toBe('99009.90099009');
    expect(maxWithdrawable({ ...rule, fee_rate: '0.015', available: '0.00000002' })).toBe('0.00000001');
    expect(maxWithdrawable({ ...rule, available: '0' })).toBe('0');
  });

  it('Max takes the whole balance whenever an amount plus its fee equals it, and says the 0.00000001 left otherwise', () => {
    const at = (available: string, fee_rate: string) => ({ ...rule, available, fee_rate, max_amount: '1000000' });
    // Whole balances: amount + fee (rounded up) is the balance exactly, nothing stays.
    for (const [available, rate] of [
      ['1000', '0.01'],
      ['10.87', '0.01'],
      ['10.1', '0.01'],
      ['123.45678901', '0.005'],
      ['500000', '0.015'],
    ] as const) {
      const max = maxWithdrawable(at(available, rate));
      expect(withdrawQuote(max, rate)!.total, `${available} at ${rate}`).toBe(new Big(available).toFixed(8));
      expect(leftAfterMax(at(available, rate), max)).toBeNull();
    }
    // No amount's total is the balance: at 8718.697498 the fee is 87.18697498 (amount + fee 8805.88447298); one unit
    // more of amount rounds the fee up one unit too (8805.88447300). The Max leaves 0.00000001, and says so.
    for (const [available, rate, max] of [
      ['8805.88447299', '0.01', '8718.697498'],
      ['44.74541361', '0.015', '44.08415133'],
      ['9386.42314611', '0.001', '9377.0461'],
    ] as const) {
      expect(maxWithdrawable(at(available, rate))).toBe(max);
      expect(withdrawQuote(new Big(max).plus('0.00000001').toFixed(), rate)!.total).toBe(
        new Big(available).plus('0.00000001').toFixed(8),
      );
      expect(leftAfterMax(at(available, rate), max)).toBe('0.00000001');
    }
    // Not the Max, or the Max capped by the maximum or below the minimum: nothing is said.
    expect(leftAfterMax(at('8805.88447299', '0.01'), '100')).toBeNull();
    expect(leftAfterMax({ ...at('8805.88447299', '0.01'), max_amount: '50' }, '50')).toBeNull();
    expect(leftAfterMax({ ...at('8805.88447299', '0.01'), min_amount: '10000' }, '8718.697498')).toBeNull();
  });

  it('reads a fee rate as a percentage and typed amounts as meant, 8 decimals at most', () => {
    expect(formatPercent('0.01')).toBe('1%');
    expect(formatPercent('0.0025')).toBe('0.25%');
    expect(readAmount('10,000', 'en')).toEqual({ ok: true, value: '10000' });
    expect(readAmount('12.123456789', 'en')).toMatchObject({ ok: false, problem: 'decimals' });
    expect(idFromQuery('id=12')).toBe(12);
    expect(idFromQuery('id=abc')).toBeNull();
  });
});

describe('the withdraw checks', () => {
  it('answers with the spec texts, amount first, then the password', () => {
    expect(withdrawProblem(withdrawal(''), rule)).toBe('Please enter the amount!');
    expect(withdrawProblem(withdrawal('12.'), rule)).toBe('Please enter a valid amount!');
    expect(withdrawProblem(withdrawal('100', { target_id: '' }), rule)).toBe('Please choose a bank card or wallet!');
    expect(withdrawProblem(withdrawal('9.99', { paypass: '' }), rule)).toBe('The minimum amount is: 10 USDT!');
    expect(withdrawProblem(withdrawal('50000.01'), rule)).toBe('The maximum amount is: 50,000 USDT!');
    expect(withdrawProblem(withdrawal('990.1'), rule)).toBe('Insufficient balance!');
    expect(withdrawProblem(withdrawal('100', { paypass: ' ' }), rule)).toBe('Please enter the transaction password!');
    expect(withdrawProblem(withdrawal('100', { paypass: '12345' }), rule)).toBe(
      'Payment password must be 6 digits only!',
    );
  });

  it('lets through the minimum and the whole balance once the fee is counted', () => {
    expect(withdrawProblem(withdrawal('10'), rule)).toBeNull();
    expect(withdrawProblem(withdrawal(maxWithdrawable(rule)), rule)).toBeNull();
    expect(withdrawProblem(withdrawal('50000'), { ...rule, available: '100000' })).toBeNull();
  });

  it('refuses a payee still cooling off with the text the server gives, and lets it through once the period is over', () => {
    // Answered one hour after it was added: 23 hours left, counted on this device's clock (which may differ from the
    // server's).
    const payee = {
      created_at: '2026-11-25T10:00:00.000Z',
      usable_at: '2026-11-26T10:00:00.000Z',
      cooling_seconds: 23 * 3600,
    };
    const chosen = { payee, receivedAt: 1_000_000 };
    const cooling =
      'For your safety, a newly added bank card or wallet can receive withdrawals 24 hours after it was added. Please try again later.';
    expect(withdrawProblem(withdrawal('100'), rule, chosen, 1_000_000 + 23 * 3_600_000 - 1)).toBe(cooling);
    expect(withdrawProblem(withdrawal('100'), rule, chosen, 1_000_000 + 23 * 3_600_000)).toBeNull();
    expect(
      withdrawProblem(
        withdrawal('100'),
        rule,
        { payee: { ...payee, cooling_seconds: 0 }, receivedAt: 1_000_000 },
        1_000_000,
      ),
    ).toBeNull();
    // The amount is checked first: the cooling-off is not the first thing a wrong amount hears of.
    expect(withdrawProblem(withdrawal(''), rule, chosen, 1_000_000)).toBe('Please enter the amount!');
    // A payee given one hour (PAYEE_COOLING_HOURS=1 when it was saved): "1 hour", not "1 hours".
    const hour = { payee: { ...payee, usable_at: '2026-11-25T11:00:00.000Z' }, receivedAt: 1_000_000 };
    expect(withdrawProblem(withdrawal('100'), rule, hour, 1_000_000)).toBe(
      'For your safety, a newly added bank card or wallet can receive withdrawals 1 hour after it was added. Please try again later.',
    );
  });
});

describe('the missing-setup prompts', () => {
  const facts = { hasPayPassword: true, target: 'bank' as const, bankCards: 1, wallets: 1 };

  it('asks for what is missing: the transaction password first, then the payee of the chosen target', () => {
    expect(withdrawPrompt(facts)).toBeNull();
    expect(withdrawPrompt({ ...facts, hasPayPassword: false, bankCards: 0 })).toBe('noPayPassword');
    expect(withdrawPrompt({ ...facts, bankCards: 0 })).toBe('noBankCard');
    expect(withdrawPrompt({ ...facts, bankCards: 0, target: 'wallet' })).toBeNull();
    expect(withdrawPrompt({ ...facts, wallets: 0, target: 'wallet' })).toBe('noWallet');
    expect(withdrawPrompt({ ...facts, wallets: 0 })).toBeNull();
  });

  it('recognises the same prompts in the server answer', () => {
    expect(promptForAnswer('You have not bound bank card, please bind bank card first!')).toBe('noBankCard');
    expect(promptForAnswer('You have not added a wallet yet, please add a wallet first!')).toBe('noWallet');
    expect(promptForAnswer('You have not set a transaction password, please set a transaction password first!')).toBe(
      'noPayPassword',
    );
    expect(promptForAnswer('Insufficient balance!')).toBeNull();
  });
});

describe('sending a withdrawal', () => {
  it('posts the form, then refreshes the balances and the rule', async () => {
    const order = { id: 9, asset: 'USDT', status: 'review' } as WithdrawOrder;
    const answers: Record<string, Response> = {
      '/api/users/extract': envelope(1, 'ok', order),
      '/api/users/balances': envelope(1, 'ok', {
        lists: [{ asset: 'USDT', available: '899', frozen: '101' }],
        page: 1,
        total: 1,
      }),
      '/api/users/extract/rate': envelope(1, 'ok', { ...rule, available: '899' }),
    };
    const requests: { path: string; body: string; url: string }[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const request = input as Request;
      const path = pathOf(request.url);
      requests.push({ path, url: request.url, body: request.body ? await request.clone().text() : '' });
      return answers[path]!.clone();
    });
    configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });

    await expect(sendWithdraw(withdrawal('100'))).resolves.toMatchObject({ id: 9 });
    expect(form(requests[0]!.body)).toEqual({ target: 'bank', target_id: '3', amount: '100', paypass: '123456' });
    expect(requests.map((request) => request.path).sort()).toEqual([
      '/api/users/balances',
      '/api/users/extract',
      '/api/users/extract/rate',
    ]);
    expect(query(requests.find((request) => request.path === '/api/users/extract/rate')!.url)).toEqual({
      asset: 'USDT',
    });
    expect(userBalances.lists[0]).toMatchObject({ available: '899' });
    expect(withdrawState.rules.USDT?.available).toBe('899');
    expect(withdrawState.details[9]).toMatchObject({ status: 'review' });
  });
});

describe("the withdrawal page's payees", () => {
  it('first opens on Wallet for a customer with wallets and no bank card; a later load keeps the target chosen', async () => {
    Object.assign(withdrawState, { payeesLoaded: false, target: 'bank' });
    const wallet = savedWallet({ id: 4 });
    const answers: Record<string, Response> = {
      '/api/users/bank': envelope(1, 'ok', { lists: [] }),
      '/api/users/wallet/lists': envelope(1, 'ok', { lists: [wallet] }),
    };
    const fetch = vi.fn(async (input: RequestInfo | URL) => answers[pathOf((input as Request).url)]!.clone());
    configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
    await loadPayees();
    expect(withdrawState.target).toBe('wallet');
    expect(withdrawPrompt({ hasPayPassword: true, target: withdrawState.target, bankCards: 0, wallets: 1 })).toBeNull();
    // The customer chooses Bank card: the next load (coming back to the page) keeps it.
    withdrawState.target = 'bank';
    await loadPayees();
    expect(withdrawState.target).toBe('bank');
  });
});

describe('the recharge form', () => {
  const channel = { min_amount: '100.00000000', currency: 'THB' };
  const bank = (amount: string, proof = '/api/uploads/abcdefghij12') => ({
    kind: 'bank' as const,
    channel_id: '2',
    amount,
    proof,
  });
  const crypto = (hash: string) => ({ kind: 'crypto' as const, channel_id: '1', amount: '100', hash });

  it('previews what the amount credits: amount ÷ rate, rounded down to 8 decimals', () => {
    expect(creditPreview('1000', '35.5')).toBe('28.16901408');
    expect(creditPreview('100', '1.00000000')).toBe('100.00000000');
    expect(creditPreview('', '35.5')).toBeNull();
    expect(creditPreview('abc', '35.5')).toBeNull();
    expect(creditPreview('100', undefined)).toBeNull();
    expect(creditPreview('100', '0')).toBeNull();
  });

  it('checks the hash (at least 60 letters and digits), the receipt and the minimum', () => {
    expect(rechargeProblem(crypto('a'.repeat(59)), channel)).toBe(
      'The transaction hash must be at least 60 letters and digits!',
    );
    expect(rechargeProblem(crypto(`${'a'.repeat(59)}-`), channel)).toBe(
      'The transaction hash must be at least 60 letters and digits!',
    );
    expect(rechargeProblem(crypto('a1'.repeat(30)), channel)).toBeNull();
    expect(rechargeProblem(bank('500', ''), channel)).toBe('Please upload the transfer receipt!');
    expect(rechargeProblem(bank(''), channel)).toBe('Please enter the amount!');
    expect(rechargeProblem(bank('99.99'), channel)).toBe('The minimum amount is: 100 THB!');
    expect(rechargeProblem(bank('100'), channel)).toBeNull();
    expect(rechargeProblem({ ...bank('100'), channel_id: '' }, channel)).toBe('Please choose a recharge method!');
  });
});

describe('the record lists', () => {
  it('asks for the filter’s head, then the page after the cursor without repeating an order, and ends', async () => {
    const { calls } = stubFetch(cursorPage(range(1, 20), '20'), cursorPage(range(20, 25), null));
    await rechargeRecord.load('all');
    expect(query(calls[0]!.request.url)).toEqual({ status: 'all', cursor: '' });
    expect(hasMore(rechargeRecord.state.lists.all)).toBe(true);

    await rechargeRecord.load('all', { more: true });
    expect(query(calls[1]!.request.url)).toEqual({ status: 'all', cursor: '20' });
    expect(rechargeRecord.state.lists.all.lists.map((order) => order.id)).toEqual(
      range(1, 25).map((order) => order.id),
    );
    // The server said it was the last page: "Load more" goes, and asks nothing more.
    expect(hasMore(rechargeRecord.state.lists.all)).toBe(false);
    await rechargeRecord.load('all', { more: true });
    expect(calls).toHaveLength(2);
    expect(rechargeState.details[25]).toMatchObject({ order_no: 'R25' });
  });

  it('a chosen filter starts at the head of its own list; choosing again reads it again as deep as it was shown', async () => {
    const { calls } = stubFetch(
      cursorPage(range(1, 20), '20'),
      cursorPage(range(21, 40), null),
      cursorPage([rechargeOrder(5)], null),
      cursorPage(range(1, 20), '20'),
      cursorPage(range(21, 40), null),
    );
    await withdrawRecord.load('all');
    await withdrawRecord.load('all', { more: true });
    await withdrawRecord.choose('fail');
    expect(withdrawRecord.state.filter).toBe('fail');
    expect(query(calls[2]!.request.url)).toEqual({ status: 'fail', cursor: '' });
    expect(withdrawRecord.state.lists.fail.lists).toHaveLength(1);

    await withdrawRecord.choose('all');
    expect(query(calls[3]!.request.url)).toEqual({ status: 'all', cursor: '' });
    // A withdrawal's row may change below the head (reviewed, paid): the second page is read again too.
    expect(query(calls[4]!.request.url)).toEqual({ status: 'all', cursor: '20' });
    expect(withdrawRecord.state.lists.all).toMatchObject({ next: null });
    expect(withdrawRecord.state.lists.all.lists).toHaveLength(40);
  });

  it("the withdrawal record has the spec's Processing and Completed filters, asked of the server by name", async () => {
    const { calls } = stubFetch(page([rechargeOrder(3)], 1), page([rechargeOrder(4)], 1));
    await withdrawRecord.choose('processing');
    expect(query(calls[0]!.request.url).status).toBe('processing');
    await withdrawRecord.choose('completed');
    expect(query(calls[1]!.request.url).status).toBe('completed');
    expect(withdrawRecord.state.filter).toBe('completed');
  });

  it('drops an answer that arrives after a newer request, and keeps the list when a reload fails', async () => {
    const held = deferred<Response>();
    stubFetch(() => held.promise, cursorPage([rechargeOrder(2)], null), envelope(0, 'Server busy'));
    const old = rechargeRecord.load('unfinished');
    await rechargeRecord.load('unfinished');
    held.resolve(cursorPage([rechargeOrder(1)], null));
    await old;
    expect(rechargeRecord.state.lists.unfinished.lists.map((order) => order.id)).toEqual([2]);

    await expect(rechargeRecord.load('unfinished')).rejects.toThrow('Server busy');
    expect(rechargeRecord.state.lists.unfinished).toMatchObject({ loaded: true, failure: 'Server busy' });
    expect(rechargeRecord.state.lists.unfinished.lists).toHaveLength(1);
  });

  it('a new session starts with empty lists on the first filter', async () => {
    stubFetch(page([rechargeOrder(1)], 1));
    await accountDetails.choose('option');
    session.token = 'token-b';
    await settle();
    expect(accountDetails.state.filter).toBe('all');
    expect(accountDetails.state.lists.option).toMatchObject({ lists: [], loaded: false });
  });

  it('account details send the group as `setup` and name each kind', async () => {
    const { calls } = stubFetch(page([], 0));
    await accountDetails.choose('withdraw');
    expect(pathOf(calls[0]!.request.url)).toBe('/api/users/account/lists');
    expect(query(calls[0]!.request.url)).toEqual({ setup: 'withdraw' });
    expect(kindLabel('withdraw_return')).toBe('Withdrawal returned');
    expect(kindLabel('option_stake')).toBe('Option purchase');
    expect(kindLabel('demo_grant')).toBe('Demo account grant');
    expect(kindLabel('bonus_x')).toBe('bonus_x');
    expect(kindLabel('toString')).toBe('toString');
  });
});
