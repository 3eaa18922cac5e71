// A contract order's amounts of the pair's coin are written by one formatter, the one its quantity is written with: the
// preview's "You receive 0.1 BTC" beside "Quantity 0.1 BTC", never "0.10 BTC". USDT stays money (2 to 8 decimals).
import { expect, it } from 'vitest';
import { formatOrderAmount } from '../../src/features/contracts/order-amounts.ts';
import { fillAmounts } from '../../src/api-contract/contracts.ts';

it("writes what a limit buy receives exactly as its quantity, in the pair's coin", () => {
  const fill = fillAmounts('buy', 'limit', 'BTC', '97280.39', '0.1', '0.001');
  expect(fill.received_asset).toBe('BTC');
  expect(formatOrderAmount(fill.received, fill.received_asset)).toBe(formatOrderAmount('0.1', 'BTC'));
  expect(formatOrderAmount(fill.received, fill.received_asset)).toBe('0.1');
  expect(formatOrderAmount('1500.00000000', 'DOGE')).toBe('1,500');
});

it('keeps every digit of a fee taken in the coin, and writes USDT as money', () => {
  const fill = fillAmounts('buy', 'market', 'BTC', '97280.39', '0.12345', '0.001');
  expect(formatOrderAmount(fill.fee, fill.fee_asset)).toBe('0.00012345');
  expect(formatOrderAmount(fill.received, fill.received_asset)).toBe('0.12332655');
  expect(formatOrderAmount('9.50000000', 'USDT')).toBe('9.50');
  expect(formatOrderAmount('9.728039', 'USDT')).toBe('9.728039');
});
