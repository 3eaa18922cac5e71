// @vitest-environment jsdom
// A small balance's conversion to USDT is a market sell the customer asked for as a conversion, never one they placed:
// every record that shows the order says so beside its side and type — the order's details, the trade history and its
// CSV file, the signed receipt, and the operator console's customer page — and a plain market sell says nothing of it.
import { afterEach, expect, it, vi } from 'vitest';
import type { ContractReceipt } from '../../src/api-contract/receipts.ts';
import type { TradeFill } from '../../src/api-contract/trades.ts';
import { OrderDetails } from '../../src/features/contracts/ContractParts.tsx';
import { ReceiptDetails } from '../../src/features/receipts/ReceiptParts.tsx';
import { FillRow } from '../../src/features/trades/TradesPage.tsx';
import { tradesCsv, type TradesFormat } from '../../src/features/trades/trades-csv.ts';
import { CustomerPage } from '../../src/console/CustomersPages.tsx';
import { contractOrderOf, envelope, mountPoint, resetClientState } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
afterEach(() => {
  vi.unstubAllGlobals();
  resetClientState();
});

const AT = '2026-12-05T08:00:01.000Z';
const fill = (dust: boolean): TradeFill => ({
  id: 90,
  filled_at: AT,
  code: 'BTC',
  side: 'sell',
  type: 'market',
  price: '48000',
  quantity: '0.00000898',
  total: '0.43104000',
  fee: '0.00043104',
  fee_asset: 'USDT',
  spent: '0.00000898',
  spent_asset: 'BTC',
  received: '0.43060896',
  received_asset: 'USDT',
  tick_price: '48000',
  tick_at: AT,
  dust_conversion: dust,
});
const text = () => view.container.textContent ?? '';

it("the order's details say it beside the sell", async () => {
  const order = contractOrderOf({ id: 90, side: 'sell', status: 'filled', dust_conversion: true });
  await renderInApp(view, <OrderDetails order={order} onClose={() => undefined} />);
  const row = () => [...document.querySelectorAll('dt')].find((dt) => dt.textContent === 'Order')?.nextElementSibling;
  expect(row()?.textContent).toBe('Sell · MarketSmall balance conversion');
  await renderInApp(view, <OrderDetails order={{ ...order, dust_conversion: false }} onClose={() => undefined} />);
  expect(row()?.textContent).toBe('Sell · Market');
});

it('the trade history and its CSV file say it; a plain market sell does not', async () => {
  await renderInApp(view, <FillRow fill={fill(true)} />);
  expect(view.container.querySelector('.tr-fill-head')?.textContent).toContain('Sell · MarketSmall balance conversion');
  await renderInApp(view, <FillRow fill={fill(false)} />);
  expect(text()).not.toContain('Small balance conversion');

  const format = {
    locale: 'en',
    languageName: 'English (en)',
    timeZone: 'UTC',
    generatedAt: new Date(AT),
    customer: 'demo',
    period: { from: '2026-12-05', to: '2026-12-05' },
    pairFilter: 'All pairs',
    sideFilter: 'Buy and sell',
    sideLabel: (side: string) => (side === 'buy' ? 'Buy' : 'Sell'),
    typeLabel: (type: string) => (type === 'market' ? 'Market' : type),
    conversionLabel: 'Small balance conversion',
    // Each header text as its own key: only the rows are read here.
    texts: new Proxy({} as TradesFormat['texts'], {
      get: (_, key) => (key === 'columns' ? new Proxy({}, { get: (__, column) => String(column) }) : String(key)),
    }),
  } satisfies TradesFormat;
  const rows = tradesCsv([fill(true), { ...fill(false), id: 91 }], format).split('\r\n');
  expect(rows.find((row) => row.endsWith('"90"'))).toContain('"Sell","Market · Small balance conversion"');
  expect(rows.find((row) => row.endsWith('"91"'))).toContain('"Sell","Market",');
});

it("the signed receipt's order type says it", async () => {
  const receipt: ContractReceipt = {
    format: 'coinvest-receipt-1',
    kind: 'contract',
    key_id: '3f9a0c27d1e84b55',
    signed_at: AT,
    order: {
      id: '90',
      account: 'real',
      coin: 'BTC',
      side: 'sell',
      type: 'market',
      quantity: '0.00000898',
      fee_rate: '0.001',
      placed_at: AT,
      dust_conversion: 'true',
    },
    tick: { price: '48000', at: AT, constituents: [] },
    outcome: 'filled',
    unit_price: '48000',
    dealt_quantity: '0.00000898',
    total: '0.43104',
    fee: '0.00043104',
    fee_asset: 'USDT',
    spent: '0.00000898',
    spent_asset: 'BTC',
    payout: '0.43060896',
    payout_asset: 'USDT',
    filled_at: AT,
  };
  const typeRow = () =>
    [...document.querySelectorAll('dt')].find((dt) => dt.textContent === 'Order type')?.nextElementSibling?.textContent;
  await renderInApp(view, <ReceiptDetails signed={{ receipt, signature: '' }} />);
  expect(typeRow()).toBe('Market · Small balance conversion');
  const { dust_conversion: _, ...placed } = receipt.order;
  await renderInApp(view, <ReceiptDetails signed={{ receipt: { ...receipt, order: placed }, signature: '' }} />);
  expect(typeRow()).toBe('Market');
});

it("the console's customer page says it in the contract orders' type", async () => {
  const contract = (id: number, dust: boolean) => ({
    id,
    coin: 'BTC',
    side: 'sell',
    type: 'market',
    status: 'filled',
    quantity: '0.00000898',
    dust_conversion: dust,
    created_at: AT,
  });
  const detail = {
    customer: {
      id: 7,
      username: 'dora',
      nickname: 'Dora',
      phone: null,
      email: null,
      level: 0,
      verification: 'none',
      advanced_verification: 'none',
      created_at: AT,
    },
    protection: {
      limits: {
        stake_day: '',
        stake_week: '',
        stake_month: '',
        loss_day: '',
        loss_week: '',
        loss_month: '',
        max_open_options: '',
        reminder_minutes: '',
        timeout_until: '',
      },
      pending: [],
    },
    balances: [],
    ledger: [],
    recharges: [],
    withdrawals: [],
    options: [],
    contracts: [contract(91, false), contract(90, true)],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope(1, 'Success', detail)),
  );
  await renderInApp(view, <CustomerPage id="7" />);
  // The page shows once the customer's answer arrived.
  const table = () => view.container.querySelector('table[data-testid="contracts"]');
  await vi.waitFor(() => expect(table()).not.toBeNull());
  const types = [...table()!.querySelectorAll('tbody tr')].map((row) => row.children[3]?.textContent);
  expect(types).toEqual(['market', 'market · Small balance conversion']);
});
