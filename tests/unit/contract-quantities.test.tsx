// @vitest-environment jsdom
// A contract order's quantity as a customer reads it on each screen that shows it: the order list, the order's
// details and its signed receipt all say 0.0012 BTC for '0.00120000' (never "0.00120" in one place and "0.0012" in
// another), whether or not the pair's rules are known yet; a quantity placed before the pair's step changed keeps
// every digit it has.
import { i18n } from '@lingui/core';
import { afterEach, expect, it } from 'vitest';
import type { ContractOrder } from '../../src/api-contract/contracts.ts';
import { RECEIPT_FORMAT, type ContractReceipt } from '../../src/api-contract/receipts.ts';
import { OrderDetails, OrderRow } from '../../src/features/contracts/ContractParts.tsx';
import { contractsState } from '../../src/features/contracts/contracts-store.ts';
import { ReceiptDetails } from '../../src/features/receipts/ReceiptParts.tsx';
import { formatQuantity } from '../../src/lib/format.ts';
import { contractOrderOf, mountPoint, contractPair } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const BTC = contractPair();

const order = (fields: Partial<ContractOrder> = {}): ContractOrder =>
  contractOrderOf({
    id: 7,
    type: 'limit',
    status: 'filled',
    price: '97000.00000000',
    quantity: '0.00120000',
    frozen: '0.00000000',
    dealt_quantity: '0.00120000',
    unit_price: '97000.00000000',
    total: '116.40000000',
    fee: '0.11640000',
    fee_asset: 'USDT',
    spent: '116.51640000',
    spent_asset: 'USDT',
    received: '0.00120000',
    received_asset: 'BTC',
    tick_price: '96990.1234',
    tick_at: '2026-11-27T21:00:01.000Z',
    created_at: '2026-11-27T21:00:00.000Z',
    filled_at: '2026-11-27T21:00:01.000Z',
    simulated: false,
    exchanges: 3,
    ...fields,
  });

const receipt: ContractReceipt = {
  format: RECEIPT_FORMAT,
  kind: 'contract',
  key_id: 'k1',
  signed_at: '2026-11-27T21:00:02.000Z',
  order: {
    id: '7',
    account: 'real',
    coin: 'BTC',
    side: 'buy',
    type: 'limit',
    price: '97000',
    quantity: '0.0012',
    fee_rate: '0.001',
    placed_at: '2026-11-27T21:00:00.000Z',
  },
  tick: { price: '96990.1234', at: '2026-11-27T21:00:01.000Z', constituents: [] },
  outcome: 'filled',
  unit_price: '97000',
  dealt_quantity: '0.0012',
  total: '116.4',
  fee: '0.1164',
  fee_asset: 'USDT',
  spent: '116.5164',
  spent_asset: 'USDT',
  payout: '0.0012',
  payout_asset: 'BTC',
  filled_at: '2026-11-27T21:00:01.000Z',
};

afterEach(() => {
  contractsState.pairs = [];
});

/** The text of each figure of the order's card in the list, by its label. */
async function listed(fields: Partial<ContractOrder> = {}) {
  i18n.activate('en');
  await renderInApp(
    view,
    <ul>
      <OrderRow order={order(fields)} />
    </ul>,
  );
  return Object.fromEntries(
    [...view.container.querySelectorAll('.ct-order-grid > span')].map((cell) => [
      cell.querySelector('.muted')?.textContent,
      cell.querySelector('.opt-num')?.textContent,
    ]),
  );
}

/** The row labelled `label` of the signed receipt, or of the order's details dialog when `details` is true. */
async function receiptRow(label: string, details = false) {
  await renderInApp(
    view,
    details ? (
      <OrderDetails order={order()} onClose={() => {}} />
    ) : (
      <ReceiptDetails signed={{ receipt, signature: '' }} />
    ),
  );
  const row = [...view.container.querySelectorAll('.detail-rows > div')].find(
    (div) => div.querySelector('dt')?.textContent === label,
  );
  return row?.querySelector('dd')?.textContent;
}

it('reads a quantity with every digit it has and none it lacks', () => {
  i18n.activate('en');
  expect(formatQuantity('0.00120000')).toBe('0.0012');
  expect(formatQuantity('1500.00000000')).toBe('1,500');
  expect(formatQuantity('0.00000001')).toBe('0.00000001');
});

it('the order list says what the receipt says, with the pair known or not', async () => {
  expect(await receiptRow('Quantity')).toBe('0.0012 BTC');
  expect(await receiptRow('Quantity', true)).toBe('0.0012 BTC');
  expect(await receiptRow('Dealt', true)).toBe('0.0012 BTC');
  expect(await listed()).toMatchObject({ Quantity: '0.0012', Dealt: '0.0012' });
  contractsState.pairs = [BTC];
  expect(await listed()).toMatchObject({ Quantity: '0.0012', Dealt: '0.0012' });
});

it('keeps every digit of a quantity placed before the pair’s step grew', async () => {
  contractsState.pairs = [{ ...BTC, quantity_decimals: 3 }];
  expect(await listed({ quantity: '0.00125000', dealt_quantity: '0.00125000' })).toMatchObject({
    Quantity: '0.00125',
    Dealt: '0.00125',
  });
});

it('an order not dealt yet reads 0 dealt', async () => {
  expect(await listed({ status: 'open', dealt_quantity: '0.00000000', unit_price: null })).toMatchObject({
    Quantity: '0.0012',
    Dealt: '0',
  });
});
