// @vitest-environment jsdom
// The contract order form's own rules: the checks before an order is sent (the same texts the
// server answers, in the same order), the figures shown before submit, the shares of what is
// available, and the total assets on Home and Mine — decimals throughout, never floats.
import { afterEach, describe, expect, it } from 'vitest';
import Big from 'big.js';
import { limitReserve, type ContractOrder, type PairAmounts } from '../../src/api-contract/contracts.ts';
import {
  contractOrderList,
  contractsState,
  orderPreview,
  orderProblem,
  placeOrder,
  revokeOrder,
  shareOf,
  type OrderForm,
} from '../../src/features/contracts/contracts-store.ts';
import { totalAssetsUsdt } from '../../src/lib/balances.ts';
import { session } from '../../src/lib/session.ts';
import { contractOrderOf, envelope, resetClientState, stubFetch, contractPair } from './helpers.ts';

const BTC = contractPair();
const held: PairAmounts = { code: 'BTC', available: '0.5', frozen: '0', usdt_available: '1000', usdt_frozen: '0' };
const form = (fields: Partial<OrderForm>): OrderForm => ({
  side: 'buy',
  type: 'limit',
  price: '',
  quantity: '',
  total: '',
  ...fields,
});
const LAST = '97250.00';

describe('orderProblem', () => {
  it('asks for the price, then the quantity, in the spec’s words', () => {
    expect(orderProblem('BTC', form({ quantity: '0.001' }), BTC, held, LAST)).toBe('Please enter the price!');
    expect(orderProblem('BTC', form({ price: '97000' }), BTC, held, LAST)).toBe('Please enter the quantity!');
    expect(orderProblem('BTC', form({ type: 'market', side: 'buy' }), BTC, held, LAST)).toBe(
      'Please enter the quantity!',
    );
    expect(orderProblem('BTC', form({ price: '97,000x', quantity: '0.001' }), BTC, held, LAST)).toBe(
      'Please enter a valid price!',
    );
  });

  it('refuses a price off the tick, a quantity off the step, a price outside the band', () => {
    expect(orderProblem('BTC', form({ price: '97000.001', quantity: '0.001' }), BTC, held, LAST)).toBe(
      'The price must be a multiple of 0.01!',
    );
    expect(orderProblem('BTC', form({ price: '97000', quantity: '0.000001' }), BTC, held, LAST)).toBe(
      'The quantity must be a multiple of 0.00001!',
    );
    // 10 % of 97,250 is 9,725: 87,525 is the lowest buy allowed, 87,524.99 is not.
    expect(orderProblem('BTC', form({ price: '87524.99', quantity: '0.001' }), BTC, held, LAST)).toBe(
      'The price is more than 10% away from the market price!',
    );
    expect(orderProblem('BTC', form({ price: '87525', quantity: '0.001' }), BTC, held, LAST)).toBeNull();
  });

  it('asks for a price above zero, not a multiple of the tick, when the price is 0', () => {
    for (const price of ['0', '0.00'])
      expect(orderProblem('BTC', form({ price, quantity: '0.001' }), BTC, held, LAST), price).toBe(
        'Please enter a price above zero!',
      );
  });

  it('refuses an order worth less than the minimum, at the limit price or the latest price', () => {
    // 0.00005 × 97,000 = 4.85 USDT < 5.
    expect(orderProblem('BTC', form({ price: '97000', quantity: '0.00005' }), BTC, held, LAST)).toBe(
      'The order must be worth at least 5 USDT!',
    );
    expect(orderProblem('BTC', form({ type: 'market', side: 'sell', quantity: '0.00005' }), BTC, held, LAST)).toBe(
      'The order must be worth at least 5 USDT!',
    );
    expect(orderProblem('BTC', form({ type: 'market', side: 'buy', total: '4.99' }), BTC, held, LAST)).toBe(
      'The order must be worth at least 5 USDT!',
    );
    expect(orderProblem('BTC', form({ type: 'market', side: 'buy', total: '5' }), BTC, held, LAST)).toBe(
      'The order must be worth at least 5 USDT!',
    ); // 5 USDT buys 0.00005 BTC = 4.86
    expect(orderProblem('BTC', form({ type: 'market', side: 'buy', total: '5.84' }), BTC, held, LAST)).toBeNull();
  });

  it('refuses what is more than available: a limit buy with its fee, a market buy’s total, a sell’s coins', () => {
    // 0.01 × 99,000 = 990 + 0.99 fee = 990.99 ≤ 1,000; 0.0101 × 99,000 = 999.9 + 0.9999 = 1,000.8999 > 1,000.
    expect(orderProblem('BTC', form({ price: '99000', quantity: '0.01' }), BTC, held, LAST)).toBeNull();
    expect(orderProblem('BTC', form({ price: '99000', quantity: '0.0101' }), BTC, held, LAST)).toBe(
      'Insufficient balance!',
    );
    expect(orderProblem('BTC', form({ type: 'market', total: '1000.00000001' }), BTC, held, LAST)).toBe(
      'Insufficient balance!',
    );
    expect(orderProblem('BTC', form({ type: 'market', total: '1000' }), BTC, held, LAST)).toBeNull();
    expect(orderProblem('BTC', form({ side: 'sell', type: 'market', quantity: '0.50001' }), BTC, held, LAST)).toBe(
      'Insufficient balance!',
    );
    expect(orderProblem('BTC', form({ side: 'sell', type: 'market', quantity: '0.5' }), BTC, held, LAST)).toBeNull();
  });

  it('says when there is no price to check against', () => {
    expect(orderProblem('BTC', form({ price: '97000', quantity: '0.001' }), BTC, held, undefined)).toBe(
      'The price is not available right now, please try again later!',
    );
  });
});

describe('orderPreview', () => {
  it('shows a limit buy’s total, its fee in USDT and the quantity that arrives', () => {
    const preview = orderPreview('BTC', form({ price: '97000', quantity: '0.01234' }), BTC, LAST);
    expect(preview).toMatchObject({
      quantity: '0.01234',
      price: '97000',
      total: '1196.98000000',
      fee: '1.19698000',
      fee_asset: 'USDT',
      spent: '1198.17698000',
      received: '0.01234000',
      received_asset: 'BTC',
    });
  });

  it('shows a market buy by total at the latest price, the fee out of what arrives', () => {
    const preview = orderPreview('BTC', form({ type: 'market', total: '100' }), BTC, LAST);
    // 100 / 97,250 = 0.00102827 → 0.00102 on the step.
    expect(preview).toMatchObject({
      quantity: '0.00102',
      total: '99.19500000',
      fee: '0.00000102',
      fee_asset: 'BTC',
      received: '0.00101898',
    });
  });

  it('is null while the fields make no order', () => {
    expect(orderPreview('BTC', form({ price: '97000' }), BTC, LAST)).toBeNull();
    expect(orderPreview('BTC', form({ price: '97000', quantity: '0.001' }), BTC, undefined)).toBeNull();
  });
});

describe('shareOf', () => {
  it('takes a share of the coin for a sell, on the step', () => {
    expect(shareOf(25, form({ side: 'sell' }), BTC, { ...held, available: '0.123456789' })).toBe('0.03086');
    expect(shareOf(100, form({ side: 'sell' }), BTC, held)).toBe('0.50000');
  });

  it('takes a share of USDT as a market buy’s total', () => {
    expect(shareOf(50, form({ type: 'market' }), BTC, { ...held, usdt_available: '1234.567' })).toBe('617.28');
  });

  it('leaves room for the fee on a limit buy, so 100 % never asks for more than there is', () => {
    for (const [price, usdt] of [
      ['97000', '1000'],
      ['33333.33', '777.77777777'],
      ['0.01', '5.00000001'],
    ] as const) {
      const quantity = shareOf(
        100,
        form({ price }),
        { ...BTC, quantity_decimals: 8 },
        { ...held, usdt_available: usdt },
      );
      expect(new Big(limitReserve('buy', 'BTC', price, quantity, BTC.fee_rate).amount).lte(usdt)).toBe(true);
      expect(new Big(quantity).gt(0)).toBe(true);
    }
    expect(shareOf(100, form({ price: '' }), BTC, held)).toBe('');
  });
});

describe('totalAssetsUsdt', () => {
  const quotes = { BTC: { price: '97250.5' }, ETH: { price: '3500' } };
  it('adds USDT, the earn balances and each coin at its latest price; points are not money', () => {
    const lists = [
      { asset: 'USDT', available: '100.5', frozen: '20' },
      { asset: 'BTC', available: '0.01', frozen: '0.00000001' },
      { asset: 'YUEBAO', available: '1000', frozen: '0' },
      { asset: 'REGULAR', available: '500', frozen: '0' },
      { asset: 'POINT', available: '2500', frozen: '0' },
    ];
    // 120.5 + 0.01000001 × 97,250.5 (= 972.505972505) + 1,000 + 500
    expect(totalAssetsUsdt({ lists }, quotes)).toBe('2593.00597250');
  });

  it('is unknown (null) while a coin held has no price, never short', () => {
    expect(totalAssetsUsdt({ lists: [{ asset: 'DOGE', available: '1', frozen: '0' }] }, quotes)).toBeNull();
    expect(totalAssetsUsdt({ lists: [{ asset: 'DOGE', available: '0', frozen: '0' }] }, quotes)).toBe('0.00000000');
  });
});

describe('revokeOrder', () => {
  afterEach(() => {
    contractOrderList.reset();
    resetClientState();
  });

  const limit = (status: ContractOrder['status']): ContractOrder =>
    contractOrderOf({
      id: 41,
      code: 'DOGE',
      type: 'limit',
      status,
      price: '0.38',
      quantity: '20',
      frozen: status === 'open' ? '7.6076' : '0',
      dealt_quantity: status === 'open' ? '0' : '20',
      unit_price: status === 'open' ? null : '0.38',
      total: status === 'open' ? null : '7.6',
    });
  const paged = (lists: ContractOrder[]) => envelope(1, 'ok', { lists, page: 1, total: lists.length });
  const listed = () => contractOrderList.state.lists.open.lists.map(({ id }) => id);

  it('refused because the order filled a moment before: the open list is read again and no longer shows it', async () => {
    session.token = 'token-1';
    // The lists forget themselves when the session changes (a valtio notice, after this task): let that pass first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { calls } = stubFetch(
      paged([limit('open')]),
      envelope(0, 'Cancellation failed, please try again!'),
      paged([]),
    );
    await contractOrderList.load('open');
    expect(contractOrderList.state.lists.open.failure).toBeNull();
    expect(listed()).toEqual([41]);

    await expect(revokeOrder(limit('open'))).rejects.toThrow('Cancellation failed, please try again!');
    await expect.poll(() => calls.length).toBe(3);
    expect(new URL(calls[2]!.request.url).pathname).toBe('/api/coin/trans/lists');
    await expect.poll(listed).toEqual([]);
  });
});

describe('placeOrder', () => {
  afterEach(() => resetClientState());

  it('sends the fee rate shown of the pair; a refusal of it is told, and the pairs are read again', async () => {
    session.token = 'token-1';
    contractsState.pairs = [contractPair({ code: 'DOGE', price_decimals: 5, quantity_decimals: 0 })];
    const REFUSED = 'The fee of this pair is now 9%: check what the order costs and place it again!';
    const now = contractPair({ code: 'DOGE', price_decimals: 5, quantity_decimals: 0, fee_rate: '0.09' });
    const { calls } = stubFetch(() =>
      new URL(calls.at(-1)!.request.url).pathname === '/api/coin/trans/add'
        ? envelope(0, REFUSED)
        : envelope(1, 'ok', { lists: [now], page: 1, total: 1 }),
    );
    await expect(placeOrder('DOGE', form({ price: '0.10000', quantity: '1000' }))).rejects.toThrow(REFUSED);
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.body))).toMatchObject({
      code: 'DOGE',
      price: '0.10000',
      quantity: '1000',
      fee_rate: '0.001',
    });
    await expect.poll(() => contractsState.pairs[0]?.fee_rate).toBe('0.09');
  });
});
