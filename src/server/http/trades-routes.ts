// Trade history (api-contract/trades.ts): the caller's own contract fills and the profit and loss they realised.
import { tradeFills, tradeResults } from '../../api-contract/trades.ts';
import { tradeFillsOf, tradeResultsOf } from '../domain/trades.ts';
import type { RouteModule } from './route-module.ts';

export const tradesRoutes: RouteModule = ({ route }) => {
  route(tradeFills, ({ code, side, from, to, tz, cursor }, { db, caller }) =>
    tradeFillsOf(db, caller.userId, { code, side, from, to, timeZone: tz, cursor }),
  );
  route(tradeResults, ({ code, from, to, tz }, { db, caller }) =>
    tradeResultsOf(db, caller.userId, { code, from, to, timeZone: tz }),
  );
};
