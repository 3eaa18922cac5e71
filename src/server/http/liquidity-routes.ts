// Liquidity mining calls (/yuebao/*, the balance apart: earn-routes.ts). Thin: the rules live in
// domain/liquidity.ts.
import Big from 'big.js';
import { LIQUIDITY_ASSET } from '../../api-contract/earn.ts';
import {
  liquidityProduct,
  liquidityRecords,
  liquidityRule,
  transferIn,
  transferInInfo,
  transferOut,
  transferOutInfo,
} from '../../api-contract/liquidity.ts';
import { QUICK_REDEMPTION_DAILY_MAX_USDT } from '../../api-contract/constants.ts';
import { interestDay } from '../../api-contract/earn-days.ts';
import { USDT, balanceOf } from '../domain/ledger.ts';
import {
  LIQUIDITY_MIN_AMOUNT,
  liquidityProductOf,
  liquidityRecordsOf,
  quickRemaining,
  redeemLiquidity,
  subscribeLiquidity,
  toLiquidityRecord,
} from '../domain/liquidity.ts';
import type { Executor } from '../db/connection.ts';
import type { RouteModule } from './route-module.ts';

export const liquidityRoutes: RouteModule = ({ route, services: { earnTimeZone: timeZone } }) => {
  route(liquidityProduct, (_input, { db, clock }) => liquidityProductOf(db, clock.now(), timeZone));
  route(liquidityRule, (_input, { db, clock }) => liquidityProductOf(db, clock.now(), timeZone));

  route(transferInInfo, async (_input, { db, caller }) => ({
    usdt_available: await availableOf(db, caller.userId, USDT),
    min_amount: LIQUIDITY_MIN_AMOUNT,
  }));
  route(transferIn, async (input, { db, caller, clock }) =>
    toLiquidityRecord(
      await db.transaction((tx) => subscribeLiquidity(tx, caller.userId, input.amount, clock, timeZone)),
    ),
  );

  route(transferOutInfo, async (_input, { db, caller, clock }) => ({
    redeemable: await availableOf(db, caller.userId, LIQUIDITY_ASSET),
    quick_remaining: await quickRemaining(db, caller.userId, interestDay(clock.now(), timeZone)),
    quick_daily_max: QUICK_REDEMPTION_DAILY_MAX_USDT,
  }));
  route(transferOut, async (input, { db, caller, clock }) =>
    toLiquidityRecord(
      await db.transaction((tx) => redeemLiquidity(tx, caller.userId, input.amount, input.mode, clock, timeZone)),
    ),
  );

  route(liquidityRecords, (input, { db, caller }) => liquidityRecordsOf(db, caller.userId, input.kind, input.cursor));
};

/** What the user holds of `asset` and may move now, as the liquidity screens show it. */
const availableOf = async (db: Executor, userId: number, asset: string) =>
  new Big((await balanceOf(db, userId, asset)).available).toFixed(8);
