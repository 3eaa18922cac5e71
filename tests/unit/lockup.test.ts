// @vitest-environment jsdom
// Lock-up mining in the PWA (src/server/domain/README.md, "Earn"): the calculator's figures and dates, the checks
// before a subscription (in the server's order and words), "All", and the products, summary, record and
// subscription calls against a scripted server.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LockupOrder, type LockupProduct, type RegularBalance } from '../../src/api-contract/lockup.ts';
import { interestDay } from '../../src/api-contract/earn-days.ts';
import { configureApi } from '../../src/lib/api.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { session } from '../../src/lib/session.ts';
import { hasMore } from '../../src/lib/paged-list.ts';
import {
  loadProduct,
  loadProducts,
  loadSummary,
  loadToday,
  lockupPeriod,
  lockupRecord,
  lockupState,
  subscribeLockup,
  todayOf,
} from '../../src/features/lockup/lockup-store.ts';
import { lockupQuote, maxSubscription, subscribeProblem } from '../../src/features/lockup/lockup-form.ts';
import { formatAnnualRate, formatDailyRate, idFromQuery } from '../../src/features/lockup/lockup-format.ts';
import { formatCalendarDay } from '../../src/ui/CalendarDay.tsx';
import { envelope, lockupMonth, resetClientState, stubFetch } from './helpers.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);
const pathOf = (url: string) => new URL(url).pathname;
const setOnline = (online: boolean) =>
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });

const month = lockupMonth();
const week: LockupProduct = {
  id: 1,
  name: 'Lock-up 7 days',
  days: 7,
  daily_rate: '0.0008',
  min_amount: '100',
  max_amount: '50000',
  remaining: null,
};

const order = (id: number, extra: Partial<LockupOrder> = {}): LockupOrder => ({
  id,
  product_id: 1,
  name: 'Lock-up 7 days',
  amount: '1000.00000000',
  days: 7,
  daily_rate: '0.0008',
  daily_income: '0.80000000',
  start_day: '2026-11-24',
  end_day: '2026-11-30',
  status: 'processing',
  earned: '0.00000000',
  created_at: '2026-11-23T08:00:00.000Z',
  ended_at: null,
  ...extra,
});
const page = (lists: unknown[], total: number, number = 1) => envelope(1, 'ok', { lists, page: number, total });
/** A page of a list paged by cursor: `next` continues after it, null on the last. */
const cursorPage = (lists: unknown[], next: string | null) => envelope(1, 'ok', { lists, next });

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-a';
  await settle();
  Object.assign(lockupState, {
    products: [],
    productsLoaded: false,
    productsFailure: null,
    details: {},
    summary: null,
    today: null,
  });
  lockupRecord.reset({ filter: true });
});
afterEach(() => {
  delete (navigator as { onLine?: boolean }).onLine;
  resetClientState();
});

describe('the calculator', () => {
  it('income per day is principal × daily rate rounded down to 8 decimals; the total is that for each day', () => {
    expect(lockupQuote('1234.56', month)).toEqual({
      amount: '1234.56000000',
      daily: '1.48147200',
      total: '44.44416000',
      back: '1279.00416000',
    });
    expect(lockupQuote('1000', week)).toEqual({
      amount: '1000.00000000',
      daily: '0.80000000',
      total: '5.60000000',
      back: '1005.60000000',
    });
    // 0.00000001 × 0.0008 is below the last decimal: no income at all, never a rounded-up one.
    expect(lockupQuote('0.00000001', week)).toMatchObject({ daily: '0.00000000', total: '0.00000000' });
    expect(lockupQuote('333.33333333', { days: 3, daily_rate: '0.0015' })).toMatchObject({
      daily: '0.49999999',
      total: '1.49999997',
    });
  });

  it('shows nothing while the amount is not an amount above zero', () => {
    for (const typed of ['', '1.', '.5', '0', '0.00', 'abc', '1.123456789'])
      expect(lockupQuote(typed, week), typed).toBeNull();
  });

  it('income starts the next interest day; the principal comes back at the end of day start + days − 1', () => {
    expect(lockupPeriod('2026-11-23', 7)).toEqual({ start: '2026-11-24', end: '2026-11-30' });
    expect(lockupPeriod('2026-11-30', 7)).toEqual({ start: '2026-12-01', end: '2026-12-07' });
    expect(lockupPeriod('2026-01-31', 30)).toEqual({ start: '2026-02-01', end: '2026-03-02' });
    expect(lockupPeriod('2028-02-27', 3)).toEqual({ start: '2028-02-28', end: '2028-03-01' });
    expect(lockupPeriod('2026-12-31', 2)).toEqual({ start: '2027-01-01', end: '2027-01-02' });
    expect(lockupPeriod('2026-11-23', 1)).toEqual({ start: '2026-11-24', end: '2026-11-24' });
  });

  it('counts today as the server does, else in Asia/Bangkok: 17:30 UTC is already the next day there', () => {
    expect(interestDay(new Date('2026-11-30T17:30:00Z'))).toBe('2026-12-01');
    expect(interestDay(new Date('2026-11-30T16:59:59Z'))).toBe('2026-11-30');
    expect(interestDay(new Date('2026-11-30T17:30:00Z'), 'UTC')).toBe('2026-11-30');
    expect(todayOf({ today: null, timeZone: 'Asia/Bangkok' }, new Date('2026-11-30T17:30:00Z'))).toBe('2026-12-01');
    expect(todayOf({ today: '2026-11-29', timeZone: 'Asia/Bangkok' }, new Date('2026-11-30T17:30:00Z'))).toBe(
      '2026-11-29',
    );
  });

  it('writes the daily rate exactly, its annual equivalent (× 365) to 2 decimals, and days as dates', () => {
    expect(formatDailyRate('0.0008')).toBe('0.08%');
    expect(formatDailyRate('0.0012')).toBe('0.12%');
    expect(formatDailyRate('0.000125')).toBe('0.0125%');
    expect(formatAnnualRate('0.0008')).toBe('29.2%');
    expect(formatAnnualRate('0.0015')).toBe('54.75%');
    expect(formatAnnualRate('0.000125')).toBe('4.56%');
    expect(formatCalendarDay('2026-03-02')).toBe('Mar 2, 2026');
    expect(idFromQuery('id=3')).toBe(3);
    expect(idFromQuery('id=x')).toBeNull();
  });
});

describe('the subscription checks', () => {
  it('answers in order: amount given, well formed, minimum, maximum, balance, quota', () => {
    const product = { ...month, remaining: '600' };
    expect(subscribeProblem('', product, '1000')).toBe('Please enter the amount!');
    expect(subscribeProblem('12.', product, '1000')).toBe('Please enter a valid amount!');
    expect(subscribeProblem('1e3', product, '1000')).toBe('Please enter a valid amount!');
    expect(subscribeProblem('499.99', product, '0')).toBe('The minimum amount is: 500 USDT!');
    expect(subscribeProblem('200000.01', { ...month, remaining: '1' }, '0')).toBe(
      'The maximum amount is: 200,000 USDT!',
    );
    expect(subscribeProblem('700', product, '650')).toBe('Insufficient balance!');
    expect(subscribeProblem('650', product, '1000')).toBe('Only 600 USDT of this product remain!');
    expect(subscribeProblem('600', product, '1000')).toBeNull();
  });

  it('leaves the balance to the server while it is unknown, and a product without quota has no quota check', () => {
    expect(subscribeProblem('50000', week, null)).toBeNull();
    expect(subscribeProblem('50000', week, '50000')).toBeNull();
    expect(subscribeProblem('100', week, '99.99999999')).toBe('Insufficient balance!');
  });

  it('"All" takes the available USDT, at most the maximum and the quota left', () => {
    expect(maxSubscription('10000', week)).toBe('10000');
    expect(maxSubscription('1234.56789', week)).toBe('1234.56789');
    expect(maxSubscription('60000', week)).toBe('50000');
    expect(maxSubscription('10000', { ...month, remaining: '2500.5' })).toBe('2500.5');
    expect(maxSubscription('0', week)).toBe('0');
  });
});

describe('the calls', () => {
  it('loads the products (public) and keeps each by id for its details page', async () => {
    session.token = null;
    await settle();
    const { calls } = stubFetch(page([week, month], 2), envelope(1, 'ok', { ...month, remaining: '100' }));
    await loadProducts();
    expect(pathOf(calls[0]!.request.url)).toBe('/api/lockup/products');
    expect(calls[0]!.request.headers.get('token')).toBeNull();
    expect(lockupState).toMatchObject({ productsLoaded: true, productsFailure: null });
    expect(lockupState.products.map((product) => product.id)).toEqual([1, 3]);
    expect(lockupState.details[3]).toMatchObject({ remaining: '4998000' });

    await loadProduct(3);
    expect(pathOf(calls[1]!.request.url)).toBe('/api/lockup/product');
    expect(query(calls[1]!.request.url)).toEqual({ id: '3' });
    expect(lockupState.details[3]).toMatchObject({ remaining: '100' });
  });

  it('keeps the products shown when a reload fails, and says why', async () => {
    stubFetch(page([week], 1), envelope(0, 'Server busy'));
    await loadProducts();
    await expect(loadProducts()).rejects.toThrow('Server busy');
    expect(lockupState.products).toHaveLength(1);
    expect(lockupState.productsFailure).toBe('Server busy');
  });

  it('reads the summary with type=regular for a signed-in user only, and forgets it at logout', async () => {
    const summary: RegularBalance = { type: 'regular', locked: '1000.00000000', earned: '1.60000000', processing: 1 };
    const { calls } = stubFetch(envelope(1, 'ok', summary));
    await loadSummary();
    expect(pathOf(calls[0]!.request.url)).toBe('/api/yuebao/balance');
    expect(query(calls[0]!.request.url)).toEqual({ type: 'regular' });
    expect(lockupState.summary).toEqual(summary);

    session.token = null;
    await settle();
    expect(lockupState.summary).toBeNull();
    await loadSummary();
    expect(calls).toHaveLength(1);
  });

  it("takes today from the server's liquidity product", async () => {
    stubFetch(envelope(1, 'ok', { today: '2026-11-30', timezone: 'Asia/Bangkok' }));
    await loadToday();
    expect(lockupState.today).toBe('2026-11-30');
    expect(lockupPeriod(todayOf(lockupState), 2)).toEqual({ start: '2026-12-01', end: '2026-12-02' });
  });

  it('pages the record per status without repeating an order', async () => {
    const { calls } = stubFetch(
      cursorPage(
        Array.from({ length: 20 }, (_, i) => order(40 - i)),
        '21',
      ),
      cursorPage([order(21), order(20), order(19), order(18), order(17), order(16)], null),
    );
    await lockupRecord.load('all');
    expect(pathOf(calls[0]!.request.url)).toBe('/api/lockup/orders');
    expect(query(calls[0]!.request.url)).toEqual({ status: 'all', cursor: '' });
    expect(hasMore(lockupRecord.state.lists.all)).toBe(true);
    await lockupRecord.load('all', { more: true });
    expect(query(calls[1]!.request.url)).toEqual({ status: 'all', cursor: '21' });
    expect(lockupRecord.state.lists.all.lists.map((item) => item.id)).toEqual(
      Array.from({ length: 25 }, (_, i) => 40 - i),
    );

    stubFetch(cursorPage([order(7, { status: 'end', earned: '5.60000000' })], null));
    await lockupRecord.choose('end');
    expect(lockupRecord.state).toMatchObject({ filter: 'end' });
    expect(lockupRecord.state.lists.end.lists).toMatchObject([{ id: 7, status: 'end' }]);
  });

  it('subscribes with the product, the terms shown and the amount, then asks again for the balance, summary, products and record', async () => {
    stubFetch(cursorPage([order(1, { status: 'end' })], null));
    await lockupRecord.choose('end');
    const answers: Record<string, Response> = {
      '/api/lockup/subscribe': envelope(1, 'ok', order(8)),
      '/api/users/balances': envelope(1, 'ok', {
        lists: [{ asset: 'USDT', available: '9000', frozen: '0' }],
        page: 1,
        total: 1,
      }),
      '/api/yuebao/balance': envelope(1, 'ok', {
        type: 'regular',
        locked: '1000.00000000',
        earned: '0.00000000',
        processing: 1,
      }),
      '/api/lockup/products': page([week], 1),
    };
    const requests: { path: string; body: string; method: string }[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const request = input as Request;
      requests.push({
        path: pathOf(request.url),
        method: request.method,
        body: request.body ? await request.clone().text() : '',
      });
      return answers[pathOf(request.url)]!.clone();
    });
    configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });

    await expect(subscribeLockup(week, '1000')).resolves.toMatchObject({ id: 8, status: 'processing' });
    expect(requests[0]).toMatchObject({ path: '/api/lockup/subscribe', method: 'POST' });
    // The period and rate confirmed go with it: an operator's change meanwhile is refused, not taken.
    expect(form(requests[0]!.body)).toEqual({ product_id: '1', amount: '1000', days: '7', daily_rate: '0.0008' });
    await vi.waitFor(() => expect(lockupState.summary).not.toBeNull());
    await vi.waitFor(() => expect(userBalances.lists).toHaveLength(1));
    expect(requests.map((request) => request.path).sort()).toEqual([
      '/api/lockup/products',
      '/api/lockup/subscribe',
      '/api/users/balances',
      '/api/yuebao/balance',
    ]);
    expect(userBalances.lists[0]).toMatchObject({ available: '9000' });
    expect(lockupState.summary).toMatchObject({ locked: '1000.00000000', processing: 1 });
    // The record opens afresh on "All".
    expect(lockupRecord.state.filter).toBe('all');
    expect(lockupRecord.state.lists.end).toMatchObject({ lists: [], loaded: false });
  });

  it("a refusal comes back as the server's text and the product is read again; offline, it fails at once without a call", async () => {
    const shown = { ...week, id: 3 };
    const REFUSED = 'This product now locks up for 30 days at 0.05% a day: check its terms and subscribe again!';
    const now = { ...shown, days: 30, daily_rate: '0.0005' };
    const { calls } = stubFetch(() =>
      pathOf(calls.at(-1)!.request.url) === '/api/lockup/subscribe' ? envelope(0, REFUSED) : envelope(1, 'ok', now),
    );
    await expect(subscribeLockup(shown, '600')).rejects.toThrow(REFUSED);
    await vi.waitFor(() => expect(lockupState.details[3]).toEqual(now));
    expect(calls.map((call) => pathOf(call.request.url))).toEqual(['/api/lockup/subscribe', '/api/lockup/product']);

    setOnline(false);
    await expect(subscribeLockup(shown, '600')).rejects.toThrow(
      'You are offline. Please check your network and try again.',
    );
    await settle();
    expect(calls.filter((call) => pathOf(call.request.url) === '/api/lockup/subscribe')).toHaveLength(1);
  });
});
