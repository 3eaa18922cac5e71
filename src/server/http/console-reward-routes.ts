// The console's rewards calls (api-contract/console-rewards.ts): the content role reads the check-in
// ladder, the welfare tasks and the blind box, and changes them through the same audited functions
// as `npm run ops -- check-in-ladder|welfare|prizes set|prize|blindbox-cost` (domain/check-in.ts,
// welfare.ts, blindbox.ts), each change with its audit entry in one transaction.
import { PAY_WITH } from '../../api-contract/blindbox.ts';
import {
  WELFARE_TASK_TERMS,
  consoleBlindBox,
  consoleChangeWelfareTask,
  consolePublishPrizeTable,
  consoleRestockPrize,
  consoleSetDrawCost,
  consoleSetCheckInLadder,
  consoleCheckInLadder,
  consoleWelfareTasks,
  consoleReferralReward,
  consoleSetReferralReward,
} from '../../api-contract/console-rewards.ts';
import { blindBoxTerms, publishPrizeTableAs, restockPrizeAs, setBoxCostsAs } from '../domain/blindbox.ts';
import { ladderOf, setCheckInLadderAs } from '../domain/check-in.ts';
import { changeWelfareTaskAs, welfareTaskList, welfareTaskTerms } from '../domain/welfare.ts';
import { referralRule, setReferralRewardAs } from '../domain/referrals.ts';
import { actorOf } from '../domain/operators.ts';
import type { RouteModule } from './route-module.ts';

/** The terms sent, as the `term=value` changes the operator command takes (an emptied field is sent, and refused
 * there). */
const changesOf = <T extends string>(terms: readonly T[], input: Partial<Record<T, string>>) =>
  terms.filter((term) => input[term] !== undefined).map((term) => `${term}=${input[term]}`);

export const consoleRewardRoutes: RouteModule = ({ route }) => {
  route(consoleCheckInLadder, async (_input, { db }) => ({ ladder: await ladderOf(db) }));
  route(consoleSetCheckInLadder, async (input, { db, operator, ip, clock, operatorConsole }) => ({
    ladder: await db.transaction((tx) =>
      setCheckInLadderAs(tx, actorOf(operator, ip), input.ladder, clock.now(), operatorConsole.rewardCaps),
    ),
  }));

  route(consoleWelfareTasks, (_input, { db }) => welfareTaskList(db));
  route(consoleChangeWelfareTask, async (input, { db, operator, ip, clock, operatorConsole }) => {
    const changes = changesOf(WELFARE_TASK_TERMS, input);
    const { rewardCaps } = operatorConsole;
    return welfareTaskTerms(
      await db.transaction((tx) =>
        changeWelfareTaskAs(tx, actorOf(operator, ip), input.code, changes, clock.now(), rewardCaps),
      ),
    );
  });

  route(consoleReferralReward, (_input, { db }) => referralRule(db));
  route(consoleSetReferralReward, (input, { db, operator, ip, clock, operatorConsole }) =>
    db.transaction((tx) =>
      setReferralRewardAs(
        tx,
        actorOf(operator, ip),
        [`amount=${input.amount}`],
        clock.now(),
        operatorConsole.rewardCaps,
      ),
    ),
  );

  route(consoleBlindBox, (_input, { db }) => blindBoxTerms(db));
  route(consolePublishPrizeTable, async (input, { db, operator, ip, clock, operatorConsole }) => {
    const { rewardCaps } = operatorConsole;
    await db.transaction((tx) => publishPrizeTableAs(tx, actorOf(operator, ip), input.table, clock.now(), rewardCaps));
    return blindBoxTerms(db);
  });
  route(consoleRestockPrize, async (input, { db, operator, ip, clock, operatorConsole }) => {
    const { rewardCaps } = operatorConsole;
    await db.transaction((tx) =>
      restockPrizeAs(tx, actorOf(operator, ip), Number(input.id), input.stock, clock.now(), rewardCaps),
    );
    return blindBoxTerms(db);
  });
  route(consoleSetDrawCost, async (input, { db, operator, ip, clock }) => {
    await db.transaction((tx) => setBoxCostsAs(tx, actorOf(operator, ip), changesOf(PAY_WITH, input), clock.now()));
    return blindBoxTerms(db);
  });
};
