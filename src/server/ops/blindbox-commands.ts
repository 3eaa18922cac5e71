// Operator commands of the blind box: the prize table (published odds), restocking and the cost.
// Fair by construction: no command touches a draw, a seed or a result; a new table applies to
// the draws after it, and the old prizes stay (deactivated) for the draws that reference them.
import Big from 'big.js';
import { PAY_WITH, WEIGHT_TOTAL, expectedValue, oddsPercent } from '../../api-contract/blindbox.ts';
import { activePrizes, publishPrizeTableAs, restockPrizeAs, setBoxCostsAs } from '../domain/blindbox.ts';
import { COMMAND_LINE } from '../domain/audit-log.ts';
import { DEFAULT_REWARD_CAPS } from '../domain/reward-caps.ts';
import { UsageError, idOf, keyValues, plain, table, type Command } from './command-kit.ts';

export const BLINDBOX_USAGE = `  prizes                                        the blind box prize table: odds, stock, expected value
  prizes set "<name>:<asset>:<amount>:<weight>[:<stock>];…"
                                                replace the table (weights in parts per million summing
                                                to 1000000; no stock = unlimited; amount 0 = thanks for playing)
  prize <id> stock=<n|unlimited>                restock a prize
  blindbox-cost [points=100] [usdt=1]           the cost of one draw (0 = that way of paying is off)`;

// Each change goes through the audited domain function the console calls too (one rule, two entry points).
export const blindBoxCommands: Record<string, Command> = {
  async prizes({ db, now, rewardCaps = DEFAULT_REWARD_CAPS }, [action, spec, ...extra]) {
    if (action === 'set') {
      if (spec === undefined || extra.length)
        throw new UsageError('Quote the whole table: prizes set "<name>:<asset>:<amount>:<weight>[:<stock>];…"');
      const prizes = await db.transaction((tx) => publishPrizeTableAs(tx, COMMAND_LINE, spec, now, rewardCaps));
      // A seed already committed keeps its table: the operator knows server seeds, so a new table must never meet a
      // known next roll.
      return `Published a table of ${prizes.length} prizes (100 %); it applies to seeds committed from now on (each customer's current seed keeps its table until they rotate it).\n\n${await prizeTable(db)}`;
    }
    if (action !== undefined) throw new UsageError('Use: prizes, or prizes set "<table>".');
    return prizeTable(db);
  },
  async prize({ db, now, rewardCaps = DEFAULT_REWARD_CAPS }, [id, ...changes]) {
    const prizeId = idOf(id);
    const { stock } = keyValues(changes, ['stock'] as const);
    if (stock === undefined) throw new UsageError('Use: prize <id> stock=<n|unlimited>.');
    const prize = await db.transaction((tx) => restockPrizeAs(tx, COMMAND_LINE, prizeId, stock, now, rewardCaps));
    return `Prize ${prizeId} (${prize.name}) now has ${prize.stock === null ? 'unlimited stock' : `a stock of ${prize.stock}`}.`;
  },
  async 'blindbox-cost'({ db, now }, changes) {
    if (!changes.length) throw new UsageError('Use: blindbox-cost points=100 usdt=1.');
    const costs = await db.transaction((tx) => setBoxCostsAs(tx, COMMAND_LINE, changes, now));
    return table(
      PAY_WITH.map((pay) => ({ pay, cost: costs[pay] === '0' ? 'off' : costs[pay] })),
      'No cost is set.',
    );
  },
};

async function prizeTable(db: Parameters<Command>[0]['db']): Promise<string> {
  const rows = await activePrizes(db);
  const listed = table(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      prize: `${plain(row.amount)} ${row.asset}`,
      weight: row.weight,
      odds: oddsPercent(row.weight),
      stock: row.stock ?? 'unlimited',
    })),
    'No active prizes: the blind box is closed.',
  );
  const total = rows.reduce((sum, row) => sum + row.weight, 0);
  const assets = [...new Set(rows.filter((row) => new Big(row.amount).gt(0)).map((row) => row.asset))];
  const expected = assets.map((asset) => `${expectedValue(rows, asset)} ${asset}`).join(' + ') || '0';
  return `${listed}\n\nOdds sum to ${oddsPercent(total)}${total === WEIGHT_TOTAL ? '' : ' — the box refuses draws until a table sums to 100 %'}. Expected value per draw: ${expected}.`;
}
