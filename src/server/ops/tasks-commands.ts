// Operator commands of the daily check-in ladder and the welfare tasks. Changes apply to future
// check-ins and claims only: what was paid stays in the ledger as it was. Each change goes through
// the audited domain function the console calls too (one rule, two entry points).
import { ladderOf, setCheckInLadderAs } from '../domain/check-in.ts';
import { allWelfareTasks, changeWelfareTaskAs } from '../domain/welfare.ts';
import { DEFAULT_REWARD_CAPS } from '../domain/reward-caps.ts';
import { COMMAND_LINE } from '../domain/audit-log.ts';
import { UsageError, plain, table, type Command } from './command-kit.ts';

export const TASKS_USAGE = `  check-in-ladder [5,5,10,10,15,20,30]         show the daily check-in ladder, or set it: points for day 1, 2, …
                                                (the last step pays every later day of a run)
  welfare                                       list the welfare tasks
  welfare <code> [reward=50] [asset=POINT|USDT] [active=true|false]
                                                edit one task (future claims only)`;

export const TASKS_COMMANDS: Record<string, Command> = {
  async 'check-in-ladder'({ db, now, rewardCaps = DEFAULT_REWARD_CAPS }, [spec, ...extra]) {
    if (extra.length) throw new UsageError('Give the ladder as one list: check-in-ladder 5,5,10,10,15,20,30.');
    if (spec === undefined)
      return `Daily check-in ladder (points per consecutive day): ${(await ladderOf(db)).join(',')}`;
    const ladder = await db.transaction((tx) => setCheckInLadderAs(tx, COMMAND_LINE, spec, now, rewardCaps));
    return `Daily check-in ladder set: ${ladder.join(',')} (from the next check-in on).`;
  },

  async welfare({ db, now, rewardCaps = DEFAULT_REWARD_CAPS }, [code, ...changes]) {
    if (code === undefined) {
      const rows = await allWelfareTasks(db);
      return table(
        rows.map((row) => ({ code: row.code, reward: plain(row.reward), asset: row.asset, active: row.active })),
        'No welfare tasks.',
      );
    }
    if (!changes.length) throw new UsageError('Say what to change: welfare <code> reward=50 asset=POINT active=true.');
    const row = await db.transaction((tx) => changeWelfareTaskAs(tx, COMMAND_LINE, code, changes, now, rewardCaps));
    return `Welfare task ${row.code}: ${plain(row.reward)} ${row.asset}, ${row.active ? 'active' : 'inactive'} (future claims only).`;
  },
};
