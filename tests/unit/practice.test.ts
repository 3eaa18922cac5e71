// @vitest-environment jsdom
// Real or Practice: the choice is kept on the device for each user who signs in here, is the same for every screen,
// and every trading call of the options and contracts says which account it is about (nothing for the real one,
// account=practice for the practice one); a switch empties what the other account showed, a late answer of the other
// account is dropped, and another session never sees the practice balance.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, get } from 'idb-keyval';
import type { UserInfo } from '../../src/api-contract/account.ts';
import type { OptionOrder } from '../../src/api-contract/options.ts';
import type { PracticeAccount } from '../../src/api-contract/practice.ts';
import {
  accountChoice,
  accountField,
  chooseAccount,
  currentAccount,
  loadPractice,
  onAccountChange,
  practice,
  practiceUsdt,
} from '../../src/lib/practice.ts';
import { session } from '../../src/lib/session.ts';
import { flushStores, hydrateStores } from '../../src/lib/storage.ts';
import { loadOrders, loadTotals, optionsState, placeOrder } from '../../src/features/options/options-store.ts';
import {
  contractsState,
  loadAmounts,
  placeOrder as placeContract,
} from '../../src/features/contracts/contracts-store.ts';
import { deferred, envelope, resetClientState, stubFetch } from './helpers.ts';

const user = (id: number) => ({ id, username: `user${id}` }) as UserInfo;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const practiceAccount = (usdt: string): PracticeAccount => ({
  balances: [
    { asset: 'USDT', available: usdt, frozen: '0' },
    { asset: 'BTC', available: '0.5', frozen: '0' },
  ],
  start_amount: '10000',
  resets: 0,
  opened_at: '2026-01-02T03:04:05.000Z',
  reset_at: null,
});

const option = (id: number, practising: boolean): OptionOrder =>
  ({
    id,
    code: 'BTC',
    direction: 'up',
    minutes: 1,
    amount: '10',
    status: 'holding',
    start_at: '2026-01-02T03:04:05.000Z',
    start_price: '100',
    start_price_at: '2026-01-02T03:04:05.000Z',
    end_at: '2099-01-02T03:05:05.000Z',
    remaining_seconds: 60,
    practice: practising,
  }) as OptionOrder;

/** The fields a call sent: its query for a GET, its form body for a POST. */
const sent = (call: { request: Request; body: string }) =>
  Object.fromEntries(
    call.request.method === 'GET' ? new URL(call.request.url).searchParams : new URLSearchParams(call.body),
  );

beforeEach(async () => {
  resetClientState();
  await hydrateStores();
  accountChoice.byUser = {};
  session.token = 'token-a';
  session.user = user(1);
  await settle();
});
afterEach(resetClientState);

describe('the choice of account', () => {
  it('is Real until the user switches, and then the same for every screen', () => {
    expect(currentAccount()).toBe('real');
    chooseAccount('practice');
    expect(currentAccount()).toBe('practice');
    chooseAccount('real');
    expect(currentAccount()).toBe('real');
  });

  it('is kept per user on this device: another user signing in here trades with their own choice', () => {
    chooseAccount('practice');
    session.user = user(2);
    expect(currentAccount()).toBe('real');
    session.user = user(1);
    expect(currentAccount()).toBe('practice');
  });

  it('needs someone signed in: nobody signed in trades with nothing but Real, and cannot switch', () => {
    session.user = null;
    chooseAccount('practice');
    expect(currentAccount()).toBe('real');
    expect(accountChoice.byUser).toEqual({});
  });

  it('is saved on the device, so the next start remembers it', async () => {
    chooseAccount('practice');
    await flushStores();
    expect(await get('trading-account', createStore('coinvest', 'state'))).toEqual({ byUser: { 1: 'practice' } });
  });

  it('adds nothing to a call of the real account and account=practice to a practice one', () => {
    expect(accountField()).toEqual({});
    chooseAccount('practice');
    expect(accountField()).toEqual({ account: 'practice' });
    expect(accountField('real')).toEqual({});
  });

  it('tells its listeners once per change: a switch, or a user with another choice', async () => {
    const heard: string[] = [];
    const stop = onAccountChange((account) => heard.push(account));
    chooseAccount('practice');
    await settle();
    chooseAccount('practice');
    await settle();
    session.user = user(2);
    await settle();
    stop();
    chooseAccount('practice');
    await settle();
    expect(heard).toEqual(['practice', 'real']);
  });
});

describe('the practice balance', () => {
  it('is read from the practice account, and another session never sees it', async () => {
    stubFetch(envelope(1, 'ok', practiceAccount('9990.5')));
    await loadPractice();
    expect(practiceUsdt(practice.account)).toBe('9990.5');
    session.token = 'token-b';
    await settle();
    expect(practice.account).toBeNull();
    expect(practiceUsdt(practice.account)).toBeNull();
  });

  it('drops an answer that arrives for a session that has ended', async () => {
    const held = deferred<Response>();
    stubFetch(() => held.promise);
    const loading = loadPractice();
    session.token = 'token-b';
    held.resolve(envelope(1, 'ok', practiceAccount('10000')));
    await loading;
    expect(practice.account).toBeNull();
  });
});

describe('options with the account chosen', () => {
  it('read the lists and totals of the practice account, and place an order with it', async () => {
    chooseAccount('practice');
    const fetch = stubFetch(
      envelope(1, 'ok', { lists: [option(5, true)], page: 1, total: 1 }),
      envelope(1, 'ok', {
        holding_count: 1,
        holding_amount: '10',
        settled_count: 0,
        wins: 0,
        losses: 0,
        ties: 0,
        total_profit: '0',
      }),
      envelope(1, 'ok', option(6, true)),
      envelope(1, 'ok', practiceAccount('9980')),
    );
    await loadOrders('holding');
    await loadTotals();
    expect(sent(fetch.calls[0]!)).toMatchObject({ status: 'holding', account: 'practice' });
    expect(sent(fetch.calls[1]!)).toEqual({ account: 'practice' });
    expect(optionsState.holding.lists.map((order) => order.id)).toEqual([5]);

    await placeOrder({ code: 'BTC', direction: 'up', product_id: '7', amount: '10' });
    expect(sent(fetch.calls[2]!)).toMatchObject({ amount: '10', account: 'practice' });
    expect(optionsState.holding.lists.map((order) => order.id)).toEqual([5, 6]);
    // The stake left the practice balance: that one is asked for, not the real one.
    expect(fetch.calls.some((call) => new URL(call.request.url).pathname.endsWith('/users/practice'))).toBe(true);
    expect(practiceUsdt(practice.account)).toBe('9980');
  });

  it("send no account for the real one, empty the lists on a switch and drop the other account's late answer", async () => {
    const held = deferred<Response>();
    const fetch = stubFetch(() => held.promise);
    const loading = loadOrders('holding');
    await settle();
    expect(sent(fetch.calls[0]!)).not.toHaveProperty('account');
    chooseAccount('practice');
    await settle();
    held.resolve(envelope(1, 'ok', { lists: [option(5, false)], page: 1, total: 1 }));
    await loading;
    expect(optionsState.holding.loaded).toBe(false);
    expect(optionsState.holding.lists).toEqual([]);
  });
});

describe('contracts with the account chosen', () => {
  it('read the practice amounts and place an order with the practice account', async () => {
    chooseAccount('practice');
    const amounts = { code: 'BTC', available: '0', frozen: '0', usdt_available: '10000', usdt_frozen: '0' };
    const fetch = stubFetch(
      envelope(1, 'ok', amounts),
      envelope(1, 'ok', { id: 9, code: 'BTC', status: 'void', practice: true }),
      envelope(1, 'ok', amounts),
    );
    await loadAmounts('BTC');
    expect(sent(fetch.calls[0]!)).toEqual({ code: 'BTC', account: 'practice' });
    expect(contractsState.amounts.BTC?.usdt_available).toBe('10000');

    await placeContract('BTC', { side: 'buy', type: 'market', price: '', quantity: '', total: '10' }).catch(
      () => undefined,
    );
    expect(sent(fetch.calls[1]!)).toMatchObject({ code: 'BTC', total: '10', account: 'practice' });
  });

  it('forget the amounts shown on a switch', async () => {
    const amounts = { code: 'BTC', available: '1', frozen: '0', usdt_available: '50', usdt_frozen: '0' };
    const fetch = stubFetch(envelope(1, 'ok', amounts));
    await loadAmounts('BTC');
    expect(sent(fetch.calls[0]!)).toEqual({ code: 'BTC' });
    expect(contractsState.amounts.BTC).toBeDefined();
    chooseAccount('practice');
    await settle();
    expect(contractsState.amounts).toEqual({});
  });
});
