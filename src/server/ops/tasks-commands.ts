// Operator commands of the daily sign-in ladder and the welfare tasks. Changes apply to future
// sign-ins and claims only: what was paid stays in the ledger as it was.
import Big from 'big.js';
import { POINTS } from '../../contract/rewards.ts';
import { WELFARE_CODES } from '../../contract/welfare.ts';
import { ladderOf, setSignInLadder } from '../domain/signin.ts';
import { allWelfareTasks, changeWelfareTask, type WelfareTaskChanges } from '../domain/welfare.ts';
import { USDT } from '../domain/ledger.ts';
import { UsageError, keyValues, oneOf, plain, table, type Command } from './command-kit.ts';

export const TASKS_USAGE = `  signin-ladder [5,5,10,10,15,20,30]           show the daily sign-in ladder, or set it: points for day 1, 2, …
                                                (the last step pays every later day of a run)
  welfare                                       list the welfare tasks
  welfare <code> [reward=50] [asset=POINT|USDT] [active=true|false]
                                                edit one task (future claims only)`;

export const TASKS_COMMANDS: Record<string, Command> = {
  async 'signin-ladder'({ db }, [spec, ...extra]) {
    if (extra.length) throw new UsageError('Give the ladder as one list: signin-ladder 5,5,10,10,15,20,30.');
    if (spec === undefined) return `Daily sign-in ladder (points per consecutive day): ${(await ladderOf(db)).join(',')}`;
    const ladder = await setSignInLadder(db, spec);
    return `Daily sign-in ladder set: ${ladder.join(',')} (from the next sign-in on).`;
  },

  async welfare({ db }, [code, ...changes]) {
    if (code === undefined) {
      const rows = await allWelfareTasks(db);
      return table(
        rows.map((row) => ({ code: row.code, reward: plain(row.reward), asset: row.asset, active: row.active })),
        'No welfare tasks.',
      );
    }
    const task = WELFARE_CODES.find((known) => known === code);
    if (!task) throw new UsageError(`No welfare task ${code}: use one of ${WELFARE_CODES.join(', ')}.`);
    const edit = keyValues(changes, ['reward', 'asset', 'active'] as const);
    if (!changes.length) throw new UsageError('Say what to change: welfare <code> reward=50 asset=POINT active=true.');
    const set: WelfareTaskChanges = {};
    if (edit.reward !== undefined) {
      if (!/^\d{1,12}(\.\d{1,8})?$/.test(edit.reward) || new Big(edit.reward).lte(0)) throw new UsageError('reward= is a positive amount with at most 8 decimals.');
      set.reward = new Big(edit.reward).toFixed(8);
    }
    if (edit.asset !== undefined) set.asset = oneOf(edit.asset, [POINTS, USDT]);
    if (edit.active !== undefined) set.active = oneOf(edit.active, ['true', 'false']) === 'true';
    const row = await changeWelfareTask(db, task, set);
    return `Welfare task ${row.code}: ${plain(row.reward)} ${row.asset}, ${row.active ? 'active' : 'inactive'} (future claims only).`;
  },
};
