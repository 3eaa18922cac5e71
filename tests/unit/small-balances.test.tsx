// @vitest-environment jsdom
// "Convert small balances to USDT" on the contracts page (features/contracts/SmallBalances.tsx): shown only while the
// customer holds an amount no order can sell; its dialog lists those amounts (not a sellable holding, not the frozen
// part) with the USDT estimated at the latest recorded price after the fee, asks for a confirmation, shows that it
// waits for the next recorded price, then what each became and the USDT received. The write carries an
// Idempotency-Key.
import { act } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { ContractOrder } from '../../src/api-contract/contracts.ts';
import { configureApi } from '../../src/lib/api.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { prices } from '../../src/lib/prices.ts';
import { session } from '../../src/lib/session.ts';
import { contractsState } from '../../src/features/contracts/contracts-store.ts';
import { SmallBalances } from '../../src/features/contracts/SmallBalances.tsx';
import { OrderRow } from '../../src/features/contracts/ContractParts.tsx';
import {
  coinQuote,
  contractOrderOf,
  deferred,
  envelope,
  mountPoint,
  resetClientState,
  contractPair,
} from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const pair = (code: string, quantityDecimals: number) =>
  contractPair({ code, name: code, quantity_decimals: quantityDecimals });
const AT = '2026-12-05T08:00:00.000Z';

const order = (fields: Partial<ContractOrder>): ContractOrder =>
  contractOrderOf({
    id: 90,
    side: 'sell',
    quantity: '0.00000898',
    frozen: '0.00000898',
    frozen_asset: 'BTC',
    dealt_quantity: '0.00000000',
    created_at: AT,
    dust_conversion: true,
    ...fields,
  });
const filled = order({
  status: 'filled',
  frozen: '0.00000000',
  dealt_quantity: '0.00000898',
  unit_price: '48000',
  total: '0.43104000',
  fee: '0.00043104',
  fee_asset: 'USDT',
  received: '0.43060896',
  received_asset: 'USDT',
  tick_price: '48000',
  tick_at: AT,
  filled_at: AT,
});
/** 0.00000002 DOGE's conversion filled at 0.1 USDT: worth less than 0.00000001 USDT, so it brought nothing. */
const filledDoge = () =>
  order({
    id: 91,
    code: 'DOGE',
    quantity: '0.00000002',
    frozen: '0.00000000',
    frozen_asset: 'DOGE',
    status: 'filled',
    dealt_quantity: '0.00000002',
    unit_price: '0.1',
    total: '0.00000000',
    fee: '0.00000000',
    fee_asset: 'USDT',
    received: '0.00000000',
    received_asset: 'USDT',
    tick_price: '0.1',
    tick_at: AT,
    filled_at: AT,
  });

/** The balances as the server holds them: 0.00000898 BTC available (0.001 frozen by a limit sell), 1 ETH, 100 USDT. */
let held = [
  { asset: 'BTC', available: '0.00000898', frozen: '0.00100000' },
  { asset: 'ETH', available: '1.00000000', frozen: '0.00000000' },
  { asset: 'USDT', available: '100.00000000', frozen: '0.00000000' },
];
let conversion = deferred<Response>();
/** The finished orders the order list answers (what awaitMarketFill looks for). */
let history: ContractOrder[] = [filled];
const requests: Request[] = [];

beforeEach(() => {
  session.token = 'token-1';
  contractsState.pairs = [pair('BTC', 5), pair('ETH', 4)];
  prices.quotes = { BTC: coinQuote('BTC', '49000', AT), ETH: coinQuote('ETH', '3000', AT) };
  held = [
    { asset: 'BTC', available: '0.00000898', frozen: '0.00100000' },
    { asset: 'ETH', available: '1.00000000', frozen: '0.00000000' },
    { asset: 'USDT', available: '100.00000000', frozen: '0.00000000' },
  ];
  userBalances.lists = held;
  userBalances.updatedAt = null;
  conversion = deferred<Response>();
  history = [filled];
  requests.length = 0;
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    requests.push(request);
    const path = new URL(request.url).pathname;
    if (path === '/api/users/balances') return envelope(1, 'Success', { lists: held, page: 1, total: held.length });
    if (path === '/api/coin/trans/dust') return conversion.promise;
    if (path === '/api/coin/trans/lists') return envelope(1, 'Success', { lists: history, next: null });
    if (path === '/api/coin/user/amount')
      return envelope(1, 'Success', {
        code: 'BTC',
        available: '0.00000000',
        frozen: '0.00100000',
        usdt_available: '100.43060896',
        usdt_frozen: '0.00000000',
      });
    throw new Error(`unexpected call ${path}`);
  });
  configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
});
// Within act: the reset signs out, which the action still mounted renders (it is unmounted after).
afterEach(() => act(async () => resetClientState()));

/**
 * Waits until the screen shows what `done` looks for: the app runs one event-loop turn at a time, each within its own
 * act, so React renders what that turn did before `done` is asked again (inside one act nothing renders until it
 * ends). The bound on turns only catches a hang.
 */
async function until(done: () => boolean) {
  for (let turn = 0; turn < 5000 && !done(); turn++)
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(done()).toBe(true);
}

/** Renders the action as the contracts page does, and waits until the balances it asks for as it opens have answered
 * and are on the screen (refreshBalances stamps userBalances.updatedAt with the answer). */
async function open() {
  const answered = new Promise<void>((resolve) => {
    const stop = subscribeKey(userBalances, 'updatedAt', () => {
      stop();
      resolve();
    });
  });
  await renderInApp(view, <SmallBalances />);
  await act(async () => answered);
}

const dialogText = () => document.querySelector('[role="alertdialog"]')?.textContent ?? '';
const button = (label: string) =>
  [...document.querySelectorAll('button')].find((item) => item.textContent === label) ?? null;

it('lists only the dust with its estimate, confirms, shows the wait, then what it became', async () => {
  await open();
  await act(async () => button('Convert small balances to USDT')!.click());
  const asked = dialogText();
  // 49000 × 0.00000898 = 0.44002 USDT, less the 0.1 % fee rounded up (0.00044002): 0.43957998 USDT.
  expect(asked).toContain('0.00000898 BTC≈ 0.43957998 USDT');
  expect(asked).toContain('Estimated total≈ 0.43957998 USDT');
  expect(asked).not.toContain('ETH');
  expect(asked).toContain('at the first price recorded after you confirm');

  await act(async () => button('Convert')!.click());
  expect(document.querySelector('[role="status"]')?.textContent).toBe(
    'Converting… waiting for the next recorded price.',
  );
  const write = requests.find((request) => new URL(request.url).pathname === '/api/coin/trans/dust')!;
  expect(write.method).toBe('POST');
  expect(write.headers.get('idempotency-key')).toMatch(/.+/);
  // What was shown is what is asked: the server converts nothing else.
  expect(new URLSearchParams(await write.clone().text()).get('amounts')).toBe('BTC:0.00000898');

  held = [
    { asset: 'BTC', available: '0.00000000', frozen: '0.00100000' },
    { asset: 'ETH', available: '1.00000000', frozen: '0.00000000' },
    { asset: 'USDT', available: '100.43060896', frozen: '0.00000000' },
  ];
  conversion.resolve(envelope(1, 'Success', { lists: [order({})], page: 1, total: 1 }));
  await until(() => dialogText().includes('Received in total'));
  // The price it filled at reads as the page writes BTC's prices (2 decimals, formatPrice), as its order's details do.
  expect(dialogText()).toContain('0.00000898 BTC converted to 0.43060896 USDT at 48,000.00');
  expect(dialogText()).toContain('Received in total: 0.43060896 USDT');

  // OK closes it; nothing is left to convert, so the action goes.
  await act(async () => button('OK')!.click());
  expect(dialogText()).toBe('');
  expect(button('Convert small balances to USDT')).toBeNull();
});

it('shows nothing while every holding can be sold', async () => {
  held = [{ asset: 'ETH', available: '1.00000000', frozen: '0.00000000' }];
  userBalances.lists = held;
  await open();
  expect(view.container.textContent).toBe('');
});

it('shows nothing for a halted coin, which the server would not convert either', async () => {
  prices.quotes = { BTC: coinQuote('BTC', '49000', AT, { halted: true }), ETH: coinQuote('ETH', '3000', AT) };
  await open();
  expect(view.container.textContent).toBe('');
});

it('tells the refusal and closes when the server has nothing to convert', async () => {
  // Every toast shown, whatever time a busy machine takes before the check (a toast leaves after a few seconds).
  const { toasts } = await import('../../src/lib/toast.ts');
  const shown: string[] = [];
  const stop = subscribe(toasts, () => void (toasts.current && shown.push(toasts.current.text)), true);
  await open();
  await act(async () => button('Convert small balances to USDT')!.click());
  await act(async () => button('Convert')!.click());
  conversion.resolve(envelope(0, 'You have no small balances to convert.'));
  await until(() => dialogText() === '');
  stop();
  expect(shown).toEqual(['You have no small balances to convert.']);
});

it('names a conversion in the order list, beside the sell it was', async () => {
  await renderInApp(view, <OrderRow order={filled} />);
  expect(view.container.querySelector('.ct-dust-tag')?.textContent).toBe('Small balance conversion');
  await renderInApp(view, <OrderRow order={{ ...filled, dust_conversion: false }} />);
  expect(view.container.querySelector('.ct-dust-tag')).toBeNull();
});

it('says in words, before and after, that an amount worth less than 0.00000001 USDT brings nothing', async () => {
  // 0.00000002 DOGE at 0.1 USDT is worth 0.000000002 USDT: 0 once rounded down to the ledger's 8 decimals.
  contractsState.pairs = [pair('BTC', 5), pair('ETH', 4), pair('DOGE', 0)];
  prices.quotes = { ...prices.quotes, DOGE: coinQuote('DOGE', '0.1', AT) };
  held = [...held, { asset: 'DOGE', available: '0.00000002', frozen: '0.00000000' }];
  userBalances.lists = held;
  await open();
  await act(async () => button('Convert small balances to USDT')!.click());
  const rows = () =>
    [...document.querySelectorAll('[role="alertdialog"] dl > div')].map((row) => [
      row.querySelector('dt')!.textContent,
      row.querySelector('dd')!.textContent,
    ]);
  expect(rows()).toEqual([
    ['0.00000898 BTC', '≈ 0.43957998 USDT'],
    ['0.00000002 DOGE', 'Worth less than 0.00000001 USDT after the fee: converting it gives you nothing'],
    ['Estimated total', '≈ 0.43957998 USDT'],
  ]);
  await act(async () => button('Convert')!.click());
  const write = requests.find((request) => new URL(request.url).pathname === '/api/coin/trans/dust')!;
  // The rule of what is converted is the server's: the DOGE goes too, as shown.
  expect(new URLSearchParams(await write.clone().text()).get('amounts')).toBe('BTC:0.00000898,DOGE:0.00000002');

  history = [filled, filledDoge()];
  conversion.resolve(
    envelope(1, 'Success', {
      lists: [order({}), order({ id: 91, code: 'DOGE', quantity: '0.00000002' })],
      page: 1,
      total: 2,
    }),
  );
  await until(() => dialogText().includes('Received in total'));
  expect([...document.querySelectorAll('.ct-small-results li')].map((item) => item.textContent)).toEqual([
    '0.00000898 BTC converted to 0.43060896 USDT at 48,000.00',
    '0.00000002 DOGE converted: worth less than 0.00000001 USDT after the fee, it brought nothing.',
  ]);
});

it('says the total in words when nothing at all is received', async () => {
  contractsState.pairs = [pair('DOGE', 0)];
  prices.quotes = { DOGE: coinQuote('DOGE', '0.1', AT) };
  held = [{ asset: 'DOGE', available: '0.00000002', frozen: '0.00000000' }];
  userBalances.lists = held;
  await open();
  await act(async () => button('Convert small balances to USDT')!.click());
  expect(dialogText()).toContain('Estimated totalYou receive nothing');
  expect(dialogText()).not.toContain('0.00000000');
  await act(async () => button('Convert')!.click());
  history = [filledDoge()];
  conversion.resolve(
    envelope(1, 'Success', { lists: [order({ id: 91, code: 'DOGE', quantity: '0.00000002' })], page: 1, total: 1 }),
  );
  await until(() => dialogText().includes('Received in total'));
  expect(dialogText()).toContain('Received in total: nothing');
  expect(dialogText()).not.toContain('0 USDT');
});
