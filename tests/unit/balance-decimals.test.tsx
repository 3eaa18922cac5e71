// @vitest-environment jsdom
// A balance as a customer reads it on every page: USDT to the cent, rounded down (never more than is there), a coin as
// exact as it is, and a nonzero balance never as 0.00. The same USDT balance reads the same in the total assets (Home,
// Mine) as on the pages built on <Money> (recharge, withdrawal, liquidity), where it used to read 2 decimals on one
// and 8 on the other, and 0.004 USDT read 0.00.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { balanceDecimalsOf, formatBalance, userBalances } from '../../src/lib/balances.ts';
import { prices } from '../../src/lib/prices.ts';
import { Figure } from '../../src/features/liquidity/LiquidityParts.tsx';
import { TotalAssets } from '../../src/ui/TotalAssets.tsx';
import { mountPoint } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

beforeEach(() => {
  i18n.activate('en');
  prices.codes = ['BTC'];
});
afterEach(async () => {
  await act(async () => view.root.render(null));
  userBalances.lists = [];
  userBalances.updatedAt = null;
});

it.each([
  ['1234.56789012', 'USDT', '1,234.56'],
  ['10000', 'USDT', '10,000.00'],
  ['0.004', 'USDT', '0.004'],
  ['0.0049', 'USDT', '0.004'],
  ['0.00000001', 'USDT', '0.00000001'],
  ['0', 'USDT', '0.00'],
  ['0.5', 'YUEBAO', '0.50'],
  ['0.0012', 'BTC', '0.0012'],
  ['2', 'BTC', '2.00'],
])('a balance of %s %s reads %s', (amount, asset, shown) => {
  expect(formatBalance(amount, asset)).toBe(shown);
});

/** What the total assets and a <Money>-built page (the liquidity figure of a balance) show for `usdt`. */
async function shownFor(usdt: string) {
  userBalances.lists = [{ asset: 'USDT', available: usdt, frozen: '0' }];
  userBalances.updatedAt = new Date().toISOString();
  await renderInApp(
    view,
    <>
      <TotalAssets />
      <Figure value={usdt} balance />
    </>,
  );
  return [
    view.container.querySelector('.total-assets-amount')?.textContent,
    view.container.querySelector('.money-amount')?.textContent,
  ];
}

it('the same USDT balance reads alike in the total assets and on the money pages', async () => {
  expect(await shownFor('1234.56789012')).toEqual(['1,234.56', '1,234.56 USDT']);
});

it('a nonzero balance never reads 0.00', async () => {
  expect(await shownFor('0.004')).toEqual(['0.004', '0.004 USDT']);
  expect(balanceDecimalsOf('0.004', 'USDT')).toBe(3);
});
