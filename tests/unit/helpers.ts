// Shared test doubles for the unit tests: a scripted fetch and envelope answers, and a React root per test.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, vi } from 'vitest';
import { configureApi } from '../../src/lib/api.ts';
import { loading } from '../../src/lib/loading.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import type { CoinQuote } from '../../src/api-contract/markets.ts';
import type { BankCard, Wallet } from '../../src/api-contract/payouts.ts';
import type { UserInfo } from '../../src/api-contract/account.ts';
import type { LockupProduct } from '../../src/api-contract/lockup.ts';
import type { ContractOrder, ContractPair } from '../../src/api-contract/contracts.ts';
import type { OptionReceipt } from '../../src/api-contract/receipts.ts';

export interface Call {
  request: Request;
  /** The request body as text (read before the request is handed on). */
  body: string;
}

/** One answer of the fake server: a Response, or an error the fetch throws. */
export type Answer = Response | Error | (() => Response | Error | Promise<Response | Error>);

/** An envelope answer: { ret, msg, data } with an HTTP status. */
export function envelope(ret: number, msg = '', data: unknown = null, status = 200): Response {
  return new Response(JSON.stringify({ ret, msg, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A non-200 answer with an envelope body, as our server sends them. */
export const httpError = (status: number) => envelope(0, `status ${status}`, null, status);

/**
 * Installs a fetch that answers with `answers` in order (the last one repeats) and
 * records every request. Retries wait 0 ms.
 */
export function stubFetch(...answers: Answer[]) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const body = request.body ? await request.clone().text() : '';
    calls.push({ request, body });
    const next = answers[Math.min(calls.length - 1, answers.length - 1)];
    const answer = typeof next === 'function' ? await next() : next;
    if (answer instanceof Error) throw answer;
    // A Response can be read once: hand out a copy so a repeated answer still works.
    return answer.clone();
  });
  const retryDelay = vi.fn(() => 0);
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay });
  return { fetch, calls, retryDelay };
}

/** Puts the shared client state back to a clean start. */
export function resetClientState(): void {
  // Let timers a failed test left behind (the 800 ms login redirect, say) run out, so none
  // stays pending into the next test.
  if (vi.isFakeTimers()) vi.runOnlyPendingTimers();
  vi.useRealTimers();
  session.token = null;
  session.user = null;
  loading.inFlight = 0;
  loading.writesInFlight = 0;
  loading.visible = false;
  loading.cancellable = false;
  toasts.current = null;
  offlineData.online = true;
  offlineData.asOf = {};
  location.hash = '';
}

/** Fake timers that leave promises alone. */
export const useFakeTimers = () =>
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });

/** A promise with its resolve handle, to hold a fake answer back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** A React root on a fresh element in the document for each test of the calling file or block, unmounted and removed
 * after it. */
export function mountPoint(): { container: HTMLDivElement; root: Root } {
  const mount = {} as { container: HTMLDivElement; root: Root };
  beforeEach(() => {
    mount.container = document.createElement('div');
    document.body.append(mount.container);
    mount.root = createRoot(mount.container);
  });
  afterEach(() => {
    act(() => mount.root.unmount());
    mount.container.remove();
  });
  return mount;
}

/** A coin's quote as the coin list gives it: one price for the day so far, a simulated feed. */
export const coinQuote = (code: string, price: string, at: string, more: Partial<CoinQuote> = {}): CoinQuote => ({
  code,
  name: code,
  price,
  at,
  change_24h: '0.00',
  open_24h: price,
  high_24h: price,
  low_24h: price,
  volume_24h: '1',
  price_decimals: 2,
  simulated: true,
  seeded: false,
  exchanges: 0,
  halted: false,
  ...more,
});

/** Counts the formatters of `kind` made from now on (each is still made as it would be). */
export function countMade(kind: 'DateTimeFormat' | 'NumberFormat') {
  const Made = Intl[kind] as new (...args: unknown[]) => object;
  return vi.spyOn(Intl, kind).mockImplementation(function (...args: unknown[]) {
    return new Made(...args);
  } as never);
}

/** A signed-in Thai customer with a payment password and nothing verified, with `fields` over it. */
export const customerInfo = (fields: Partial<UserInfo> = {}): UserInfo => ({
  id: 7,
  username: '0812345678',
  nickname: 'Somchai',
  userimg: '',
  level: 0,
  phone: '+66812345678',
  email: '',
  invite_code: 'ABC123',
  currency: 'USD',
  has_paypass: true,
  recharge_total: '0',
  verification: 'none',
  advanced_verification: 'none',
  created_at: '2026-03-01T00:00:00.000Z',
  ...fields,
});

/** A saved Thai bank card usable at once (no cooling-off), its number masked as the server lists it. */
export const savedCard = (fields: Partial<BankCard> = {}): BankCard => ({
  id: 1,
  label: '',
  real_name: 'Somchai Jaidee',
  ifsc: 'KBANK0001',
  bank_code: 'KBANK',
  bank_name: 'Kasikornbank',
  bank_number: '•••• 7890',
  phone: '0812345678',
  email: 'somchai@example.com',
  created_at: '2026-01-02T03:04:05.000Z',
  usable_at: '2026-01-03T03:04:05.000Z',
  cooling_seconds: 0,
  ...fields,
});

/** The BTC/USDT contract pair as the server lists it (2 price and 5 quantity decimals, 5 USDT minimum, 0.1 % fee, a
 * 10 % price band), with `fields` over it. */
export const contractPair = (fields: Partial<ContractPair> = {}): ContractPair => ({
  code: 'BTC',
  name: 'Bitcoin',
  price_decimals: 2,
  quantity_decimals: 5,
  min_notional: '5',
  fee_rate: '0.001',
  price_band: '0.1',
  ...fields,
});

/** A saved TRON wallet usable at once (no cooling-off), with `fields` over it. */
export const savedWallet = (fields: Partial<Wallet> = {}): Wallet => ({
  id: 1,
  alias: 'My TRON',
  currency: 'USDT',
  chain: 'TRC20',
  address: 'TXYZ1234567890abcdefghijkLMNOPqrst',
  created_at: '2026-11-27T00:00:00.000Z',
  usable_at: '2026-11-27T00:00:00.000Z',
  cooling_seconds: 0,
  ...fields,
});

/** A 30-day lock-up product as the server lists it (500–200,000 USDT, 0.12 % a day), with `fields` over it. */
export const lockupMonth = (fields: Partial<LockupProduct> = {}): LockupProduct => ({
  id: 3,
  name: 'Lock-up 30 days',
  days: 30,
  daily_rate: '0.0012',
  min_amount: '500',
  max_amount: '200000',
  remaining: '4998000',
  ...fields,
});

/**
 * A contract order as the server lists it, with `fields` over it: by default a real-money BTC market buy just accepted
 * (filling, nothing dealt, no fill, trigger or leg), on simulated prices.
 */
export const contractOrderOf = (fields: Partial<ContractOrder> = {}): ContractOrder => ({
  id: 1,
  code: 'BTC',
  side: 'buy',
  type: 'market',
  status: 'filling',
  price: null,
  quantity: '0',
  total_asked: null,
  fee_rate: '0.001',
  frozen: '0',
  frozen_asset: 'USDT',
  dealt_quantity: '0',
  unit_price: null,
  total: null,
  fee: null,
  fee_asset: null,
  spent: null,
  spent_asset: null,
  received: null,
  received_asset: null,
  tick_price: null,
  tick_at: null,
  tick_constituents: null,
  created_at: '2026-11-27T20:00:00.000Z',
  filled_at: null,
  cancelled_at: null,
  void_reason: null,
  simulated: true,
  seeded: false,
  exchanges: 0,
  practice: false,
  trigger_price: null,
  trigger_above: null,
  trigger_state: null,
  trigger_tick_price: null,
  trigger_tick_at: null,
  triggered_at: null,
  expires_at: null,
  leg: null,
  oco_group: null,
  parent_id: null,
  dust_conversion: false,
  ...fields,
});

/**
 * A settled option's receipt as the server writes one before signing it: order 42, 10 USDT up on BTC at 80 %, won and
 * paid 18 USDT, signed by key `keyId` at `signedAt`.
 */
export const optionReceiptBody = (keyId: string, signedAt: string): OptionReceipt => ({
  format: 'coinvest-receipt-1',
  kind: 'option',
  key_id: keyId,
  signed_at: signedAt,
  order: {
    id: '42',
    account: 'real',
    coin: 'BTC',
    direction: 'up',
    amount: '10',
    minutes: '1',
    yield_rate: '0.8',
    accepted_at: '2026-11-22T08:00:00.000Z',
  },
  start: { price: '100100', at: '2026-11-22T08:00:01.000Z', constituents: [] },
  end: { price: '100300', at: '2026-11-22T08:01:00.500Z', constituents: [] },
  outcome: 'win',
  payout: '18',
  settled_at: '2026-11-22T08:01:06.000Z',
});
