// @vitest-environment jsdom
// Liquidity mining on the device: the checks made before a subscription or a
// redemption is sent (the spec's texts, the quick cap to the last decimal), the daily estimate, the
// figures loaded per session and never invented, and the record's filters and pages.
import { act, createElement } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  LiquidityBalance,
  LiquidityProduct,
  LiquidityRecord,
  TransferOutInfo,
} from '../../src/api-contract/liquidity.ts';
import { configureApi } from '../../src/lib/api.ts';
import { session } from '../../src/lib/session.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { hasMore } from '../../src/lib/paged-list.ts';
import {
  earningStartsOn,
  estimatedDailyInterest,
  liquidityRecord,
  liquidityState,
  loadBalance,
  loadProduct,
  redeemLiquidity,
  redeemModeOf,
  redeemProblem,
  standardPayDay,
  subscribeLiquidity,
  subscribeProblem,
} from '../../src/features/liquidity/liquidity-store.ts';
import { formatRate, tierRanges } from '../../src/features/liquidity/liquidity-format.ts';
import { BalanceCard, LadderTable } from '../../src/features/liquidity/LiquidityParts.tsx';
import { subscribeProblem as lockupSubscribeProblem } from '../../src/features/lockup/lockup-form.ts';
import { deferred, envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);
const pathOf = (url: string) => new URL(url).pathname;

const LADDER = [
  { up_to: '1000', rate: '0.06' },
  { up_to: '10000', rate: '0.04' },
  { up_to: null, rate: '0.025' },
];
const product: LiquidityProduct = {
  min_amount: '10',
  quick_daily_max: '30000000',
  ladder: LADDER,
  ladder_day: '2026-11-23',
  next_ladder: null,
  today: '2026-11-23',
  timezone: 'Asia/Bangkok',
  standard_payout_days: 1,
};
const balance: LiquidityBalance = {
  type: 'liquidity',
  principal: '1000.16438356',
  earning_today: '1000.00000000',
  redeeming: '50.00000000',
  yesterday_interest: '0.16438356',
  total_interest: '0.16438356',
  quick_remaining: '29999900.00000000',
  effective_rate: '0.0600',
  today: '2026-11-24',
};
const lockupWeek = { min_amount: '100', max_amount: '50000', remaining: null };
const subscribeInfo = { usdt_available: '1000.00000000', min_amount: '10' };
const redeemInfo: TransferOutInfo = {
  redeemable: '40000000.00000000',
  quick_remaining: '30000000.00000000',
  quick_daily_max: '30000000',
};

const record = (id: number, extra: Partial<LiquidityRecord> = {}): LiquidityRecord => ({
  id,
  kind: 'subscribe',
  mode: null,
  amount: '100.00000000',
  day: '2026-11-23',
  status: 'done',
  pay_day: null,
  created_at: '2026-11-23T03:04:05.000Z',
  paid_at: null,
  ...extra,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => record(from + index));
/** A page of a list paged by cursor: `next` continues after it, null on the last. */
const cursorPage = (lists: unknown[], next: string | null) => envelope(1, 'ok', { lists, next });

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-a';
  await settle();
});
afterEach(resetClientState);

describe('the subscription checks', () => {
  it('answers with the spec texts: required, format, minimum, then the available balance', () => {
    expect(subscribeProblem('', subscribeInfo)).toBe('Please enter the amount!');
    expect(subscribeProblem('12.', subscribeInfo)).toBe('Please enter a valid amount!');
    expect(subscribeProblem('1e3', subscribeInfo)).toBe('Please enter a valid amount!');
    expect(subscribeProblem('9.99999999', subscribeInfo)).toBe('The minimum amount is: 10 USDT!');
    expect(subscribeProblem('1000.00000001', subscribeInfo)).toBe('Insufficient balance!');
  });

  it('lets through the minimum and the whole available balance', () => {
    expect(subscribeProblem('10', subscribeInfo)).toBeNull();
    expect(subscribeProblem('1000', subscribeInfo)).toBeNull();
    expect(subscribeProblem('1000.00000000', subscribeInfo)).toBeNull();
  });
});

describe('an amount of 0', () => {
  it('is told the same in a subscription, a redemption and a lock-up, with the figures known or not', () => {
    const same = 'Please enter a valid amount!';
    for (const zero of ['0', '0.00000000']) {
      expect(subscribeProblem(zero, subscribeInfo), zero).toBe(same);
      expect(subscribeProblem(zero, null), zero).toBe(same);
      expect(redeemProblem(zero, 'quick', redeemInfo), zero).toBe(same);
      expect(redeemProblem(zero, 'standard', null), zero).toBe(same);
      expect(lockupSubscribeProblem(zero, lockupWeek, '1000'), zero).toBe(same);
      expect(lockupSubscribeProblem(zero, lockupWeek, null), zero).toBe(same);
    }
  });
});

describe('the redemption checks', () => {
  it('answers with the spec texts: required, format, the redeemable balance', () => {
    expect(redeemProblem('', 'quick', redeemInfo)).toBe('Please enter the amount!');
    expect(redeemProblem('1.123456789', 'quick', redeemInfo)).toBe('Please enter a valid amount!');
    expect(redeemProblem('0', 'standard', redeemInfo)).toBe('Please enter a valid amount!');
    expect(redeemProblem('100', 'fast', redeemInfo)).toBe('Please choose quick or standard redemption!');
    expect(redeemProblem('40000000.00000001', 'standard', redeemInfo)).toBe('Insufficient balance!');
    expect(redeemProblem('500.01', 'quick', { ...redeemInfo, redeemable: '500' })).toBe('Insufficient balance!');
  });

  it('caps quick redemption at what is left of 30,000,000 USDT today, to the last decimal', () => {
    expect(redeemProblem('30000000.00000001', 'quick', redeemInfo)).toBe(
      'Quick redemption is limited to 30,000,000 USDT a day; 30,000,000 USDT remain today. Please choose standard redemption for more!',
    );
    expect(redeemProblem('30000000', 'quick', redeemInfo)).toBeNull();
    expect(redeemProblem('100.5', 'quick', { ...redeemInfo, quick_remaining: '100.49999999' })).toBe(
      'Quick redemption is limited to 30,000,000 USDT a day; 100.49999999 USDT remain today. Please choose standard redemption for more!',
    );
    // Standard redemption has no daily cap.
    expect(redeemProblem('30000000.00000001', 'standard', redeemInfo)).toBeNull();
    expect(redeemProblem('1', 'quick', { ...redeemInfo, quick_remaining: '0.00000000' })).toMatch(
      /^Quick redemption is limited to 30,000,000 USDT a day; 0 USDT remain today/,
    );
  });

  it('reads the mode of a confirmation link', () => {
    expect(redeemModeOf('quick')).toBe('quick');
    expect(redeemModeOf('standard')).toBe('standard');
    expect(redeemModeOf('Quick')).toBeNull();
    expect(redeemModeOf(null)).toBeNull();
  });
});

describe('the figures shown before confirming', () => {
  it('estimates a day of interest on the new total with the ladder new money first earns with', () => {
    // 1,000 × 6 % ÷ 365, rounded down to 8 decimals.
    expect(estimatedDailyInterest('1000', '0', product)).toBe('0.16438356');
    // 1,000 × 6 % + 4,000 × 4 % = 220 a year.
    expect(estimatedDailyInterest('4000', '1000', product)).toBe('0.60273972');
    // Tomorrow's ladder, once published, is the one the money first earns with.
    expect(estimatedDailyInterest('1000', '0', { ...product, next_ladder: [{ up_to: null, rate: '0.0365' }] })).toBe(
      '0.10000000',
    );
    expect(estimatedDailyInterest('', '0', product)).toBeNull();
    expect(estimatedDailyInterest('0', '0', product)).toBeNull();
    expect(estimatedDailyInterest('1000', null, product)).toBeNull();
    expect(estimatedDailyInterest('1000', '0', null)).toBeNull();
  });

  it('says when money starts earning and when a standard redemption is paid', () => {
    expect(earningStartsOn('2026-11-30')).toBe('2026-12-01');
    expect(standardPayDay({ today: '2026-12-31', standard_payout_days: 1 })).toBe('2027-01-01');
  });

  it('reads the ladder as ranges and annual rates', () => {
    expect(tierRanges(LADDER)).toEqual([
      { from: '0', to: '1,000' },
      { from: '1,000', to: '10,000' },
      { from: '10,000', to: null },
    ]);
    expect(formatRate('0.06')).toBe('6.00%');
    expect(formatRate('0.0425')).toBe('4.25%');
    expect(formatRate('0.025')).toBe('2.50%');
    expect(formatRate('0.012345')).toBe('1.2345%');
  });
});

describe('the liquidity figures', () => {
  it('loads the product and the balance (type liquidity), showing the mask only the first time', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', product), envelope(1, 'ok', balance));
    await loadProduct();
    await loadBalance();
    expect(pathOf(calls[0]!.request.url)).toBe('/api/yuebao/product');
    expect(pathOf(calls[1]!.request.url)).toBe('/api/yuebao/balance');
    expect(query(calls[1]!.request.url)).toEqual({ type: 'liquidity' });
    expect(liquidityState.product?.ladder).toHaveLength(3);
    expect(liquidityState.balance?.principal).toBe('1000.16438356');
  });

  it('keeps an unknown balance unknown when the call fails (offline, nothing kept), and forgets it with the session', async () => {
    offlineData.online = false;
    stubFetch(new TypeError('Failed to fetch'));
    await expect(loadBalance()).rejects.toThrow('You are offline. Please check your network and try again.');
    expect(liquidityState.balance).toBeNull();

    offlineData.online = true;
    stubFetch(envelope(1, 'ok', balance));
    await loadBalance();
    expect(liquidityState.balance).not.toBeNull();
    session.token = 'token-b';
    await settle();
    expect(liquidityState.balance).toBeNull();
  });

  it("drops an answer meant for the session before: the next user never sees the last one's balance", async () => {
    const held = deferred<Response>();
    stubFetch(() => held.promise);
    const loading = loadBalance();
    session.token = 'token-b';
    await settle();
    held.resolve(envelope(1, 'ok', balance));
    await loading;
    expect(liquidityState.balance).toBeNull();
  });

  describe('the balance card', () => {
    const view = mountPoint();
    const render = (value: LiquidityBalance | null) =>
      act(() =>
        view.root.render(createElement(I18nProvider, { i18n }, createElement(BalanceCard, { balance: value }))),
      );

    it('shows "—" for every figure while the balance is unknown, never 0.00', () => {
      render(null);
      const text = view.container.textContent ?? '';
      expect(text).not.toMatch(/\d/);
      expect(view.container.querySelectorAll('.liq-unknown')).toHaveLength(5);
      expect(view.container.querySelector('.liq-rate')?.textContent).toBe('—');
    });

    it('highlights the tiers of the ladder the balance reaches, with the part in each', () => {
      act(() =>
        view.root.render(
          createElement(
            I18nProvider,
            { i18n },
            createElement(LadderTable, { ladder: LADDER, principal: '1500.5', caption: 'Today' }),
          ),
        ),
      );
      const rows = [...view.container.querySelectorAll('tbody tr')];
      expect(rows.map((row) => row.classList.contains('reached'))).toEqual([true, true, false]);
      expect(rows.map((row) => row.querySelector('.liq-held')?.textContent ?? null)).toEqual([
        'Yours: 1,000.00',
        'Yours: 500.50',
        null,
      ]);
      expect(rows.map((row) => row.lastElementChild?.textContent)).toEqual(['6.00%', '4.00%', '2.50%']);
    });

    it('shows the figures once the server said them', () => {
      render(balance);
      const amounts = [...view.container.querySelectorAll('.money-amount')].map((node) => node.textContent);
      expect(amounts).toEqual([
        '1,000.16438356 USDT',
        '1,000.00 USDT',
        '50.00 USDT',
        '0.16438356 USDT',
        '0.16438356 USDT',
      ]);
      expect(view.container.querySelector('.liq-rate')?.textContent).toBe('6.00%');
      expect(view.container.querySelectorAll('.liq-unknown')).toHaveLength(0);
    });
  });
});

describe('subscribing and redeeming', () => {
  /** A fake server answering by method and path; records what was asked. */
  function server(answers: Record<string, Response>) {
    const requests: { path: string; method: string; body: string }[] = [];
    const fetch = async (input: RequestInfo | URL) => {
      const request = input as Request;
      const path = pathOf(request.url);
      requests.push({ path, method: request.method, body: request.body ? await request.clone().text() : '' });
      return answers[`${request.method} ${path}`]!.clone();
    };
    configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
    return requests;
  }

  it('subscribes, then asks again for the balance, both infos and the wallet, and reloads the record from page 1', async () => {
    const requests = server({
      'POST /api/yuebao/transfer/in': envelope(1, 'ok', record(7, { amount: '1000.00000000' })),
      'GET /api/yuebao/transfer/in': envelope(1, 'ok', { ...subscribeInfo, usdt_available: '9000.00000000' }),
      'GET /api/yuebao/balance': envelope(1, 'ok', { ...balance, principal: '1000.00000000' }),
      'GET /api/yuebao/transfer/out': envelope(1, 'ok', redeemInfo),
      'GET /api/users/balances': envelope(1, 'ok', {
        lists: [{ asset: 'USDT', available: '9000.00000000', frozen: '0' }],
        page: 1,
        total: 1,
      }),
    });
    liquidityRecord.state.lists.all = { lists: [record(1)], next: null, loaded: true, failure: null };
    liquidityState.draft.subscribe = '1000';

    await expect(subscribeLiquidity('1000')).resolves.toMatchObject({ id: 7 });
    const post = requests.find((request) => request.method === 'POST')!;
    expect(post.path).toBe('/api/yuebao/transfer/in');
    expect(form(post.body)).toEqual({ amount: '1000' });
    expect(
      requests
        .filter((request) => request.method === 'GET')
        .map((request) => request.path)
        .sort(),
    ).toEqual(['/api/users/balances', '/api/yuebao/balance', '/api/yuebao/transfer/in', '/api/yuebao/transfer/out']);
    expect(liquidityState.balance?.principal).toBe('1000.00000000');
    expect(liquidityState.subscribeInfo?.usdt_available).toBe('9000.00000000');
    expect(userBalances.lists[0]).toMatchObject({ available: '9000.00000000' });
    expect(liquidityRecord.state.lists.all).toMatchObject({ lists: [], loaded: false });
    expect(liquidityState.draft.subscribe).toBe('');
  });

  it('sends the redemption mode, and a refusal reaches the page as the server said it', async () => {
    const { calls } = stubFetch(
      envelope(1, 'ok', record(8, { kind: 'redeem', mode: 'standard', status: 'submitted', pay_day: '2026-11-24' })),
      envelope(1, 'ok', balance),
    );
    await expect(redeemLiquidity('50', 'standard')).resolves.toMatchObject({ pay_day: '2026-11-24' });
    expect(form(calls[0]!.body)).toEqual({ amount: '50', mode: 'standard' });

    stubFetch(envelope(0, 'Insufficient balance!'));
    await expect(redeemLiquidity('50', 'quick')).rejects.toThrow('Insufficient balance!');
  });

  it('fails at once offline, sending nothing', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', record(9)));
    const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      await expect(subscribeLiquidity('100')).rejects.toThrow(
        'You are offline. Please check your network and try again.',
      );
    } finally {
      Object.defineProperty(navigator, 'onLine', onLine);
      delete (navigator as { onLine?: boolean }).onLine;
    }
    expect(calls).toHaveLength(0);
  });
});

describe('the record', () => {
  it('asks for the kind’s head, then the page after the cursor without repeating an entry', async () => {
    const { calls } = stubFetch(cursorPage(range(1, 20), '20'), cursorPage(range(20, 25), null));
    await liquidityRecord.load('all');
    expect(pathOf(calls[0]!.request.url)).toBe('/api/yuebao/order');
    expect(query(calls[0]!.request.url)).toEqual({ kind: 'all', cursor: '' });
    expect(hasMore(liquidityRecord.state.lists.all)).toBe(true);

    await liquidityRecord.load('all', { more: true });
    expect(query(calls[1]!.request.url)).toEqual({ kind: 'all', cursor: '20' });
    expect(liquidityRecord.state.lists.all.lists.map((entry) => entry.id)).toEqual(
      range(1, 25).map((entry) => entry.id),
    );
    expect(hasMore(liquidityRecord.state.lists.all)).toBe(false);
  });

  it('each filter has its own list from its head; a new session starts empty on All', async () => {
    const interest = record(30, { kind: 'interest', amount: '0.16438356' });
    const { calls } = stubFetch(
      cursorPage([interest], null),
      cursorPage([record(31, { kind: 'redeem', mode: 'quick' })], null),
    );
    await liquidityRecord.choose('interest');
    expect(query(calls[0]!.request.url)).toEqual({ kind: 'interest', cursor: '' });
    expect(liquidityRecord.state.filter).toBe('interest');
    expect(liquidityRecord.state.lists.interest.lists).toEqual([interest]);

    await liquidityRecord.choose('redeem');
    expect(query(calls[1]!.request.url)).toEqual({ kind: 'redeem', cursor: '' });
    expect(liquidityRecord.state.lists.redeem.lists[0]).toMatchObject({ mode: 'quick' });

    session.token = 'token-b';
    await settle();
    expect(liquidityRecord.state.filter).toBe('all');
    expect(liquidityRecord.state.lists.interest).toMatchObject({ lists: [], loaded: false });
  });

  it('a redemption shown below the head and paid meanwhile shows confirmed when the record is read again', async () => {
    const newer = Array.from({ length: 20 }, (_, index) => record(40 - index));
    const redemption = (status: LiquidityRecord['status']) =>
      record(20, { kind: 'redeem', mode: 'standard', status, pay_day: '2026-11-24' });
    stubFetch(
      cursorPage(newer, '21'),
      cursorPage([redemption('waiting')], null),
      cursorPage(newer, '21'),
      cursorPage([redemption('confirmed')], null),
    );
    await liquidityRecord.load('all');
    await liquidityRecord.load('all', { more: true });
    expect(liquidityRecord.state.lists.all.lists.at(-1)).toMatchObject({ id: 20, status: 'waiting' });

    // Opened again after the end of its day: the row below the head is read again, not kept as it was.
    await liquidityRecord.load('all');
    expect(liquidityRecord.state.lists.all.lists).toHaveLength(21);
    expect(liquidityRecord.state.lists.all.lists.at(-1)).toMatchObject({ id: 20, status: 'confirmed' });
    expect(hasMore(liquidityRecord.state.lists.all)).toBe(false);
  });

  it('keeps the rows shown when a reload fails, with the failure to show', async () => {
    stubFetch(cursorPage([record(1)], null), envelope(0, 'Server busy'));
    await liquidityRecord.load('subscribe');
    await expect(liquidityRecord.load('subscribe')).rejects.toThrow('Server busy');
    expect(liquidityRecord.state.lists.subscribe).toMatchObject({ loaded: true, failure: 'Server busy' });
    expect(liquidityRecord.state.lists.subscribe.lists).toHaveLength(1);
  });
});
