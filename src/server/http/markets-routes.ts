// Markets calls: the coin list, candles, one coin's price, fiat rates and the caller's balances
// (the live price stream is in price-stream.ts; option orders in options-routes.ts).
import Big from 'big.js';
import {
  balances,
  coinList,
  coinRate,
  currencyRate,
  klines,
  klinesPost,
  type Period,
} from '../../api-contract/markets.ts';
import { texts } from '../../api-contract/texts.ts';
import { fiatRateOf } from '../domain/fiat.ts';
import { balancesOf } from '../domain/ledger.ts';
import { refuseUnlistedCoin } from '../domain/markets.ts';
import type { Executor } from '../db/connection.ts';
import type { Market } from '../market/market.ts';
import { Refusal } from '../domain/refusal.ts';
import type { RouteModule } from './route-module.ts';
import type { CachedAnswers } from './cached-answers.ts';

/** The coin list's answer, cached between changes: the call's, and the coins in a document's first screens. */
export const coinListAnswer = (market: Market, cache: CachedAnswers) =>
  cache.coinList.read('', async () => {
    const lists = await market.coinList();
    return { lists, page: 1, total: lists.length };
  });

export const marketsRoutes: RouteModule = ({ route, services: { market } }) => {
  route(coinList, (_input, { cache }) => coinListAnswer(market, cache));

  const candlesOf = async (
    input: { code: string; period: Period; limit: number },
    db: Executor,
    cache: CachedAnswers,
  ) => {
    await refuseUnlistedCoin(db, input.code, cache.listedCoins);
    const lists = await market.klines(input.code, input.period, input.limit, db);
    return { lists, page: 1, total: lists.length, code: input.code, period: input.period, ...market.source };
  };
  route(klines, (input, { db, cache }) => candlesOf(input, db, cache));
  route(klinesPost, (input, { db, cache }) => candlesOf(input, db, cache));

  route(coinRate, async (input, { db, cache }) => {
    await refuseUnlistedCoin(db, input.code, cache.listedCoins);
    const quote = await market.quote(input.code, db);
    if (!quote) throw new Refusal(texts.priceUnavailable.id);
    return {
      code: input.code,
      price: new Big(quote.price).toFixed(),
      at: quote.at.toISOString(),
      ...market.source,
      halted: market.halted().has(input.code),
    };
  });

  route(currencyRate, async (input, { db, cache }) => {
    // Only a known currency's rate is cached, not a miss for every code a caller invents.
    const rate = await cache.currencyRates.read(
      input.code,
      () => fiatRateOf(db, input.code),
      (found) => (found ? undefined : null),
    );
    if (!rate) throw new Refusal(texts.chooseCurrency.id);
    return rate;
  });

  route(balances, (_input, { db, caller, cache }) =>
    cache.balances.read(
      String(caller.userId),
      async () => {
        const lists = await balancesOf(db, caller.userId);
        return { lists, page: 1, total: lists.length };
      },
      () => caller.userId,
    ),
  );
};
