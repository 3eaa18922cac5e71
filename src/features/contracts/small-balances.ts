// Small balances ("dust") and their conversion to USDT (api-contract/contracts.ts convertSmallBalances): what a 100 %
// sell leaves below the pair's step, or a holding worth less than its minimum order, which no order can sell. The list
// the customer confirms uses the server's own rule (dustOf) and the fill's own amounts (dustProceeds) at the latest
// recorded price; the conversion itself fills at the first price recorded after it was accepted, so the USDT shown
// before is an estimate.
import { assetAmountsText } from '../../api-contract/asset-amounts.ts';
import Big from 'big.js';
import {
  convertSmallBalances,
  dustOf,
  dustProceeds,
  QUOTE_ASSET,
  type ContractOrder,
  type ContractPair,
} from '../../api-contract/contracts.ts';
import type { Balance, CoinQuote } from '../../api-contract/markets.ts';
import { api } from '../../lib/api.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { awaitMarketFill } from './contracts-store.ts';

/** One small balance: its coin, the available amount (decimal text), the latest recorded price and the USDT that
 * amount would bring at it, after the pair's fee (an estimate, 8 decimals). */
export interface SmallBalance {
  code: string;
  amount: string;
  price: string;
  usdt: string;
}

/**
 * The available amounts of `held` that no order can sell (dustOf at each coin's latest recorded price in `quotes`), of
 * the pairs open to orders, in the pairs' order. USDT, frozen amounts and a coin with no price yet, or halted, are
 * never listed.
 */
export function smallBalancesOf(
  held: readonly Balance[],
  pairs: readonly ContractPair[],
  quotes: Readonly<Record<string, CoinQuote>>,
): SmallBalance[] {
  return pairs.flatMap((pair) => {
    const balance = held.find((item) => item.asset === pair.code);
    const quote = quotes[pair.code];
    // A halted coin is not converted (the server skips it too): it waits for its prices to come back.
    if (pair.code === QUOTE_ASSET || !balance || !quote || quote.halted) return [];
    if (!dustOf(balance.available, pair, quote.price)) return [];
    return [
      {
        code: pair.code,
        amount: balance.available,
        price: quote.price,
        usdt: dustProceeds(pair.code, balance.available, quote.price, pair.fee_rate),
      },
    ];
  });
}

/** The sum of some USDT amounts (decimal text, 8 decimals). */
export const usdtSum = (amounts: readonly string[]): string =>
  amounts.reduce((sum, amount) => sum.plus(amount), new Big(0)).toFixed(8);

/**
 * Asks the server to convert the small balances of `list`, as the customer confirmed them (the server refuses with
 * smallBalancesChanged when what is dust there differs: nothing is converted unseen), then waits for each conversion
 * to fill at its next recorded price (awaitMarketFill: or to be void, its amount returned). Answers each conversion
 * as it finished, or as accepted (still 'filling') when its fill was not seen in time; the balances read again. A
 * refusal (nothing to convert, offline, a frozen account…) throws as every call does.
 */
export async function convertSmallBalancesNow(list: readonly SmallBalance[]): Promise<ContractOrder[]> {
  const { lists } = await api(convertSmallBalances, {
    amounts: assetAmountsText(list.map(({ code, amount }) => ({ asset: code, amount }))),
  });
  const finished = await Promise.all(lists.map(async (order) => (await awaitMarketFill(order)) ?? order));
  // awaitMarketFill reads the balances again once an order finished; one still filling holds its amount since.
  if (finished.some((order) => order.status === 'filling')) await refreshBalances().catch(() => undefined);
  return finished;
}
